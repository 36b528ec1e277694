"""Refuse every schema construct the generated model cannot reproduce faithfully.

The generated model enforces the whole of draft 2020-12's validation vocabulary
(:mod:`codegen.generate.models.types.skeleton` and
:mod:`codegen.generate.models.checks.predicates`), so what is refused here is what a model cannot
decide by itself: references resolved by anything but a JSON pointer or a relative file path
(``$anchor``, ``$dynamicRef``, a nested ``$id``...), and keywords JSON Schema does not define,
which would otherwise be silently ignored (a typo, ``x-*`` extensions, OpenAPI's
``discriminator``). Each refusal names the file, the JSON pointer and the keyword, with the rule
``SUPPORTED_CONSTRUCT``.
"""

from __future__ import annotations

from typing import Any

from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.generate.models.checks.applicators import refuse
from codegen.generate.models.checks.guards import WHY, check_keywords

__all__ = ["WHY", "check_supported", "check_terminates"]


def check_supported(schema: SchemaFile) -> None:
    """Raise :class:`SchemaError` at the first keyword the generated model cannot reproduce."""
    for pointer, node in iter_subschemas(schema.data):
        check_keywords(schema, pointer, node)


def check_terminates(tree: SchemaTree, schema: SchemaFile) -> None:
    """Refuse a schema that applies itself to the same value whatever the value is: a circle
    of ``allOf`` entries, ``not`` and ``$ref`` (every validator recurses forever on every
    document, python-jsonschema with ``RecursionError``), rule ``REF_CYCLE``."""
    state: dict[tuple[int, str], int] = {}  # 1: being followed, 2: done (no circle below)
    for pointer, _ in iter_subschemas(schema.data):
        circle = _circle(tree, schema, pointer, state)
        if circle is not None:
            path = " -> ".join(f"{f.rel}#{f.file_pointer(p)}" for f, p in circle)
            message = (
                f"the schema applies itself to the same value through allOf, not or $ref "
                f"({path}): no validator decides any document (each recurses forever)"
            )
            raise refuse(schema, pointer, message, "REF_CYCLE")


def _edges(tree: SchemaTree, file: SchemaFile, pointer: str) -> list[tuple[SchemaFile, str]]:
    node: Any = resolve_pointer(file.data, pointer)
    if not isinstance(node, dict):
        return []
    found = [(file, f"{pointer}/allOf/{i}") for i, _ in enumerate(node.get("allOf") or [])]
    if "not" in node:
        found.append((file, f"{pointer}/not"))
    if isinstance(node.get("$ref"), str):
        found.append(tree.resolve(file, node["$ref"]))
    return found


def _circle(
    tree: SchemaTree, file: SchemaFile, pointer: str, state: dict[tuple[int, str], int]
) -> list[tuple[SchemaFile, str]] | None:
    """A circle of in-place edges reached from the schema at ``pointer`` (depth first, each
    schema followed once), or None."""
    path: list[tuple[SchemaFile, str]] = []
    stack = [(file, pointer, iter(_edges(tree, file, pointer)))]
    if state.get((id(file), pointer)) == 2:
        return None
    state[(id(file), pointer)] = 1
    path.append((file, pointer))
    while stack:
        current, at, edges = stack[-1]
        following = next(edges, None)
        if following is None:
            state[(id(current), at)] = 2
            stack.pop()
            path.pop()
            continue
        target, there = following
        mark = state.get((id(target), there))
        if mark == 1:
            start = next(i for i, (f, p) in enumerate(path) if f is target and p == there)
            return [*path[start:], (target, there)]
        if mark is None:
            state[(id(target), there)] = 1
            path.append((target, there))
            stack.append((target, there, iter(_edges(tree, target, there))))
    return None
