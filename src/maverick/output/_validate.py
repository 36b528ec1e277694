"""Turn an agent's raw output into its contract, or into one precise `OutputValidationError`.

An agent ends its answer with a fenced ```` ```json ```` block; `validate_output` finds that
block (`maverick.output._fences`: CommonMark fences, the last json block wins), then parses and
validates its content in one pydantic-core pass. The block is first located without reading
its content (`find_json_block(speculative=True)`); that guess is right whenever the content
parses as JSON, and when it does not, the exact scan runs and, if it finds another block,
that block is parsed in turn. Every failure names its stage:

- ``extraction``: no usable block. Empty output, output over ``max_bytes``, bytes that are
  not UTF-8, no json block (the message lists the other blocks it saw), or a json block whose
  closing fence never came (the output looks truncated);
- ``json_parse``: the block's content is not JSON. Syntax errors (pydantic-core's
  ``json_invalid``, its position translated into the raw text's line and column), nesting
  deeper than the parser's limit, integers of more than 4,300 digits, lone surrogates, and
  non-finite numbers: ``NaN``, ``Infinity`` and ``-Infinity`` (which the JSON parser of
  pydantic accepts by default) and numbers too large for a float (``1e999999``), all rejected;
- ``validation``: valid JSON of the wrong shape, with one `FieldError` per pydantic error.

Every failure, raised or not, emits exactly one WARNING record on the ``maverick.agents.output``
logger, with ``expected_model``, ``stage``, ``parse_error``, ``raw_length``, ``line`` and
``column`` as record attributes.

Non-finite numbers are rejected inside the same validation pass (`maverick.output._finite`),
and failures are described by `maverick.output._failures`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, cast, overload

from pydantic import BaseModel
from pydantic_core import ValidationError

from maverick.exceptions import OutputValidationError
from maverick.output._failures import (
    PARSE_ERROR_TYPES,
    Failure,
    from_validation_error,
    no_json_block,
    non_finite_tokens,
    truncated,
)
from maverick.output._fences import FencedBlock, find_json_block, line_col
from maverick.output._finite import Validator, validator_for

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ChunkError",
    "ChunkedOutputs",
    "validate_output",
    "validate_outputs",
]

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
"""Outputs larger than this (in UTF-8 bytes) are refused before any parsing."""

logger = logging.getLogger("maverick.agents.output")

T = TypeVar("T", bound=BaseModel)


def _decode(raw: str | bytes, max_bytes: int) -> str:
    if isinstance(raw, str):
        size = len(raw)
        if size > max_bytes:
            raise Failure("extraction", f"output is over {max_bytes} bytes ({size} characters)")
        if not raw.isascii() and size * 4 > max_bytes:
            size = len(raw.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise Failure(
                    "extraction", f"output is {size} bytes of UTF-8, over the {max_bytes} limit"
                )
        text = raw
    else:
        if len(raw) > max_bytes:
            raise Failure("extraction", f"output is {len(raw)} bytes, over the {max_bytes} limit")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start].decode("utf-8")
            raise Failure(
                "extraction",
                f"output is not valid UTF-8: {exc.reason} "
                f"(byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                line_col(before, len(before)),
            ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _parse(text: str, block: FencedBlock, validator: Validator) -> tuple[Any, list[Any] | None]:
    """Validate a block's raw content (JSON needs no dedent): (result, None) or (None, errors)."""
    try:
        return validator.validate_json(text[block.content_start : block.content_end]), None
    except ValidationError as exc:
        return None, cast(list[Any], exc.errors(include_url=False))


