"""The names of the TypeScript declarations: each class node's type name (the Python class
name, refused where TypeScript cannot declare it) and each schema file's ``.d.ts`` module."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["ClassNames", "class_names", "module_path"]

# (file, pointer) of a class node -> its type name
ClassNames = Mapping[tuple[str, str], str]
# Names TypeScript reserves that a type may not take (lint's TITLE_IS_CLASS_NAME keeps titles
# capitalised, but generate runs without the lint).
_RESERVED = frozenset(
    {
        "any", "bigint", "boolean", "break", "case", "catch", "class", "const", "continue",
        "debugger", "default", "delete", "do", "else", "enum", "export", "extends", "false",
        "finally", "for", "function", "if", "import", "in", "instanceof", "never", "new", "null",
        "number", "object", "return", "string", "super", "switch", "symbol", "this", "throw",
        "true", "try", "typeof", "undefined", "unknown", "var", "void", "while", "with",
    }
)  # fmt: skip


def class_names(tree: SchemaTree) -> dict[tuple[str, str], str]:
    """The type name of every class node (``SchemaFile.classes``: the Python class names);
    refuses names TypeScript cannot declare or that two classes share."""
    names: dict[tuple[str, str], str] = {}
    owners: dict[str, SchemaFile] = {}
    for schema in tree.files:
        for pointer, name in schema.classes.items():
            node = resolve_pointer(schema.data, pointer)
            where = schema.loc(f"{pointer}/title" if "title" in node else pointer)
            if not name.isidentifier() or name in _RESERVED:
                raise SchemaError(
                    f"class name {name!r} cannot name a TypeScript type: use a class name",
                    where,
                    "TITLE_IS_CLASS_NAME",
                )
            if name in owners:
                raise SchemaError(
                    f"class name {name!r} is already generated from {owners[name].rel}",
                    where,
                    "TITLE_UNIQUE",
                )
            owners[name] = schema
            names[schema.rel.as_posix(), pointer] = name
    return names


def module_path(schema: SchemaFile) -> PurePosixPath:
    """The declaration module of a schema file, relative to the package's ``types/``."""
    return schema.rel.with_suffix(".d.ts")
