"""Word a break: its rule id and message, from the component broken and the part of the
witness it judged (:mod:`codegen.breaking.explain` places it).

The rules are the table's (``TYPE_NARROWED``, ``ENUM_VALUE_REMOVED``, ``PROPERTY_MADE_REQUIRED``,
a closed content model's ``PROPERTY_DELETED``...); messages are past tense, with the values
before and after where both exist.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from codegen.breaking.engine.components import unevaluated_names
from codegen.breaking.engine.evaluation import scenarios
from codegen.breaking.engine.kinds import NUMERIC, Step, kind_of, type_kinds
from codegen.breaking.engine.nodes import SNode, json_equal
from codegen.breaking.walk import describe
from codegen.core.ecma import ecma_search
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaTree
from codegen.generate.rules import rule_message

__all__ = ["declared_names", "offending", "resolves", "worded"]

BACKWARD = "DATA_BACKWARD"


def _types(value: Any) -> str:
    return _shown(sorted(value if isinstance(value, list) else [value]))


def _shown(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _union_worded(
    written: str, subject: str, old: list[Any], new: list[Any], *, value: Any, backward: bool
) -> tuple[str, str]:
    """A union that accepts less (or more): the value it judges otherwise, and how its list of
    branches changed (added, removed, edited, or none: what a branch names changed)."""
    added = sum(1 for b in new if b not in old)
    removed = sum(1 for b in old if b not in new)
    edited = min(added, removed)
    counts = ((added - edited, "added"), (removed - edited, "removed"), (edited, "edited"))
    parts = [f"{n} {'branch was' if n == 1 else 'branches were'} {verb}" for n, verb in counts if n]
    how = ": " + ", ".join(parts) if parts else " (its branches are written as before: what one "
    how += "" if parts else "names changed)"
    if backward:
        return "CONSTRAINT_TIGHTENED", (
            f"The {written} of {subject} no longer accepts {_shown(value)}{how}."
        )
    return "CONSTRAINT_LOOSENED", f"The {written} of {subject} now accepts {_shown(value)}{how}."


def worded(
    node: SNode,
    step: Step,
    *,
    other: SchemaTree,
    counterpart: SNode | None,
    value: Any,
    subject: str,
    backward: bool,
    rule_at: tuple[SNode, str] | None,
) -> tuple[str, str]:
    key = step[0]
    before, now = _value(counterpart, key), _value(node, key)
    old, new = (before, now) if backward else (now, before)
    if rule_at is not None:
        return _rule_worded(rule_at, other, backward)
    if key == "required":
        at = f"{node.pointer}/properties/{escape_pointer(step[1])}"
        named = describe(node.home.title, at, file=node.home)
        named = named[0].upper() + named[1:]
        if not backward:
            return "PROPERTY_MADE_OPTIONAL", f"{named} was made optional."
        declared = counterpart is not None and step[1] in (
            counterpart.obj.get("properties") or {} if isinstance(counterpart.value, dict) else {}
        )
        if declared:
            return "PROPERTY_MADE_REQUIRED", f"{named} was made required."
        return "PROPERTY_ADDED_REQUIRED", (
            f"{named} was added as required; old data lacks it. "
            "Add it as optional with a default instead."
        )
    if key in ("additionalProperties", "unevaluatedProperties") and node.obj[key] is False:
        return _closed_worded(
            node, step, counterpart=counterpart, value=value, subject=subject, backward=backward
        )
    if key == "const" or (key == "enum" and isinstance(before, list) and len(before) == 1
                          and before == now):  # fmt: skip
        effect = "old data no longer loads" if backward else "old readers refuse new data"
        return "CONST_CHANGED", (
            f"The constant of {subject} was changed from "
            f"{_shown(old) if old is not None else 'none'} to "
            f"{_shown(new) if new is not None else 'none'}: {effect}."
        )
    if key == "enum":
        listed = isinstance(before, list) and any(json_equal(value, v) for v in before)
        if backward:
            if listed:
                return "ENUM_VALUE_REMOVED", f"Enum value {_shown(value)} of {subject} was removed."
            return "ENUM_VALUE_REMOVED", (
                f"The values of {subject} were restricted to an enum: it no longer accepts "
                f"{_shown(value)}."
            )
        if listed:
            return "ENUM_VALUE_ADDED", f"Enum value {_shown(value)} was added to {subject}."
        return "ENUM_VALUE_ADDED", (
            f"The enum of {subject} was lifted: it now accepts {_shown(value)}."
        )
    if key in ("type", "$ref", "anyOf", "oneOf", "$self") and _kind_excluded(node, value):
        shown = "a number" if kind_of(value) in NUMERIC else kind_of(value)
        change = f" from {_types(old)} to {_types(new)}" if old and new and key == "type" else ""
        if kind_of(value) == "integral":
            shown = f'{_shown(value)} (written with a fraction: draft-04\'s "integer" refuses it)'
            drafts = [n.home.draft.name for n in (counterpart, node) if n is not None]
            if old == new and len(set(drafts)) == 2:
                change = " from {} to {}".format(*(drafts if backward else drafts[::-1]))
        if backward:
            return "TYPE_NARROWED", (
                f"The type of {subject} was narrowed{change}: it no longer accepts {shown}."
            )
        return "TYPE_WIDENED", f"The type of {subject} was widened{change}: it now accepts {shown}."
    written = _written(node, key)
    if key in ("anyOf", "oneOf", "allOf") and isinstance(old, list) and isinstance(new, list):
        return _union_worded(written, subject, old, new, value=value, backward=backward)
    if old is not None and old == new:  # written the same: what it names or holds changed
        held = "names" if key in _REFERENCES else "holds"
        effect = "no longer accepts what it did" if backward else "now accepts what it did not"
        return "CONSTRAINT_TIGHTENED" if backward else "CONSTRAINT_LOOSENED", (
            f"The {written} of {subject} is written as before ({_shown(old)}), but the schema "
            f"it {held} {effect}."
        )
    if backward:
        change = f"from {_shown(old)} to {_shown(new)}" if old is not None else f"to {_shown(new)}"
        if new is None:
            change = "(it no longer accepts what it did)"
        return "CONSTRAINT_TIGHTENED", f"The {written} of {subject} was tightened {change}."
    change = f"from {_shown(old)} to {_shown(new)}" if new is not None else f"(was {_shown(old)})"
    if old is None:
        change = "(it now accepts what it did not)"
    loosened = "loosened" if new is not None else "removed"
    return "CONSTRAINT_LOOSENED", f"The {written} of {subject} was {loosened} {change}."


_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def _value(node: SNode | None, key: str) -> Any:
    """The value of keyword ``key`` of ``node`` as its file writes it (a reference as
    ``#/definitions/...`` in a draft-07 file, not the internal form)."""
    if node is None or not isinstance(node.value, dict) or key not in node.value:
        return None
    at = node.home.file_pointer(f"{node.pointer}/{escape_pointer(key)}")
    with contextlib.suppress(LookupError):
        return resolve_pointer(node.home.document, at)
    return node.value[key]


def _written(node: SNode, key: str) -> str:
    """The keyword ``key`` of ``node`` as its file writes it (``items`` for a list of items
    before 2020-12, 2019-09's ``$recursiveRef``...)."""
    at = node.home.file_pointer(f"{node.pointer}/{escape_pointer(key)}")
    token = at.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    return token if token.startswith("$") or token.isidentifier() else key


def declared_names(node: SNode | None) -> frozenset[str]:
    """The property names ``node`` declares, in any case of what passes."""
    if node is None or not isinstance(node.value, dict):
        return frozenset()
    return frozenset().union(*(c.evaluation.names for c in scenarios(node, items=False)))


def _open(node: SNode | None) -> bool:
    if node is None or not isinstance(node.value, dict):
        return True
    obj = node.obj
    return obj.get("additionalProperties", True) is not False and obj.get(
        "unevaluatedProperties", True) is not False  # fmt: skip


def offending(node: SNode, key: str, value: Any) -> list[str]:
    """The names of ``value`` that ``node``'s closing keyword ``key`` refuses."""
    if not isinstance(value, dict):
        return []
    if key == "additionalProperties":
        names = node.obj.get("properties") or {}
        patterns = node.obj.get("patternProperties") or {}
        return [k for k in value if k not in names and not any(ecma_search(p, k)
                                                                for p in patterns)]  # fmt: skip
    return unevaluated_names(node, value)


def _closed_worded(
    node: SNode, step: Step, *, counterpart: SNode | None, value: Any, subject: str,
    backward: bool,
) -> tuple[str, str]:  # fmt: skip
    """A closed content model refuses a name: deleted, added, or the model closed or opened
    (the name the component was refined to, else the first the keyword refuses)."""
    key = step[0]
    names = [step[1]] if len(step) > 1 else offending(node, key, value)
    declared = [k for k in names if k in declared_names(counterpart)]
    if backward and declared:
        return "PROPERTY_DELETED", (
            f'Property "{declared[0]}" was deleted from the closed content model of {subject}; '
            'old data holding it no longer loads. Mark it "deprecated": true instead.'
        )
    if backward:
        if _open(counterpart):
            return "ADDITIONAL_PROPERTIES_CLOSED", (
                f"The content model of {subject} was closed; old data with other keys no "
                "longer loads."
            )
        return "CONSTRAINT_TIGHTENED", (
            f"The {key} of {subject} refuses a property name it accepted: "
            f"{_shown(names[0]) if names else 'one'}."
        )
    if declared:
        return "PROPERTY_ADDED_CLOSED", (
            f'Property "{declared[0]}" was added to the closed content model of {subject}; '
            "old readers reject data holding it."
        )
    return "ADDITIONAL_PROPERTIES_OPENED", (
        f"The content model of {subject} was opened; old readers reject unknown keys."
    )


def _kind_excluded(node: SNode, value: Any) -> bool:
    """Whether ``node`` refuses every value of ``value``'s kind by type alone."""
    if not isinstance(node.value, dict):
        return node.value is False
    obj = node.obj
    if "type" in obj:
        return kind_of(value) not in type_kinds(obj["type"], node.float_integers)
    target = node.target() or node.target("$dynamicRef")
    if target is not None:
        return _kind_excluded(target, value)
    branches = obj.get("anyOf") or obj.get("oneOf")
    if branches:
        return all(_kind_excluded(node.child("anyOf" if "anyOf" in obj else "oneOf", i), value)
                   for i in range(len(branches)))  # fmt: skip
    return False


def _rule_worded(rule_at: tuple[SNode, str], other: SchemaTree, backward: bool) -> tuple[str, str]:
    holder, pointer = rule_at
    rule = resolve_pointer(holder.home.data, pointer) if pointer else holder.obj
    text = rule_message(pointer[len(holder.pointer) :], rule, holder.obj)
    label = f'"{text}"'
    where = f"{holder.home.title} ({holder.home.file_pointer(pointer) or '/'})"
    home = other.by_rel.get(holder.home.rel)
    if home is not None and resolves(home.data, pointer):
        effect = "old data no longer loads" if backward else "old readers refuse new data"
        return "RULE_CHANGED", f"Cross-field rule {label} of {where} was changed: {effect}."
    if backward:
        return "RULE_ADDED", f"Cross-field rule {label} was added to {where}."
    return "RULE_REMOVED", f"Previously present cross-field rule {label} of {where} was deleted."


def resolves(document: Any, pointer: str) -> bool:
    """Whether ``pointer`` names a value of ``document``."""
    try:
        resolve_pointer(document, pointer)
    except LookupError:
        return False
    return True
