"""The checks behind the breaking-change rules: small functions of one pair.

Contract checks see a :class:`~codegen.breaking_walk.ContractPair`; node checks see a
:class:`~codegen.breaking_walk.NodePair` whose refs are already resolved. Each yields hits
naming their rule; messages are past tense and name the contract and the property path.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from codegen.breaking_walk import (
    ContractPair,
    Node,
    NodePair,
    aligned,
    allowed_values,
    describe,
    json_types,
)
from codegen.jsonpos import escape_pointer
from codegen.loader import SchemaFile, SchemaTree
from codegen.rules import find_rules

__all__ = ["CONTRACT_CHECKS", "NODE_CHECKS", "Hit"]

_B, _F, _C = "DATA_BACKWARD", "DATA_FORWARD", "CODEGEN"


@dataclass(frozen=True)
class Hit:
    """A rule that fired: where (a node of one side) and what happened."""

    rule: str
    node: Node
    message: str
    categories: tuple[str, ...] = ()


def _at(node: Node, *keys: str) -> Node:
    """``node`` located at the first of ``keys`` it states itself (for a precise position)."""
    value = node.value if isinstance(node.value, dict) else {}
    if node.file is node.home and node.pointer == node.base:
        for key in keys:
            if key in value:
                here = f"{node.pointer}/{escape_pointer(key)}"
                return Node(node.side, node.file, here, value[key], node.home, here)
    return node


def _root(pair: ContractPair, *, previous: bool = False, pointer: str = "") -> Node:
    side, schema = (pair.prev_side, pair.prev) if previous else (pair.cur_side, pair.cur)
    return Node(side, schema, pointer, schema.data, schema, pointer)


# ---------------------------------------------------------------------------- contracts


def title_changed(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.title != pair.cur.title:
        message = (
            f'Contract "{pair.prev.title}" was renamed to "{pair.cur.title}": '
            "its generated class changed name."
        )
        yield Hit("CONTRACT_TITLE_CHANGED", _root(pair, pointer="/title"), message)


def file_moved(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.rel != pair.cur.rel:
        message = (
            f'Contract "{pair.name}" was moved from {pair.prev.rel} to {pair.cur.rel}: '
            "its generated module changed."
        )
        yield Hit("CONTRACT_FILE_MOVED", _root(pair), message)


def _classes(schema: SchemaFile) -> dict[str, str]:
    defs = schema.data.get("$defs") or {}
    return {
        entry["title"]: f"/$defs/{escape_pointer(name)}/title"
        for name, entry in defs.items()
        if isinstance(entry, dict) and isinstance(entry.get("title"), str)
    }


def class_deleted(pair: ContractPair) -> Iterator[Hit]:
    now = {pair.cur.title, *_classes(pair.cur)}
    for title, pointer in sorted(_classes(pair.prev).items()):
        if title not in now:
            message = (
                f'Previously generated class "{title}" of {pair.prev.title} ({pointer}) '
                "was deleted or renamed."
            )
            yield Hit("CLASS_DELETED", _root(pair, previous=True, pointer=pointer), message)


def _bases(tree: SchemaTree, schema: SchemaFile) -> dict[str, str]:
    """The contracts ``schema`` extends by ``allOf`` ``$ref``: ``$id`` to title."""
    found = {}
    for entry in schema.data.get("allOf") or []:
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
            target, fragment = tree.resolve(schema, entry["$ref"])
            found[f"{target.schema_id}#{fragment}"] = target.title + (
                f"#{fragment}" * bool(fragment)
            )
    return found


def base_changed(pair: ContractPair) -> Iterator[Hit]:
    before = _bases(pair.prev_side.tree, pair.prev)
    after = _bases(pair.cur_side.tree, pair.cur)
    if set(before) != set(after):
        pointer = "/allOf" if "allOf" in pair.cur.data else ""
        message = (
            f"The bases of {pair.name} ({pointer or '/'}) were changed from "
            f"[{', '.join(sorted(before.values()))}] to [{', '.join(sorted(after.values()))}]."
        )
        yield Hit("BASE_CHANGED", _root(pair, pointer=pointer), message)


def _types(value: Any) -> set[str]:
    kinds = value.get("type") if isinstance(value, dict) else None
    return set(kinds if isinstance(kinds, list) else [kinds]) if kinds else set()


def _implied(node: Any, declaration: Any) -> Any:
    """``node`` without a ``type`` that the property's own declaration already implies."""
    declared, stated = _types(declaration), _types(node)
    if declared and stated and all(t in stated or (t == "integer" and "number" in stated)
                                   for t in declared):  # fmt: skip
        return {k: v for k, v in node.items() if k != "type"}
    return node


