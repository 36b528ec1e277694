"""`MaverickAgent`: one Claude Agent SDK run in, one validated contract out.

An agent is a name, instructions (appended to the ``claude_code`` system prompt preset), the
tools it may use, and its output contract. Every run goes the same way:

1. `MaverickAgent._build_options` builds the SDK options. ``output_format`` is
   ``maverick.contracts.output_format(<contract>)``: the CLI-safe schema derived from the
   canonical schema file (never ``model_json_schema()``), so the CLI's ``StructuredOutput``
   tool enforces the same rules as every other consumer.
2. `maverick.agents._sdk.run_query` drives ``query()`` to its end; SDK errors become Maverick
   errors there (CLI missing, process failure with stderr, malformed line, network).
3. `MaverickAgent._extract_structured_output` turns the outcome into the contract: the
   ``structured_output`` of the **last** result, validated with ``model_validate``; when there
   is none (the model never called the tool, or the CLI ran out of structured-output retries)
   or it does not validate, the text fallback: the last ```` ```json ```` block of the answer,
   through `maverick.agents.contracts.validate_output`. When both fail:
   `MalformedResponseError` with the raw text and both reasons. Never a made-up result.

Errors raised by a run carry ``agent_name``. This module and ``_sdk`` are the only ones that
import claude-agent-sdk.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypedDict, TypeVar

from claude_agent_sdk import ClaudeAgentOptions
from pydantic import BaseModel, ValidationError

from maverick.agents._sdk import QueryOutcome, run_query
from maverick.contracts import CONTRACTS, output_format
from maverick.exceptions import (
    AgentError,
    ConfigError,
    InvalidToolError,
    MalformedResponseError,
    OutputValidationError,
)
from maverick.output import validate_output

__all__ = [
    "BUILTIN_TOOLS",
    "DEFAULT_MAX_STRUCTURED_OUTPUT_RETRIES",
    "DEFAULT_MAX_TURNS",
    "DEFAULT_MODEL",
    "DEFAULT_PERMISSION_MODE",
    "STRUCTURED_OUTPUT_INSTRUCTIONS",
    "AgentOptions",
    "MaverickAgent",
    "PermissionMode",
]

logger = logging.getLogger("maverick.agents")

#: Builtin Claude Code tools an agent may be allowed (seed 002).
BUILTIN_TOOLS: frozenset[str] = frozenset(
    {
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "NotebookEdit",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "BashOutput",
        "KillBash",
        "Task",
        "ExitPlanMode",
        "ListMcpResources",
        "ReadMcpResource",
    }
)

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"]

DEFAULT_MODEL = "claude-sonnet-4-5-20250929"
DEFAULT_PERMISSION_MODE: PermissionMode = "acceptEdits"
#: Model turns an agent may spend on its work, before structured-output attempts.
DEFAULT_MAX_TURNS = 40
#: StructuredOutput calls the CLI allows in total (its own default is 5).
DEFAULT_MAX_STRUCTURED_OUTPUT_RETRIES = 3

#: Appended to every agent's instructions.
STRUCTURED_OUTPUT_INSTRUCTIONS = (
    "When you are done, call the StructuredOutput tool exactly once with your final answer; "
    "its input schema is the answer's contract. Report only what you actually did and saw. "
    "If you cannot call that tool, end your answer with exactly one ```json block holding the "
    "same JSON document."
)

ResultT = TypeVar("ResultT")
ContextT = TypeVar("ContextT")
ModelT = TypeVar("ModelT", bound=BaseModel)


class AgentOptions(TypedDict, total=False):
    """The keyword options every concrete agent accepts and passes on to `MaverickAgent`."""

    model: str
    mcp_servers: Mapping[str, Mapping[str, Any]]
    permission_mode: PermissionMode
    max_turns: int
    max_structured_output_retries: int
    cli_path: str | Path | None
    env: Mapping[str, str]


def _validate_tools(
    allowed_tools: Sequence[str], mcp_servers: Mapping[str, Any], agent_name: str
) -> None:
    """Raise `InvalidToolError` for a tool neither builtin nor ``mcp__<server>__<tool>``."""
    for tool in allowed_tools:
        if tool in BUILTIN_TOOLS:
            continue
        if tool.startswith("mcp__"):
            server, sep, name = tool[len("mcp__") :].partition("__")
            if server in mcp_servers and sep and name:
                continue
        available = [*BUILTIN_TOOLS, *(f"mcp__{server}__<tool>" for server in mcp_servers)]
        raise InvalidToolError(tool, available, agent_name=agent_name)


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} chars cut]"


class MaverickAgent(ABC, Generic[ContextT, ResultT]):
    """Base class of every agent: ``execute(context)`` returns the agent's typed result.

    ``output_model`` is the contract of the run's structured output (a generated model);
    ``contract`` its name in `maverick.contracts.CONTRACTS` (default: the model's class name).
    ``max_turns`` budgets the agent's own work; the CLI gets that plus the structured-output
    attempts (``max_structured_output_retries``, sent as ``MAX_STRUCTURED_OUTPUT_RETRIES``),
    as each attempt costs a turn. ``cli_path`` and ``env`` are for tests and special setups.
    """

    def __init__(
        self,
        name: str,
        instructions: str,
        allowed_tools: Sequence[str],
        *,
        output_model: type[BaseModel],
        contract: str | None = None,
        model: str = DEFAULT_MODEL,
        mcp_servers: Mapping[str, Mapping[str, Any]] | None = None,
        permission_mode: PermissionMode = DEFAULT_PERMISSION_MODE,
        max_turns: int = DEFAULT_MAX_TURNS,
        max_structured_output_retries: int = DEFAULT_MAX_STRUCTURED_OUTPUT_RETRIES,
        cli_path: str | Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not name:
            raise ConfigError("an agent needs a non-empty name", field="name", value=name)
        servers = dict(mcp_servers or {})
        _validate_tools(allowed_tools, servers, name)
        contract_name = contract or output_model.__name__
        info = CONTRACTS.get(contract_name)
        if info is None or info.model is not output_model:
            raise ConfigError(
                f"agent {name!r}: {output_model.__name__} is not the generated model of "
                f"contract {contract_name!r}",
                field="output_model",
                value=output_model,
            )
        if max_turns < 1 or max_structured_output_retries < 1:
            raise ConfigError("max_turns and max_structured_output_retries must be >= 1")
        self.name = name
        self.instructions = instructions
        self.allowed_tools: tuple[str, ...] = tuple(allowed_tools)
        self.model = model
        self.mcp_servers: Mapping[str, Mapping[str, Any]] = servers
        self.permission_mode: PermissionMode = permission_mode
        self.max_turns = max_turns
        self.max_structured_output_retries = max_structured_output_retries
        self.cli_path = cli_path
        self.env: dict[str, str] = dict(env or {})
        self.output_model = output_model
        self.contract = contract_name
        self.output_format: dict[str, Any] = output_format(contract_name)

    @abstractmethod
    async def execute(self, context: ContextT) -> ResultT:
        """Run the agent on ``context`` and return its typed result, or raise an `AgentError`."""

    def _build_options(self, cwd: str | Path | None = None) -> ClaudeAgentOptions:
        """The SDK options of one run in ``cwd``."""
        builtin = [tool for tool in self.allowed_tools if tool in BUILTIN_TOOLS]
        env = {"MAX_STRUCTURED_OUTPUT_RETRIES": str(self.max_structured_output_retries)}
        return ClaudeAgentOptions(
            system_prompt={
                "type": "preset",
                "preset": "claude_code",
                "append": f"{self.instructions}\n\n{STRUCTURED_OUTPUT_INSTRUCTIONS}",
            },
            # ``tools`` is what the model can see; ``allowed_tools`` what runs without asking.
            tools=builtin,
            allowed_tools=list(self.allowed_tools),
            mcp_servers=dict(self.mcp_servers),  # type: ignore[arg-type]
            permission_mode=self.permission_mode,
            model=self.model,
            max_turns=self.max_turns + self.max_structured_output_retries + 1,
            output_format=self.output_format,
            env=env | self.env,
            cwd=cwd,
            cli_path=self.cli_path,
        )

    async def _query(self, prompt: str, cwd: str | Path | None = None) -> QueryOutcome:
        """One run; errors come back as Maverick errors carrying this agent's name."""
        try:
            return await run_query(prompt, self._build_options(cwd))
        except AgentError as error:
            error.agent_name = error.agent_name or self.name
            raise

    def _extract_structured_output(self, outcome: QueryOutcome, model: type[ModelT]) -> ModelT:
        """The run's answer as ``model``: structured output first, then the text's json block.

        Raises `MalformedResponseError` (raw text kept, both reasons in the message) when
        neither yields a valid ``model``.
        """
        if outcome.has_structured_output:
            try:
                return model.model_validate(outcome.structured_output)
            except ValidationError as error:
                structured_reason = f"structured output failed validation: {error}"
        elif outcome.retries_exhausted:
            detail = "; ".join(outcome.errors) or "no detail"
            structured_reason = f"the CLI ran out of structured-output retries ({detail})"
        else:
            subtype = outcome.result.subtype if outcome.result is not None else "no result"
            structured_reason = f"the run ended ({subtype}) without structured output"
        try:
            parsed = validate_output(outcome.text, model)
        except OutputValidationError as error:
            text_reason = f"text fallback failed: {error.message}"
        else:
            logger.warning(
                "agent %s: %s; used the ```json block of the answer instead",
                self.name,
                structured_reason,
            )
            return parsed
        raw = outcome.text
        if not raw and outcome.structured_output is not None:
            raw = json.dumps(outcome.structured_output, ensure_ascii=False)
        raise MalformedResponseError(
            f"Agent {self.name!r} returned no valid {model.__name__}: "
            f"{_short(structured_reason, 1500)}; {_short(text_reason, 1500)}",
            raw_response=raw,
            agent_name=self.name,
        )

    async def _run(self, prompt: str, cwd: str | Path | None, model: type[ModelT]) -> ModelT:
        """`_query` then `_extract_structured_output`."""
        return self._extract_structured_output(await self._query(prompt, cwd), model)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, contract={self.contract!r})"
