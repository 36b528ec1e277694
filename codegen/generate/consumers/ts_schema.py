"""What a schema node says, as the TypeScript declarations read it.

:mod:`codegen.generate.consumers.typescript` asks: the JSON types a node allows (:func:`types_of`),
the literal types of its ``const`` or ``enum`` (:func:`literal_types`), and the property names its
in-place subschemas may evaluate (:func:`evaluated_names`), which a subclass closed by
``unevaluatedProperties: false`` must still accept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codegen.core.drafts import ANNOTATIONS
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.consumers.ts_text import TsType, literal, union

__all__ = ["allowed_types", "evaluated_names", "list_of", "literal_types", "shapes", "types_of"]


def list_of(node: Mapping[str, Any], key: str) -> list[Any]:
    value = node.get(key)
    return value if isinstance(value, list) else []


def types_of(node: Mapping[str, Any]) -> list[str] | None:
    kinds = node.get("type")
    if isinstance(kinds, str):
        return [kinds]
    if isinstance(kinds, list) and all(isinstance(k, str) for k in kinds):
        return list(dict.fromkeys(kinds))
    return None


# The keywords that describe the objects (the arrays) of a schema without a type.
_SHAPES_OF = {
    "object": frozenset({"properties", "patternProperties", "additionalProperties"}),
    "array": frozenset({"items", "prefixItems"}),
}


def shapes(node: Mapping[str, Any]) -> list[str]:
    """``"object"`` and ``"array"``, each when ``node`` has a keyword of its values' shape."""
    return [kind for kind, keywords in _SHAPES_OF.items() if keywords & set(node)]


# The JSON types, as a schema without ``type`` allows them all.
_ALL_TYPES = ("object", "array", "string", "number", "boolean", "null")
# What a ``not`` may say beside ``type`` and still refuse every value of that type (a format
# may be asserted: ``{"not": {"type": "string", "format": "email"}}`` refuses some strings only).
_SAYS_NOTHING = ANNOTATIONS - {"format"}


def allowed_types(node: Mapping[str, Any]) -> list[str] | None:
    """The JSON types ``node`` allows: its ``type`` (None without one), less those a ``not``
    of a type alone refuses (``{"not": {"type": "null"}}``: every type but null)."""
    kinds = types_of(node)
    refuse = node.get("not")
    if (
        not isinstance(refuse, dict)
        or "type" not in refuse
        or set(refuse) - _SAYS_NOTHING - {"type"}
    ):
        return kinds
    refused = set(types_of(refuse) or ())
    if not refused:
        return kinds
    if "number" in refused:  # every integer is a number
        refused.add("integer")
    return [k for k in (_ALL_TYPES if kinds is None else kinds) if k not in refused]


def _json_type(value: Any) -> set[str]:
    if isinstance(value, bool):
        return {"boolean"}
    if value is None:
        return {"null"}
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"number"}
    if isinstance(value, str):
        return {"string"}
    return {"array"} if isinstance(value, list) else {"object"}


def literal_types(node: Mapping[str, Any], kinds: list[str] | None) -> TsType | None:
    """The literal types of a ``const`` or ``enum`` (those ``type`` allows), if it has one."""
    if "const" in node:
        values = [node["const"]]
    elif isinstance(node.get("enum"), list):
        values = node["enum"]
    else:
        return None
    return union(TsType(literal(v)) for v in values if kinds is None or _json_type(v) & set(kinds))


_IN_PLACE_ONE = ("if", "then", "else")
_IN_PLACE_LIST = ("allOf", "anyOf", "oneOf")


def evaluated_names(
    tree: SchemaTree,
    schema: SchemaFile,
    node: dict[str, Any],
    seen: frozenset[int] = frozenset(),
) -> tuple[set[str], bool]:
    """The property names the in-place subschemas of ``node`` may evaluate, and whether they
    may evaluate any name (``patternProperties``, ``additionalProperties``...)."""
    names = set(node.get("properties") or {})
    open_ = (
        bool(node.get("patternProperties"))
        or node.get("additionalProperties", False) is not False
        or node.get("unevaluatedProperties", False) is not False
        or "$dynamicRef" in node  # its target depends on the path taken: any name
    )
    subs: list[tuple[SchemaFile, Any]] = []
    if isinstance(node.get("$ref"), str):
        target, pointer = tree.resolve(schema, node["$ref"])
        subs.append((target, resolve_pointer(target.data, pointer)))
    subs += [(schema, node[k]) for k in _IN_PLACE_ONE if k in node]
    for key in _IN_PLACE_LIST:
        subs += [(schema, e) for e in list_of(node, key)]
    subs += [(schema, s) for s in (node.get("dependentSchemas") or {}).values()]
    for owner, sub in subs:
        if isinstance(sub, dict) and id(sub) not in seen:  # a reference to itself adds nothing
            more, more_open = evaluated_names(tree, owner, sub, seen | {id(node)})
            names |= more
            open_ = open_ or more_open
    return names, open_