def _normal(value: Any, declared: Mapping[str, Any]) -> Any:
    """A rule as compared: annotations dropped, and ``type``s its properties imply.

    ``declared`` maps the contract's properties to their schemas at the rule's own level;
    a rule's ``properties`` only apply to a present property, which always satisfies its
    declaration, so a ``type`` it implies changes nothing.
    """
    if isinstance(value, list):
        return [_normal(item, declared) for item in value]
    if not isinstance(value, dict):
        return value
    result = {}
    for key, sub in value.items():
        if key in ("description", "$comment"):
            continue
        if key == "properties" and isinstance(sub, dict):
            result[key] = {n: _implied(_normal(s, {}), declared.get(n)) for n, s in sub.items()}
        else:
            result[key] = _normal(sub, declared)
    return result


def _label(rule: Any) -> str:
    text = rule.get("description") if isinstance(rule, dict) else None
    return f'"{text}"' if isinstance(text, str) and text else "(no description)"


def _declared(pair: ContractPair, *, previous: bool) -> dict[str, Any]:
    return {name: node.value for name, node in _members(_root(pair, previous=previous))[0].items()}


def rules_changed(pair: ContractPair) -> Iterator[Hit]:
    before = {pointer: rule for pointer, rule in find_rules(pair.prev.data)}
    after = {pointer: rule for pointer, rule in find_rules(pair.cur.data)}
    old_props, new_props = _declared(pair, previous=True), _declared(pair, previous=False)
    for pointer, rule in list(after.items()):
        normal = _normal(rule, new_props)
        match = next((p for p, r in before.items() if _normal(r, old_props) == normal), None)
        if match is not None:
            del before[match], after[pointer]
    for pointer, rule in sorted(after.items()):
        where = _root(pair, pointer=pointer)
        if pointer in before:
            message = (
                f"Cross-field rule {_label(rule)} of {pair.name} ({pointer or '/'}) was changed."
            )
            yield Hit("RULE_CHANGED", where, message)
        else:
            message = (
                f"Cross-field rule {_label(rule)} was added to {pair.name} ({pointer or '/'})."
            )
            yield Hit("RULE_ADDED", where, message)
    for pointer, rule in sorted(before.items()):
        if pointer not in after:
            message = (
                f"Previously present cross-field rule {_label(rule)} of {pair.prev.title} "
                f"({pointer or '/'}) was deleted."
            )
            yield Hit("RULE_REMOVED", _root(pair, previous=True, pointer=pointer), message)


# ---------------------------------------------------------------------------- values


def _show_types(kinds: frozenset[str] | None) -> str:
    if kinds is None:
        return "any type"
    shown = [k[4:].rstrip("#").rsplit("/", 1)[-1] if k.startswith("ref:") else k for k in kinds]
    return json.dumps(sorted(shown))


def _covers(kinds: frozenset[str] | None, kind: str) -> bool:
    return kinds is None or kind in kinds or (kind == "integer" and "number" in kinds)


def types_changed(pair: NodePair) -> Iterator[Hit]:
    before, after = json_types(pair.prev, pair.opaque), json_types(pair.cur, pair.opaque)
    subject = describe(pair.cur.file.title, pair.cur.pointer)
    change = f"from {_show_types(before)} to {_show_types(after)}"
    where = _at(pair.cur, "type", "anyOf", "$ref")
    if after is not None and (before is None or any(not _covers(after, k) for k in before)):
        yield Hit("TYPE_NARROWED", where, f"The type of {subject} was narrowed {change}.")
    if before is not None and (after is None or any(not _covers(before, k) for k in after)):
        yield Hit("TYPE_WIDENED", where, f"The type of {subject} was widened {change}.")


