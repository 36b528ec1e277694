"""The real ``claude_agent_sdk.query()`` path, end to end, with no network.

Two stand-ins take the place of what the SDK normally talks to:

(a) ``fake``: ``tests/standins/fake_cli.py`` as ``ClaudeAgentOptions(cli_path=...)``, a
    stand-in ``claude`` executable that plays a scripted stream-json conversation;
(b) ``real``: the Claude CLI bundled with the SDK, pointed by ``ANTHROPIC_BASE_URL`` at
    ``tests/standins/messages_api.py``, a Messages API stand-in on 127.0.0.1 that answers as the
    model would (a ``StructuredOutput`` tool call with a document the test chose, a text-only
    answer, an HTTP error, a broken stream).

Both go through ``maverick.agents._sdk.run_query`` (and a few through ``query()`` directly, to
pin down what the SDK itself does). The schema rules of the CLI (which keywords it accepts) are
pinned at the end: see docs/claude-cli-structured-output.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ResultError,
    ResultMessage,
    ToolUseBlock,
    query,
)
from claude_agent_sdk import ProcessError as SDKProcessError
from pydantic import BaseModel, ConfigDict

from maverick.agents._sdk import (
    MAX_ARG_BYTES,
    RETRIES_EXHAUSTED,
    STDERR_MAX_LINES,
    QueryOutcome,
    run_query,
)
from maverick.exceptions import (
    CLINotFoundError,
    MalformedResponseError,
    NetworkError,
    ProcessError,
    StreamingError,
)
from tests.agents.conftest import FakeCLI
from tests.standins import fake_cli
from tests.standins.messages_api import (
    STRUCTURED_OUTPUT_TOOL,
    MessagesAPIStandIn,
    Reply,
    cli_env,
    last_tool_results,
    structured_output,
    structured_outputs,
    text_only,
)

T = TypeVar("T")


class Verdict(BaseModel):
    """The small contract of these tests."""

    model_config = ConfigDict(extra="forbid", strict=True)

    success: bool
    summary: str


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"success": {"type": "boolean"}, "summary": {"type": "string"}},
    "required": ["success", "summary"],
    "additionalProperties": False,
}
OUTPUT_FORMAT = {"type": "json_schema", "schema": SCHEMA}
GOOD: dict[str, Any] = {"success": True, "summary": "The change is sound."}
BAD: dict[str, Any] = {"success": "yes"}  # wrong type, summary missing

FENCE = re.compile(r"```json\n(.*?)\n```", re.DOTALL)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


async def collect(prompt: str, options: ClaudeAgentOptions) -> tuple[list[Any], Exception | None]:
    """Drive ``query()`` directly: every message, and the exception that ended it (if any)."""
    messages: list[Any] = []
    try:
        async for message in query(prompt=prompt, options=options):
            messages.append(message)
    except Exception as error:
        return messages, error
    return messages, None


def fenced_document(text: str) -> Any:
    blocks = FENCE.findall(text)
    assert blocks, f"no ```json block in {text!r}"
    return json.loads(blocks[-1])


# -- (a) the stand-in CLI -------------------------------------------------------------------


def sdk_options(fake: FakeCLI, scenario: fake_cli.Scenario, **overrides: Any) -> ClaudeAgentOptions:
    """SDK options that run the stand-in CLI (the shared ``fake`` fixture) on ``scenario``."""
    fields = {**fake.options(scenario), "cwd": fake.directory, "output_format": OUTPUT_FORMAT}
    return ClaudeAgentOptions(**(fields | overrides))


def test_fake_success_returns_the_structured_output(fake: FakeCLI) -> None:
    outcome = run(
        run_query("Review this.", sdk_options(fake, fake_cli.success(GOOD, text="Done.")))
    )

    assert outcome.structured_output == GOOD
    assert Verdict.model_validate(outcome.structured_output) == Verdict(**GOOD)
    assert outcome.result is not None
    assert outcome.result.subtype == "success"
    assert not outcome.is_error
    assert outcome.error_subtype is None
    assert outcome.text == "Done."
    assert outcome.usage is not None
    assert outcome.usage["output_tokens"] == 7
    kinds = [type(m).__name__ for m in outcome.messages]
    assert kinds == [
        "SystemMessage",
        "AssistantMessage",
        "AssistantMessage",
        "UserMessage",
        "ResultMessage",
    ]
    # What the SDK handed the CLI: the schema as --json-schema, and the prompt over stdin.
    record = fake.record()
    argv = record["argv"]
    assert json.loads(argv[argv.index("--json-schema") + 1]) == SCHEMA
    assert argv[argv.index("--input-format") + 1] == "stream-json"
    assert argv[argv.index("--output-format") + 1] == "stream-json"
    initialize, user = record["stdin"][:2]
    assert initialize["type"] == "control_request"
    assert initialize["request"]["subtype"] == "initialize"
    assert user["type"] == "user"
    assert user["message"] == {"role": "user", "content": "Review this."}


def test_fake_retries_exhausted_sdk_yields_result_then_raises(fake: FakeCLI) -> None:
    """What the SDK does on its own: the error result is yielded, then ResultError is raised."""
    messages, error = run(collect("Review.", sdk_options(fake, fake_cli.retries_exhausted(BAD))))

    assert isinstance(messages[-1], ResultMessage)
    assert messages[-1].subtype == RETRIES_EXHAUSTED
    assert messages[-1].is_error
    assert messages[-1].structured_output is None
    assert isinstance(error, ResultError)
    assert isinstance(error, SDKProcessError)
    assert error.subtype == RETRIES_EXHAUSTED
    assert error.exit_code == 1
    assert error.terminal_reason == "structured_output_retry_exhausted"
    assert "after 5 attempts" in error.errors[0]


def test_fake_retries_exhausted_adapter_keeps_the_result(fake: FakeCLI) -> None:
    outcome = run(
        run_query("Review.", sdk_options(fake, fake_cli.retries_exhausted(BAD, attempts=3)))
    )

    assert outcome.retries_exhausted
    assert outcome.is_error
    assert outcome.error_subtype == RETRIES_EXHAUSTED
    assert outcome.result is not None
    assert outcome.result.subtype == RETRIES_EXHAUSTED
    assert outcome.structured_output is None
    assert not outcome.has_structured_output
    assert "after 3 attempts" in outcome.errors[0]
    assert "Output does not match required schema" in outcome.errors[0]
    tool_calls = [
        block
        for m in outcome.messages
        if isinstance(m, AssistantMessage)
        for block in m.content
        if isinstance(block, ToolUseBlock)
    ]
    assert [c.name for c in tool_calls] == [STRUCTURED_OUTPUT_TOOL] * 3
    assert all(c.input == BAD for c in tool_calls)


def test_fake_retries_exhausted_raises_when_not_kept(fake: FakeCLI) -> None:
    options = sdk_options(fake, fake_cli.retries_exhausted(BAD))
    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", options, keep_errors=frozenset()))
    assert caught.value.exit_code == 1
    assert RETRIES_EXHAUSTED in str(caught.value)


def test_fake_crash_keeps_exit_code_and_stderr(fake: FakeCLI) -> None:
    scenario = fake_cli.crash("FATAL: out of cheese\n  at brie (cli.js:12:3)", exit_code=3)
    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", sdk_options(fake, scenario)))

    error = caught.value
    assert error.exit_code == 3
    assert error.stderr is not None
    assert "FATAL: out of cheese" in error.stderr
    assert "at brie (cli.js:12:3)" in error.stderr
    assert "out of cheese" in str(error)
    assert error.error_code == "PROCESS_ERROR"


def test_fake_crash_before_any_output(fake: FakeCLI) -> None:
    scenario = fake_cli.crash("cannot start", exit_code=127, after_init=False)
    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", sdk_options(fake, scenario)))
    assert caught.value.exit_code == 127
    assert caught.value.stderr == "cannot start"


def test_fake_corrupt_json_line_is_a_malformed_response(fake: FakeCLI) -> None:
    line = '{"type": "assistant", "message": {"content": ['
    with pytest.raises(MalformedResponseError) as caught:
        run(run_query("Review.", sdk_options(fake, fake_cli.corrupt_json_line(line))))
    assert caught.value.raw_response == line
    assert "not valid JSON" in str(caught.value)


def test_fake_non_json_line_is_skipped(fake: FakeCLI) -> None:
    """The SDK ignores stdout lines that do not start with ``{`` (debug noise of some CLIs)."""
    outcome = run(run_query("Review.", sdk_options(fake, fake_cli.garbage_line())))
    assert outcome.structured_output == {"success": True, "summary": "stand-in summary"}


def test_fake_model_never_calls_the_tool(fake: FakeCLI) -> None:
    text = "I looked at it and it is fine."
    outcome = run(run_query("Review.", sdk_options(fake, fake_cli.no_tool_call(text))))

    assert outcome.result is not None
    assert outcome.result.subtype == "success"
    assert not outcome.is_error
    assert outcome.structured_output is None
    assert not outcome.has_structured_output
    assert outcome.result.result == text
    assert outcome.text == f"{text}\n{text}"


def test_fake_text_answer_with_a_json_block(fake: FakeCLI) -> None:
    outcome = run(run_query("Review.", sdk_options(fake, fake_cli.fenced_text(GOOD))))

    assert outcome.structured_output is None
    assert Verdict.model_validate(fenced_document(outcome.text)) == Verdict(**GOOD)


def test_fake_api_error_is_a_network_error(fake: FakeCLI) -> None:
    scenario = fake_cli.api_error("API Error: 529 Overloaded", status=529)
    with pytest.raises(NetworkError) as caught:
        run(run_query("Review.", sdk_options(fake, scenario)))
    assert "HTTP 529" in str(caught.value)
    assert "Overloaded" in str(caught.value)


def test_fake_frame_the_sdk_cannot_parse_is_a_malformed_response(fake: FakeCLI) -> None:
    scenario = {"events": [fake_cli.system_init(), {"emit": {"type": "assistant"}}]}
    with pytest.raises(MalformedResponseError) as caught:
        run(run_query("Review.", sdk_options(fake, scenario)))
    assert "could not parse" in str(caught.value)
    assert caught.value.raw_response is not None
    assert "'assistant'" in caught.value.raw_response


def test_fake_run_without_a_result(fake: FakeCLI) -> None:
    """A CLI that exits 0 without a result frame: no error, and no result either."""
    outcome = run(run_query("Review.", sdk_options(fake, {"events": [fake_cli.system_init()]})))
    assert outcome.result is None
    assert outcome.structured_output is None
    assert not outcome.is_error
    assert len(outcome.messages) == 1


def test_fake_refused_initialize_is_a_streaming_error(fake: FakeCLI) -> None:
    scenario = fake_cli.success(GOOD) | {"initialize_error": "stand-in refuses to start"}
    with pytest.raises(StreamingError) as caught:
        run(run_query("Review.", sdk_options(fake, scenario)))
    assert "stand-in refuses to start" in str(caught.value)
    assert caught.value.partial_messages == []


def test_missing_cli_is_cli_not_found(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-claude"
    options = ClaudeAgentOptions(cli_path=missing, output_format=OUTPUT_FORMAT)
    with pytest.raises(CLINotFoundError) as caught:
        run(run_query("Review.", options))
    assert caught.value.cli_path == str(missing)


def test_schema_too_long_for_one_argument(fake: FakeCLI) -> None:
    """The SDK passes the schema as one argv string, which Linux caps at 128 KiB."""
    schema = SCHEMA | {"description": "x" * MAX_ARG_BYTES}
    options = sdk_options(
        fake, fake_cli.success(GOOD), output_format={"type": "json_schema", "schema": schema}
    )
    with pytest.raises(CLINotFoundError) as caught:
        run(run_query("Review.", options))
    assert "could not be started" in str(caught.value)
    assert "Argument list too long" in str(caught.value)
    assert "--json-schema argument of" in str(caught.value)


def test_missing_working_directory(fake: FakeCLI, tmp_path: Path) -> None:
    options = sdk_options(fake, fake_cli.success(GOOD), cwd=tmp_path / "gone")
    with pytest.raises(CLINotFoundError) as caught:
        run(run_query("Review.", options))
    assert "Working directory does not exist" in str(caught.value)


def test_stderr_is_bounded_and_still_reaches_the_callers_callback(fake: FakeCLI) -> None:
    lines = [f"debug line {i}" for i in range(STDERR_MAX_LINES + 50)]
    seen: list[str] = []
    options = sdk_options(fake, fake_cli.success(GOOD, stderr="\n".join(lines)), stderr=seen.append)

    outcome = run(run_query("Review.", options))

    assert seen == lines
    kept = outcome.stderr.splitlines()
    assert kept[0] == "[50 earlier stderr lines dropped]"
    assert kept[1:] == lines[50:]
    assert options.stderr == seen.append  # the caller's options are left alone


def test_preset_by_name_and_inline_json(fake: FakeCLI) -> None:
    """FAKE_CLI_SCENARIO also takes a preset name (arguments in FAKE_CLI_ARGS) or inline JSON."""
    named = dataclasses.replace(
        sdk_options(fake, {}),
        env={"FAKE_CLI_SCENARIO": "success", "FAKE_CLI_ARGS": json.dumps({"document": GOOD})},
    )
    assert run(run_query("x", named)).structured_output == GOOD

    inline = dataclasses.replace(
        sdk_options(fake, {}), env={"FAKE_CLI_SCENARIO": json.dumps(fake_cli.no_tool_call("hi"))}
    )
    assert run(run_query("x", inline)).text == "hi\nhi"


# -- (b) the real CLI against the Messages API stand-in -------------------------------------


@pytest.fixture
def api() -> Iterator[MessagesAPIStandIn]:
    with MessagesAPIStandIn() as server:
        yield server


@pytest.fixture
def real_options(api: MessagesAPIStandIn, tmp_path: Path) -> Callable[..., ClaudeAgentOptions]:
    """Options for the bundled CLI, talking to ``api`` only, with its config under tmp_path."""

    def make(schema: Any = SCHEMA, **env: str) -> ClaudeAgentOptions:
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        return ClaudeAgentOptions(
            output_format={"type": "json_schema", "schema": schema},
            env=cli_env(api.base_url, config_dir=tmp_path / "claude-config") | env,
            cwd=work,
            tools=[],  # no builtin tools: the model can only answer or call StructuredOutput
            max_turns=12,
        )

    return make


def test_real_cli_success(api: MessagesAPIStandIn, real_options: Callable[..., Any]) -> None:
    api.responder = structured_output(GOOD, text="Here is my verdict.")

    outcome: QueryOutcome = run(run_query("Review this change.", real_options()))

    assert outcome.structured_output == GOOD
    assert Verdict.model_validate(outcome.structured_output) == Verdict(**GOOD)
    assert outcome.result is not None
    assert outcome.result.subtype == "success"
    assert outcome.result.is_error is False
    # On success the result text is the document as compact JSON.
    assert outcome.result.result is not None
    assert json.loads(outcome.result.result) == GOOD
    assert outcome.text == "Here is my verdict."
    assert outcome.usage is not None

    # Exactly one model turn: the StructuredOutput call ends the turn.
    (request,) = api.message_requests()
    assert request["stream"] is True
    assert request["messages"][0] == {"role": "user", "content": "Review this change."}
    (tool,) = [t for t in request["tools"] if t["name"] == STRUCTURED_OUTPUT_TOOL]
    assert tool["input_schema"] == SCHEMA  # sent verbatim
    assert "strict" not in tool
    assert "structured format" in tool["description"]
    # Nothing else was called: no count_tokens, no /v1/models, no telemetry.
    assert {(r.method, r.path) for r in api.recorded()} == {("POST", "/v1/messages")}


def test_real_cli_invalid_then_valid(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = structured_outputs([BAD, GOOD])

    outcome = run(run_query("Review.", real_options()))

    assert outcome.structured_output == GOOD
    assert outcome.result is not None
    assert outcome.result.num_turns == 3
    _, second = api.main_loop_requests()
    (feedback,) = last_tool_results(second)
    assert feedback["is_error"] is True
    assert feedback["content"] == (
        "Output does not match required schema: "
        "root: must have required property 'summary', /success: must be boolean"
    )


def test_real_cli_retries_exhausted(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = structured_outputs([BAD])

    messages, error = run(collect("Review.", real_options()))

    # The real CLI: five StructuredOutput attempts, an error result, exit code 1.
    assert len(api.main_loop_requests()) == 5
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.subtype == RETRIES_EXHAUSTED
    assert result.is_error
    assert result.structured_output is None
    assert result.terminal_reason == "structured_output_retry_exhausted"
    assert result.errors is not None
    assert result.errors[0].startswith("Failed to provide valid structured output after 5 attempts")
    assert isinstance(error, ResultError)
    assert error.subtype == RETRIES_EXHAUSTED
    assert error.exit_code == 1


def test_real_cli_retries_exhausted_through_the_adapter(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = structured_outputs([BAD])
    options = real_options(MAX_STRUCTURED_OUTPUT_RETRIES="2")

    outcome = run(run_query("Review.", options))

    assert len(api.main_loop_requests()) == 2  # the limit is the CLI's env var
    assert outcome.retries_exhausted
    assert outcome.structured_output is None
    assert "after 2 attempts" in outcome.errors[0]
    assert "/success: must be boolean" in outcome.errors[0]


def test_real_cli_unparsable_tool_input_counts_as_an_attempt(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    """The model's tool input is cut off mid-JSON: the CLI answers with an error and retries."""
    events = [
        ("message_start", {"type": "message_start", "message": _message_start()}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_cut",
                    "name": STRUCTURED_OUTPUT_TOOL,
                    "input": {},
                },
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": '{"success": tr'},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    body = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()
    api.responder = lambda request: Reply(raw_body=body)

    outcome = run(run_query("Review.", real_options(MAX_STRUCTURED_OUTPUT_RETRIES="2")))

    assert outcome.retries_exhausted
    assert "could not be parsed as JSON" in outcome.errors[0]


def _message_start() -> dict[str, Any]:
    return {
        "id": "msg_cut",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def test_real_cli_never_calls_the_tool(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = text_only("It looks fine to me.")

    outcome = run(run_query("Review.", real_options()))

    # The CLI nudges the model once, then gives up quietly: success without structured output.
    _, second = api.main_loop_requests()
    nudge = second["messages"][-1]["content"][0]["text"]
    assert nudge.startswith("[structured-output-enforce] You MUST call the StructuredOutput tool")
    assert outcome.result is not None
    assert outcome.result.subtype == "success"
    assert not outcome.is_error
    assert outcome.structured_output is None
    assert outcome.result.result == "It looks fine to me."
    assert outcome.text == "It looks fine to me.\nIt looks fine to me."


def test_real_cli_text_answer_with_a_json_block(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = text_only("Verdict:\n```json\n" + json.dumps(GOOD) + "\n```")

    outcome = run(run_query("Review.", real_options()))

    assert outcome.structured_output is None
    assert Verdict.model_validate(fenced_document(outcome.text)) == Verdict(**GOOD)


def test_real_cli_crash_on_a_schema_it_rejects(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    schema = SCHEMA | {"x-maverick-contract": "Verdict"}

    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", real_options(schema)))

    assert caught.value.exit_code == 1
    assert caught.value.stderr == (
        "Error: --json-schema is not a valid JSON Schema: "
        'strict mode: unknown keyword: "x-maverick-contract"'
    )
    assert api.recorded() == []  # it never got as far as the API


def test_real_cli_malformed_stream_is_a_network_error(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    broken = b'event: message_start\ndata: {"type":"message_start","message": {oops\n\n'
    api.responder = lambda request: Reply(raw_body=broken)

    with pytest.raises(NetworkError) as caught:
        run(run_query("Review.", real_options()))

    assert "malformed response" in str(caught.value)
    assert caught.value.stderr is not None
    assert "Could not parse message into JSON" in caught.value.stderr
    assert caught.value.url == api.base_url


def test_real_cli_http_error_is_a_network_error(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = lambda request: Reply(status=500, error_message="stand-in says no")

    with pytest.raises(NetworkError) as caught:
        run(run_query("Review.", real_options()))

    assert "HTTP 500" in str(caught.value)
    assert "stand-in says no" in str(caught.value)


def test_real_cli_api_refusal_is_a_process_error(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    """A draft-07 tuple ``items`` passes the CLI (Ajv draft-07) but not the API (2020-12)."""
    schema = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}
        },
    }
    api.responder = structured_output({"pair": ["a", 1]})

    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", real_options(schema)))

    assert "HTTP 400" in str(caught.value)
    assert "must match JSON Schema draft 2020-12" in str(caught.value)
    assert caught.value.exit_code == 1
    assert caught.value.stderr is not None
    assert 'strict mode: "items" is 2-tuple' in caught.value.stderr  # Ajv's strictTuples warning


# -- the schema rules of the bundled CLI ----------------------------------------------------

ACCEPTED: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://example.com/contracts/verdict.schema.json",
    "$comment": "every keyword here passes Ajv's strict mode (draft-07 vocabulary)",
    "title": "Verdict",
    "description": "A verdict.",
    "type": "object",
    "$defs": {"Severity": {"type": "string", "enum": ["low", "high"]}},
    "definitions": {"Line": {"type": "integer", "minimum": 1}},
    "properties": {
        "kind": {"const": "verdict"},
        "severity": {"$ref": "#/$defs/Severity", "description": "a sibling of $ref"},
        "line": {"$ref": "#/definitions/Line"},
        "when": {"type": "string", "format": "date-time", "examples": ["2025-01-01T00:00:00Z"]},
        "note": {"type": ["string", "null"], "default": None, "deprecated": True},
        "legacy": {"type": "string", "nullable": True, "readOnly": True},
        "value": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "fix": {"type": "string"},
        "patch": {"type": "string"},
    },
    "required": ["kind", "severity"],
    "additionalProperties": False,
    "dependencies": {"patch": ["fix"]},
    "if": {"properties": {"severity": {"const": "high"}}},
    "then": {"required": ["line"]},
}
ACCEPTED_DOCUMENT = {
    "kind": "verdict",
    "severity": "high",
    "line": 3,
    "when": "not checked: formats are not validated",
    "note": None,
    "legacy": None,
    "value": 7,
    "tags": ["a", "b"],
}


def test_real_cli_accepts_draft07_schemas_and_sends_them_verbatim(
    api: MessagesAPIStandIn, real_options: Callable[..., Any]
) -> None:
    api.responder = structured_outputs([ACCEPTED_DOCUMENT | {"line": 0}, ACCEPTED_DOCUMENT])

    outcome = run(run_query("Review.", real_options(ACCEPTED)))

    assert outcome.structured_output == ACCEPTED_DOCUMENT
    first, second = api.main_loop_requests()
    (tool,) = [t for t in first["tools"] if t["name"] == STRUCTURED_OUTPUT_TOOL]
    assert tool["input_schema"] == ACCEPTED
    (feedback,) = last_tool_results(second)
    assert feedback["content"] == "Output does not match required schema: /line: must be >= 1"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            {"x-foo": 1}, 'strict mode: unknown keyword: "x-foo"', id="x-extension-keyword"
        ),
        pytest.param(
            {"properties": {"a": {"oneOf": [{"type": "string"}], "discriminator": {}}}},
            'strict mode: unknown keyword: "discriminator"',
            id="discriminator",
        ),
        pytest.param(
            {"unevaluatedProperties": False},
            'strict mode: unknown keyword: "unevaluatedProperties"',
            id="unevaluatedProperties",
        ),
        pytest.param(
            {"dependentRequired": {"a": ["b"]}},
            'strict mode: unknown keyword: "dependentRequired"',
            id="dependentRequired",
        ),
        pytest.param(
            {"properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}]}}},
            'strict mode: unknown keyword: "prefixItems"',
            id="prefixItems",
        ),
        pytest.param(
            {"$schema": "https://json-schema.org/draft/2020-12/schema"},
            'no schema with key or ref "https://json-schema.org/draft/2020-12/schema"',
            id="schema-2020-12",
        ),
        pytest.param(
            {"properties": {"f": {"$ref": "finding.schema.json"}}},
            "can't resolve reference finding.schema.json from id #",
            id="ref-to-another-file",
        ),
    ],
)
def test_real_cli_rejects(
    api: MessagesAPIStandIn,
    real_options: Callable[..., Any],
    change: dict[str, Any],
    message: str,
) -> None:
    schema = {"type": "object"} | change

    with pytest.raises(ProcessError) as caught:
        run(run_query("Review.", real_options(schema)))

    assert caught.value.exit_code == 1
    assert caught.value.stderr == f"Error: --json-schema is not a valid JSON Schema: {message}"
    assert api.recorded() == []
