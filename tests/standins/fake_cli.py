#!/usr/bin/env python3
"""A stand-in for the ``claude`` executable that speaks the Agent SDK's stream-json protocol.

Run it through ``ClaudeAgentOptions(cli_path=...)``. The SDK starts it as
``claude --output-format stream-json --verbose ... [--json-schema <schema>] --input-format
stream-json`` and then talks over stdin/stdout, one JSON object a line:

1. the SDK writes ``{"type": "control_request", "request": {"subtype": "initialize", ...}}``;
   the stand-in answers with a ``control_response`` of subtype ``success``;
2. the SDK writes the user message (``{"type": "user", "message": {...}}``) and, when it needs
   no callbacks, closes stdin;
3. the stand-in plays its *scenario*: lines on stdout (the ``system``/``assistant``/``user``/
   ``result`` frames of the real CLI), text on stderr, pauses, and finally its exit code.

The frames copy those of the real CLI 2.1.330 (see docs/claude-cli-structured-output.md): a
successful structured output is an ``assistant`` frame with a ``tool_use`` block named
``StructuredOutput``, a ``user`` frame with its ``tool_result``, and a ``result`` frame with
``structured_output`` (and ``result`` = that document as compact JSON). Retries exhausted is a
``result`` with subtype ``error_max_structured_output_retries`` followed by exit code 1.

The scenario comes from the environment:

``FAKE_CLI_SCENARIO``
    a path to a JSON scenario file, inline JSON (starting with ``{``), or a preset name
    (``success``, ``retries_exhausted``, ``crash``, ``corrupt_json_line``, ``garbage_line``,
    ``no_tool_call``, ``fenced_text``, ``api_error``) whose keyword arguments are the JSON
    object in ``FAKE_CLI_ARGS``. Default: ``success`` with ``{"success": true, ...}``.
``FAKE_CLI_RECORD``
    a path where the stand-in writes, as JSON, its argv, the lines it read on stdin, and the
    ``CLAUDE*``/``ANTHROPIC*`` environment variables it saw.

A scenario is ``{"events": [...], "exit_code": 0}`` (plus, optionally, ``"initialize_error":
"text"`` to refuse the SDK's initialize request with that error) where each event is one of
``{"emit": {...}}`` (a frame: ``session_id`` and ``uuid`` are filled in when missing),
``{"raw": "text"}`` (a line written verbatim), ``{"stderr": "text"}`` and ``{"sleep": secs}``.
The preset builders below return such dicts, so a test can also build one, adjust it, and
hand it over as a file (see :func:`write_scenario`).

Only the standard library is used: the SDK runs this file as a separate process.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

TOOL = "StructuredOutput"
MODEL = "claude-sonnet-4-5-20250929"
CLI_VERSION = "2.1.330"
ENFORCE_NUDGE = (
    "[structured-output-enforce] You MUST call the StructuredOutput tool to complete this "
    "request. Call this tool now."
)
TOOL_OK = "Structured output provided successfully"

Scenario = dict[str, Any]
Event = dict[str, Any]


# -- frames ---------------------------------------------------------------------------------


def _usage(input_tokens: int = 12, output_tokens: int = 7) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens,
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
    }


def system_init(*, tools: Sequence[str] = (TOOL,), model: str = MODEL) -> Event:
    """The ``system``/``init`` frame the CLI sends first."""
    return {
        "emit": {
            "type": "system",
            "subtype": "init",
            "cwd": os.getcwd(),
            "tools": list(tools),
            "mcp_servers": [],
            "model": model,
            "permissionMode": "default",
            "slash_commands": [],
            "apiKeySource": "ANTHROPIC_API_KEY",
            "claude_code_version": CLI_VERSION,
            "output_style": "default",
        }
    }


def assistant(*blocks: Mapping[str, Any], model: str = MODEL) -> Event:
    """An ``assistant`` frame (the CLI sends one per content block)."""
    return {
        "emit": {
            "type": "assistant",
            "message": {
                "id": f"msg_{uuid.uuid4().hex[:24]}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [dict(block) for block in blocks],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 12, "output_tokens": 1},
            },
            "parent_tool_use_id": None,
        }
    }


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def tool_use_block(document: Any, tool_use_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_use_id, "name": TOOL, "input": document}


def tool_result(tool_use_id: str, content: str, *, is_error: bool = False) -> Event:
    """The ``user`` frame carrying the CLI's answer to a tool call."""
    block: dict[str, Any] = {"tool_use_id": tool_use_id, "type": "tool_result", "content": content}
    if is_error:
        block["is_error"] = True
    return {
        "emit": {
            "type": "user",
            "message": {"role": "user", "content": [block]},
            "parent_tool_use_id": None,
            "tool_use_result": f"Error: {content}" if is_error else content,
        }
    }


def user_text(text: str) -> Event:
    """A synthetic ``user`` frame, such as the CLI's structured-output nudge."""
    return {
        "emit": {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": text}]},
            "parent_tool_use_id": None,
            "isSynthetic": True,
        }
    }


