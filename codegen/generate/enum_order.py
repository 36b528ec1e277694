"""Enums defined before the classes whose defaults name them (``style: Style = Style.SIMPLE``).

The plain generator may write a class that refers to itself before an enum one of its fields
defaults to: the default is evaluated when the class is defined, so the module would not import.
Each such enum (an enum class depends on no other class) moves to just before its first user;
a module without such a default is returned unchanged.
"""

from __future__ import annotations

import ast

_ENUM_BASES = {"Enum", "StrEnum", "IntEnum"}


def _default_names(node: ast.ClassDef) -> set[str]:
    """The names a class's field defaults read at definition time (``Name.ATTR``)."""
    names = set()
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and statement.value is not None:
            for inner in ast.walk(statement.value):
                if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
                    names.add(inner.value.id)
    return names


def _first_move(code: str) -> tuple[ast.ClassDef, int] | None:
    """The first enum a class default names before it is defined, and that class's line."""
    classes = [n for n in ast.parse(code).body if isinstance(n, ast.ClassDef)]
    enums = {
        n.name: n
        for n in classes
        if any(isinstance(b, ast.Name) and b.id in _ENUM_BASES for b in n.bases)
    }
    for node in classes:
        for name in sorted(_default_names(node) & set(enums)):
            if enums[name].lineno > node.lineno:
                return enums[name], node.lineno
    return None


def hoist_enums(code: str) -> str:
    """``code`` with each enum a class default names before it moved ahead of that class."""
    move = _first_move(code)
    while move is not None:
        enum, user = move
        lines = code.split("\n")
        first, last = enum.lineno - 1, enum.end_lineno or enum.lineno
        block = lines[first:last]
        while last < len(lines) and not lines[last].strip():
            last += 1
        del lines[first:last]  # below the user: its line stays where it was
        lines[user - 1 : user - 1] = [*block, "", ""]
        code = "\n".join(lines)
        move = _first_move(code)
    return code
