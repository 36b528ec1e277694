"""Walk a schema document: its subschemas, keyword by keyword, and its references.

Keyword-aware: only the values of the applicator keywords are entered, so a property *named*
``$ref`` is never taken for a reference, and data (``examples``, ``default``, ``const``,
``enum``) is never taken for schemas.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from codegen.core.jsonpos import escape_pointer

__all__ = [
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "iter_subschemas",
    "joined",
    "pointer_of",
    "ref_nodes",
]

# Keywords whose value is one subschema, a map of names to subschemas, or a list of them.
SCHEMA_ONE = ("items", "additionalProperties", "unevaluatedProperties", "not", "if", "then",
              "else", "contains", "propertyNames", "unevaluatedItems")  # fmt: skip
SCHEMA_MAP = ("properties", "$defs", "dependentSchemas", "patternProperties")
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


def iter_subschemas(
    node: Any, pointer: str = "", *, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object of a document with its pointer, parents before children, not
    entering the keywords in ``skip`` (``{"$defs"}``: only what is evaluated in place).

    Keyword-aware: only the values of the applicator keywords above are entered, so a property
    *named* ``$ref`` is never taken for a reference, and data (``examples``, ``default``,
    ``const``, ``enum``) is never taken for schemas.
    """
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key, value in node.items():
        if key in skip:
            continue
        here = f"{pointer}/{escape_pointer(key)}"
        if key in SCHEMA_ONE:
            yield from iter_subschemas(value, here, skip=skip)
        elif key in SCHEMA_MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield from iter_subschemas(sub, f"{here}/{escape_pointer(name)}", skip=skip)
        elif key in SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from iter_subschemas(sub, f"{here}/{index}", skip=skip)


def joined(folder: str, target: str) -> str:
    """``target`` relative to ``folder`` (both POSIX, below the schema folder), normalized;
    :class:`ValueError` if it leaves the schema folder."""
    parts: list[str] = folder.split("/") if folder else []
    for part in target.split("/"):
        if part == "..":
            if not parts:
                raise ValueError("escapes the schema folder")
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def ref_nodes(
    document: Any, key: str = "$ref"
) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every schema object of ``document`` holding ``key`` (``$ref``), with its path of keys:
    what :func:`iter_subschemas` walks, without building a pointer for every object."""
    pending: list[tuple[tuple[str | int, ...], Any]] = [((), document)]
    while pending:
        path, node = pending.pop()
        if not isinstance(node, dict):
            continue
        if key in node:
            yield path, node
        children: list[tuple[tuple[str | int, ...], Any]] = []
        for keyword, value in node.items():
            if keyword in SCHEMA_ONE:
                children.append(((*path, keyword), value))
            elif keyword in SCHEMA_MAP and isinstance(value, dict):
                children += [((*path, keyword, name), sub) for name, sub in value.items()]
            elif keyword in SCHEMA_LIST and isinstance(value, list):
                children += [((*path, keyword, index), sub) for index, sub in enumerate(value)]
        pending.extend(reversed(children))


def pointer_of(path: tuple[str | int, ...]) -> str:
    """The JSON pointer of a path of keys."""
    return "".join(f"/{escape_pointer(key)}" for key in path)
