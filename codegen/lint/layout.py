"""The canonical layout of a schema file, and the lint checks of it.

One source of truth for ``JSON_FORMATTED``, ``KEY_ORDER`` and ``maverick-codegen format``: a file
is canonical when its text is :func:`canonical_text` of its document, which is exactly when both
rules pass (the top-level keywords of :data:`KEY_ORDER` in that order, every other key where it
stands; 2-space indented JSON, non-ASCII characters as they are, a final newline).

Rows of :data:`codegen.lint.table.LINT_RULES` point here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from codegen.core.jsonpos import escape_pointer
from codegen.core.report import Finding
from codegen.lint.engine import LintContext

__all__ = ["KEY_ORDER", "canonical_text", "json_formatted", "key_order", "laid_out", "ordered"]

KEY_ORDER = ("$schema", "$id", "title", "description", "type", "enum", "const", "properties",
             "required", "additionalProperties", "unevaluatedProperties", "allOf", "$defs",
             "examples")  # fmt: skip


def laid_out(data: Any) -> str:
    """``data`` as 2-space indented JSON with a final newline, keys as they stand."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def ordered(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its top-level keywords of :data:`KEY_ORDER` in that order (KEY_ORDER).

    The keywords trade places among the positions they hold; every other key keeps its place,
    and nothing below the top level moves.
    """
    keys = list(data)
    slots = [index for index, key in enumerate(keys) if key in KEY_ORDER]
    for index, key in zip(
        slots, sorted((keys[i] for i in slots), key=KEY_ORDER.index), strict=True
    ):
        keys[index] = key
    return {key: data[key] for key in keys}


def canonical_text(data: dict[str, Any]) -> str:
    """The text of a schema file holding ``data`` that passes both layout rules."""
    return laid_out(ordered(data))


def json_formatted(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        expected = laid_out(schema.document)
        if schema.text == expected:
            continue
        offset = next(
            (i for i, (a, b) in enumerate(zip(schema.text, expected, strict=False)) if a != b),
            min(len(schema.text), len(expected)),
        )
        line, column = schema.positions.offset_line_col(offset)
        message = (
            "not laid out as 2-space indented JSON with a final newline "
            "(json.dumps(data, indent=2, ensure_ascii=False)); maverick-codegen format fixes it"
        )
        yield Finding(ctx.shown(schema), line, column, "JSON_FORMATTED", message)


def key_order(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        present = [key for key in schema.document if key in KEY_ORDER]
        expected = sorted(present, key=KEY_ORDER.index)
        for actual, wanted in zip(present, expected, strict=True):
            if actual != wanted:
                message = (
                    f"top-level keyword {actual!r} is out of order: write {', '.join(expected)} "
                    "(maverick-codegen format fixes it)"
                )
                yield ctx.finding_in_file(
                    schema, f"/{escape_pointer(actual)}", "KEY_ORDER", message
                )
                break
