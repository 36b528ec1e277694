"""Parse one schema file: UTF-8 JSON, no duplicate key, no constant JSON does not define, no
nesting deeper than :data:`MAX_DEPTH`; each refusal with its line and column."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.core.errors import Location, SchemaError
from codegen.core.jsonpos import JsonPositions, escape_pointer

__all__ = ["MAX_DEPTH", "parse_schema"]

MAX_DEPTH = 100
"""How deeply a schema document may nest (objects and arrays): far beyond any contract, and
well within what recursive code (this generator's, datamodel-code-generator's) can walk."""


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
    # Nesting deeper than MAX_DEPTH takes more than MAX_DEPTH opening brackets.
    deep = text.count("{") + text.count("[") > MAX_DEPTH
    pointer = _too_deep(data) if deep else None
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
