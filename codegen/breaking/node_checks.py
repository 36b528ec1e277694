"""The node checks of the breaking-change rules: small functions of one pair of nodes.

Each sees a :class:`~codegen.breaking.walk.NodePair` whose refs are already resolved and yields
hits naming their rule; messages are past tense and name the contract and the property path.
:mod:`codegen.breaking.contract_checks` holds the checks of whole contracts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from codegen.breaking.walk import Node, NodePair, aligned, allowed_values, describe, json_types
from codegen.core.jsonpos import escape_pointer

__all__ = ["NODE_CHECKS", "Hit", "at", "members"]

_B, _F, _C = "DATA_BACKWARD", "DATA_FORWARD", "CODEGEN"


@dataclass(frozen=True)
class Hit:
    """A rule that fired: where (a node of one side) and what happened."""

    rule: str
    node: Node
    message: str
    categories: tuple[str, ...] = ()


def at(node: Node, *keys: str) -> Node:
    """``node`` located at the first of ``keys`` it states itself (for a precise position)."""
    value = node.value if isinstance(node.value, dict) else {}
    if node.file is node.home and node.pointer == node.base:
        for key in keys:
            if key in value:
                here = f"{node.pointer}/{escape_pointer(key)}"
                return Node(node.side, node.file, here, value[key], node.home, here)
    return node


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
    where = at(pair.cur, "type", "anyOf", "$ref")
    if after is not None and (before is None or any(not _covers(after, k) for k in before)):
        yield Hit("TYPE_NARROWED", where, f"The type of {subject} was narrowed {change}.")
    if before is not None and (after is None or any(not _covers(before, k) for k in after)):
        yield Hit("TYPE_WIDENED", where, f"The type of {subject} was widened {change}.")


def values_changed(pair: NodePair) -> Iterator[Hit]:
    (before, was_const), (after, is_const) = allowed_values(pair.prev), allowed_values(pair.cur)
    if before == after or not aligned(pair):
        return
    subject = describe(pair.cur.file.title, pair.cur.pointer)
    where = at(pair.cur, "const", "enum")
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
        where = at(pair.cur, *keywords)
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
    where = at(pair.cur, "multipleOf")
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


def members(node: Node, depth: int = 0) -> tuple[dict[str, Node], set[str]]:
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
                more, needed = members(inherited, depth + 1)
                found = {**more, **found}
                required |= needed
    return found, required


def properties_changed(pair: NodePair) -> Iterator[Hit]:
    if not (_is_object(pair.prev.value) and _is_object(pair.cur.value)):
        return
    (before, was_required), (after, required) = members(pair.prev), members(pair.cur)
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
    where = at(pair.cur, "additionalProperties", "unevaluatedProperties")
    if closed_now and not closed_before:
        message = (
            f"The content model of {subject} was closed; old data with other keys no longer loads."
        )
        yield Hit("ADDITIONAL_PROPERTIES_CLOSED", where, message)
    elif closed_before and not closed_now:
        message = f"The content model of {subject} was opened; old readers reject unknown keys."
        yield Hit("ADDITIONAL_PROPERTIES_OPENED", where, message)


NODE_CHECKS: tuple[Callable[[NodePair], Iterator[Hit]], ...] = (
    types_changed,
    values_changed,
    bounds_changed,
    properties_changed,
)
