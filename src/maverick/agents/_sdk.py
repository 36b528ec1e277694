"""A thin adapter over ``claude_agent_sdk.query()``: one run in, one `QueryOutcome` out.

`run_query` drives the SDK's ``query()`` to the end and keeps everything a caller needs to
explain the run afterwards:

* every message, the **last** `ResultMessage` (a run can hold several), the structured output
  of that result, the text of all top-level assistant text blocks, and the usage;
* the CLI's stderr. The SDK drops it unless ``ClaudeAgentOptions.stderr`` is set, so the
  adapter always sets a collector (and still calls a callback the caller had set), keeping the
  last `STDERR_MAX_LINES` lines of at most `STDERR_MAX_LINE_CHARS` characters each.

SDK errors become Maverick errors (`maverick.exceptions`):

* ``CLINotFoundError`` -> `CLINotFoundError` (``cli_path`` kept);
* ``ResultError`` (an error ``result`` frame, then exit code 1) whose subtype is in
  ``keep_errors`` -> no error: a `QueryOutcome` with ``error_subtype`` set;
* ``ResultError`` of an API call the API refused (HTTP 4xx but 408, 409 and 429: a bad key,
  a tool schema that is not valid draft 2020-12, ...) -> `ProcessError`;
* ``ResultError`` of any other failed API call (``terminal_reason == "api_error"``: no
  connection, HTTP 5xx/529/429, a malformed response) -> `NetworkError`;
* any other ``ResultError`` (``error_max_turns``, ``error_max_budget_usd``,
  ``error_during_execution``) -> `ProcessError` with the result's errors in its message;
* ``ProcessError`` -> `ProcessError` with the exit code and the collected stderr (the SDK's
  own ``stderr`` is only a placeholder);
* ``CLIJSONDecodeError`` and ``MessageParseError`` -> `MalformedResponseError` with the
  offending line or frame as ``raw_response``;
* ``CLIConnectionError`` before any message arrived (a missing ``cwd``, an argv the OS
  refuses) -> `CLINotFoundError` ("could not be started"); after that -> `NetworkError`;
* anything else raised mid-stream -> `StreamingError` with the messages received so far.

The CLI ends a run that ran out of structured-output retries with a ``result`` frame of subtype
``error_max_structured_output_retries`` and exit code 1; the SDK yields that `ResultMessage`
and then raises ``ResultError``. By default the adapter keeps that result and returns it as a
`QueryOutcome` whose ``error_subtype`` says so, so the caller can still try the text of the
answer before giving up with a `MalformedResponseError`.

This module imports claude-agent-sdk (the ``agents`` extra); nothing outside the agent runtime
may import it.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import claude_agent_sdk as sdk
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    Message,
    ResultMessage,
    TextBlock,
)

# Not re-exported by the package; the SDK version is pinned exactly (see pyproject.toml).
from claude_agent_sdk._errors import MessageParseError

from maverick.exceptions import (
    CLINotFoundError,
    MalformedResponseError,
    NetworkError,
    ProcessError,
    StreamingError,
)

__all__ = [
    "DEFAULT_KEEP_ERRORS",
    "MAX_ARG_BYTES",
    "RETRIES_EXHAUSTED",
    "STDERR_MAX_LINES",
    "STDERR_MAX_LINE_CHARS",
    "QueryOutcome",
    "run_query",
]

#: The result subtype of a run whose StructuredOutput calls all failed validation.
RETRIES_EXHAUSTED = "error_max_structured_output_retries"

#: Error result subtypes returned as a `QueryOutcome` rather than raised.
DEFAULT_KEEP_ERRORS: frozenset[str] = frozenset({RETRIES_EXHAUSTED})

#: Linux's limit on one argv string (MAX_ARG_STRLEN); the SDK passes the schema as one.
MAX_ARG_BYTES = 131_072

STDERR_MAX_LINES = 200
STDERR_MAX_LINE_CHARS = 2_000

# HTTP statuses of an API call that may succeed when tried again.
_TRANSIENT_HTTP_STATUSES = frozenset({408, 409, 429})

# The SDK's ProcessError carries this placeholder instead of the CLI's stderr.
_SDK_STDERR_PLACEHOLDER = "Check stderr output for details"


@dataclass(frozen=True, slots=True)
class QueryOutcome:
    """Everything one ``query()`` run produced.

    ``result`` is the last `ResultMessage` (``None`` if the CLI ended without one);
    ``structured_output`` is that result's ``structured_output`` (``None`` when the model never
    produced a valid one). ``text`` joins the text blocks of every top-level assistant message
    with newlines. ``error_subtype`` is set when the run ended with an error result the caller
    asked to keep (see ``keep_errors`` of `run_query`), ``errors`` holds the CLI's explanation.
    """

    messages: tuple[Message, ...]
    result: ResultMessage | None
    structured_output: Any
    text: str
    stderr: str
    usage: Mapping[str, Any] | None
    error_subtype: str | None = None
    errors: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        """Whether the run ended with an error result."""
        return self.error_subtype is not None or (self.result is not None and self.result.is_error)

    @property
    def retries_exhausted(self) -> bool:
        """Whether the CLI gave up after the model's StructuredOutput calls all failed."""
        return self.error_subtype == RETRIES_EXHAUSTED

    @property
    def has_structured_output(self) -> bool:
        """Whether the last result carries a structured output."""
        return self.result is not None and self.structured_output is not None


