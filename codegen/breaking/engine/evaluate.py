"""Judge one JSON value against a schema node, exactly as draft 2020-12 says.

The engine's own validator: ECMA-262 patterns (``regress``, ``u`` flag, as the generated
models), ``multipleOf`` exact on the numbers as written, ``unevaluated*`` from the annotations
the subschemas that passed collected. It judges candidate values while the engine searches;
the witness it finally prints is judged again by the ECMA oracle and the generated model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from codegen.breaking.engine.kinds import NUMERIC, exact, json_key, kind_of, type_kinds
from codegen.breaking.engine.nodes import SNode, Unsupported, json_equal
from codegen.core.ecma import ecma_search
from codegen.core.formats import format_check

__all__ = ["additional_keys", "valid"]


@dataclass
class _Seen:
    """Annotations of one successful evaluation: evaluated property names and items."""

    keys: set[str]
    items: set[int]
    every_item: bool = False

    def add(self, other: _Seen) -> None:
        self.keys |= other.keys
        self.items |= other.items
        self.every_item = self.every_item or other.every_item


def valid(node: SNode, value: Any) -> bool:
    """Whether ``node`` accepts ``value``."""
    return _evaluate(node, value, 0) is not None


def _evaluate(node: SNode, value: Any, depth: int) -> _Seen | None:
    if depth > 200:
        raise Unsupported("schema recursion too deep to evaluate", node)
    if node.value is True:
        return _Seen(set(), set())
    if node.value is False:
        return None
    seen = _Seen(set(), set())
    for key in node.keywords():
        if key in ("then", "else", "minContains", "maxContains", "unevaluatedProperties",
                   "unevaluatedItems"):  # fmt: skip
            continue  # judged with if, contains, and after everything else
        if not _keyword(node, key, value, seen, depth):
            return None
    for key in ("unevaluatedItems", "unevaluatedProperties"):
        if key in node.obj and not _unevaluated(node, key, value, seen, depth):
            return None
    return seen


_ENUMS: dict[int, tuple[Any, frozenset[Any]]] = {}


def _enum_keys(spec: Any) -> frozenset[Any]:
    """The :func:`~codegen.breaking.engine.kinds.json_key` of an enum's values, read once per
    list (held with the list, so that another list at the same address is read again)."""
    found = _ENUMS.get(id(spec))
    if found is None or found[0] is not spec:
        if len(_ENUMS) > 4096:
            _ENUMS.clear()
        found = _ENUMS[id(spec)] = (spec, frozenset(json_key(v) for v in spec))
    return found[1]


def _keyword(node: SNode, key: str, value: Any, seen: _Seen, depth: int) -> bool:
    spec, kind = node.obj[key], kind_of(value)
    if key == "type":
        return kind in type_kinds(spec, node.float_integers)
    if key == "enum":
        return json_key(value) in _enum_keys(spec)
    if key == "const":
        return json_equal(value, spec)
    if key in _IN_PLACE:
        return _IN_PLACE[key](node, value, seen, depth)
    if kind in NUMERIC and key in _NUMBER:
        return _NUMBER[key](exact(value), exact(spec))
    if kind == "string" and key in _STRING:
        return _STRING[key](value, spec)
    if kind == "string" and key == "format":  # asserted: as the generated models check it
        return format_check()(spec, value)
    if kind == "array" and key in _ARRAY:
        return _ARRAY[key](node, value, seen, depth)
    if kind == "object" and key in _OBJECT:
        return _OBJECT[key](node, value, seen, depth)
    return True


_Judge = Callable[[Any, Any], bool]
_NUMBER: dict[str, _Judge] = {
    "minimum": lambda x, m: x >= m,
    "maximum": lambda x, m: x <= m,
    "exclusiveMinimum": lambda x, m: x > m,
    "exclusiveMaximum": lambda x, m: x < m,
    "multipleOf": lambda x, m: x % m == 0,
}
_STRING: dict[str, _Judge] = {
    "minLength": lambda s, n: len(s) >= n,
    "maxLength": lambda s, n: len(s) <= n,
    "pattern": lambda s, p: ecma_search(p, s),
}


def _sub(node: SNode, value: Any, depth: int, *tokens: Any) -> _Seen | None:
    return _evaluate(node.child(*tokens), value, depth + 1)


def _all_of(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    for index in range(len(node.obj["allOf"])):
        result = _sub(node, value, depth, "allOf", index)
        if result is None:
            return False
        seen.add(result)
    return True


def _any_of(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    passed = [r for i in range(len(node.obj["anyOf"])) if (r := _sub(node, value, depth,
                                                                      "anyOf", i))]  # fmt: skip
    for result in passed:
        seen.add(result)
    return bool(passed)


def _one_of(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    passed = [r for i in range(len(node.obj["oneOf"])) if (r := _sub(node, value, depth,
                                                                      "oneOf", i))]  # fmt: skip
    if len(passed) != 1:
        return False
    seen.add(passed[0])
    return True


def _not(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    return _sub(node, value, depth, "not") is None


def _if(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    condition = _sub(node, value, depth, "if")
    branch = "then" if condition is not None else "else"
    if condition is not None:
        seen.add(condition)
    if branch not in node.obj:
        return True
    result = _sub(node, value, depth, branch)
    if result is not None:
        seen.add(result)
    return result is not None


def _ref(node: SNode, value: Any, seen: _Seen, depth: int, key: str = "$ref") -> bool:
    target = node.target(key)
    result = _evaluate(target, value, depth + 1) if target is not None else None
    if result is not None:
        seen.add(result)
    return result is not None


def _dependent_schemas(node: SNode, value: Any, seen: _Seen, depth: int) -> bool:
    if kind_of(value) != "object":
        return True
    for name in node.obj["dependentSchemas"]:
        if name in value:
            result = _sub(node, value, depth, "dependentSchemas", name)
            if result is None:
                return False
            seen.add(result)
    return True


_IN_PLACE: dict[str, _Applies] = {
    "allOf": _all_of,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "not": _not,
    "if": _if,
    "$ref": _ref,
    "$dynamicRef": lambda node, value, seen, depth: _ref(node, value, seen, depth, "$dynamicRef"),
    "dependentSchemas": _dependent_schemas,
}


def _items(node: SNode, value: list[Any], seen: _Seen, depth: int) -> bool:
    start = len(node.obj.get("prefixItems") or [])
    if not all(_sub(node, v, depth, "items") for v in value[start:]):
        return False
    seen.every_item = True
    return True


def _prefix_items(node: SNode, value: list[Any], seen: _Seen, depth: int) -> bool:
    count = min(len(value), len(node.obj["prefixItems"]))
    if not all(_sub(node, value[i], depth, "prefixItems", i) for i in range(count)):
        return False
    seen.items.update(range(count))
    return True


def _contains(node: SNode, value: list[Any], seen: _Seen, depth: int) -> bool:
    matched = [i for i, v in enumerate(value) if _sub(node, v, depth, "contains")]
    low, high = node.obj.get("minContains", 1), node.obj.get("maxContains")
    if len(matched) < low or (high is not None and len(matched) > high):
        return False
    seen.items.update(matched)  # the items it matched, which need not be a prefix
    return True


def _unique(node: SNode, value: list[Any], seen: _Seen, depth: int) -> bool:
    if node.obj["uniqueItems"] is not True:
        return True
    return not any(json_equal(value[i], value[j]) for j in range(len(value)) for i in range(j))


_Applies = Callable[[SNode, Any, _Seen, int], bool]
_ARRAY: dict[str, _Applies] = {
    "items": _items,
    "prefixItems": _prefix_items,
    "contains": _contains,
    "uniqueItems": _unique,
    "minItems": lambda n, v, s, d: len(v) >= n.obj["minItems"],
    "maxItems": lambda n, v, s, d: len(v) <= n.obj["maxItems"],
}


def _properties(node: SNode, value: dict[str, Any], seen: _Seen, depth: int) -> bool:
    for name in node.obj["properties"]:
        if name in value:
            if not _sub(node, value[name], depth, "properties", name):
                return False
            seen.keys.add(name)
    return True


def _pattern_properties(node: SNode, value: dict[str, Any], seen: _Seen, depth: int) -> bool:
    for pattern in node.obj["patternProperties"]:
        for key, item in value.items():
            if ecma_search(pattern, key):
                if not _sub(node, item, depth, "patternProperties", pattern):
                    return False
                seen.keys.add(key)
    return True


def additional_keys(node: SNode, value: dict[str, Any]) -> list[str]:
    """The keys of ``value`` that ``node``'s ``additionalProperties`` applies to."""
    names = node.obj.get("properties") or {}
    patterns = node.obj.get("patternProperties") or {}
    return [k for k in value if k not in names and not any(ecma_search(p, k) for p in patterns)]


