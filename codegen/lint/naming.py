"""Lint checks of the names a schema folder generates (:mod:`codegen.core.names`).

``generate`` derives a name wherever the schema gives none it can use: a class name from a title
that is no class name, or from the file name; a module name from a file name that is no module
name; a number when two files (or classes) would take one name. The lint says where it did:

* ``TITLE_UNIQUE`` and ``MODULE_NAME_UNIQUE`` (every project): a class or module name that had
  to be numbered, because another file or ``$defs`` entry takes its name first (in path order):
  a file added, removed or renamed can change it, and with it every import of it; or because
  the generated module uses that name (``Field``, ``Any``: ``codegen.core.names.RESERVED``).
* ``TITLE_IS_CLASS_NAME`` and ``FILE_NAME_MATCHES_TITLE`` (house rules): a name the generator
  derived because the schema's own is no Python name, or a file named otherwise than its class.

Rows of :data:`codegen.lint.table.LINT_RULES` point here; every finding says what to change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codegen.core.loader import SchemaFile
from codegen.core.names import RESERVED, class_name, is_class_name, module_name
from codegen.core.report import Finding
from codegen.core.tree import defs_titles
from codegen.lint.engine import LintContext

__all__ = [
    "file_name_matches_title",
    "module_name_unique",
    "snake_case",
    "title_is_class_name",
    "title_unique",
]


def snake_case(name: str) -> str:
    """``FixerResult`` -> ``fixer_result``; ``HTTPResult`` -> ``http_result``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def _stem(name: str) -> str:
    return name[: -len(".json")] if name.endswith(".json") else name


def _classes(schema: SchemaFile) -> Iterator[tuple[str, str, object, str]]:
    """Each class ``schema`` generates: its pointer, the place its name comes from (its title,
    else the node), its title, and the name it would have without a collision."""
    data = schema.data
    title = data.get("title")
    yield "", "/title" if "title" in data else "", title, class_name(title, _stem(schema.rel.name))
    defs = defs_titles(data)
    for pointer in schema.classes:
        if pointer in defs:
            entry_title, key, _ = defs[pointer]
            where = f"{pointer}/title" if entry_title is not None else pointer
            yield pointer, where, entry_title, class_name(entry_title, key)


def title_is_class_name(ctx: LintContext) -> Iterator[Finding]:
    """A contract's (or titled ``$defs`` entry's) title that is no Python class name."""
    for schema in ctx.tree.files:
        for pointer, where, title, _ in _classes(schema):
            name = schema.classes[pointer]
            if pointer and title is None:
                continue  # an untitled $defs entry is named by its key: no house rule asks more
            if title is None:
                message = (f"the contract has no title: its class is named {name!r} from the "
                           f'file name; add "title": "{name}"')  # fmt: skip
            elif not is_class_name(title):
                message = (f"title {title!r} is no Python class name (an identifier starting "
                           f"with a capital): the class is generated as {name!r}; make the "
                           f"title {name!r}")  # fmt: skip
            else:
                continue
            yield ctx.finding(schema, where, "TITLE_IS_CLASS_NAME", message)


def title_unique(ctx: LintContext) -> Iterator[Finding]:
    """A class name that had to be numbered: another file or ``$defs`` entry takes it first."""
    owners: dict[str, tuple[SchemaFile, str]] = {}
    for schema in ctx.tree.files:
        for pointer, name in schema.classes.items():
            owners.setdefault(name, (schema, pointer))
    for schema in ctx.tree.files:
        for pointer, where, _, wanted in _classes(schema):
            name = schema.classes[pointer]
            if name != wanted and wanted in RESERVED:
                message = (
                    f"class name {wanted!r} is a name the generated module uses (an import of "
                    f"pydantic, typing or the package's helpers): it is generated as {name!r}; "
                    "give it another title"
                )
                yield ctx.finding(schema, where, "TITLE_UNIQUE", message)
                continue
            if name == wanted or wanted not in owners:
                continue
            other, at = owners[wanted]
            place = ctx.shown(other) + (f" at {other.file_pointer(at)}" if at else "")
            message = (
                f"class name {wanted!r} is generated from {place} already: this one is numbered "
                f"{name!r} (in the order of files and pointers), a name that adding, removing or "
                "renaming a file can change; give one of them another title"
            )
            yield ctx.finding(schema, where, "TITLE_UNIQUE", message)


def module_name_unique(ctx: LintContext) -> Iterator[Finding]:
    """A module (or package folder) name that had to be numbered: a file or folder of the same
    folder takes it first (in path order)."""
    owners: dict[tuple[str, ...], str] = {}
    for schema in ctx.tree.files:
        parts = schema.rel.parts
        for depth in range(1, len(parts) + 1):
            owners.setdefault(schema.module_parts[:depth], _shown(ctx, schema, depth))
    reported: set[tuple[str, ...]] = set()
    for schema in ctx.tree.files:
        parts = schema.rel.parts
        for depth in range(1, len(parts) + 1):
            made = schema.module_parts[:depth]
            wanted = (*made[:-1], module_name(_stem(parts[depth - 1])))
            if made == wanted or made in reported or wanted not in owners:
                continue
            reported.add(made)
            message = (
                f"{_shown(ctx, schema, depth)} generates module {'.'.join(made)!r}, numbered: "
                f"{'.'.join(wanted)!r} is generated from {owners[wanted]} already (in path "
                "order), a name that adding, removing or renaming a file can change; rename one "
                "of them"
            )
            yield ctx.finding(schema, "", "MODULE_NAME_UNIQUE", message)


def _shown(ctx: LintContext, schema: SchemaFile, depth: int) -> str:
    """The file (or its folder ``depth`` parts deep) as findings show it."""
    parts = schema.rel.parts
    prefix = ctx.shown(schema)[: -len(schema.rel.as_posix())]
    return prefix + "/".join(parts[:depth]) + ("" if depth == len(parts) else "/")


def file_name_matches_title(ctx: LintContext) -> Iterator[Finding]:
    """File and folder names that are module names: the snake_case of the class a file holds."""
    folders: set[tuple[str, ...]] = set()  # each folder reported once
    for schema in ctx.tree.files:
        for depth, written in enumerate(schema.rel.parts, 1):
            stem = _stem(written)
            if module_name(stem) != stem and schema.rel.parts[:depth] not in folders:
                if depth < len(schema.rel.parts):
                    folders.add(schema.rel.parts[:depth])
                kind = "file" if written.endswith(".json") else "folder"
                message = (
                    f"{kind} name {written!r} is no Python module name: it generates "
                    f"{module_name(stem)!r}; rename it {written.replace(stem, module_name(stem))!r}"
                )
                yield ctx.finding(schema, "", "FILE_NAME_MATCHES_TITLE", message)
        title = schema.data.get("title")
        if isinstance(title, str):
            name = class_name(title, _stem(schema.rel.name))  # as named before any numbering
            wanted = snake_case(name) + ".json"
            if schema.rel.name != wanted:
                message = (f"file name {schema.rel.name!r} must be {wanted!r}, the snake_case "
                           f"of its class {name!r}")  # fmt: skip
                yield ctx.finding(schema, "/title", "FILE_NAME_MATCHES_TITLE", message)
