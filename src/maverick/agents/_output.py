"""Turn an agent's raw output into its contract, or into one precise `OutputValidationError`.

An agent ends its answer with a fenced ```` ```json ```` block; `validate_output` finds that
block (`maverick.agents._fences`: CommonMark fences, the last json block wins), then parses and
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

Non-finite numbers are rejected inside the same validation pass: each contract is validated by
a `pydantic_core.SchemaValidator` built once from the model's own core schema in which every
float and decimal schema gets ``allow_inf_nan=False`` and every ``Any`` schema checks its value
for non-finite floats. It returns instances of the model itself, exactly as
``model.model_validate_json`` would (pydantic plugins are not run). Should a future
pydantic-core refuse that schema, the model's own validator is used and ``NaN``/``Infinity``
tokens are looked for in the text instead (out-of-range numbers then pass as infinities).
"""

from __future__ import annotations

import logging
import math
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, cast, overload

import pydantic_core
from pydantic import BaseModel
from pydantic_core import PydanticCustomError, SchemaValidator, ValidationError
from pydantic_core.core_schema import CoreConfig, CoreSchema

from maverick.agents._fences import FencedBlock, JsonBlockSearch, find_json_block, line_col
from maverick.exceptions import FieldError, OutputStage, OutputValidationError

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

# Error types pydantic-core reports when the JSON text could not even be parsed.
_PARSE_ERROR_TYPES = frozenset({"json_invalid", "string_unicode", "json_type"})
_NON_FINITE = "finite_number"
_JITER_POSITION = re.compile(r"(?P<reason>.*) at line (?P<line>\d+) column (?P<column>\d+)", re.S)
_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN_FIELD_ERRORS = 5


# --- the validators --------------------------------------------------------------------------

# Keys of a core schema whose values are schemas, lists of schemas, or mappings to schemas.
_SCHEMA_KEYS = frozenset(
    {
        "arguments_schema",
        "choices",
        "definitions",
        "extras_keys_schema",
        "extras_schema",
        "fields",
        "items_schema",
        "json_schema",
        "keys_schema",
        "lax_schema",
        "python_schema",
        "return_schema",
        "schema",
        "steps",
        "strict_schema",
        "values_schema",
        "var_args_schema",
        "var_kwargs_schema",
    }
)


def _reject_non_finite(value: Any) -> Any:
    """Validator of ``Any`` values: no NaN or infinity anywhere inside (iterative: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is float:
            if not math.isfinite(item):
                raise PydanticCustomError(_NON_FINITE, "Input should be a finite number")
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.values())
    return value


def _finite_schema(node: Any) -> Any:
    """A copy of a core schema that refuses non-finite numbers (only schema paths are copied)."""
    if isinstance(node, list | tuple):
        return type(node)(_finite_schema(item) for item in node)
    if not isinstance(node, dict):
        return node
    if not isinstance(node.get("type"), str):
        # A mapping of names to schemas ("fields" of a model, "choices" of a tagged union).
        return {key: _finite_schema(value) for key, value in node.items()}
    new = {
        key: _finite_schema(value) if key in _SCHEMA_KEYS else value for key, value in node.items()
    }
    kind = new["type"]
    if kind in ("float", "decimal"):
        new["allow_inf_nan"] = False
    elif kind == "any":
        wrapper: dict[str, Any] = {
            "type": "function-after",
            "function": {"type": "no-info", "function": _reject_non_finite},
            "schema": new,
        }
        if "ref" in new:
            wrapper["ref"] = new.pop("ref")
        return wrapper
    return new


def _model_config(schema: Any) -> CoreConfig | None:
    """The core config of the model at the root of a model's core schema, if found."""
    node = schema
    if node.get("type") == "definitions":
        node = node.get("schema", {})
        if node.get("type") == "definition-ref":
            ref = node.get("schema_ref")
            node = next((d for d in schema.get("definitions", ()) if d.get("ref") == ref), {})
    config = node.get("config") if node.get("type") == "model" else None
    return cast(CoreConfig | None, config)


@dataclass(frozen=True, slots=True)
class _Validator:
    schema: object  # the model's core schema it was built from: rebuilt if the model is
    validate_json: Callable[[str], Any]
    rejects_non_finite: bool


_VALIDATORS: weakref.WeakKeyDictionary[type[BaseModel], _Validator] = weakref.WeakKeyDictionary()


def _validator_for(model: type[BaseModel]) -> _Validator:
    schema = model.__pydantic_core_schema__
    cached = _VALIDATORS.get(model)
    if cached is not None and cached.schema is schema:
        return cached
    try:
        validator = SchemaValidator(
            cast(CoreSchema, _finite_schema(schema)), _model_config(schema), _use_prebuilt=False
        )
        entry = _Validator(schema, validator.validate_json, True)
    except Exception:  # a pydantic-core that refuses the rewritten schema
        logger.debug("using %s's own validator: NaN/Infinity checked in the text", model.__name__)
        entry = _Validator(schema, model.__pydantic_validator__.validate_json, False)
    _VALIDATORS[model] = entry
    return entry


# --- errors ----------------------------------------------------------------------------------


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


class _Failure(Exception):
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


def _no_json_block(search: JsonBlockSearch) -> _Failure:
    if not search.first_others:
        return _Failure("extraction", "no ```json fenced block found, and no fenced block at all")
    shown = ", ".join(_describe(block) for block in search.first_others)
    if search.more_others:
        shown += ", and more"
    return _Failure(
        "extraction",
        f"no ```json fenced block found; other fenced blocks: {shown}; the answer must be in a "
        "block whose info string is json",
    )


