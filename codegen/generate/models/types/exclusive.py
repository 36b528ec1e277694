"""Whether the branches of a ``oneOf`` exclude each other: then no value satisfies two of them,
and ``oneOf`` holds exactly when ``anyOf`` does.

Two schemas exclude each other when, read conservatively (every keyword not looked at only
narrows what a schema accepts, so a superset of it is read):

* the JSON types they admit do not meet (``type``, ``const``, ``enum``, through ``$ref``,
  ``allOf``, ``anyOf`` and ``oneOf``; an integer is a number);
* or both admit objects only, and one requires a property that the other does not admit
  (it is closed by ``additionalProperties: false``, without ``patternProperties``, and does not
  declare the property), or both require a property whose schemas exclude each other (a
  ``const`` tag of each branch: ``"kind": {"const": "a"}`` against ``"b"``);
* or the scalars their ``const`` or ``enum`` allow do not meet.

Only the values the ``oneOf``'s own node admits by its ``type`` are compared: a value of
another kind fails the node before its ``oneOf`` is asked.

Anything else (``$dynamicRef``, a reference circle, a boolean schema ``true``) reads as admitting
every value, so that "exclusive" is never said of branches that are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["exclusive_branches"]

_ALL = frozenset({"null", "boolean", "number", "string", "array", "object"})
_KINDS = {"integer": "number"}  # an integer is a number: kinds compared as the wider
_DEPTH = 8  # how far references and nested keywords are followed before reading "anything"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


@dataclass(frozen=True)
class _Shape:
    """What a schema admits, read as a superset: its JSON kinds; of its objects, the
    properties they must hold, the names they may hold (None: any), and the schemas the
    values of declared properties satisfy when present (each a place: file and pointer)."""

    kinds: frozenset[str]
    required: frozenset[str] = frozenset()
    allowed: frozenset[str] | None = None
    values: tuple[tuple[str, SchemaFile, str], ...] = ()
    constants: frozenset[Any] | None = None  # the scalars a const or enum allows (None: any)


def _scalar(value: Any) -> Any:
    """A scalar as JSON compares it: 1 and 1.0 alike, true no number."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    return ("number", value) if isinstance(value, int | float) else ("string", value)


def _constants(node: dict[str, Any]) -> frozenset[Any] | None:
    allowed = None
    said = [[node["const"]]] if "const" in node else []
    said += [node["enum"]] if isinstance(node.get("enum"), list) else []
    for values in said:
        if any(isinstance(v, list | dict) for v in values):
            continue  # an array or an object: compared no further
        found = frozenset(_scalar(v) for v in values)
        allowed = found if allowed is None else allowed & found
    return allowed


_ANYTHING = _Shape(_ALL)