def _validate(text: str, model: type[T]) -> T:
    if not text or text.isspace():
        raise Failure("extraction", "output is empty")
    search = find_json_block(text, speculative=True)
    block = search.block
    if block is None:
        raise no_json_block(search)
    if not block.closed:
        raise truncated(block)
    validator = validator_for(model)
    result, errors = _parse(text, block, validator)
    if (
        errors is not None
        and not search.exact
        and any(error["type"] in PARSE_ERROR_TYPES and not error["loc"] for error in errors)
    ):
        # The guess was right only if its content is JSON, and it is not: scan exactly.
        exact = find_json_block(text)
        if exact.block is None:  # pragma: no cover - the guess saw a json opening fence
            raise no_json_block(exact)
        if not exact.block.closed:
            raise truncated(exact.block)
        if (exact.block.content_start, exact.block.content_end) != (
            block.content_start,
            block.content_end,
        ):
            block = exact.block
            result, errors = _parse(text, block, validator)
    if errors is not None:
        raise from_validation_error(text, block, errors)
    if not validator.rejects_non_finite:
        failure = non_finite_tokens(text, block)
        if failure is not None:
            raise failure
    return cast(T, result)


def _log(error: OutputValidationError) -> None:
    logger.warning(
        "Agent output rejected for %s at the %s stage%s: %s",
        error.expected_model,
        error.stage,
        f" (line {error.line}, column {error.column})" if error.line is not None else "",
        error.parse_error,
        extra={
            "expected_model": error.expected_model,
            "stage": error.stage,
            "parse_error": error.parse_error,
            "raw_length": error.raw_length,
            "line": error.line,
            "column": error.column,
        },
    )


@overload
def validate_output(
    raw: str | bytes,
    model: type[T],
    *,
    strict: Literal[True] = True,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> T: ...


@overload
def validate_output(
    raw: str | bytes, model: type[T], *, strict: bool, max_bytes: int = DEFAULT_MAX_BYTES
) -> T | None: ...


def validate_output(
    raw: str | bytes, model: type[T], *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> T | None:
    """Extract the last ```` ```json ```` block of an agent's output and validate it as ``model``.

    ``model`` is any pydantic model, a `pydantic.RootModel` for contracts whose root is an
    array. ``raw`` is text, or bytes that must be UTF-8; a leading byte order mark is ignored.

    Raises `OutputValidationError` (``strict=True``) or returns None (``strict=False``) on any
    failure, after logging it once; see the module docstring for the stages. ``line`` and
    ``column`` of the error point into ``raw``: at the JSON syntax error, at the opening fence
    of the block for other errors, at the offending byte for bad UTF-8.
    """
    try:
        try:
            text = _decode(raw, max_bytes)
            return _validate(text, model)
        except Failure as failure:
            preview = raw if isinstance(raw, str) else raw[:2000].decode("utf-8", "replace")
            raise OutputValidationError(
                expected_model=model.__name__,
                raw_output=preview,
                parse_error=failure.message,
                stage=failure.stage,
                line=None if failure.position is None else failure.position[0],
                column=None if failure.position is None else failure.position[1],
                field_errors=failure.field_errors,
                raw_length=len(raw),
            ) from None
    except OutputValidationError as error:
        _log(error)
        if strict:
            raise
        return None


@dataclass(frozen=True, slots=True)
class ChunkError:
    """The failure of one chunk of a chunked output: its 0-based index and the error."""

    index: int
    error: OutputValidationError


@dataclass(frozen=True, slots=True)
class ChunkedOutputs(Generic[T]):
    """The outcome of `validate_outputs`: the chunks that validated, and the ones that failed."""

    results: tuple[T, ...]
    errors: tuple[ChunkError, ...]

    @property
    def ok(self) -> bool:
        """True when every chunk validated."""
        return not self.errors


def validate_outputs(
    raws: Iterable[str | bytes], model: type[T], *, max_bytes: int = DEFAULT_MAX_BYTES
) -> ChunkedOutputs[T]:
    """Validate each chunk of a chunked output on its own: one bad chunk never hides the others.

    Results keep the chunks' order; each failure is logged once and kept with its index.
    """
    results: list[T] = []
    errors: list[ChunkError] = []
    for index, raw in enumerate(raws):
        try:
            results.append(validate_output(raw, model, max_bytes=max_bytes))
        except OutputValidationError as error:
            errors.append(ChunkError(index, error))
    return ChunkedOutputs(tuple(results), tuple(errors))