def _truncated(block: FencedBlock) -> _Failure:
    return _Failure(
        "extraction",
        f"the output looks truncated: the {block.fence}{block.info} fence opened at line "
        f"{block.line} was never closed",
        (block.line, block.column),
    )


def _from_validation_error(text: str, block: FencedBlock, errors: list[Any]) -> _Failure:
    body_start = block.content_start
    body = text[body_start : block.content_end]
    field_errors = _field_errors(errors)
    block_position = (block.line, block.column)
    first = errors[0]
    if first["type"] == "json_invalid" and not first["loc"]:
        detail = str(first.get("ctx", {}).get("error", first["msg"]))
        m = _JITER_POSITION.fullmatch(detail)
        if m is None:
            return _Failure("json_parse", f"invalid JSON: {detail}", block_position, field_errors)
        offset = _jiter_offset(body, int(m["line"]), int(m["column"]))
        return _Failure(
            "json_parse",
            f"invalid JSON: {m['reason']}",
            line_col(text, body_start + offset),
            field_errors,
        )
    if first["type"] in _PARSE_ERROR_TYPES and not first["loc"]:
        surrogate = _SURROGATE.search(body)
        if surrogate is None:
            return _Failure("json_parse", first["msg"], block_position, field_errors)
        return _Failure(
            "json_parse",
            f"the JSON text is not valid Unicode: lone surrogate U+{ord(surrogate.group()):04X}",
            line_col(text, body_start + surrogate.start()),
            field_errors,
        )
    non_finite = [error for error in field_errors if error.type == _NON_FINITE]
    if non_finite:
        where = ", ".join(error.location or "(root)" for error in non_finite[:_SHOWN_FIELD_ERRORS])
        return _Failure(
            "json_parse",
            "not JSON: non-finite number (NaN, Infinity, or too large for a float) at " + where,
            block_position,
            field_errors,
        )
    return _Failure(
        "validation",
        f"{len(field_errors)} validation error(s): {_summary(field_errors)}",
        block_position,
        field_errors,
    )


def _non_finite_tokens(text: str, block: FencedBlock) -> _Failure | None:
    """Fallback check when the validator itself lets NaN and Infinity through."""
    body = text[block.content_start : block.content_end]
    if "NaN" not in body and "Infinity" not in body:
        return None
    try:
        pydantic_core.from_json(body, allow_inf_nan=False)
    except ValueError as exc:
        m = _JITER_POSITION.fullmatch(str(exc))
        if m is None:
            return _Failure("json_parse", f"invalid JSON: {exc}", (block.line, block.column))
        offset = _jiter_offset(body, int(m["line"]), int(m["column"]))
        return _Failure(
            "json_parse",
            f"invalid JSON: {m['reason']} (NaN and Infinity are not JSON)",
            line_col(text, block.content_start + offset),
        )
    return None


# --- the entry points ------------------------------------------------------------------------


def _decode(raw: str | bytes, max_bytes: int) -> str:
    if isinstance(raw, str):
        size = len(raw)
        if size > max_bytes:
            raise _Failure("extraction", f"output is over {max_bytes} bytes ({size} characters)")
        if not raw.isascii() and size * 4 > max_bytes:
            size = len(raw.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise _Failure(
                    "extraction", f"output is {size} bytes of UTF-8, over the {max_bytes} limit"
                )
        text = raw
    else:
        if len(raw) > max_bytes:
            raise _Failure("extraction", f"output is {len(raw)} bytes, over the {max_bytes} limit")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start].decode("utf-8")
            raise _Failure(
                "extraction",
                f"output is not valid UTF-8: {exc.reason} "
                f"(byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                line_col(before, len(before)),
            ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _parse(text: str, block: FencedBlock, validator: _Validator) -> tuple[Any, list[Any] | None]:
    """Validate a block's raw content (JSON needs no dedent): (result, None) or (None, errors)."""
    try:
        return validator.validate_json(text[block.content_start : block.content_end]), None
    except ValidationError as exc:
        return None, cast(list[Any], exc.errors(include_url=False))


def _validate(text: str, model: type[T]) -> T:
    if not text or text.isspace():
        raise _Failure("extraction", "output is empty")
    search = find_json_block(text, speculative=True)
    block = search.block
    if block is None:
        raise _no_json_block(search)
    if not block.closed:
        raise _truncated(block)
    validator = _validator_for(model)
    result, errors = _parse(text, block, validator)
    if (
        errors is not None
        and not search.exact
        and any(error["type"] in _PARSE_ERROR_TYPES and not error["loc"] for error in errors)
    ):
        # The guess was right only if its content is JSON, and it is not: scan exactly.
        exact = find_json_block(text)
        if exact.block is None:  # pragma: no cover - the guess saw a json opening fence
            raise _no_json_block(exact)
        if not exact.block.closed:
            raise _truncated(exact.block)
        if (exact.block.content_start, exact.block.content_end) != (
            block.content_start,
            block.content_end,
        ):
            block = exact.block
            result, errors = _parse(text, block, validator)
    if errors is not None:
        raise _from_validation_error(text, block, errors)
    if not validator.rejects_non_finite:
        failure = _non_finite_tokens(text, block)
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
        except _Failure as failure:
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
