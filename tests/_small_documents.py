"""Small documents built from a contract: its required properties, then one more property.

Random documents rarely satisfy every property of a contract at once, and a change to one
property (added, removed, made required, closed) is only seen by a document the rest of the
contract accepts. So, for each contract version, :func:`small_documents` builds objects of
its required properties (through ``allOf`` bases in other files and ``$ref``s, one
``anyOf``/``oneOf`` branch at a time) with values the oracle accepts for each property, then
each such object with one declared property more, set to each value that property accepts.
Values come from a small pool, the schema's own constants, and objects built the same way
two levels down.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from tests._fuzz import _constants

__all__ = ["small_documents"]

POOL: tuple[Any, ...] = (None, True, 0, 1, 1.5, -1, "", "x", "a", [], [1], {})
DEPTH = 2  # objects built this many levels down
Accepts = Callable[[SchemaFile, str, Any], bool]  # does the subschema at (file, pointer) accept


def _here(tree: SchemaTree, file: SchemaFile, pointer: str) -> tuple[SchemaFile, str, Any]:
    """The subschema at ``pointer``, its ``$ref``s followed (a few hops)."""
    node = resolve_pointer(file.data, pointer)
    for _ in range(4):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            break
        file, pointer = tree.resolve(file, node["$ref"])
        node = resolve_pointer(file.data, pointer)
    return file, pointer, node


def _shapes(
    tree: SchemaTree, file: SchemaFile, pointer: str, depth: int = 0
) -> Iterator[dict[str, tuple[SchemaFile, str]]]:
    """Declared properties (name: where its subschema is) of each object shape the subschema
    allows: its own and its ``allOf`` parts' together, with one ``anyOf``/``oneOf`` branch."""
    file, pointer, node = _here(tree, file, pointer)
    if not isinstance(node, dict) or depth > 3:
        yield {}
        return
    own = {
        n: (file, f"{pointer}/properties/{escape_pointer(n)}") for n in node.get("properties", {})
    }
    for index, _ in enumerate(node.get("allOf", [])):
        for part in _shapes(tree, file, f"{pointer}/allOf/{index}", depth + 1):
            own = {**part, **own}
            break
    branches = [f"{pointer}/{k}/{i}" for k in ("anyOf", "oneOf") for i, _ in
                enumerate(node.get(k, []))][:3]  # fmt: skip
    if not branches:
        yield own
    for branch in branches:
        for shape in _shapes(tree, file, branch, depth + 1):
            yield {**shape, **own}
            break


def _required(tree: SchemaTree, file: SchemaFile, pointer: str, depth: int = 0) -> set[str]:
    file, pointer, node = _here(tree, file, pointer)
    if not isinstance(node, dict) or depth > 3:
        return set()
    names = set(node.get("required", []))
    for index, _ in enumerate(node.get("allOf", [])):
        names |= _required(tree, file, f"{pointer}/allOf/{index}", depth + 1)
    return names


def _objects(
    tree: SchemaTree, accepts: Accepts, file: SchemaFile, pointer: str, depth: int
) -> Iterator[dict[str, Any]]:
    """Objects of the required properties, each set to a value its subschema accepts."""
    required = _required(tree, file, pointer)
    for shape in _shapes(tree, file, pointer):
        document: dict[str, Any] = {}
        for name in sorted(required):
            where = shape.get(name)
            fitting = _values(tree, accepts, *where, depth + 1) if where else [None]
            document[name] = fitting[0] if fitting else None
        yield document


def _values(
    tree: SchemaTree, accepts: Accepts, file: SchemaFile, pointer: str, depth: int
) -> list[Any]:
    """A few values the subschema at ``(file, pointer)`` accepts."""
    target, at, node = _here(tree, file, pointer)
    candidates: list[Any] = [*POOL, *_constants(node)]
    if depth <= DEPTH:
        candidates += list(_objects(tree, accepts, target, at, depth))
    return [v for v in candidates if accepts(file, pointer, v)][:4]


def small_documents(tree: SchemaTree, title: str, accepts: Accepts) -> list[Any]:
    """Objects of the contract's required properties, alone and with one property more."""
    contract = tree.by_title[title]
    found: list[Any] = []
    for shape, base in zip(
        _shapes(tree, contract, ""), _objects(tree, accepts, contract, "", 0), strict=False
    ):
        found.append(base)
        for name, where in shape.items():
            found += [{**base, name: value} for value in _values(tree, accepts, *where, 1)]
    return found
