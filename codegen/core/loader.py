"""Load a schema tree: parse every file with positions, check identity and every ``$ref``.

Nothing here touches the network: a ``$ref`` that names a URL is refused, and so is one that
leaves the schema folder. Files are read in a stable (sorted) order.
"""

from __future__ import annotations

import hashlib
import keyword
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from codegen.core.errors import Location, SchemaError
from codegen.core.filecache import read_bytes
from codegen.core.jsonparse import parse_schema
from codegen.core.jsonpos import JsonPositions, resolve_pointer
from codegen.core.paths import rel_path
from codegen.core.walk import (
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    iter_subschemas,
    joined,
    pointer_of,
    ref_nodes,
)

__all__ = [
    "DRAFT_2020_12",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "SchemaFile",
    "SchemaTree",
    "check_refs",
    "digest_bytes",
    "iter_subschemas",
    "load_texts",
    "load_tree",
    "parse_schema",
    "pointer_of",
    "schema_paths",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def digest_bytes(data: bytes) -> bytes:
    """A file's bytes as the records' digests see them: CRLF line ends (what a Windows
    checkout writes, ``core.autocrlf``) read as LF, so that the same commit has the same
    records on every machine. Only whitespace between JSON tokens changes: a JSON string
    cannot hold a raw line end."""
    return data.replace(b"\r\n", b"\n")


@dataclass(frozen=True, eq=False)
class SchemaFile:
    """One schema file: its text, its parsed document and where each value sits in the text."""

    path: Path
    rel: PurePosixPath
    text: str
    data: dict[str, Any]
    positions: JsonPositions = field(repr=False)

    def loc(self, pointer: str = "") -> Location:
        """The location of ``pointer`` in this file, for error messages."""
        line, column = self.positions.line_col(pointer)
        return Location(self.path, line, column, pointer)

    @property
    def schema_id(self) -> str:
        return str(self.data.get("$id", ""))

    @property
    def title(self) -> str:
        return str(self.data.get("title", ""))

    @cached_property
    def module_parts(self) -> tuple[str, ...]:
        """The generated module path below the output package, e.g. ``("agents", "finding")``."""
        return (*self.rel.parent.parts, self.rel.stem)

    @cached_property
    def ref_nodes(self) -> tuple[tuple[tuple[str | int, ...], dict[str, Any]], ...]:
        """Every schema object holding ``$ref``, with its path of keys (:func:`pointer_of`),
        in the order :func:`iter_subschemas` finds them."""
        return tuple(ref_nodes(self.data))

    @cached_property
    def file_refs(self) -> tuple[str, ...]:
        """Every ``$ref`` of this file that names another file."""
        return tuple(
            node["$ref"]
            for _, node in self.ref_nodes
            if isinstance(node["$ref"], str) and not node["$ref"].startswith("#")
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

    @cached_property
    def by_rel(self) -> Mapping[PurePosixPath, SchemaFile]:
        return {f.rel: f for f in self.files}

    @cached_property
    def _by_name(self) -> Mapping[str, SchemaFile]:
        return {f.rel.as_posix(): f for f in self.files}

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
        """The files each file references directly."""
        references: dict[PurePosixPath, tuple[SchemaFile, ...]] = {}
        for schema in self.files:
            targets = (self.resolve(schema, ref)[0] for ref in schema.file_refs)
            references[schema.rel] = tuple({t.rel: t for t in targets}.values())
        return references

    def references(self, schema: SchemaFile) -> tuple[SchemaFile, ...]:
        """The files ``schema`` references directly (itself only if it names its own file)."""
        return self._references[schema.rel]

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


def _check_identity(schema: SchemaFile) -> None:
    data = schema.data
    if data.get("$schema") != DRAFT_2020_12:
        raise SchemaError(
            f"$schema must be {DRAFT_2020_12!r}", schema.loc("/$schema"), "DRAFT_2020_12"
        )
    for part in schema.module_parts:
        if not part.isidentifier() or keyword.iskeyword(part):
            raise SchemaError(
                f"{part!r} cannot be a Python module name: use snake_case file and folder names",
                schema.loc(),
                "MODULE_NAME",
            )
    if not isinstance(data.get("$id"), str) or not data["$id"]:
        raise SchemaError("a contract needs a stable $id", schema.loc(), "ID_PRESENT")
    title = data.get("title")
    if not isinstance(title, str) or not title.isidentifier() or not title[0].isupper():
        raise SchemaError(
            "title must be the Python class name (an identifier starting with a capital)",
            schema.loc("/title"),
            "TITLE_IS_CLASS_NAME",
        )


def check_refs(schema: SchemaFile, rels: set[PurePosixPath], files: dict[Any, SchemaFile]) -> None:
    """Refuse a ``$ref`` of ``schema`` that is remote, leaves the tree or names nothing."""
    for path, node in schema.ref_nodes:
        ref = node["$ref"]
        where = _LazyLocation(schema, f"{pointer_of(path)}/$ref")
        if not isinstance(ref, str):
            raise SchemaError("$ref must be a string", where.get(), "REF")
        parts = urlsplit(ref)
        if parts.scheme or parts.netloc:
            raise SchemaError(
                f"remote $ref {ref!r} is refused (no network is ever touched): "
                "reference a file in the schema folder by relative path",
                where.get(),
                "NO_REMOTE_REF",
            )
        target, _, fragment = ref.partition("#")
        if target:
            try:
                rel = PurePosixPath(joined(schema.folder, target))
            except ValueError:
                raise SchemaError(
                    f"$ref {ref!r} escapes the schema folder", where.get(), "REF_INSIDE_TREE"
                ) from None
            if rel not in rels or target.startswith("/"):
                raise SchemaError(f"$ref {ref!r} names no schema file", where.get(), "REF_RESOLVES")
            target_file = files[rel]
        else:
            target_file = schema
        if fragment and not _pointer_exists(target_file.data, unquote(fragment)):
            raise SchemaError(
                f"$ref {ref!r}: {fragment!r} does not exist in {target_file.rel}",
                where.get(),
                "REF_RESOLVES",
            )


@dataclass(frozen=True, slots=True)
class _LazyLocation:
    """A location computed only when an error needs it (positions cost a scan of the text)."""

    schema: SchemaFile
    pointer: str

    def get(self) -> Location:
        return self.schema.loc(self.pointer)


def _pointer_exists(document: Any, pointer: str) -> bool:
    if pointer and not pointer.startswith("/"):
        return False
    try:
        resolve_pointer(document, pointer)
    except LookupError:
        return False
    return True


def load_tree(
    root: Path, *, reuse: SchemaTree | None = None, read: Mapping[str, bytes] | None = None
) -> SchemaTree:
    """Load and check every ``*.json`` file below ``root``.

    Raises :class:`SchemaError` for malformed JSON (with line and column), a missing or
    duplicate ``$id`` or title, and any ``$ref`` that is remote, escapes ``root`` or dangles.
    ``reuse``: as :func:`load_texts`. ``read`` holds the bytes of files the caller read
    already, by POSIX path relative to ``root``.
    """
    if not root.is_dir():
        raise SchemaError(f"schema folder {root} does not exist", Location(root))
    texts: dict[PurePosixPath, bytes] = {}
    for name, path in schema_paths(root):
        raw = read[name] if read is not None and name in read else read_bytes(str(path))
        texts[rel_path(name)] = raw
    return load_texts(root, texts, reuse=reuse)


def schema_paths(root: Path) -> list[tuple[str, Path]]:
    """Every ``*.json`` file below ``root`` by POSIX path relative to it, sorted; a folder
    reached through a symbolic link is not entered, and a file that is a link must stay
    inside ``root`` (:class:`SchemaError`)."""
    found: list[tuple[str, Path]] = []
    resolved: Path | None = None
    pending = [(root, "")] if root.is_dir() else []
    while pending:
        folder, prefix = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir() and not entry.is_symlink():
                    pending.append((Path(entry.path), f"{prefix}{entry.name}/"))
                elif entry.name.endswith(".json") and entry.is_file():
                    path = Path(entry.path)
                    if entry.is_symlink():
                        resolved = resolved or root.resolve()
                        if not path.resolve().is_relative_to(resolved):
                            raise SchemaError(
                                "schema file links outside the schema folder", Location(path)
                            )
                    found.append((prefix + entry.name, path))
    return sorted(found)


def load_texts(
    root: Path, texts: Mapping[PurePosixPath, bytes], *, reuse: SchemaTree | None = None
) -> SchemaTree:
    """:func:`load_tree` of files given by relative path and content, as if below ``root``
    (the schema folder at a git revision is read this way, without writing it anywhere). A
    file of ``reuse`` (an earlier load of the same folder) whose bytes are the same is taken
    as it was parsed then; every check runs again on the whole tree."""
    earlier = reuse.by_rel if reuse is not None and reuse.root == root else {}
    files: dict[PurePosixPath, SchemaFile] = {}
    for rel in sorted(texts, key=PurePosixPath.as_posix):
        path = root / rel
        known = earlier.get(rel)
        if known is not None and known.digest_text == texts[rel]:
            files[rel] = known
            continue
        text, data = parse_schema(path, texts[rel])
        if not isinstance(data, dict):
            raise SchemaError("a schema file must hold a JSON object", Location(path), "JSON")
        files[rel] = SchemaFile(path, rel, text, data, JsonPositions(text))
    if not files:
        raise SchemaError(f"no *.json schema files below {root}", Location(root))
    seen_ids: dict[str, SchemaFile] = {}
    seen_titles: dict[str, SchemaFile] = {}
    for schema in files.values():
        _check_identity(schema)
        for seen, key, rule in (
            (seen_ids, schema.schema_id, "ID_UNIQUE"),
            (seen_titles, schema.title, "TITLE_UNIQUE"),
        ):
            if key in seen:
                raise SchemaError(
                    f"{key!r} is already used by {seen[key].path}", schema.loc(), rule
                )
            seen[key] = schema
    rels = set(files)
    for schema in files.values():
        check_refs(schema, rels, files)
    return SchemaTree(root, tuple(files.values()))