def result(
    subtype: str = "success",
    *,
    is_error: bool = False,
    num_turns: int = 2,
    structured_output: Any = None,
    has_structured_output: bool = False,
    text: str | None = None,
    errors: Sequence[str] | None = None,
    terminal_reason: str = "completed",
    api_error_status: int | None = None,
    stop_reason: str | None = "end_turn",
    cost: float = 0.000188,
) -> Event:
    """The ``result`` frame that ends a turn."""
    frame: dict[str, Any] = {
        "type": "result",
        "subtype": subtype,
        "is_error": is_error,
        "duration_ms": 250,
        "duration_api_ms": 84,
        "num_turns": num_turns,
        "stop_reason": stop_reason,
        "total_cost_usd": cost,
        "usage": _usage(),
        "modelUsage": {},
        "permission_denials": [],
        "terminal_reason": terminal_reason,
    }
    if text is not None:
        frame["result"] = text
    if has_structured_output:
        frame["structured_output"] = structured_output
    if errors is not None:
        frame["errors"] = list(errors)
    if subtype == "success":
        frame["api_error_status"] = api_error_status
    return {"emit": frame}


def _compact(document: Any) -> str:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


# -- presets --------------------------------------------------------------------------------


def success(
    document: Any = None, *, text: str | None = None, stderr: str | None = None
) -> Scenario:
    """The model calls StructuredOutput once with ``document``, which the CLI accepts."""
    if document is None:
        document = {"success": True, "summary": "stand-in summary"}
    events: list[Event] = [system_init()]
    if stderr:
        events.append({"stderr": stderr})
    if text is not None:
        events.append(assistant(text_block(text)))
    events += [
        assistant(tool_use_block(document, "toolu_fake_1")),
        tool_result("toolu_fake_1", TOOL_OK),
        result(
            structured_output=document,
            has_structured_output=True,
            text=_compact(document),
            stop_reason="tool_use",
        ),
    ]
    return {"events": events, "exit_code": 0}


def retries_exhausted(
    document: Any = None,
    *,
    attempts: int = 5,
    error: str = "root: must have required property 'summary'",
) -> Scenario:
    """Every StructuredOutput call fails validation; the CLI gives up after ``attempts``."""
    if document is None:
        document = {"success": True}
    message = f"Output does not match required schema: {error}"
    events: list[Event] = [system_init()]
    for attempt in range(1, attempts + 1):
        tool_id = f"toolu_fake_{attempt}"
        events += [
            assistant(tool_use_block(document, tool_id)),
            tool_result(tool_id, message, is_error=True),
        ]
    failure = (
        f"Failed to provide valid structured output after {attempts} attempts"
        f" \u2014 last StructuredOutput error: {message}"
    )
    events.append(
        result(
            "error_max_structured_output_retries",
            is_error=True,
            num_turns=attempts + 1,
            errors=[failure],
            terminal_reason="structured_output_retry_exhausted",
            stop_reason="tool_use",
        )
    )
    return {"events": events, "exit_code": 1}


def crash(
    stderr: str = "Error: something went badly wrong\n    at main (cli.js:1:1)",
    *,
    exit_code: int = 3,
    after_init: bool = True,
) -> Scenario:
    """The CLI dies: text on stderr, no result, a non-zero exit code."""
    events: list[Event] = [system_init()] if after_init else []
    # A short pause after writing stderr, as a real process takes a moment to exit.
    events += [{"stderr": stderr}, {"sleep": 0.05}]
    return {"events": events, "exit_code": exit_code}


def corrupt_json_line(line: str = '{"type": "assistant", "message": {"content": [') -> Scenario:
    """A line that starts like a JSON object but does not parse (the SDK raises on it)."""
    scenario = success()
    scenario["events"].insert(1, {"raw": line})
    return scenario


def garbage_line(line: str = "[SandboxDebug] not a JSON line at all") -> Scenario:
    """A non-JSON line among good frames (the SDK skips lines that do not start with ``{``)."""
    scenario = success()
    scenario["events"].insert(1, {"raw": line})
    return scenario


def no_tool_call(text: str = "I have reviewed the change; it looks fine.") -> Scenario:
    """The model never calls StructuredOutput: the CLI nudges once, then ends with success."""
    events = [
        system_init(),
        assistant(text_block(text)),
        user_text(ENFORCE_NUDGE),
        assistant(text_block(text)),
        result(text=text, num_turns=2),
    ]
    return {"events": events, "exit_code": 0}


def fenced_text(document: Any = None) -> Scenario:
    """The model answers in text with a ```json block instead of calling the tool."""
    if document is None:
        document = {"success": True, "summary": "from a fenced block"}
    text = "Here is my answer:\n\n```json\n" + json.dumps(document, indent=2) + "\n```\n"
    return no_tool_call(text)


