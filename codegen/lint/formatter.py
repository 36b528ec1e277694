"""``maverick-codegen format``: rewrite schema files in the canonical layout, and nothing else.

The layout is :func:`codegen.lint.layout.canonical_text`, the one the ``JSON_FORMATTED`` and
``KEY_ORDER`` rules check. Only layout changes: the document parsed from the new text is the
document parsed from the old one, number for number (as decimal values, with their sign and
kind: ``1.0`` stays a float, ``1`` an integer, ``-0.0`` keeps its sign) and string for string.

``json.dumps`` writes each float as the shortest text that reads back as the same double, so a
number only keeps its value when the double holds it exactly. A file the rewrite would change
is refused (:class:`SchemaError`, rule ``FORMAT_EXACT``, with line and column), never
approximated: a number beyond the range of a double (``1e400`` would become ``Infinity``, which
is not JSON) or below it (``1e-400`` would become ``0.0``), one with more digits than a double
holds (``0.1000000000000000000001``), the integer ``-0`` (it would lose its sign), and a string
holding a lone UTF-16 surrogate (``"\\ud800"``: no UTF-8 text can hold it unescaped). Duplicate
keys, ``NaN`` and malformed JSON are refused by the loader's parser, as everywhere else.

Files are replaced atomically: the new text goes to a temporary file beside the old one, which
then takes its place by rename; an interruption leaves the old file or the new one, whole.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from codegen.core.errors import Location, SchemaError
from codegen.core.jsonpos import JsonPositions, escape_pointer
from codegen.core.loader import parse_schema
from codegen.generate.files.writer import stage_text
from codegen.lint.layout import canonical_text

__all__ = ["Formatted", "format_file", "format_text", "write_atomically"]

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class _Number:
    """A number as written in the file."""

    text: str
    integer: bool


def _as_written(text: str) -> Any:
    return json.loads(
        text,
        parse_int=lambda s: _Number(s, True),
        parse_float=lambda s: _Number(s, False),
    )


def _leaves(node: Any, pointer: str = "") -> Iterator[tuple[str, bool, Any]]:
    """Every number and string of a document as written, by pointer: ``(pointer, is a key,
    value)`` (an object key is named by the pointer of its member)."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{pointer}/{escape_pointer(key)}"
            yield here, True, key
            yield from _leaves(value, here)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, f"{pointer}/{index}")
    else:
        yield pointer, False, node


def _not_kept(value: Any) -> str | None:
    """Why ``value`` (a leaf as written) would not survive the rewrite, or None."""
    if isinstance(value, str):
        found = _SURROGATE.search(value)
        if found is None:
            return None
        return (
            f"the string holds a lone surrogate \\u{ord(found.group()):04x}, which UTF-8 text "
            "cannot hold unescaped"
        )
    if not isinstance(value, _Number):
        return None
    if value.integer:
        return f"{value.text} would be written as 0 (its sign lost)" if value.text == "-0" else None
    double = float(value.text)
    if not math.isfinite(double):
        written = json.dumps(double)
        return f"{value.text} is beyond the range of a double: it would become {written}, not JSON"
    if Decimal(value.text) != Decimal(repr(double)):
        return f"{value.text} is not exactly a double: it would become {double!r}"
    return None


def format_text(path: Path, raw: bytes) -> tuple[str, str]:
    """The text of a schema file and its canonical text; :class:`SchemaError` when refused."""
    text, data = parse_schema(path, raw)
    if not isinstance(data, dict):
        raise SchemaError("a schema file must hold a JSON object", Location(path), "JSON")
    positions = JsonPositions(text)
    for pointer, is_key, leaf in _leaves(_as_written(text)):
        reason = _not_kept(leaf)
        if reason is not None:
            place = positions.line_col if is_key else positions.value_line_col
            line, column = place(pointer)
            where = Location(path, line, column, pointer)
            raise SchemaError(f"cannot be reformatted exactly: {reason}", where, "FORMAT_EXACT")
    return text, canonical_text(data)


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at ``path`` (a link: its target) with ``text``, all at once."""
    target = path.resolve()
    mode = stat.S_IMODE(target.stat().st_mode)
    staged = stage_text(target, text)
    try:
        os.chmod(staged, mode)
        os.replace(staged, target)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


@dataclass(frozen=True, slots=True)
class Formatted:
    """One file's outcome: whether its text was (or would be) changed."""

    path: Path
    changed: bool


def format_file(path: Path, *, write: bool) -> Formatted:
    """Rewrite ``path`` in the canonical layout (only report it when ``write`` is false)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SchemaError(f"cannot read the file: {exc.strerror}", Location(path)) from exc
    text, canonical = format_text(path, raw)
    changed = text != canonical
    if changed and write:
        write_atomically(path, canonical)
    return Formatted(path, changed)
