"""Load a schema tree once per run: what every job reads of every file.

Each file is parsed with positions and read by its draft (``$schema``, else ``default_draft``):
:mod:`codegen.core.resolve` finds its base URI and resolves every reference (by path, by
``$id``, by anchor, dynamically, or through the configured URL mappings; never the network),
and :mod:`codegen.core.translate` writes it in the internal form, draft 2020-12, which is what
:attr:`SchemaFile.data` holds. :attr:`SchemaFile.raw` keeps the document as written, and
:meth:`SchemaFile.loc` turns any internal pointer back into the file's line and column.
Files are read in a stable (sorted) order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from codegen.core.errors import Location, SchemaError
from codegen.core.filecache import read_bytes
from codegen.core.jsonparse import parse_schema
from codegen.core.jsonpos import JsonPositions, resolve_pointer
from codegen.core.names import Names, derive
from codegen.core.paths import rel_path
from codegen.core.resolve import LoadOptions, Problem, Resolved, Source, draft_of, resolve_sources
from codegen.core.tree import SchemaFile, SchemaTree, defs_titles, digest_bytes, is_class_name
from codegen.core.walk import (
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    iter_subschemas,
    joined,
    pointer_of,
)

__all__ = [
    "DRAFT_2020_12",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "LoadOptions",
    "SchemaFile",
    "SchemaTree",
    "check_refs",
    "digest_bytes",
    "is_class_name",
    "iter_subschemas",
    "load_texts",
    "load_tree",
    "parse_schema",
    "pointer_of",
    "schema_paths",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


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
    root: Path,
    *,
    reuse: SchemaTree | None = None,
    read: Mapping[str, bytes] | None = None,
    options: LoadOptions | None = None,
) -> SchemaTree:
    """Load and check every ``*.json`` file below ``root``.

    Raises :class:`SchemaError` for malformed JSON (with line and column), a file that is not
    a schema of its draft, a missing or duplicate ``$id`` or title, and any reference that
    names nothing, leaves ``root`` or names a URL no mapping of ``options`` leads to.
    ``reuse``: as :func:`load_texts`. ``read`` holds the bytes of files the caller read
    already, by POSIX path relative to ``root``.
    """
    if not root.is_dir():
        raise SchemaError(f"schema folder {root} does not exist", Location(root))
    texts: dict[PurePosixPath, bytes] = {}
    for name, path in schema_paths(root):
        raw = read[name] if read is not None and name in read else read_bytes(str(path))
        texts[rel_path(name)] = raw
    return load_texts(root, texts, reuse=reuse, options=options)


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
    root: Path,
    texts: Mapping[PurePosixPath, bytes],
    *,
    reuse: SchemaTree | None = None,
    options: LoadOptions | None = None,
) -> SchemaTree:
    """:func:`load_tree` of files given by relative path and content, as if below ``root``
    (the schema folder at a git revision is read this way, without writing it anywhere). A
    file of ``reuse`` (an earlier load of the same folder) whose bytes are the same is taken
    as it was parsed then, and as it was read then when nothing it was read from changed;
    every check runs again on the whole tree."""
    options = options or LoadOptions()
    earlier = reuse.by_rel if reuse is not None and reuse.root == root else {}
    parsed: dict[PurePosixPath, tuple[str, Any, JsonPositions]] = {}
    for rel in sorted(texts, key=PurePosixPath.as_posix):
        known = earlier.get(rel)
        if known is not None and known.digest_text == texts[rel]:
            parsed[rel] = (known.text, known.document, known.positions)
            continue
        text, data = parse_schema(root / rel, texts[rel])
        if not isinstance(data, dict):
            raise SchemaError("a schema file must hold a JSON object", Location(root / rel), "JSON")
        parsed[rel] = (text, data, JsonPositions(text))
    if not parsed:
        raise SchemaError(f"no *.json schema files below {root}", Location(root))
    sources = []
    base = root.resolve()
    for rel, (_, data, positions) in parsed.items():
        try:
            draft = draft_of(data, options.default_draft)
        except ValueError as exc:
            line, column = positions.line_col("/$schema")
            where = Location(root / rel, line, column, "/$schema")
            raise SchemaError(
                f"{exc}: use one of the JSON Schema drafts' metaschema URIs (draft-04 to 2020-12)",
                where,
                "DRAFT",
            ) from None
        sources.append(Source(rel, root / rel, (base / rel).as_uri(), data, draft))
    _check_unique_ids(root, sources, parsed)
    try:
        scanned = reuse.scans if reuse is not None and reuse.root == root else {}
        resolved, scans = resolve_sources(root, sources, options, scanned)
    except Problem as problem:
        raise _located(problem, parsed, root) from None
    names = derive(
        (r.source.rel, r.internal.data.get("title"), defs_titles(r.internal.data))
        for r in resolved
        if not r.source.external
    )
    files: list[SchemaFile] = []
    external: list[SchemaFile] = []
    for result in resolved:
        schema = _schema_file(result, parsed, earlier, names.get(result.source.rel))
        (external if schema.external else files).append(schema)
    return SchemaTree(root, tuple(files), tuple(external), scans)


def _check_unique_ids(
    root: Path,
    sources: list[Source],
    parsed: Mapping[PurePosixPath, tuple[str, Any, JsonPositions]],
) -> None:
    """No two files identify themselves by one ``$id`` (a reference to it would name both)."""
    seen: dict[str, PurePosixPath] = {}
    for source in sources:
        found = source.draft.specification.id_of(source.raw)
        if not isinstance(found, str) or not found:
            continue
        uri = found.rstrip("#")
        if uri in seen:
            key = "/id" if source.draft.keywords.get("id") else "/$id"
            line, column = parsed[source.rel][2].line_col(key)
            raise SchemaError(
                f"$id {found!r} is already used by {root / seen[uri]}: a reference to it would "
                "name both files",
                Location(root / source.rel, line, column, key),
                "ID_UNIQUE",
            )
        seen[uri] = source.rel


def _schema_file(
    result: Resolved,
    parsed: Mapping[PurePosixPath, tuple[str, Any, JsonPositions]],
    earlier: Mapping[PurePosixPath, SchemaFile],
    names: Names | None,
) -> SchemaFile:
    source, internal = result.source, result.internal
    plain = internal.data is source.raw and not result.dynamic and not internal.origin
    known = earlier.get(source.rel)
    if (
        plain
        and known is not None
        and known.raw is None
        and known.data is source.raw
        and known.draft is source.draft
        and known.names == names
    ):
        return known  # nothing it was read from changed: its cached views stay
    if source.external:
        text = source.text or json.dumps(source.raw, indent=2)
        positions = JsonPositions(text)
    else:
        text, _, positions = parsed[source.rel]
    return SchemaFile(
        source.path,
        source.rel,
        text,
        internal.data,
        positions,
        raw=None if plain else source.raw,
        draft=source.draft,
        origin=internal.origin,
        dynamic=result.dynamic,
        resources=result.resources,
        external=source.external,
        uri=source.uri,
        names=names,
    )


def _located(
    problem: Problem, parsed: Mapping[PurePosixPath, tuple[str, Any, JsonPositions]], root: Path
) -> SchemaError:
    path = root / problem.rel
    if problem.rel in parsed:
        line, column = parsed[problem.rel][2].line_col(problem.pointer)
        where = Location(path, line, column, problem.pointer)
        return SchemaError(problem.message, where, problem.rule)
    return SchemaError(f"{problem.message} (in {problem.rel})", Location(path), problem.rule)
