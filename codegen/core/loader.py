"""Load a schema tree: parse every file with positions, check identity and every ``$ref``.

Nothing here touches the network: a ``$ref`` that names a URL is refused, and so is one that
leaves the schema folder. Files are read in a stable (sorted) order.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from codegen.core.errors import Location, SchemaError
from codegen.core.jsonpos import JsonPositions, escape_pointer, resolve_pointer

__all__ = [
    "DRAFT_2020_12",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "SchemaFile",
    "SchemaTree",
    "check_refs",
    "iter_subschemas",
    "load_texts",
    "load_tree",
    "parse_schema",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


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

    @property
    def module_parts(self) -> tuple[str, ...]:
        """The generated module path below the output package, e.g. ``("agents", "finding")``."""
        return (*self.rel.parent.parts, self.rel.stem)

    @cached_property
    def file_refs(self) -> tuple[str, ...]:
        """Every ``$ref`` of this file that names another file."""
        return tuple(
            node["$ref"]
            for _, node in iter_subschemas(self.data)
            if isinstance(node.get("$ref"), str) and not node["$ref"].startswith("#")
        )

    @cached_property
    def digest_text(self) -> bytes:
        return self.text.encode("utf-8")


@dataclass(frozen=True, eq=False)
class SchemaTree:
    """Every schema file below one folder, with lookups by relative path."""

    root: Path
    files: tuple[SchemaFile, ...]

    @cached_property
    def by_rel(self) -> Mapping[PurePosixPath, SchemaFile]:
        return {f.rel: f for f in self.files}

    @cached_property
    def by_title(self) -> Mapping[str, SchemaFile]:
        return {f.title: f for f in self.files}

    def resolve(self, source: SchemaFile, ref: str) -> tuple[SchemaFile, str]:
        """The file and JSON pointer that ``ref`` (already checked by :func:`load_tree`) names."""
        target, _, fragment = ref.partition("#")
        if not target:
            return source, unquote(fragment)
        rel = _normalize(source.rel.parent / target)
        return self.by_rel[rel], unquote(fragment)

    @cached_property
    def _references(self) -> Mapping[PurePosixPath, tuple[SchemaFile, ...]]:
        """The files each file references directly."""
        references: dict[PurePosixPath, tuple[SchemaFile, ...]] = {}
        for schema in self.files:
            targets = (self.resolve(schema, ref)[0] for ref in schema.file_refs)
            references[schema.rel] = tuple({t.rel: t for t in targets}.values())
        return references

    def closure(self, start: SchemaFile) -> list[SchemaFile]:
        """``start`` and every file it references, directly or not, in a stable order."""
        seen: dict[PurePosixPath, SchemaFile] = {}
        pending = [start]
        while pending:
            current = pending.pop()
            if current.rel in seen:
                continue
            seen[current.rel] = current
            pending.extend(self._references[current.rel])
        return [seen[rel] for rel in sorted(seen)]


# Keywords whose value is one subschema, a map of names to subschemas, or a list of them.
SCHEMA_ONE = ("items", "additionalProperties", "unevaluatedProperties", "not", "if", "then",
              "else", "contains", "propertyNames", "unevaluatedItems")  # fmt: skip
SCHEMA_MAP = ("properties", "$defs", "dependentSchemas", "patternProperties")
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


MAX_DEPTH = 100
"""How deeply a schema document may nest (objects and arrays): far beyond any contract, and
well within what recursive code (this generator's, datamodel-code-generator's) can walk."""


def iter_subschemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object of a document with its pointer, parents before children.

    Keyword-aware: only the values of the applicator keywords above are entered, so a property
    *named* ``$ref`` is never taken for a reference, and data (``examples``, ``default``,
    ``const``, ``enum``) is never taken for schemas.
    """
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key, value in node.items():
        here = f"{pointer}/{escape_pointer(key)}"
        if key in SCHEMA_ONE:
            yield from iter_subschemas(value, here)
        elif key in SCHEMA_MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield from iter_subschemas(sub, f"{here}/{escape_pointer(name)}")
        elif key in SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from iter_subschemas(sub, f"{here}/{index}")


