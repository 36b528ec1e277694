"""A loaded schema tree: each file as written and as every job reads it, and lookups.

:class:`SchemaFile` is one file (its text, positions, draft, the document as written and its
internal form); :class:`SchemaTree` the files of a schema folder and the documents their
references reach outside it. :mod:`codegen.core.loader` builds them, once per run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from codegen.core.drafts import DEFAULT_DRAFT, Draft
from codegen.core.errors import Location
from codegen.core.jsonpos import JsonPositions, escape_pointer
from codegen.core.names import Names, derive, is_class_name
from codegen.core.schema_paths import digest_bytes
from codegen.core.walk import joined, ref_nodes

__all__ = [
    "SchemaFile",
    "SchemaTree",
    "defs_titles",
    "digest_bytes",
    "is_class_name",
    "object_only",
    "objects_class",
]


@dataclass(frozen=True, eq=False)
class SchemaFile:
    """One schema file: its text, its parsed document and where each value sits in the text."""

    path: Path
    rel: PurePosixPath
    text: str
    data: dict[str, Any]  # the internal form (draft 2020-12, references by path and pointer)
    positions: JsonPositions = field(repr=False)
    raw: Any = field(default=None, repr=False)  # as written (None: the same as data)
    draft: Draft = DEFAULT_DRAFT
    origin: Mapping[str, str] = field(default_factory=dict, repr=False)  # internal -> file
    # Each $dynamicRef's internal pointer -> the dynamic anchor it looks for (None: as $ref).
    dynamic: Mapping[str, str | None] = field(default_factory=dict, repr=False)
    # Each resource's internal pointer -> its dynamic anchors -> their internal pointers.
    resources: Mapping[str, Mapping[str, str]] = field(default_factory=dict, repr=False)
    external: bool = False  # reached through a URL mapping or a metaschema: never generated
    uri: str = ""
    names: Names | None = field(default=None, repr=False)  # derived over the tree

    @property
    def document(self) -> Any:
        """The document as written."""
        return self.data if self.raw is None else self.raw

    def file_pointer(self, pointer: str) -> str:
        """The pointer of the file's own text that internal ``pointer`` comes from."""
        if not self.origin:
            return pointer
        head, tail = pointer, ""
        while head:
            if head in self.origin:
                return self.origin[head] + tail
            head, _, token = head.rpartition("/")
            tail = f"/{token}{tail}"
        return pointer

    def loc(self, pointer: str = "") -> Location:
        """The location of internal ``pointer`` in this file, for error messages."""
        return self.loc_in_file(self.file_pointer(pointer))

    def loc_in_file(self, pointer: str = "") -> Location:
        """The location of ``pointer`` of the file as written."""
        line, column = self.positions.line_col(pointer)
        return Location(self.path, line, column, pointer)

    @property
    def schema_id(self) -> str:
        return str(self.data.get("$id", ""))

    @property
    def identity(self) -> str:
        """What names this file from one version of the tree to the next: its ``$id``, else
        its path below the schema folder."""
        return self.schema_id or self.rel.as_posix()

    @property
    def title(self) -> str:
        """The contract's class name (its title when that is a class name: :mod:`names`)."""
        return self.classes[""]

    @property
    def classes(self) -> Mapping[str, str]:
        """The generated classes of this file: internal pointer -> class name. The root is the
        contract; a ``$defs`` entry whose title is a class name is one too."""
        return self._names.classes

    @property
    def module_parts(self) -> tuple[str, ...]:
        """The generated module path below the output package, e.g. ``("agents", "finding")``."""
        return self._names.module_parts

    @cached_property
    def _names(self) -> Names:
        """The names the loader derived over the whole tree, else this file's alone."""
        if self.names is not None:
            return self.names
        return derive([(self.rel, self.data.get("title"), defs_titles(self.data))])[self.rel]

    @cached_property
    def ref_nodes(self) -> tuple[tuple[tuple[str | int, ...], dict[str, Any]], ...]:
        """Every schema object holding ``$ref``, with its path of keys (:func:`pointer_of`),
        in the order :func:`iter_subschemas` finds them."""
        return tuple(ref_nodes(self.data))

    @cached_property
    def file_refs(self) -> tuple[str, ...]:
        """Every ``$ref`` (and ``$dynamicRef``) of this file that names another file."""
        dynamic = (n for _, n in ref_nodes(self.data, "$dynamicRef")) if self.dynamic else ()
        return tuple(
            node[key]
            for key, nodes in (("$ref", (n for _, n in self.ref_nodes)), ("$dynamicRef", dynamic))
            for node in nodes
            if isinstance(node[key], str) and not node[key].startswith("#")
        )

    @cached_property
    def folder(self) -> str:
        """The folder of this file below the schema folder, POSIX form (``""`` at the top)."""
        parent = self.rel.parent.as_posix()
        return "" if parent == "." else parent

    @cached_property
    def digest_text(self) -> bytes:
        return self.text.encode("utf-8")

    @cached_property
    def sha256(self) -> bytes:
        """The SHA-256 of the file's bytes (:func:`digest_bytes`)."""
        return hashlib.sha256(digest_bytes(self.digest_text)).digest()


