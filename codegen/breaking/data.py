"""The DATA findings of ``breaking``: every break of accepted documents, with its witness.

For each pair of contracts whose inputs changed (:func:`codegen.core.inputs.closure_digest`:
the file and everything it references), the inclusion engine asks both directions, locates
each break, and the witness of each is judged by the two schemas (the ECMA oracle: each file
by its own draft, ECMA-262 patterns) before it is shown: they decide. A witness the schemas do
not separate (an engine defect, said so), or a question the engine could not decide, becomes
``CHANGE_UNPROVEN``: never a silent pass. With ``check_models``, each witness is also judged
by the model generated from the new schema; a model that disagrees with its schema is an
internal error of the generator, said in the finding, which keeps its witness.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from codegen.breaking.engine.facts import Found
from codegen.breaking.engine.inclusion import Break, breaks
from codegen.breaking.engine.kinds import Step
from codegen.breaking.engine.literals import Lit
from codegen.breaking.engine.nodes import SNode, counterpart, json_equal, root
from codegen.breaking.engine.solver import Solver
from codegen.breaking.explain import BACKWARD, FORWARD, explain
from codegen.breaking.walk import ContractPair, Side
from codegen.breaking.witness import Judge
from codegen.core.ecma import ecma_search
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.report import Finding

__all__ = ["data_findings", "witness_text"]


@dataclass(frozen=True)
class _Item:
    pair: ContractPair
    direction: str
    found: Break


def witness_text(document: Any) -> str:
    """A witness as canonical JSON text (sorted keys), as findings carry it."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


def _unchanged_in(other: SchemaTree, solver: Solver) -> Callable[[SNode], bool]:
    """Whether a node says in ``other`` (same file, same place) what it says here."""

    def unchanged(node: SNode) -> bool:
        there = counterpart(other, node)
        return there is not None and solver.search.same(node, there)

    return unchanged


def _edited_in(other: SchemaTree) -> Callable[[SNode, Step], bool]:
    """Whether a keyword of a node is written differently (or not at all) in ``other``."""
    theres: dict[tuple[Any, ...], SNode | None] = {}  # each node's counterpart, found once

    def edited(node: SNode, step: Step) -> bool:
        if node.key not in theres:
            theres[node.key] = counterpart(other, node)
        there = theres[node.key]
        if there is None or not (isinstance(node.value, dict) and isinstance(there.value, dict)):
            return True
        here, then = _component(node.value, step), _component(there.value, step)
        return here is _ABSENT or then is _ABSENT or not json_equal(here, then)

    return edited


_ABSENT = object()


def _deleted_in(other: SchemaTree) -> Callable[[SNode], list[str]]:
    """The property names a node's counterpart in ``other`` (same file, same place) declares
    that the node neither declares nor matches by a pattern."""

    def deleted(node: SNode) -> list[str]:
        there = counterpart(other, node)
        if there is None or not (isinstance(node.value, dict) and isinstance(there.value, dict)):
            return []
        own = node.value.get("properties") or {}
        patterns = node.value.get("patternProperties") or {}
        before = there.value.get("properties") or {}
        return [
            name
            for name in before
            if name not in own and not any(ecma_search(p, name) for p in patterns)
        ]

    return deleted


def _component(schema: dict[str, Any], step: Step) -> Any:
    """What a schema object writes for one component: the keyword's value, the subschema of
    one property or item, or whether one name is among those ``required``."""
    value = schema.get(step[0], _ABSENT)
    for token in step[1:]:
        if isinstance(value, list) and not isinstance(token, int):
            value = token in value  # a name of required
        elif (isinstance(value, dict) and token in value) or (
            isinstance(value, list) and isinstance(token, int) and token < len(value)
        ):
            value = value[token]
        else:
            return _ABSENT
    return value