def values_changed(pair: NodePair) -> Iterator[Hit]:
    (before, was_const), (after, is_const) = allowed_values(pair.prev), allowed_values(pair.cur)
    if before == after or not aligned(pair):
        return
    subject = describe(pair.cur.file.title, pair.cur.pointer)
    where = _at(pair.cur, "const", "enum")
    if was_const or is_const:
        old = min(before) if before and was_const else "none"
        new = min(after) if after and is_const else "none"
        yield Hit(
            "CONST_CHANGED", where, f"The constant of {subject} was changed from {old} to {new}."
        )
    elif before is None and after is not None:
        message = (
            f"{subject[0].upper()}{subject[1:]} was restricted to [{', '.join(sorted(after))}]."
        )
        yield Hit("ENUM_VALUE_REMOVED", where, message)
    elif before is not None and after is None:
        values = ", ".join(sorted(before))
        message = f"{subject[0].upper()}{subject[1:]} was freed from its values [{values}]."
        yield Hit("ENUM_VALUE_ADDED", where, message)
    elif before is not None and after is not None:
        for value in sorted(before - after):
            yield Hit("ENUM_VALUE_REMOVED", where, f"Enum value {value} of {subject} was removed.")
        for value in sorted(after - before):
            yield Hit("ENUM_VALUE_ADDED", where, f"Enum value {value} was added to {subject}.")


Bound = tuple[Fraction, bool] | None  # (value, exclusive)
_LIMITS = (
    # (label, keywords, lower bound?, prefix in messages)
    ("lower bound", ("minimum", "exclusiveMinimum"), True, ""),
    ("upper bound", ("maximum", "exclusiveMaximum"), False, ""),
    ("minLength", ("minLength",), True, "length "),
    ("maxLength", ("maxLength",), False, "length "),
    ("minItems", ("minItems",), True, "items "),
    ("maxItems", ("maxItems",), False, "items "),
)


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(str(value))


def _bound(node: Node, keywords: tuple[str, ...], lower: bool) -> Bound:
    """The tightest bound the ``keywords`` of ``node`` set (``exclusive*`` are exclusive)."""
    value = node.value if isinstance(node.value, dict) else {}
    found = [(n, k.startswith("exclusive")) for k in keywords if (n := _number(value.get(k)))
             is not None]  # fmt: skip
    if not found:
        return None
    return max(found) if lower else min(found, key=lambda b: (b[0], not b[1]))


def _tighter(new: Bound, old: Bound, *, lower: bool) -> bool:
    """Whether bound ``new`` rejects a value that bound ``old`` accepted."""
    if new is None or old is None:
        return old is None and new is not None
    beyond = new[0] > old[0] if lower else new[0] < old[0]
    return beyond or (new[0] == old[0] and new[1] and not old[1])


def _plain(value: Fraction | None) -> str:
    if value is None:
        return "none"
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def _show_bound(bound: Bound, lower: bool, prefix: str) -> str:
    if bound is None:
        return "none"
    sign = (">" if lower else "<") + ("" if bound[1] else "=")
    return f"{prefix}{sign} {_plain(bound[0])}"


def bounds_changed(pair: NodePair) -> Iterator[Hit]:
    if not aligned(pair):
        return
    subject = describe(pair.cur.file.title, pair.cur.pointer)
    for label, keywords, lower, prefix in _LIMITS:
        old, new = _bound(pair.prev, keywords, lower), _bound(pair.cur, keywords, lower)
        shown = f"from {_show_bound(old, lower, prefix)} to {_show_bound(new, lower, prefix)}"
        where = _at(pair.cur, *keywords)
        if _tighter(new, old, lower=lower):
            yield Hit(
                "CONSTRAINT_TIGHTENED", where, f"The {label} of {subject} was tightened {shown}."
            )
        elif _tighter(old, new, lower=lower):
            yield Hit(
                "CONSTRAINT_LOOSENED", where, f"The {label} of {subject} was loosened {shown}."
            )
    yield from _multiple_changed(pair, subject)