class _StderrTail:
    """A bounded stderr collector, chained in front of the caller's own callback."""

    def __init__(
        self,
        forward: Callable[[str], None] | None,
        max_lines: int = STDERR_MAX_LINES,
        max_chars: int = STDERR_MAX_LINE_CHARS,
    ) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._max_chars = max_chars
        self._forward = forward
        self.dropped = 0

    def __call__(self, line: str) -> None:
        if self._lines.maxlen is not None and len(self._lines) == self._lines.maxlen:
            self.dropped += 1
        if len(line) > self._max_chars:
            line = line[: self._max_chars] + f"... [{len(line) - self._max_chars} chars cut]"
        self._lines.append(line)
        if self._forward is not None:
            self._forward(line)

    def text(self) -> str:
        lines = list(self._lines)
        if self.dropped:
            lines.insert(0, f"[{self.dropped} earlier stderr lines dropped]")
        return "\n".join(lines)


def _assistant_text(messages: Iterable[Message]) -> str:
    parts = [
        block.text
        for message in messages
        if isinstance(message, AssistantMessage) and message.parent_tool_use_id is None
        for block in message.content
        if isinstance(block, TextBlock)
    ]
    return "\n".join(parts)


def _last_result(messages: Iterable[Message]) -> ResultMessage | None:
    last: ResultMessage | None = None
    for message in messages:
        if isinstance(message, ResultMessage):
            last = message
    return last


def _outcome(
    messages: list[Message], stderr: _StderrTail, *, error_subtype: str | None = None
) -> QueryOutcome:
    result = _last_result(messages)
    errors: tuple[str, ...] = ()
    if result is not None and result.errors:
        errors = tuple(str(e) for e in result.errors)
    return QueryOutcome(
        messages=tuple(messages),
        result=result,
        structured_output=None if result is None else result.structured_output,
        text=_assistant_text(messages),
        stderr=stderr.text(),
        usage=None if result is None else result.usage,
        error_subtype=error_subtype,
        errors=errors,
    )


def _with_stderr(message: str, stderr: str) -> str:
    if not stderr:
        return message
    tail = stderr if len(stderr) <= 1_000 else "..." + stderr[-1_000:]
    return f"{message}\nstderr:\n{tail}"


def _argv_hint(error: Exception, options: ClaudeAgentOptions) -> str:
    """Why an "Argument list too long" happened: the schema travels as one argv string."""
    output_format = options.output_format
    if "Argument list too long" not in str(error) or not isinstance(output_format, dict):
        return ""
    size = len(json.dumps(output_format.get("schema")).encode())
    return (
        f" (the output_format schema is passed as one --json-schema argument of {size} bytes;"
        f" Linux refuses a single argument over {MAX_ARG_BYTES} bytes)"
    )