def api_error(message: str = "API Error: 500 boom", *, status: int | None = 500) -> Scenario:
    """The Messages API failed: a synthetic assistant error, an error result, exit code 1."""
    events = [
        system_init(),
        assistant(text_block(message), model="<synthetic>"),
        result(
            is_error=True,
            num_turns=1,
            text=message,
            terminal_reason="api_error",
            api_error_status=status,
            stop_reason="stop_sequence",
            cost=0,
        ),
    ]
    return {"events": events, "exit_code": 1}


PRESETS: dict[str, Callable[..., Scenario]] = {
    "success": success,
    "retries_exhausted": retries_exhausted,
    "crash": crash,
    "corrupt_json_line": corrupt_json_line,
    "garbage_line": garbage_line,
    "no_tool_call": no_tool_call,
    "fenced_text": fenced_text,
    "api_error": api_error,
}


# -- helpers for tests ----------------------------------------------------------------------


def write_launcher(directory: Path, *, python: str = sys.executable) -> Path:
    """Write an executable ``claude`` wrapper into ``directory`` that runs this file."""
    launcher = directory / "claude"
    launcher.write_text(f'#!/bin/sh\nexec "{python}" "{Path(__file__).resolve()}" "$@"\n')
    launcher.chmod(0o755)
    return launcher


def write_scenario(path: Path, scenario: Scenario) -> Path:
    """Write ``scenario`` as JSON to ``path`` (for ``FAKE_CLI_SCENARIO``)."""
    path.write_text(json.dumps(scenario))
    return path


# -- the process ----------------------------------------------------------------------------


def _load_scenario(env: Mapping[str, str]) -> Scenario:
    spec = env.get("FAKE_CLI_SCENARIO", "success").strip()
    if spec.startswith("{"):
        return dict(json.loads(spec))
    if spec in PRESETS:
        kwargs = json.loads(env.get("FAKE_CLI_ARGS") or "{}")
        return PRESETS[spec](**kwargs)
    return dict(json.loads(Path(spec).read_text()))


class _Session:
    def write(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def emit(self, frame: Mapping[str, Any]) -> None:
        data = dict(frame)
        data.setdefault("session_id", self.session_id)
        data.setdefault("uuid", str(uuid.uuid4()))
        self.write(json.dumps(data))

    def __init__(self, initialize_error: str | None = None) -> None:
        self.session_id = str(uuid.uuid4())
        self.stdin_lines: list[Any] = []
        self.initialize_error = initialize_error

    def read_until_prompt(self) -> None:
        """Answer control requests until the user message arrives (or stdin closes)."""
        for line in sys.stdin:
            raw = line.strip()
            if not raw:
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                self.stdin_lines.append(raw)
                continue
            self.stdin_lines.append(message)
            kind = message.get("type")
            if kind == "control_request":
                self.answer_control(message)
            elif kind == "user":
                return

    def answer_control(self, message: Mapping[str, Any]) -> None:
        request = message.get("request") or {}
        request_id = message.get("request_id")
        if request.get("subtype") == "initialize" and self.initialize_error is not None:
            response: dict[str, Any] = {
                "subtype": "error",
                "request_id": request_id,
                "error": self.initialize_error,
            }
        elif request.get("subtype") == "initialize":
            response = {
                "subtype": "success",
                "request_id": request_id,
                "response": {"commands": [], "output_style": "default", "models": []},
            }
        else:
            response = {
                "subtype": "error",
                "request_id": request_id,
                "error": f"fake claude: unsupported control request {request.get('subtype')!r}",
            }
        self.write(json.dumps({"type": "control_response", "response": response}))

    def play(self, events: Sequence[Mapping[str, Any]]) -> None:
        for event in events:
            if "emit" in event:
                self.emit(event["emit"])
            elif "raw" in event:
                self.write(str(event["raw"]))
            elif "stderr" in event:
                text = str(event["stderr"])
                sys.stderr.write(text if text.endswith("\n") else text + "\n")
                sys.stderr.flush()
            elif "sleep" in event:
                time.sleep(float(event["sleep"]))
            else:
                raise ValueError(f"fake claude: unknown scenario event {event!r}")


def _record(path: str, session: _Session) -> None:
    env = {k: v for k, v in os.environ.items() if k.startswith(("CLAUDE", "ANTHROPIC", "FAKE_CLI"))}
    record = {"argv": sys.argv[1:], "stdin": session.stdin_lines, "env": env, "cwd": os.getcwd()}
    Path(path).write_text(json.dumps(record))


def main() -> int:
    if "--version" in sys.argv[1:] or "-v" in sys.argv[1:]:
        print(f"{CLI_VERSION} (Claude Code stand-in)")
        return 0
    scenario = _load_scenario(os.environ)
    session = _Session(initialize_error=scenario.get("initialize_error"))
    try:
        if scenario.get("wait_for_prompt", True):
            session.read_until_prompt()
        session.play(scenario.get("events", []))
    finally:
        record = os.environ.get("FAKE_CLI_RECORD")
        if record:
            _record(record, session)
    return int(scenario.get("exit_code", 0))


if __name__ == "__main__":
    sys.exit(main())