def _normalize(path: PurePosixPath) -> PurePosixPath:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if not parts:
                raise ValueError("escapes the schema folder")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return PurePosixPath(*parts)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def parse_schema(path: Path, raw: bytes) -> tuple[str, Any]:
    """Decode and parse one schema file; :class:`SchemaError` with line and column if bad."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SchemaError("file is not valid UTF-8", Location(path, line, column), "JSON") from exc
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except RecursionError:
        raise SchemaError(
            f"the document is nested too deeply (a schema may nest {MAX_DEPTH} levels)",
            Location(path),
            "JSON",
        ) from None
    except json.JSONDecodeError as exc:
        raise SchemaError(
            f"malformed JSON: {exc.msg}", Location(path, exc.lineno, exc.colno), "JSON"
        ) from exc
    except ValueError as exc:
        raise SchemaError(f"malformed JSON: {exc}", _duplicate_at(path, text, exc), "JSON") from exc
    pointer = _too_deep(data)
    if pointer is not None:
        line, column = JsonPositions(text).line_col(pointer)
        raise SchemaError(
            f"the document is nested too deeply (a schema may nest {MAX_DEPTH} levels)",
            Location(path, line, column, pointer),
            "JSON",
        )
    return text, data


def _too_deep(document: Any) -> str | None:
    """The pointer of the first value nested deeper than :data:`MAX_DEPTH`, or None."""
    pending: list[tuple[Any, str, int]] = [(document, "", 0)]
    while pending:
        value, pointer, depth = pending.pop()
        if depth > MAX_DEPTH:
            return pointer
        if isinstance(value, dict):
            pending += [(v, f"{pointer}/{escape_pointer(k)}", depth + 1) for k, v in value.items()]
        elif isinstance(value, list):
            pending += [(v, f"{pointer}/{i}", depth + 1) for i, v in enumerate(value)]
    return None


def _duplicate_at(path: Path, text: str, error: ValueError) -> Location:
    """Where the duplicate key that ``error`` names is written (the file, for other errors)."""
    if not str(error).startswith("duplicate key"):
        return Location(path)
    try:
        duplicates = JsonPositions(text).duplicate_keys()
    except (ValueError, IndexError):
        return Location(path)
    key = escape_pointer(str(error).removeprefix("duplicate key ").strip("'\""))
    named = [d for d in duplicates if d[0].rsplit("/", 1)[-1] == key] or duplicates
    if not named:
        return Location(path)
    pointer, line, column = named[0]
    return Location(path, line, column, pointer)


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
    for pointer, node in iter_subschemas(schema.data):
        ref = node.get("$ref")
        if ref is None:
            continue
        if not isinstance(ref, str):
            raise SchemaError("$ref must be a string", schema.loc(f"{pointer}/$ref"), "REF")
        where = _LazyLocation(schema, f"{pointer}/$ref")
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
                rel = _normalize(schema.rel.parent / target)
            except ValueError:
                raise SchemaError(
                    f"$ref {ref!r} escapes the schema folder", where.get(), "REF_INSIDE_TREE"
                ) from None
            if rel not in rels:
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


def load_tree(root: Path) -> SchemaTree:
    """Load and check every ``*.json`` file below ``root``.

    Raises :class:`SchemaError` for malformed JSON (with line and column), a missing or
    duplicate ``$id`` or title, and any ``$ref`` that is remote, escapes ``root`` or dangles.
    """
    if not root.is_dir():
        raise SchemaError(f"schema folder {root} does not exist", Location(root))
    resolved_root = root.resolve()
    texts: dict[PurePosixPath, bytes] = {}
    for path in sorted(root.rglob("*.json"), key=lambda p: p.relative_to(root).as_posix()):
        if not path.resolve().is_relative_to(resolved_root):
            raise SchemaError("schema file links outside the schema folder", Location(path))
        texts[PurePosixPath(path.relative_to(root).as_posix())] = path.read_bytes()
    return load_texts(root, texts)


def load_texts(root: Path, texts: Mapping[PurePosixPath, bytes]) -> SchemaTree:
    """:func:`load_tree` of files given by relative path and content, as if below ``root``
    (the schema folder at a git revision is read this way, without writing it anywhere)."""
    files: dict[PurePosixPath, SchemaFile] = {}
    for rel in sorted(texts, key=PurePosixPath.as_posix):
        path = root / rel
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
