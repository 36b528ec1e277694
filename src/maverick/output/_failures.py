"""Turn what went wrong into a `Failure`: its stage, message, position and field errors.

Positions point into the raw text: pydantic-core's JSON parser reports lines counted at
``\\n`` and columns in UTF-8 bytes inside the block, which are translated here.
"""

from __future__ import annotations

import re
from typing import Any

import pydantic_core

from maverick.exceptions import FieldError, OutputStage
from maverick.output._fences import FencedBlock, JsonBlockSearch, line_col
from maverick.output._finite import NON_FINITE

__all__ = [
    "PARSE_ERROR_TYPES",
    "Failure",
    "from_validation_error",
    "no_json_block",
    "non_finite_tokens",
    "truncated",
]

# Error types pydantic-core reports when the JSON text could not even be parsed.
PARSE_ERROR_TYPES = frozenset({"json_invalid", "string_unicode", "json_type"})
_JITER_POSITION = re.compile(r"(?P<reason>.*) at line (?P<line>\d+) column (?P<column>\d+)", re.S)
_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN_FIELD_ERRORS = 5


def _nth_line_start(text: str, n: int) -> int:
    """Offset just after the n-th ``\\n`` of ``text`` (0 for n == 0; len(text) if fewer)."""
    pos = 0
    chunk = 1 << 16
    while n > 0:
        if pos >= len(text):
            return len(text)
        end = min(len(text), pos + chunk)
        count = text.count("\n", pos, end)
        if count < n:
            n -= count
            pos = end
            continue
        while n > 0:
            pos = text.find("\n", pos, end) + 1
            n -= 1
    return pos


def _jiter_offset(body: str, line: int, column: int) -> int:
    """The offset in ``body`` of a position reported by pydantic-core's JSON parser.

    Its lines are counted at ``\\n`` only and its columns in UTF-8 bytes from 1; column 0 is
    the ``\\n`` that ends the line before.
    """
    start = _nth_line_start(body, line - 1)
    if column <= 0:
        return max(start - 1, 0)
    end = body.find("\n", start)
    segment = body[start : len(body) if end < 0 else end]
    if segment.isascii():
        return min(start + column - 1, len(body))
    prefix = segment.encode("utf-8", "surrogatepass")[: column - 1]
    return start + len(prefix.decode("utf-8", "ignore"))


def _field_errors(errors: list[Any]) -> tuple[FieldError, ...]:
    return tuple(
        FieldError(path=tuple(error["loc"]), message=error["msg"], type=error["type"])
        for error in errors
    )


def _summary(field_errors: tuple[FieldError, ...]) -> str:
    shown = "; ".join(
        f"{error.location or '(root)'}: {error.message}"
        for error in field_errors[:_SHOWN_FIELD_ERRORS]
    )
    more = len(field_errors) - _SHOWN_FIELD_ERRORS
    return shown + (f"; and {more} more" if more > 0 else "")


class Failure(Exception):
    """Internal: carries the data of an OutputValidationError before the raw text is known."""

    def __init__(
        self,
        stage: OutputStage,
        message: str,
        position: tuple[int, int] | None = None,
        field_errors: tuple[FieldError, ...] = (),
    ) -> None:
        super().__init__(message)
        self.stage: OutputStage = stage
        self.message = message
        self.position = position
        self.field_errors = field_errors


def _describe(block: FencedBlock) -> str:
    fence = block.fence[:3]
    kind = f"{fence}{block.lang}" if block.lang else f"untagged {fence}"
    return f"{kind} at line {block.line}"


def no_json_block(search: JsonBlockSearch) -> Failure:
    if not search.first_others:
        return Failure("extraction", "no ```json fenced block found, and no fenced block at all")
    shown = ", ".join(_describe(block) for block in search.first_others)
    if search.more_others:
        shown += ", and more"
    return Failure(
        "extraction",
        f"no ```json fenced block found; other fenced blocks: {shown}; the answer must be in a "
        "block whose info string is json",
    )


def truncated(block: FencedBlock) -> Failure:
    return Failure(
        "extraction",
        f"the output looks truncated: the {block.fence}{block.info} fence opened at line "
        f"{block.line} was never closed",
        (block.line, block.column),
    )


def from_validation_error(text: str, block: FencedBlock, errors: list[Any]) -> Failure:
    body_start = block.content_start
    body = text[body_start : block.content_end]
    field_errors = _field_errors(errors)
    block_position = (block.line, block.column)
    first = errors[0]
    if first["type"] == "json_invalid" and not first["loc"]:
        detail = str(first.get("ctx", {}).get("error", first["msg"]))
        m = _JITER_POSITION.fullmatch(detail)
        if m is None:
            return Failure("json_parse", f"invalid JSON: {detail}", block_position, field_errors)
        offset = _jiter_offset(body, int(m["line"]), int(m["column"]))
        return Failure(
            "json_parse",
            f"invalid JSON: {m['reason']}",
            line_col(text, body_start + offset),
            field_errors,
        )
    if first["type"] in PARSE_ERROR_TYPES and not first["loc"]:
        surrogate = _SURROGATE.search(body)
        if surrogate is None:
            return Failure("json_parse", first["msg"], block_position, field_errors)
        return Failure(
            "json_parse",
            f"the JSON text is not valid Unicode: lone surrogate U+{ord(surrogate.group()):04X}",
            line_col(text, body_start + surrogate.start()),
            field_errors,
        )
    non_finite = [error for error in field_errors if error.type == NON_FINITE]
    if non_finite:
        where = ", ".join(error.location or "(root)" for error in non_finite[:_SHOWN_FIELD_ERRORS])
        return Failure(
            "json_parse",
            "not JSON: non-finite number (NaN, Infinity, or too large for a float) at " + where,
            block_position,
            field_errors,
        )
    return Failure(
        "validation",
        f"{len(field_errors)} validation error(s): {_summary(field_errors)}",
        block_position,
        field_errors,
    )


def non_finite_tokens(text: str, block: FencedBlock) -> Failure | None:
    """Fallback check when the validator itself lets NaN and Infinity through."""
    body = text[block.content_start : block.content_end]
    if "NaN" not in body and "Infinity" not in body:
        return None
    try:
        pydantic_core.from_json(body, allow_inf_nan=False)
    except ValueError as exc:
        m = _JITER_POSITION.fullmatch(str(exc))
        if m is None:
            return Failure("json_parse", f"invalid JSON: {exc}", (block.line, block.column))
        offset = _jiter_offset(body, int(m["line"]), int(m["column"]))
        return Failure(
            "json_parse",
            f"invalid JSON: {m['reason']} (NaN and Infinity are not JSON)",
            line_col(text, block.content_start + offset),
        )
    return None