class _Reader:
    def __init__(self, tree: SchemaTree) -> None:
        self.tree = tree
        self.shapes: dict[tuple[int, str], _Shape] = {}

    def shape(self, schema: SchemaFile, pointer: str, depth: int) -> _Shape:
        # Cached whatever the depth it was read at: a shape read too deep is "anything", a
        # superset of the shape, which only ever says "exclusive" less often.
        key = (id(schema), pointer)
        found = self.shapes.get(key)
        if found is None:
            found = self.shapes[key] = self._shape(schema, pointer, depth)
        return found

    def _shape(self, schema: SchemaFile, pointer: str, depth: int) -> _Shape:
        try:
            node = resolve_pointer(schema.data, pointer)
        except LookupError:
            return _ANYTHING
        if node is False:
            return _Shape(frozenset())
        if not isinstance(node, dict) or depth > _DEPTH or "$dynamicRef" in node:
            return _ANYTHING
        kinds = set(_ALL)
        required: set[str] = set()
        allowed: frozenset[str] | None = None
        values: list[tuple[str, SchemaFile, str]] = []
        said = node.get("type")
        if isinstance(said, str):
            said = [said]
        if isinstance(said, list) and all(isinstance(k, str) for k in said):
            kinds &= {_KINDS.get(k, k) for k in said}
        if "const" in node:
            kinds &= {_kind(node["const"])}
        if isinstance(node.get("enum"), list):
            kinds &= {_kind(v) for v in node["enum"]}
        if isinstance(node.get("required"), list):
            required |= {n for n in node["required"] if isinstance(n, str)}
        declared = node.get("properties")
        declared = declared if isinstance(declared, dict) else {}
        if node.get("additionalProperties") is False and not node.get("patternProperties"):
            allowed = frozenset(n for n, sub in declared.items() if sub is not False)
        for name in declared:
            values.append((name, schema, f"{pointer}/properties/{escape_pointer(name)}"))
        parts: list[_Shape] = []
        if isinstance(node.get("$ref"), str):
            try:
                target, at = self.tree.resolve(schema, node["$ref"])
            except (KeyError, LookupError):
                return _ANYTHING
            parts.append(self.shape(target, at, depth + 1))
        for index, _ in enumerate(node.get("allOf") or []):
            parts.append(self.shape(schema, f"{pointer}/allOf/{index}", depth + 1))
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches:
                union: set[str] = set()
                for index in range(len(branches)):
                    union |= self.shape(schema, f"{pointer}/{key}/{index}", depth + 1).kinds
                kinds &= union
        for part in parts:  # every one holds: the kinds meet, the requirements add up
            kinds &= part.kinds
            required |= part.required
            values += part.values
            if part.allowed is not None:
                allowed = part.allowed if allowed is None else allowed & part.allowed
        constants = _constants(node)
        for part in parts:
            if part.constants is not None:
                constants = part.constants if constants is None else constants & part.constants
        return _Shape(frozenset(kinds), frozenset(required), allowed, tuple(values), constants)

    def exclusive(
        self,
        a: tuple[SchemaFile, str],
        b: tuple[SchemaFile, str],
        depth: int,
        domain: frozenset[str] = _ALL,
    ) -> bool:
        """Whether no value of the kinds ``domain`` satisfies both schemas."""
        one, two = self.shape(*a, depth), self.shape(*b, depth)
        common = one.kinds & two.kinds & domain
        if not common:
            return True
        if (
            one.constants is not None
            and two.constants is not None
            and not (one.constants & two.constants)
        ):
            return True
        if common != {"object"}:
            return False
        if (two.allowed is not None and one.required - two.allowed) or (
            one.allowed is not None and two.required - one.allowed
        ):
            return True
        if depth >= _DEPTH:
            return False
        both = one.required & two.required  # present in every object of either
        for name, schema, pointer in one.values:
            for other, schema_b, pointer_b in two.values:
                if (
                    name == other
                    and name in both
                    and self.exclusive((schema, pointer), (schema_b, pointer_b), depth + 1)
                ):
                    return True
        return False


def exclusive_branches(tree: SchemaTree, schema: SchemaFile, pointer: str) -> bool:
    """Whether the branches of the ``oneOf`` at ``pointer`` pairwise exclude each other, among
    the values of the kinds the node's own ``type`` admits (a value of another kind fails the
    node before its ``oneOf`` is asked)."""
    node = resolve_pointer(schema.data, pointer)
    branches = node.get("oneOf") if isinstance(node, dict) else None
    if not isinstance(branches, list) or len(branches) < 2:
        return isinstance(branches, list)
    said = node.get("type")
    said = [said] if isinstance(said, str) else said
    domain = _ALL
    if isinstance(said, list) and all(isinstance(k, str) for k in said):
        domain = frozenset(_KINDS.get(k, k) for k in said)
    reader = _Reader(tree)
    places = [(schema, f"{pointer}/oneOf/{i}") for i in range(len(branches))]
    return all(
        reader.exclusive(places[i], places[j], 0, domain)
        for i in range(len(places))
        for j in range(i + 1, len(places))
    )