def _multiple_changed(pair: NodePair, subject: str) -> Iterator[Hit]:
    """multipleOf: every multiple of ``old`` stays valid exactly when ``new`` divides it."""
    values = [
        n.value.get("multipleOf") if isinstance(n.value, dict) else None
        for n in (pair.prev, pair.cur)
    ]
    old, new = (_number(v) for v in values)
    shown = f"from {_plain(old)} to {_plain(new)}"
    where = _at(pair.cur, "multipleOf")
    if new is not None and (old is None or old % new != 0):
        yield Hit(
            "CONSTRAINT_TIGHTENED", where, f"The multipleOf of {subject} was tightened {shown}."
        )
    if old is not None and (new is None or new % old != 0):
        yield Hit(
            "CONSTRAINT_LOOSENED", where, f"The multipleOf of {subject} was loosened {shown}."
        )


# ---------------------------------------------------------------------------- objects


def _is_object(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    return (
        kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in value
    )


def _closes_itself(node: Node) -> bool:
    value = node.value
    return value.get("additionalProperties") is False or value.get("unevaluatedProperties") is False


def _closed(node: Node) -> bool:
    """Closed by its own keywords, or a base that a closed contract extends."""
    return _closes_itself(node) or (node.base == "" and node.home.rel in node.side.closed_bases)


def _members(node: Node, depth: int = 0) -> tuple[dict[str, Node], set[str]]:
    """The properties of an object node and its required names, its bases' included."""
    value = node.value
    found = {
        name: node.child(f"properties/{escape_pointer(name)}", sub)
        for name, sub in (value.get("properties") or {}).items()
    }
    required = set(value.get("required") or [])
    for entry in value.get("allOf") or [] if node.base == "" and depth < 16 else []:
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
            base, fragment = node.side.tree.resolve(node.home, entry["$ref"])
            if not fragment:
                inherited = Node(node.side, base, "", base.data, base, "")
                more, needed = _members(inherited, depth + 1)
                found = {**more, **found}
                required |= needed
    return found, required


def properties_changed(pair: NodePair) -> Iterator[Hit]:
    if not (_is_object(pair.prev.value) and _is_object(pair.cur.value)):
        return
    (before, was_required), (after, required) = _members(pair.prev), _members(pair.cur)
    for name, node in before.items():
        if name not in after:
            subject = describe(node.file.title, node.pointer)
            message = (
                f'Previously present {subject} was deleted. Mark it "deprecated": true instead.'
            )
            categories = (_C, _B, _F) if _closed(pair.cur) else (_C, _F)
            yield Hit("PROPERTY_DELETED", node, message, categories)
    for name, node in after.items():
        subject = describe(node.file.title, node.pointer, capital=True)
        if name not in before:
            if name in required:
                message = (
                    f"{subject} was added as required; old data lacks it. "
                    "Add it as optional with a default instead."
                )
                yield Hit("PROPERTY_ADDED_REQUIRED", node, message)
            if _closed(pair.prev):
                message = (
                    f"{subject} was added to a closed content model; "
                    "old readers reject data holding it."
                )
                yield Hit("PROPERTY_ADDED_CLOSED", node, message)
        elif name in required and name not in was_required:
            yield Hit("PROPERTY_MADE_REQUIRED", node, f"{subject} was made required.")
        elif name in was_required and name not in required:
            yield Hit("PROPERTY_MADE_OPTIONAL", node, f"{subject} was made optional.")
    yield from _content_model_changed(pair)


def _content_model_changed(pair: NodePair) -> Iterator[Hit]:
    subject = describe(pair.cur.file.title, pair.cur.pointer)
    closed_before, closed_now = _closes_itself(pair.prev), _closes_itself(pair.cur)
    where = _at(pair.cur, "additionalProperties", "unevaluatedProperties")
    if closed_now and not closed_before:
        message = (
            f"The content model of {subject} was closed; old data with other keys no longer loads."
        )
        yield Hit("ADDITIONAL_PROPERTIES_CLOSED", where, message)
    elif closed_before and not closed_now:
        message = f"The content model of {subject} was opened; old readers reject unknown keys."
        yield Hit("ADDITIONAL_PROPERTIES_OPENED", where, message)


CONTRACT_CHECKS: tuple[Callable[[ContractPair], Iterator[Hit]], ...] = (
    title_changed,
    file_moved,
    class_deleted,
    base_changed,
    rules_changed,
)
NODE_CHECKS: tuple[Callable[[NodePair], Iterator[Hit]], ...] = (
    types_changed,
    values_changed,
    bounds_changed,
    properties_changed,
)
