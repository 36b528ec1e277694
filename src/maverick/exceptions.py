"""The Maverick error hierarchy.

::

    MaverickError
    ├── AgentError
    │   ├── CLINotFoundError        the Claude CLI could not be found or started
    │   ├── ProcessError            the CLI process failed (exit code, stderr kept)
    │   ├── MaverickTimeoutError    an operation ran out of time
    │   ├── NetworkError            the CLI could not reach its backend
    │   ├── StreamingError          the message stream broke mid-way
    │   ├── MalformedResponseError  the agent's answer could not be turned into its contract
    │   ├── InvalidToolError        an allowed tool is neither builtin nor a configured MCP tool
    │   ├── DuplicateAgentError     an agent name is registered twice
    │   └── AgentNotFoundError      no agent is registered under a name
    ├── OutputValidationError       raw agent output failed extraction, JSON parsing or validation
    ├── WorkflowError
    └── ConfigError

Only the CLI layer prints; every error carries the data needed to explain itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "AgentError",
    "AgentNotFoundError",
    "CLINotFoundError",
    "ConfigError",
    "DuplicateAgentError",
    "FieldError",
    "InvalidToolError",
    "MalformedResponseError",
    "MaverickError",
    "MaverickTimeoutError",
    "NetworkError",
    "OutputStage",
    "OutputValidationError",
    "ProcessError",
    "StreamingError",
    "WorkflowError",
]

OutputStage = Literal["extraction", "json_parse", "validation"]

RAW_OUTPUT_LIMIT = 500


class MaverickError(Exception):
    """Base class of every error raised by Maverick."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AgentError(MaverickError):
    """An agent failed."""

    def __init__(
        self, message: str, *, agent_name: str | None = None, error_code: str | None = None
    ) -> None:
        super().__init__(message)
        self.agent_name = agent_name
        self.error_code = error_code


class CLINotFoundError(AgentError):
    """The Claude CLI could not be found or started."""

    def __init__(
        self,
        message: str = (
            "Claude CLI not found: install it with `npm install -g @anthropic-ai/claude-code`"
        ),
        *,
        cli_path: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="CLI_NOT_FOUND")
        self.cli_path = cli_path


class ProcessError(AgentError):
    """The CLI process failed; its exit code and stderr are kept."""

    def __init__(
        self,
        message: str,
        *,
        exit_code: int | None = None,
        stderr: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="PROCESS_ERROR")
        self.exit_code = exit_code
        self.stderr = stderr


class MaverickTimeoutError(AgentError):
    """An operation ran out of time."""

    def __init__(
        self,
        message: str = "Operation timed out",
        *,
        timeout_seconds: float | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="TIMEOUT")
        self.timeout_seconds = timeout_seconds


class NetworkError(AgentError):
    """The CLI could not reach its backend or lost the connection to it."""

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        stderr: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="NETWORK_ERROR")
        self.url = url
        self.stderr = stderr


class StreamingError(AgentError):
    """The message stream broke mid-way; the messages received so far are kept."""

    def __init__(
        self,
        message: str,
        *,
        partial_messages: Sequence[Any] = (),
        stderr: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="STREAMING_ERROR")
        self.partial_messages = list(partial_messages)
        self.stderr = stderr


class MalformedResponseError(AgentError):
    """The agent's answer could not be turned into its contract."""

    def __init__(
        self,
        message: str,
        *,
        raw_response: str | None = None,
        agent_name: str | None = None,
    ) -> None:
        super().__init__(message, agent_name=agent_name, error_code="MALFORMED_RESPONSE")
        self.raw_response = raw_response


class InvalidToolError(AgentError):
    """An allowed tool is neither a builtin tool nor a tool of a configured MCP server."""

    def __init__(
        self, tool_name: str, available_tools: Sequence[str] = (), *, agent_name: str | None = None
    ) -> None:
        tools = sorted(available_tools)
        shown = ", ".join(tools[:10])
        if len(tools) > 10:
            shown += f" and {len(tools) - 10} more"
        message = f"Invalid tool {tool_name!r}. Available tools: {shown or 'none'}"
        super().__init__(message, agent_name=agent_name, error_code="INVALID_TOOL")
        self.tool_name = tool_name
        self.available_tools = tools


class DuplicateAgentError(AgentError):
    """An agent name is registered twice."""

    def __init__(self, agent_name: str) -> None:
        super().__init__(
            f"Agent {agent_name!r} is already registered",
            agent_name=agent_name,
            error_code="DUPLICATE_AGENT",
        )


class AgentNotFoundError(AgentError):
    """No agent is registered under a name."""

    def __init__(self, agent_name: str, known: Sequence[str] = ()) -> None:
        hint = f"; registered agents: {', '.join(sorted(known))}" if known else ""
        super().__init__(
            f"No agent registered under {agent_name!r}{hint}",
            agent_name=agent_name,
            error_code="AGENT_NOT_FOUND",
        )


@dataclass(frozen=True, slots=True)
class FieldError:
    """One field-level validation failure: where (a path into the document) and why."""

    path: tuple[str | int, ...]
    message: str
    type: str

    @property
    def location(self) -> str:
        """The path as a JSON pointer, e.g. ``/findings/3/line``."""
        return "/" + "/".join(str(part) for part in self.path) if self.path else ""


class OutputValidationError(MaverickError):
    """Raw agent output failed extraction, JSON parsing or validation against its contract."""

    def __init__(
        self,
        *,
        expected_model: str,
        raw_output: str,
        parse_error: str,
        stage: OutputStage,
        line: int | None = None,
        column: int | None = None,
        field_errors: Sequence[FieldError] = (),
        raw_length: int | None = None,
    ) -> None:
        where = f" (line {line}, column {column})" if line is not None else ""
        super().__init__(
            f"Output validation failed at {stage} stage for {expected_model}{where}: {parse_error}"
        )
        self.expected_model = expected_model
        self.raw_output = raw_output[:RAW_OUTPUT_LIMIT]
        # The caller may pass a preview only (e.g. of an oversized output) and the real length.
        self.raw_length = len(raw_output) if raw_length is None else raw_length
        self.parse_error = parse_error
        self.stage: OutputStage = stage
        self.line = line
        self.column = column
        self.field_errors = tuple(field_errors)


class WorkflowError(MaverickError):
    """A workflow failed."""

    def __init__(self, message: str, *, workflow_name: str | None = None) -> None:
        super().__init__(message)
        self.workflow_name = workflow_name


class ConfigError(MaverickError):
    """Configuration is missing or invalid."""

    def __init__(self, message: str, *, field: str | None = None, value: Any = None) -> None:
        super().__init__(message)
        self.field = field
        self.value = value