def data_findings(
    previous: Side,
    current: Side,
    pairs: Iterable[ContractPair],
    deleted: Iterable[SchemaFile],
    directions: tuple[str, ...] = (BACKWARD, FORWARD),
    *,
    check_models: bool = False,
) -> list[Finding]:
    """The DATA findings of these pairs (those whose inputs changed) and deleted contracts, in
    ``directions``; with ``check_models``, each witness is judged by the new model too."""
    files = (*previous.tree.by_rel.values(), *current.tree.by_rel.values())
    solver = Solver(integral=any(not f.draft.float_integers for f in files))
    items: list[_Item] = []
    for pair in pairs:
        old, new = root(previous.tree, pair.prev), root(current.tree, pair.cur)
        for direction, accepting, refusing, other in (
            (BACKWARD, old, new, previous.tree),
            (FORWARD, new, old, current.tree),
        ):
            if direction not in directions:
                continue
            try:
                located = breaks(
                    solver,
                    accepting,
                    refusing,
                    _unchanged_in(other, solver),
                    _edited_in(other),
                    deleted=_deleted_in(other),
                )
            except Exception as exc:  # a defect must not pass a change silently
                reason = f"the check failed ({type(exc).__name__}: {exc}); please report it"
                located = [Break((), None, decided=False, reason=reason)]
            items += [_Item(pair, direction, b) for b in located]
    judge = Judge(previous.tree, current.tree)
    try:
        if check_models:
            judge.prepare([i.pair.cur for i in items if i.found.decided])
        found = [_finding(previous, current, judge, item, check_models) for item in items]
    finally:
        judge.close()
    found += list(_deleted(previous, solver, deleted))
    return _deduplicated(found)


def _checked(judge: Judge, item: _Item) -> Break:
    """The break, or an undecided one when the two schemas do not separate its witness (the
    engine's own judge disagreed with them: a defect, reported as such)."""
    found, pair = item.found, item.pair
    if not found.decided:
        return found
    document = found.witness
    old = judge.schema_accepts("previous", pair.prev, document)
    new = judge.schema_accepts("current", pair.cur, document)
    if (old, new) == ((True, False) if item.direction == BACKWARD else (False, True)):
        return found
    disputed = (
        f"the document {witness_text(document)} the engine found does not separate the "
        f"versions (the previous schema {'accepts' if old else 'refuses'} it, the new schema "
        f"{'accepts' if new else 'refuses'} it): an internal error of the check, please "
        "report it"
    )
    return Break(found.path, None, decided=False, reason=disputed)


def _model_note(judge: Judge, item: _Item, document: Any) -> str:
    """What to add to a finding whose witness the new model judges against its schema."""
    backward = item.direction == BACKWARD
    if judge.model_accepts(item.pair.cur, document) is not backward:
        return ""
    verdict = "accepts" if backward else "refuses"
    return (
        f" Internal error: the model generated from the new schema {verdict} this witness, "
        f"which the schema {'refuses' if backward else 'accepts'}: the generated model is "
        "wrong, please report it."
    )


def _finding(
    previous: Side, current: Side, judge: Judge, item: _Item, check_models: bool
) -> tuple[Finding, bool]:
    found = _checked(judge, item)
    pair, backward = item.pair, item.direction == BACKWARD
    refusing = root(current.tree, pair.cur) if backward else root(previous.tree, pair.prev)
    other = previous.tree if backward else current.tree
    said = explain(found, item.direction, refusing, other, pair.name)
    side = current if said.current else previous
    note = _model_note(judge, item, found.witness) if check_models and found.decided else ""
    finding = Finding.at(
        said.file.loc(said.pointer),
        said.rule,
        said.message + note,
        path=side.shown(said.file),
        categories=(item.direction,),
        witness=witness_text(found.witness) if found.decided else None,
    )
    return finding, said.file.rel == (pair.cur if said.current else pair.prev).rel


def _deleted(
    previous: Side, solver: Solver, deleted: Iterable[SchemaFile]
) -> Iterator[tuple[Finding, bool]]:
    for schema in deleted:
        result = solver.question([Lit(root(previous.tree, schema), True)])
        message = f'Previously present contract "{schema.title}" ({schema.identity}) was deleted.'
        witness = witness_text(result.value) if isinstance(result, Found) else None
        yield (
            Finding.at(
                schema.loc(""),
                "CONTRACT_DELETED",
                message,
                path=previous.shown(schema),
                categories=("CODEGEN", BACKWARD),
                witness=witness,
            ),
            True,
        )


def _deduplicated(found: list[tuple[Finding, bool]]) -> list[Finding]:
    """One finding per place and rule: a break in a file that several contracts reference is
    shown once, preferably as the contract of that file sees it (with its own witness)."""
    chosen: dict[tuple[Any, ...], tuple[Finding, bool]] = {}
    for finding, own in found:
        key = (finding.rule, finding.path, finding.pointer, finding.categories)
        if key not in chosen or (own and not chosen[key][1]):
            chosen[key] = (finding, own)
    return [finding for finding, _ in chosen.values()]
