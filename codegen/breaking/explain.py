"""Name, place and word a break: the rule id, the file and pointer, the message.

A :class:`~codegen.breaking.engine.inclusion.Break` names the component of the refusing schema that
its witness breaks. Here it becomes a finding a person can act on: the rule (the same ids as
the table: ``TYPE_NARROWED``, ``ENUM_VALUE_REMOVED``, ``PROPERTY_MADE_REQUIRED``...) is read
from the component and from the part of the witness it judged; the place is the component in
the new file (in the old one only when the new file has nothing there); the message says what
changed, past tense, with the values before and after where both exist.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from codegen.breaking.engine.components import located, unevaluated_names
from codegen.breaking.engine.evaluate import Step, kind_of, type_kinds
from codegen.breaking.engine.evaluation import scenarios
from codegen.breaking.engine.inclusion import Break, node_at
from codegen.breaking.engine.literals import child_of
from codegen.breaking.engine.nodes import SNode
from codegen.breaking.engine.nodes import counterpart as counterpart_in
from codegen.breaking.walk import describe
from codegen.core.ecma import ecma_search
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.rules import is_base, rule_message

__all__ = ["Explained", "explain"]

BACKWARD, FORWARD = "DATA_BACKWARD", "DATA_FORWARD"


@dataclass(frozen=True)
class Explained:
    """A break as a finding: its rule, where it is (file of which version, pointer), what."""

    rule: str
    file: SchemaFile
    current: bool
    pointer: str
    message: str


def explain(
    item: Break, direction: str, refusing: SNode, other: SchemaTree, contract: str
) -> Explained:
    """The finding of ``item``, a break of ``refusing`` (the new root for ``DATA_BACKWARD``,
    the old one for ``DATA_FORWARD``); ``other`` is the other version's tree."""
    path = item.path
    node = node_at(refusing, path) if path else refusing
    step: Step = path[-1] if path else ("$self",)
    pointer = _pointer(node, step)
    counterpart = counterpart_in(other, node)
    rule_at = _rule_on(refusing, path)
    value = located(refusing, path, item.witness) if item.decided else None
    subject = describe(node.home.title, node.pointer)
    backward = direction == BACKWARD
    if not item.decided:
        rule = "CHANGE_UNPROVEN"
        asked = (
            "the new contract still accepts every document the previous one accepted"
            if backward
            else "the previous contract accepts every document the new one accepts"
        )
        place = "for" if step[0] == "$self" else f"at the {step[0]} of"
        message = f"Whether {asked} could not be decided {place} {subject}: {item.reason}."
    else:
        rule, message = _worded(
            node,
            step,
            other=other,
            counterpart=counterpart,
            value=value,
            subject=subject,
            backward=backward,
            rule_at=rule_at,
        )
        if rule == "PROPERTY_DELETED" and counterpart is not None:
            return _deleted(node, step[0], counterpart, value)
        if rule in ("PROPERTY_MADE_OPTIONAL", "PROPERTY_ADDED_CLOSED") and counterpart is not None:
            name = step[1] if rule == "PROPERTY_MADE_OPTIONAL" else message.split('"')[1]
            declared = f"{counterpart.pointer}/properties/{escape_pointer(name)}"
            if _resolves(counterpart.home.data, declared):
                return Explained(rule, counterpart.home, True, declared, message)
    file, current, pointer = _placed(node, pointer, counterpart, other, backward)
    return Explained(rule, file, current, pointer, message)


def _deleted(node: SNode, key: str, counterpart: SNode, value: Any) -> Explained:
    """A property deleted under a closed content model: shown where it was, in the words of
    the CODEGEN finding of the same deletion, so that the two are one finding."""
    name = next(k for k in _offending(node, key, value) if k in _declared(counterpart))
    own = counterpart.obj.get("properties") or {}
    pointer = counterpart.pointer + (f"/properties/{escape_pointer(name)}" if name in own else "")
    subject = describe(counterpart.home.title, pointer)
    message = f'Previously present {subject} was deleted. Mark it "deprecated": true instead.'
    return Explained("PROPERTY_DELETED", counterpart.home, False, pointer, message)


def _pointer(node: SNode, step: Step) -> str:
    if step[0] == "$self":
        return node.pointer
    if step[0] == "required":
        declared = f"{node.pointer}/properties/{escape_pointer(step[1])}"
        if _resolves(node.home.data, declared):
            return declared
        return f"{node.pointer}/required/{node.obj['required'].index(step[1])}"
    tokens = "/".join(escape_pointer(t) for t in step)
    return f"{node.pointer}/{tokens}"