def _map_result_error(
    error: sdk.ResultError, options: ClaudeAgentOptions, stderr: str
) -> Exception:
    detail = "; ".join(error.errors) or error.result or error.subtype or "unknown error"
    status = error.api_error_status
    if status is not None and 400 <= status < 500 and status not in _TRANSIENT_HTTP_STATUSES:
        # The API was reached and refused the request (bad key, invalid tool schema, ...).
        return ProcessError(
            _with_stderr(
                f"The API refused the Claude CLI's request (HTTP {status}): {detail}", stderr
            ),
            exit_code=error.exit_code,
            stderr=stderr or None,
        )
    if error.terminal_reason == "api_error" or status is not None:
        shown = f" (HTTP {status})" if status is not None else ""
        return NetworkError(
            f"Claude CLI could not complete the API call{shown}: {detail}",
            url=options.env.get("ANTHROPIC_BASE_URL") or os.environ.get("ANTHROPIC_BASE_URL"),
            stderr=stderr or None,
        )
    return ProcessError(
        _with_stderr(f"Claude CLI ended with error result {error.subtype!r}: {detail}", stderr),
        exit_code=error.exit_code,
        stderr=stderr or None,
    )


def _map_error(
    error: Exception,
    options: ClaudeAgentOptions,
    messages: list[Message],
    stderr: str,
) -> Exception:
    """The Maverick error for an exception raised by ``query()``."""
    if isinstance(error, sdk.CLINotFoundError):
        cli_path = None if options.cli_path is None else str(options.cli_path)
        return CLINotFoundError(f"Claude CLI not found: {error}", cli_path=cli_path)
    if isinstance(error, sdk.ResultError):
        return _map_result_error(error, options, stderr)
    if isinstance(error, sdk.ProcessError):
        sdk_stderr = error.stderr if error.stderr != _SDK_STDERR_PLACEHOLDER else None
        kept = stderr or sdk_stderr or ""
        return ProcessError(
            _with_stderr(f"Claude CLI failed with exit code {error.exit_code}", kept),
            exit_code=error.exit_code,
            stderr=kept or None,
        )
    if isinstance(error, sdk.CLIJSONDecodeError):
        return MalformedResponseError(
            f"Claude CLI wrote a line that is not valid JSON after {len(messages)} messages: "
            f"{error.original_error}",
            raw_response=error.line,
        )
    if isinstance(error, MessageParseError):
        raw = None if error.data is None else repr(error.data)
        return MalformedResponseError(
            f"Claude CLI sent a message the SDK could not parse: {error}", raw_response=raw
        )
    if isinstance(error, sdk.CLIConnectionError) and not messages:
        # Raised by connect(): a missing cwd, an argv the OS refuses (E2BIG), ...
        cli_path = None if options.cli_path is None else str(options.cli_path)
        return CLINotFoundError(
            f"Claude CLI could not be started: {error}{_argv_hint(error, options)}",
            cli_path=cli_path,
        )
    if isinstance(error, sdk.CLIConnectionError):
        return NetworkError(
            _with_stderr(f"Lost the connection to the Claude CLI: {error}", stderr),
            stderr=stderr or None,
        )
    return StreamingError(
        _with_stderr(
            f"The Claude CLI message stream broke after {len(messages)} messages: "
            f"{type(error).__name__}: {error}",
            stderr,
        ),
        partial_messages=messages,
        stderr=stderr or None,
    )


async def run_query(
    prompt: str,
    options: ClaudeAgentOptions,
    *,
    keep_errors: frozenset[str] = DEFAULT_KEEP_ERRORS,
) -> QueryOutcome:
    """Run one ``query()`` to its end and collect its outcome.

    ``options`` is not modified: the stderr collector is set on a copy. An error result whose
    subtype is in ``keep_errors`` (by default only retries exhausted) is returned as a
    `QueryOutcome` with ``error_subtype`` set; every other failure raises the Maverick error
    listed in the module docstring. Cancellation is not caught.
    """
    stderr = _StderrTail(options.stderr)
    run_options = dataclasses.replace(options, stderr=stderr)
    messages: list[Message] = []
    try:
        async for message in sdk.query(prompt=prompt, options=run_options):
            messages.append(message)
    except sdk.ResultError as error:
        result = _last_result(messages)
        if error.subtype in keep_errors and result is not None and result.subtype == error.subtype:
            return _outcome(messages, stderr, error_subtype=error.subtype)
        raise _map_error(error, options, messages, stderr.text()) from error
    except Exception as error:
        raise _map_error(error, options, messages, stderr.text()) from error
    result = _last_result(messages)
    if result is not None and result.is_error and result.subtype in keep_errors:
        # A CLI that reports the error result but exits 0 (the SDK raises nothing then).
        return _outcome(messages, stderr, error_subtype=result.subtype)
    return _outcome(messages, stderr)
