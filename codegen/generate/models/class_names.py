"""Our names for the classes datamodel-code-generator made, whatever names it chose.

The generator names the class of a titled schema after its title, but it also makes classes of
schemas we do not name (an inline object, named after its property; an enumeration) and keeps
each name unique in its own way: one of those may take our name first, and ours is numbered
(``Notification1``), or ``Field`` becomes ``FieldModel``. Its model metadata says where each
class comes from (``file.json#/pointer``), so :func:`rename_classes` gives each of our schemas
its name afterwards, in the module that defines it and wherever another module names it
(``from .m import X``, ``m.X``), and numbers any other class holding one of our names
(``Notification2``), as it numbers a class it named after a name the modules use (an inline
object under ``exception`` is ``Exception2``, never Python's ``Exception``). The edits are
located through each module's syntax tree.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence

from codegen.core.names import RESERVED

__all__ = ["rename_classes"]

Key = tuple[str, ...]  # a module's path below the output folder: ("sub", "a_b.py")


def rename_classes(
    modules: Mapping[Key, str],
    made: Sequence[tuple[str, str, str]],
    wanted: Mapping[str, str],
    single: Key | None = None,
) -> dict[Key, str]:
    """``modules`` with each class of ``wanted`` (where it comes from -> its name) named so.

    ``made``: every class the generator made, as its metadata lists it: (module, dotted as
    ``sub.a_b``, ``""`` for a single module ``single``; class name; where it comes from)."""
    renames: dict[Key, dict[str, str]] = {}
    every = {name for _, name, _ in made} | set(wanted.values())
    for module, name, source in made:
        ours = wanted.get(source)
        if ours is not None and ours != name:
            renames.setdefault(_key(module, single), {})[name] = ours
        elif ours is None and name in RESERVED:  # its own name shadows a builtin (Exception)
            number = 2
            while f"{name}{number}" in every:
                number += 1
            renames.setdefault(_key(module, single), {})[name] = f"{name}{number}"
            every.add(f"{name}{number}")
    if not renames:
        return dict(modules)
    for module, name, source in made:  # another class holding one of our names: numbered
        key = _key(module, single)
        targets = set(renames.get(key, {}).values())
        if name in targets and name not in renames[key] and wanted.get(source) != name:
            number = 1
            while f"{name}{number}" in every:
                number += 1
            renames[key][name] = f"{name}{number}"
            every.add(f"{name}{number}")
    return {key: _rename(key, code, renames) for key, code in modules.items()}


def _key(module: str, single: Key | None) -> Key:
    if not module and single is not None:
        return single
    *folders, name = module.split(".")
    return (*folders, f"{name}.py")


def _target(key: Key, node: ast.ImportFrom, name: str | None = None) -> Key:
    """The module a relative ``from ... import`` in module ``key`` names (``name`` imported
    from it as a module of its own, when given)."""
    base = list(key[:-1])
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    parts = [*base, *(node.module.split(".") if node.module else []), *([name] if name else [])]
    return (*parts[:-1], f"{parts[-1]}.py") if parts else ("__init__.py",)


def _rename(key: Key, code: str, renames: Mapping[Key, Mapping[str, str]]) -> str:
    tree = ast.parse(code)
    local = dict(renames.get(key, {}))  # a name of this module -> its new name
    modules: dict[str, Key] = {}  # a name bound to another module of the package -> it
    edits: list[tuple[int, int, int, str]] = []  # (line, start, end, text), UTF-8 offsets
    lines = code.split("\n")
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            for alias in node.names:
                as_module = _target(key, node, alias.name)
                if as_module in renames:
                    modules[alias.asname or alias.name] = as_module
                    continue
                new = renames.get(_target(key, node), {}).get(alias.name)
                if new is None:
                    continue
                edits.append(_at(lines, node, alias.name, new))
                if alias.asname is None:
                    local[alias.name] = new
    words = re.compile(r"\b(" + "|".join(map(re.escape, sorted(local))) + r")\b") if local else None
    types = {id(n) for t in _type_expressions(tree) for n in ast.walk(t)}
    for item in ast.walk(tree):
        if (
            isinstance(item, ast.Constant)
            and id(item) in types
            and isinstance(item.value, str)
            and words is not None
            and item.lineno == item.end_lineno
            and (renamed := words.sub(lambda m: local[m.group(1)], item.value)) != item.value
            and _annotation(item.value)
        ):  # a forward reference written as a string: RootModel["Types"]
            edits.append((item.lineno, item.col_offset, item.end_col_offset or 0, repr(renamed)))
        elif isinstance(item, ast.ClassDef) and item.name in local:
            line = lines[item.lineno - 1].encode()
            start = line.index(b"class ") + len(b"class ")
            edits.append((item.lineno, start, start + len(item.name.encode()), local[item.name]))
        elif isinstance(item, ast.Name) and item.id in local:
            edits.append((item.lineno, item.col_offset, item.end_col_offset or 0, local[item.id]))
        elif (
            isinstance(item, ast.Attribute)
            and isinstance(item.value, ast.Name)
            and item.value.id in modules
            and item.attr in renames.get(modules[item.value.id], {})
        ):
            end = item.end_col_offset or 0
            new = renames[modules[item.value.id]][item.attr]
            edits.append((item.end_lineno or item.lineno, end - len(item.attr.encode()), end, new))
    for line_no, start, end, text in sorted(set(edits), reverse=True):
        raw = lines[line_no - 1].encode()
        lines[line_no - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
    return "\n".join(lines)


def _type_expressions(tree: ast.Module) -> list[ast.expr]:
    """Class bases and field annotations, where a string is a forward reference."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += node.bases
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return found


def _annotation(text: str) -> bool:
    """Whether a string is a type expression (a forward reference), not some text."""
    try:
        parsed = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    allowed = (ast.Expression, ast.Name, ast.Subscript, ast.Attribute, ast.BinOp, ast.BitOr,
               ast.Tuple, ast.Load, ast.Constant)  # fmt: skip
    return all(isinstance(n, allowed) for n in ast.walk(parsed))


def _at(lines: list[str], node: ast.ImportFrom, name: str, new: str) -> tuple[int, int, int, str]:
    """Where ``name`` is written in an import statement (which may span lines)."""
    for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
        raw = lines[number - 1].encode()
        start = 0 if number != node.lineno else raw.index(b" import ") + len(b" import ")
        while (found := raw.find(name.encode(), start)) >= 0:
            before = raw[found - 1 : found] if found else b" "
            after = raw[found + len(name.encode()) : found + len(name.encode()) + 1]
            if not (before.isalnum() or before == b"_") and not (after.isalnum() or after == b"_"):
                return number, found, found + len(name.encode()), new
            start = found + 1
    raise ValueError(f"{name} not found in its import")
