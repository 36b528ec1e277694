"""Lint checks for the consumers that are not the generated model: they must decide alike.

The same schema files are handed to TypeScript (Ajv), to python-jsonschema and to MCP
clients. Where those consumers compute differently from JSON Schema's exact semantics (which
the generated model follows), a contract would split them: these rules say where.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

from codegen.core.jsonpos import escape_pointer
from codegen.core.patterns import PatternError, reading
from codegen.core.report import Finding
from codegen.lint.engine import LintContext, iter_schema_nodes

__all__ = ["binary_disagreement", "multiple_of_binary", "pattern_unicode"]

_PROBES = 1000  # multiples of the step tried for a disagreement to show


def binary_disagreement(step: float) -> str | None:
    """The first multiple of ``step`` (as a decimal) that binary floating point refuses as Ajv
    and python-jsonschema compute it (``x / step`` is not whole); or None."""
    exact = Decimal(repr(step))
    for k in range(1, _PROBES + 1):
        quotient = float(exact * k) / step
        if quotient != int(quotient):
            return f"{exact * k}"
    return None


def multiple_of_binary(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for pointer, node, _ in iter_schema_nodes(schema.data):
            step = node.get("multipleOf")
            if not isinstance(step, float) or isinstance(step, bool) or step.is_integer():
                continue
            if Fraction(Decimal(repr(step))) == Fraction(step):
                continue  # a binary fraction (0.5, 0.125...): exact while x / step < 2**52
            example = binary_disagreement(step)
            seen = (
                f" ({example} is a multiple of {step!r}, which they refuse)"
                if example is not None
                else ""
            )
            message = (
                f"multipleOf {step!r} is not exact in binary floating point: Ajv and "
                f"python-jsonschema divide in floating point and refuse documents that the "
                f"schema and the generated model accept{seen}; use an integer in a smaller unit "
                f"(cents, basis points) or a power-of-two step (0.5, 0.25, 0.125)"
            )
            yield ctx.finding(schema, f"{pointer}/multipleOf", "MULTIPLE_OF_BINARY", message)


def pattern_unicode(ctx: LintContext) -> Iterator[Finding]:
    """A pattern valid only without the u flag: read so (Annex B), as browsers read it, while
    a consumer that reads every pattern with the flag (Ajv by default) refuses the schema."""
    for schema in ctx.tree.files:
        for pointer, node, _ in iter_schema_nodes(schema.data):
            found = [("pattern", node["pattern"])] if isinstance(node.get("pattern"), str) else []
            patterns = node.get("patternProperties")
            if isinstance(patterns, dict):
                found += [(f"patternProperties/{escape_pointer(p)}", p) for p in patterns]
            for where, pattern in found:
                try:
                    read = reading(pattern)
                except PatternError:
                    continue  # refused: the generator's own check reports it
                if read.annex_b:
                    message = (
                        f"pattern {pattern!r} is no ECMA-262 expression with the u flag "
                        f"({read.reason}): it is read without it (Annex B: UTF-16 code units, "
                        "identity escapes such as \\: for :), as browsers and python-jsonschema "
                        "read it, while Ajv with unicodeRegExp refuses it; write it so that the "
                        "u flag reads it too (drop the needless backslashes)"
                    )
                    yield ctx.finding(schema, f"{pointer}/{where}", "PATTERN_UNICODE", message)