@dataclass(frozen=True, eq=False)
class SchemaTree:
    """Every schema file below one folder, with lookups by relative path."""

    root: Path
    files: tuple[SchemaFile, ...]
    # The documents reached outside the schema folder (URL mappings, metaschemas), by
    # ``~remote/<host>/<path>``: read and checked, never generated.
    external: tuple[SchemaFile, ...] = ()
    # How each file was read (codegen.core.resolve.Scan): a later load of the folder reads
    # again only the files that changed.
    scans: Mapping[Any, Any] = field(default_factory=dict, repr=False)
    # The files [tool.maverick-codegen] exclude leaves out, each with the entry that does.
    excluded: Mapping[PurePosixPath, str] = field(default_factory=dict)
    # [tool.maverick-codegen] formats = "assert": ``format`` is a validation keyword.
    asserts_formats: bool = False

    @cached_property
    def by_rel(self) -> Mapping[PurePosixPath, SchemaFile]:
        return {f.rel: f for f in (*self.files, *self.external)}

    @cached_property
    def _by_name(self) -> Mapping[str, SchemaFile]:
        return {f.rel.as_posix(): f for f in (*self.files, *self.external)}

    @cached_property
    def dynamic_names(self) -> frozenset[str]:
        """The dynamic anchors the tree's dynamic references look for (``$dynamicRef`` to a
        ``$dynamicAnchor``, 2019-09's ``$recursiveRef``)."""
        return frozenset(n for f in self.by_rel.values() for n in f.dynamic.values() if n)

    @property
    def dynamic(self) -> bool:
        """Whether a reference of the tree is dynamic (its target depends on the path taken)."""
        return bool(self.dynamic_names)

    @cached_property
    def by_title(self) -> Mapping[str, SchemaFile]:
        return {f.title: f for f in self.files}

    def resolve(self, source: SchemaFile, ref: str) -> tuple[SchemaFile, str]:
        """The file and JSON pointer that ``ref`` (already checked by :func:`load_tree`) names."""
        target, _, fragment = ref.partition("#")
        if not target:
            return source, unquote(fragment)
        return self._by_name[joined(source.folder, target)], unquote(fragment)

    @cached_property
    def _references(self) -> Mapping[PurePosixPath, tuple[SchemaFile, ...]]:
        """The files each file references directly (external ones included)."""
        references: dict[PurePosixPath, tuple[SchemaFile, ...]] = {}
        for schema in (*self.files, *self.external):
            targets = (self.resolve(schema, ref)[0] for ref in schema.file_refs)
            references[schema.rel] = tuple({t.rel: t for t in targets}.values())
        return references

    def references(self, schema: SchemaFile, *, external: bool = False) -> tuple[SchemaFile, ...]:
        """The files of the schema folder ``schema`` references directly (itself only if it
        names its own file); with ``external``, the documents outside it too."""
        found = self._references[schema.rel]
        return (
            tuple(t for t in found if not t.external) if self.external and not external else found
        )

    @cached_property
    def _closures(self) -> dict[PurePosixPath, tuple[SchemaFile, ...]]:
        return {}

    def closure(self, start: SchemaFile) -> list[SchemaFile]:
        """``start`` and every file it references, directly or not, in a stable order."""
        found = self._closures.get(start.rel)
        if found is None:
            seen: dict[PurePosixPath, SchemaFile] = {}
            pending = [start]
            while pending:
                current = pending.pop()
                if current.rel in seen:
                    continue
                seen[current.rel] = current
                pending.extend(self._references[current.rel])
            found = tuple(sorted(seen.values(), key=lambda f: f.rel.parts))
            self._closures[start.rel] = found
        return list(found)


def defs_titles(data: Any) -> dict[str, tuple[object, str, bool]]:
    """Each ``$defs`` entry of a document by pointer (in the document's order): its title, its
    key, and whether it is an object schema."""
    defs = data.get("$defs") if isinstance(data, dict) else None
    found: dict[str, tuple[object, str, bool]] = {}
    for name, entry in (defs if isinstance(defs, dict) else {}).items():
        if isinstance(entry, dict):
            found[f"/$defs/{escape_pointer(name)}"] = (
                entry.get("title"),
                name,
                entry.get("type") == "object" or object_only(entry),
            )
    return found


# What makes a definition with properties a reference, a union or a type of its own.
_NOT_OBJECT_ONLY = frozenset(
    {"type", "$ref", "$dynamicRef", "$recursiveRef", "anyOf", "oneOf", "const", "enum"}
)


def object_only(entry: Any) -> bool:
    """Whether a schema without a type declares ``properties`` (and none of the keywords that
    make it a reference or a union): its objects are a class of their own."""
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("properties"), dict)
        and not _NOT_OBJECT_ONLY & set(entry)
    )


# What makes a node with properties but no type a reference, a literal or a type of its own.
_NOT_A_CLASS = frozenset({"type", "$ref", "$dynamicRef", "$recursiveRef", "const", "enum"})
# What a branch of a union says of its type, when it says something.
_SAYS_TYPE = frozenset({"type", "$ref", "const", "enum", "properties"})


def objects_class(node: Any) -> bool:
    """Whether a node without a type declares ``properties`` and is typed by them: its objects
    are a class of its own (the values it admits besides, the other JSON types). Not when it is
    a reference, a literal, or a union each of whose branches says a type of its own (then the
    union types it)."""
    if not (isinstance(node, dict) and isinstance(node.get("properties"), dict)):
        return False
    if _NOT_A_CLASS & set(node):
        return False
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if (
            isinstance(branches, list)
            and branches
            and all(isinstance(b, dict) and _SAYS_TYPE & set(b) for b in branches)
        ):
            return False
    return True