def _additional(node: SNode, value: dict[str, Any], seen: _Seen, depth: int) -> bool:
    keys = additional_keys(node, value)
    if not all(_sub(node, value[k], depth, "additionalProperties") for k in keys):
        return False
    seen.keys.update(keys)
    return True


def _property_names(node: SNode, value: dict[str, Any], seen: _Seen, depth: int) -> bool:
    return all(_sub(node, key, depth, "propertyNames") for key in value)


def _dependent_required(node: SNode, value: dict[str, Any], seen: _Seen, depth: int) -> bool:
    needs = node.obj["dependentRequired"]
    return all(all(m in value for m in needs[k]) for k in needs if k in value)


_OBJECT: dict[str, _Applies] = {
    "properties": _properties,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional,
    "propertyNames": _property_names,
    "required": lambda n, v, s, d: all(name in v for name in n.obj["required"]),
    "dependentRequired": _dependent_required,
    "minProperties": lambda n, v, s, d: len(v) >= n.obj["minProperties"],
    "maxProperties": lambda n, v, s, d: len(v) <= n.obj["maxProperties"],
}


def _unevaluated(node: SNode, key: str, value: Any, seen: _Seen, depth: int) -> bool:
    kind = kind_of(value)
    if key == "unevaluatedItems" and kind == "array":
        if seen.every_item:
            return True
        rest = [v for i, v in enumerate(value) if i not in seen.items]
        return all(_sub(node, v, depth, key) for v in rest)
    if key == "unevaluatedProperties" and kind == "object":
        return all(_sub(node, value[k], depth, key) for k in value if k not in seen.keys)
    return True
