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
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from codegen.core.errors import Location, SchemaError
from codegen.core.exclude import Exclude
from codegen.core.filecache import read_bytes
from codegen.core.jsonparse import parse_schema
from codegen.core.jsonpos import JsonPositions
from codegen.core.names import Names, derive
from codegen.core.paths import rel_path
from codegen.core.resolve import LoadOptions, Problem, Resolved, Source, draft_of, resolve_sources
from codegen.core.schema_paths import digest_bytes, excluded_paths, schema_paths
from codegen.core.tree import SchemaFile, SchemaTree, defs_titles, is_class_name
from codegen.core.walk import (
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    iter_subschemas,
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
    "digest_bytes",
    "duplicate_ids",
    "excluded_paths",
    "is_class_name",
    "iter_subschemas",
    "load_texts",
    "load_tree",
    "parse_schema",
    "pointer_of",
    "schema_paths",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def load_tree(
    root: Path,
    *,
    reuse: SchemaTree | None = None,
    read: Mapping[str, bytes] | None = None,
    options: LoadOptions | None = None,
    problems: list[Problem] | None = None,
) -> SchemaTree:
    """Load and check every ``*.json`` file below ``root``.

    Raises :class:`SchemaError` for malformed JSON (with line and column), a file that is not
    a schema of its draft, a missing or duplicate ``$id`` or title, and any reference that
    names nothing, leaves ``root`` or names a URL no mapping of ``options`` leads to.
    ``reuse``: as :func:`load_texts`. ``read`` holds the bytes of files the caller read
    already, by POSIX path relative to ``root``. ``problems``: as :func:`load_texts`.
    """
    if not root.is_dir():
        raise SchemaError(f"schema folder {root} does not exist", Location(root))
    exclude = options.exclude if options is not None else Exclude()
    texts: dict[PurePosixPath, bytes] = {}
    for name, path in schema_paths(root):
        if exclude.entry(name) is not None:
            texts[rel_path(name)] = b""  # never read: load_texts leaves it out
            continue
        raw = read[name] if read is not None and name in read else read_bytes(str(path))
        texts[rel_path(name)] = raw
    return load_texts(root, texts, reuse=reuse, options=options, problems=problems)


def load_texts(
    root: Path,
    texts: Mapping[PurePosixPath, bytes],
    *,
    reuse: SchemaTree | None = None,
    options: LoadOptions | None = None,
    problems: list[Problem] | None = None,
) -> SchemaTree:
    """:func:`load_tree` of files given by relative path and content, as if below ``root``
    (the schema folder at a git revision is read this way, without writing it anywhere). A
    file of ``reuse`` (an earlier load of the same folder) whose bytes are the same is taken
    as it was parsed then, and as it was read then when nothing it was read from changed;
    every check runs again on the whole tree.

    ``problems`` (the permissive reading): every problem is appended there and the tree is
    read on (:func:`codegen.core.resolve.resolve_sources`): a file that is not a readable JSON
    object is left out (its problem is :attr:`~codegen.core.resolve.Problem.unreadable`), an
    unknown ``$schema`` is read as ``default_draft``; a duplicate ``$id`` is left to the
    caller (:func:`duplicate_ids`).

    The files ``options.exclude`` names are left out (:attr:`SchemaTree.excluded`), and a
    reference to one is a problem (``REF_EXCLUDED``)."""
    options = options or LoadOptions()
    earlier = reuse.by_rel if reuse is not None and reuse.root == root else {}
    parsed, excluded, absent = _parse(root, texts, options.exclude, earlier, problems)
    sources = []
    base = root.resolve()
    for rel, (_, data, _) in parsed.items():
        try:
            draft = draft_of(data, options.default_draft)
        except ValueError as exc:
            message = (
                f"{exc}: use one of the JSON Schema drafts' metaschema URIs (draft-04 to 2020-12)"
            )
            unknown = Problem(rel, "/$schema", message, "DRAFT")
            if problems is None:
                raise _located(unknown, parsed, root) from None
            problems.append(unknown)
            draft = options.default_draft
        sources.append(Source(rel, root / rel, (base / rel).as_uri(), data, draft))
    if problems is None:
        for duplicate in duplicate_ids(sources):
            raise _located(duplicate, parsed, root)
    try:
        scanned = reuse.scans if reuse is not None and reuse.root == root else {}
        resolved, scans = resolve_sources(root, sources, options, scanned, problems, absent=absent)
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
    asserts = options.asserts_formats
    return SchemaTree(root, tuple(files), tuple(external), scans, excluded, asserts_formats=asserts)


_Parsed = dict[PurePosixPath, tuple[str, Any, JsonPositions]]
_EXCLUDED = (
    "[tool.maverick-codegen] exclude leaves out ({!r}): exclude this file too, or take that one "
    "out of exclude"
)


def _parse(
    root: Path,
    texts: Mapping[PurePosixPath, bytes],
    exclude: Exclude,
    earlier: Mapping[PurePosixPath, SchemaFile],
    problems: list[Problem] | None,
) -> tuple[_Parsed, dict[PurePosixPath, str], dict[PurePosixPath, tuple[str, str]]]:
    """Each file's text, document and positions (as ``earlier`` parsed it when its bytes are
    the same); the files ``exclude`` leaves out, by the entry that does; and the files not
    read (excluded, or with ``problems``, unreadable), each with why and the rule of a
    reference to it."""
    parsed: _Parsed = {}
    excluded: dict[PurePosixPath, str] = {}
    absent: dict[PurePosixPath, tuple[str, str]] = {}
    for rel in sorted(texts, key=PurePosixPath.as_posix):
        entry = exclude.entry(rel.as_posix())
        if entry is not None:
            excluded[rel] = entry
            absent[rel] = (_EXCLUDED.format(entry), "REF_EXCLUDED")
            continue
        known = earlier.get(rel)
        if known is not None and known.digest_text == texts[rel]:
            parsed[rel] = (known.text, known.document, known.positions)
            continue
        try:
            text, data = parse_schema(root / rel, texts[rel])
            if not isinstance(data, dict):
                raise SchemaError(
                    "a schema file must hold a JSON object", Location(root / rel), "JSON"
                )
        except SchemaError as exc:
            if problems is None:
                raise
            where = exc.location or Location(root / rel)
            problems.append(Problem(rel, "", exc.message, exc.rule, at=(where.line, where.column)))
            absent[rel] = (f"cannot be read ({exc.message})", "REF_REFUSED")
            continue
        parsed[rel] = (text, data, JsonPositions(text))
    if not texts:
        raise SchemaError(f"no *.json schema files below {root}", Location(root))
    if len(excluded) == len(texts):
        raise SchemaError(
            f"every *.json schema file below {root} is excluded ([tool.maverick-codegen] exclude)",
            Location(root),
        )
    return parsed, excluded, absent


def duplicate_ids(sources: Iterable[Source | SchemaFile]) -> list[Problem]:
    """Each file that identifies itself by an ``$id`` an earlier file has (a reference to it
    would name both), in the order given."""
    seen: dict[str, PurePosixPath] = {}
    found: list[Problem] = []
    for source in sources:
        raw = source.raw if isinstance(source, Source) else source.document
        given = source.draft.specification.id_of(raw)
        if not isinstance(given, str) or not given:
            continue
        uri = given.rstrip("#")
        if uri in seen:
            key = "/id" if source.draft.keywords.get("id") else "/$id"
            found.append(Problem(source.rel, key, f"$id {given!r} is already used by "
                                 f"{seen[uri]}: a reference to it would name both files: give "
                                 "each file its own $id", "ID_UNIQUE"))  # fmt: skip
        else:
            seen[uri] = source.rel
    return found


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
    if problem.at is not None:
        return SchemaError(problem.message, Location(path, *problem.at), problem.rule)
    if problem.rel in parsed:
        line, column = parsed[problem.rel][2].line_col(problem.pointer)
        where = Location(path, line, column, problem.pointer)
        return SchemaError(problem.message, where, problem.rule)
    return SchemaError(f"{problem.message} (in {problem.rel})", Location(path), problem.rule)
