"""Lint checks of layout: 2-space JSON with a final newline, top-level keys in house order.

Rows of :data:`codegen.lint.table.LINT_RULES` point here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from codegen.core.report import Finding
from codegen.lint.engine import LintContext

__all__ = ["KEY_ORDER", "json_formatted", "key_order"]

KEY_ORDER = ("$schema", "$id", "title", "description", "type", "enum", "const", "properties",
             "required", "additionalProperties", "unevaluatedProperties", "allOf", "$defs",
             "examples")  # fmt: skip


def json_formatted(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        expected = json.dumps(schema.data, indent=2, ensure_ascii=False) + "\n"
        if schema.text == expected:
            continue
        offset = next(
            (i for i, (a, b) in enumerate(zip(schema.text, expected, strict=False)) if a != b),
            min(len(schema.text), len(expected)),
        )
        line, column = schema.positions.offset_line_col(offset)
        message = (
            "not laid out as 2-space indented JSON with a final newline "
            "(json.dumps(data, indent=2, ensure_ascii=False))"
        )
        yield Finding(ctx.shown(schema), line, column, "JSON_FORMATTED", message)


def key_order(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        present = [key for key in schema.data if key in KEY_ORDER]
        expected = sorted(present, key=KEY_ORDER.index)
        for actual, wanted in zip(present, expected, strict=True):
            if actual != wanted:
                message = (
                    f"top-level keyword {actual!r} is out of order: write {', '.join(expected)}"
                )
                yield ctx.finding(schema, f"/{actual}", "KEY_ORDER", message)
                break