def _placed(
    node: SNode, pointer: str, counterpart: SNode | None, other: SchemaTree, backward: bool
) -> tuple[SchemaFile, bool, str]:
    """Where the finding is shown: the new file at the component, or at the nearest place
    there when the component was removed; the old file when the new one lost the schema
    that held it (a removed rule, property or file)."""
    if backward:
        return node.home, True, pointer
    if counterpart is None or not _resolves(counterpart.home.data, pointer):
        return node.home, False, pointer
    return counterpart.home, True, pointer


def _rule_on(root: SNode, path: tuple[Step, ...]) -> tuple[SNode, str] | None:
    """The cross-field rule the path goes through, if any: (the node holding it, pointer)."""
    node = root
    for step in path:
        key = step[0]
        if key in ("then", "else"):
            return node, node.pointer
        if key in ("dependentRequired", "dependentSchemas"):
            return node, f"{node.pointer}/{key}/{escape_pointer(step[1])}"
        if key == "allOf" and not is_base(node.obj["allOf"][step[1]]):
            return node, f"{node.pointer}/allOf/{step[1]}"
        child = child_of(node, step)
        if child is None:
            return None
        node = child
    return None


def _types(value: Any) -> str:
    return _shown(sorted(value if isinstance(value, list) else [value]))


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _worded(
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
    before = counterpart.obj.get(key) if counterpart is not None and isinstance(
        counterpart.value, dict) else None  # fmt: skip
    now = node.obj.get(key) if isinstance(node.value, dict) else None
    old, new = (before, now) if backward else (now, before)
    if rule_at is not None:
        return _rule_worded(rule_at, other, backward)
    if key == "required":
        named = describe(node.home.title, f"{node.pointer}/properties/{escape_pointer(step[1])}")
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
            node, key, counterpart=counterpart, value=value, subject=subject, backward=backward
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
        if backward:
            return "ENUM_VALUE_REMOVED", f"Enum value {_shown(value)} of {subject} was removed."
        return "ENUM_VALUE_ADDED", f"Enum value {_shown(value)} was added to {subject}."
    if key in ("type", "$ref", "anyOf", "oneOf", "$self") and _kind_excluded(node, value):
        shown = "a number" if kind_of(value) in ("integer", "fraction") else kind_of(value)
        change = f" from {_types(old)} to {_types(new)}" if old and new and key == "type" else ""
        if backward:
            return "TYPE_NARROWED", (
                f"The type of {subject} was narrowed{change}: it no longer accepts {shown}."
            )
        return "TYPE_WIDENED", f"The type of {subject} was widened{change}: it now accepts {shown}."
    if backward:
        change = f"from {_shown(old)} to {_shown(new)}" if old is not None else f"to {_shown(new)}"
        if new is None:
            change = "(it no longer accepts what it did)"
        return "CONSTRAINT_TIGHTENED", f"The {key} of {subject} was tightened {change}."
    change = f"from {_shown(old)} to {_shown(new)}" if new is not None else f"(was {_shown(old)})"
    if old is None:
        change = "(it now accepts what it did not)"
    loosened = "loosened" if new is not None else "removed"
    return "CONSTRAINT_LOOSENED", f"The {key} of {subject} was {loosened} {change}."


def _declared(node: SNode | None) -> frozenset[str]:
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


def _offending(node: SNode, key: str, value: Any) -> list[str]:
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
    node: SNode, key: str, *, counterpart: SNode | None, value: Any, subject: str, backward: bool
) -> tuple[str, str]:
    """A closed content model refuses a name: deleted, added, or the model closed or opened."""
    names = _offending(node, key, value)
    declared = [k for k in names if k in _declared(counterpart)]
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
        return kind_of(value) not in type_kinds(obj["type"])
    target = node.target()
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
    where = f"{holder.home.title} ({pointer or '/'})"
    home = other.by_rel.get(holder.home.rel)
    if home is not None and _resolves(home.data, pointer):
        effect = "old data no longer loads" if backward else "old readers refuse new data"
        return "RULE_CHANGED", f"Cross-field rule {label} of {where} was changed: {effect}."
    if backward:
        return "RULE_ADDED", f"Cross-field rule {label} was added to {where}."
    return "RULE_REMOVED", f"Previously present cross-field rule {label} of {where} was deleted."


def _resolves(document: Any, pointer: str) -> bool:
    try:
        resolve_pointer(document, pointer)
    except LookupError:
        return False
    return True
