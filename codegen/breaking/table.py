"""``maverick-codegen breaking``: what changed incompatibly between two schema folders.

The rules are rows of :data:`BREAKING_RULES`: a stable id, the categories it breaks and a
purpose, with a small check of one pair (contracts paired by :mod:`codegen.breaking.pairs`,
nodes by :mod:`codegen.breaking.walk`). Categories:

* ``CODEGEN``: generated code that used the contract breaks (a contract, ``$id``, title,
  file, generated class or property removed or renamed);
* ``DATA_BACKWARD``: the new models can no longer read old data (old checkpoints);
* ``DATA_FORWARD``: old readers can no longer read data the new models write.

The repository default (``[tool.maverick-codegen.breaking] use``) is what the seeds demand:
additive changes only, old checkpoints keep loading: ``CODEGEN``, ``DATA_BACKWARD`` and
``PROPERTY_DELETED``. A selection may name categories and rule ids, as buf's ``use`` does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from codegen.breaking.contract_checks import CONTRACT_CHECKS
from codegen.breaking.data import data_findings
from codegen.breaking.node_checks import NODE_CHECKS, Hit
from codegen.breaking.pairs import ContractPair, Node, Side, pair_contracts, root_pair
from codegen.breaking.walk import walk
from codegen.core.errors import CodegenError
from codegen.core.inputs import closure_digests
from codegen.core.loader import SchemaFile
from codegen.core.report import Finding

__all__ = [
    "BREAKING_RULES",
    "CATEGORIES",
    "DEFAULT_USE",
    "BreakingRule",
    "Side",
    "compare",
    "directions_for",
    "parse_selection",
    "select",
]

CATEGORIES = ("CODEGEN", "DATA_BACKWARD", "DATA_FORWARD")
DEFAULT_USE = ("CODEGEN", "DATA_BACKWARD", "PROPERTY_DELETED")
_B, _F, _C = "DATA_BACKWARD", "DATA_FORWARD", "CODEGEN"


@dataclass(frozen=True)
class BreakingRule:
    """One breaking-change rule: its stable id, the categories it breaks, its purpose."""

    id: str
    categories: tuple[str, ...]
    purpose: str


BREAKING_RULES: tuple[BreakingRule, ...] = (
    BreakingRule("CONTRACT_DELETED", (_C, _B), "a contract (schema file) was deleted"),
    BreakingRule("CONTRACT_ID_CHANGED", (_C,), "a contract's $id was changed"),
    BreakingRule("CONTRACT_TITLE_CHANGED", (_C,), "a contract's title (its class name) changed"),
    BreakingRule(
        "CONTRACT_FILE_MOVED", (_C,), "a contract's file (its module) was moved or renamed"
    ),
    BreakingRule("CLASS_DELETED", (_C,), "a $defs entry's generated class was deleted or renamed"),
    BreakingRule(
        "BASE_CHANGED", (_C,), "the allOf bases a contract extends (its class bases) changed"
    ),
    BreakingRule(
        "PROPERTY_DELETED",
        (_C, _B),
        "a property was deleted (DATA_BACKWARD too under a closed content model): deprecate it",
    ),
    BreakingRule(
        "PROPERTY_ADDED_REQUIRED", (_B,), "a property was added as required: old data lacks it"
    ),
    BreakingRule("PROPERTY_MADE_REQUIRED", (_B,), "an optional property was made required"),
    BreakingRule("TYPE_NARROWED", (_B,), "a value refuses a JSON type it accepted"),
    BreakingRule(
        "ENUM_VALUE_REMOVED", (_B,), "an enum value was removed, or a value set introduced"
    ),
    BreakingRule("CONST_CHANGED", (_B, _F), "a const was changed, added or removed"),
    BreakingRule(
        "CONSTRAINT_TIGHTENED",
        (_B,),
        "any other keyword refuses a value it accepted (a bound, length, count, multipleOf, "
        "pattern, uniqueItems, contains, propertyNames, items, not, oneOf...)",
    ),
    BreakingRule("ADDITIONAL_PROPERTIES_CLOSED", (_B,), "an open content model was closed"),
    BreakingRule("RULE_ADDED", (_B,), "a cross-field rule was added"),
    BreakingRule("RULE_CHANGED", (_B, _F), "a cross-field rule was changed"),
    BreakingRule("ENUM_VALUE_ADDED", (_F,), "an enum value was added, or a value set lifted"),
    BreakingRule("TYPE_WIDENED", (_F,), "a value accepts a JSON type it refused"),
    BreakingRule("CONSTRAINT_LOOSENED", (_F,), "any other keyword accepts a value it refused"),
    BreakingRule("PROPERTY_MADE_OPTIONAL", (_F,), "a required property was made optional"),
    BreakingRule(
        "PROPERTY_ADDED_CLOSED",
        (_F,),
        "a property was added to a closed content model: old readers reject it",
    ),
    BreakingRule("ADDITIONAL_PROPERTIES_OPENED", (_F,), "a closed content model was opened"),
    BreakingRule("RULE_REMOVED", (_F,), "a cross-field rule was removed"),
    BreakingRule(
        "CHANGE_UNPROVEN",
        (_B, _F),
        "the check could not decide whether the accepted documents still fit: never passed",
    ),
)

_BY_ID = {rule.id: rule for rule in BREAKING_RULES}


def parse_selection(items: Iterable[str]) -> frozenset[str]:
    """Categories and rule ids, checked; raises :class:`CodegenError` (exit 2) on unknown."""
    chosen = set()
    for item in items:
        name = item.strip().upper()
        if not name:
            continue
        if name not in CATEGORIES and name not in _BY_ID:
            raise CodegenError(
                f"unknown breaking category or rule {item.strip()!r} (categories: "
                f"{', '.join(CATEGORIES)}; rules: maverick-codegen rules)",
                rule="BREAKING_SELECTION",
            )
        chosen.add(name)
    if not chosen:
        raise CodegenError("no breaking category or rule selected", rule="BREAKING_SELECTION")
    return frozenset(chosen)


def select(findings: Iterable[Finding], selection: frozenset[str]) -> list[Finding]:
    """The findings whose rule, or one of the categories they break, is selected."""
    return sorted(
        f for f in findings if f.rule in selection or selection.intersection(f.categories)
    )


def _finding(hit: Hit, categories: tuple[str, ...] = ()) -> Finding:
    node = hit.node
    return Finding.at(
        node.file.loc(node.pointer),
        hit.rule,
        hit.message,
        path=node.side.shown(node.file),
        categories=categories or _BY_ID[hit.rule].categories,
    )


def _codegen_findings(pair: ContractPair) -> Iterator[Finding]:
    for check in CONTRACT_CHECKS:
        yield from map(_finding, check(pair))
    for node_pair in walk(root_pair(pair)):
        for node_check in NODE_CHECKS:
            yield from (_finding(hit, (_C,)) for hit in node_check(node_pair))


def _whole(side: Side, schema: SchemaFile, pointer: str = "") -> Node:
    return Node(side, schema, pointer, schema.data, schema, "")


def directions_for(selection: frozenset[str]) -> tuple[str, ...]:
    """The DATA directions a selection can show a finding of: a direction's category, or a
    rule of that category (``PROPERTY_DELETED`` is one of DATA_BACKWARD's)."""
    rules = [_BY_ID[name] for name in selection if name in _BY_ID]
    return tuple(
        d for d in (_B, _F) if d in selection or any(d in rule.categories for rule in rules)
    )


def compare(
    previous: Side,
    current: Side,
    directions: tuple[str, ...] = (_B, _F),
    *,
    check_models: bool = False,
) -> list[Finding]:
    """Every breaking change from ``previous`` to ``current``, in every category, sorted.

    CODEGEN findings come from the names the contracts give the generated code; DATA ones from
    the inclusion engine, each with a witness the two schemas separate, in ``directions`` only
    (a direction no selected category shows is not asked: proving a recursive schema's forward
    direction may take the solver its whole search). ``check_models``: each witness is also
    judged by the model generated from the new schema (a disagreement is said in the finding,
    as an internal error of the generator).
    """
    pairs, deleted, changed_ids = pair_contracts(previous, current)
    findings: set[Finding] = set()
    for pair, old_id in changed_ids:
        if old_id == pair.cur.schema_id:
            continue  # moved, not given another $id (none in either): CONTRACT_FILE_MOVED
        message = (
            f'The $id of contract "{pair.name}" was changed from {old_id or "none"} to '
            f"{pair.cur.schema_id or 'none (the file is known by its path)'}."
        )
        node = _whole(current, pair.cur, "/$id")
        findings.add(_finding(Hit("CONTRACT_ID_CHANGED", node, message)))
    before, after = closure_digests(previous.tree), closure_digests(current.tree)
    # The same formats setting on both sides (formats = "assert" reads format otherwise).
    same_reading = previous.tree.asserts_formats == current.tree.asserts_formats
    changed = [  # a pair whose inputs are the same cannot have changed in any way
        pair
        for pair in [*pairs, *(p for p, _ in changed_ids)]
        if before[pair.prev.rel] != after[pair.cur.rel] or not same_reading
    ]
    for pair in changed:
        findings.update(_codegen_findings(pair))
    findings.update(
        data_findings(previous, current, changed, deleted, directions, check_models=check_models)
    )
    return _merged(findings)


_ORDER = {_C: 0, _B: 1, _F: 2}


def _merged(findings: Iterable[Finding]) -> list[Finding]:
    """Findings that say the same thing at the same place become one, in all their categories
    (a property deleted under a closed content model breaks CODEGEN and DATA_BACKWARD)."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding in findings:
        key = (finding.path, finding.line, finding.column, finding.rule, finding.message)
        groups.setdefault(key, []).append(finding)
    result = []
    for group in groups.values():
        if len(group) == 1 or sum(f.witness is not None for f in group) > 1:
            result += group
            continue
        categories = sorted({c for f in group for c in f.categories}, key=_ORDER.__getitem__)
        witness = next((f.witness for f in group if f.witness is not None), None)
        result.append(dataclasses.replace(group[0], categories=tuple(categories), witness=witness))
    return sorted(result)


def rule_rows() -> Sequence[tuple[str, str, str]]:
    """``(id, categories, purpose)`` of every rule, for ``maverick-codegen rules``."""
    return [(r.id, ",".join(r.categories), r.purpose) for r in BREAKING_RULES]
