"""A local stand-in for the Anthropic Messages API, for driving the real Claude CLI offline.

Point the CLI at it with ``ANTHROPIC_BASE_URL=<server.base_url>`` and any ``ANTHROPIC_API_KEY``
(see :func:`cli_env`). It listens on 127.0.0.1 only, records every request it gets, and answers:

* ``POST /v1/messages`` (with or without ``?beta=true``): whatever the *responder* returns for
  the request body, as Server-Sent Events when the body says ``"stream": true`` (what the CLI
  sends) and as one JSON message otherwise. Like the real API, it first checks every tool's
  ``input_schema`` against the JSON Schema draft 2020-12 meta-schema and answers ``400
  invalid_request_error`` ("tools.N.custom.input_schema: JSON schema is invalid. It must match
  JSON Schema draft 2020-12 ...") when one fails (``check_tool_schemas=False`` turns that off);
* ``POST /v1/messages/count_tokens``: a rough token count;
* ``GET /v1/models`` and ``GET /v1/models/<id>``: one model;
* anything else: ``404`` with an Anthropic-style error body (and the request is still recorded,
  so a test can see what else the CLI tried to reach).

A responder is a function from the request body to a :class:`Reply`. The helpers
:func:`structured_output`, :func:`structured_outputs` and :func:`text_only` build the usual ones.

Usage::

    with MessagesAPIStandIn(structured_output({"success": True, "summary": "ok"})) as api:
        env = cli_env(api.base_url, config_dir=tmp_path / "claude-config")
        ...  # run the CLI with env
        api.message_requests()  # the bodies of every POST /v1/messages
"""

from __future__ import annotations

import gzip
import itertools
import json
import threading
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator

__all__ = [
    "STRUCTURED_OUTPUT_TOOL",
    "MessagesAPIStandIn",
    "RecordedRequest",
    "Reply",
    "Responder",
    "cli_env",
    "last_tool_results",
    "structured_output",
    "structured_outputs",
    "text_only",
    "tool_names",
]

#: The name under which the CLI advertises the output_format tool.
STRUCTURED_OUTPUT_TOOL = "StructuredOutput"

DEFAULT_MODEL = "claude-sonnet-4-5-20250929"

_META_VALIDATOR = Draft202012Validator(Draft202012Validator.META_SCHEMA)


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request the stand-in received."""

    method: str
    path: str
    query: str
    headers: Mapping[str, str]
    body: Any  # the parsed JSON body, or the raw text when it is not JSON, or None

    @property
    def is_messages(self) -> bool:
        """Whether this is a ``POST /v1/messages`` (a model turn)."""
        return self.method == "POST" and self.path.rstrip("/") == "/v1/messages"


@dataclass(frozen=True)
class Reply:
    """What the stand-in answers to one ``POST /v1/messages``.

    ``content`` holds Anthropic content blocks: ``{"type": "text", "text": ...}`` or
    ``{"type": "tool_use", "name": ..., "input": {...}}`` (an ``id`` is added when missing).
    ``stop_reason`` defaults to ``tool_use`` when a tool is called and ``end_turn`` otherwise.
    A ``status`` other than 200 makes the stand-in answer with an error body instead
    (``error_type`` / ``error_message``). ``raw_body``, when set, is sent verbatim (with
    ``status`` and ``content_type``) instead of anything built from the other fields: a broken
    SSE stream, say.
    """

    content: Sequence[Mapping[str, Any]] = ()
    stop_reason: str | None = None
    status: int = 200
    error_type: str = "api_error"
    error_message: str = "stand-in error"
    input_tokens: int = 12
    output_tokens: int = 7
    raw_body: bytes | None = None
    content_type: str = "text/event-stream"


Responder = Callable[[Mapping[str, Any]], Reply]


def tool_names(body: Mapping[str, Any]) -> list[str]:
    """The names of the tools a Messages request advertises."""
    return [str(tool.get("name")) for tool in body.get("tools") or [] if isinstance(tool, dict)]


def last_tool_results(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The ``tool_result`` blocks of the request's last user message (empty if none)."""
    messages = body.get("messages") or []
    if not messages or messages[-1].get("role") != "user":
        return []
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return []
    return [block for block in content if block.get("type") == "tool_result"]


def _answered_structured_output(body: Mapping[str, Any]) -> bool:
    """Whether the last user message carries a successful StructuredOutput tool result."""
    results = last_tool_results(body)
    return bool(results) and not any(block.get("is_error") for block in results)


def text_only(text: str) -> Responder:
    """A model that only ever answers with ``text`` and never calls a tool."""

    def respond(body: Mapping[str, Any]) -> Reply:
        return Reply(content=[{"type": "text", "text": text}])

    return respond


def structured_outputs(
    documents: Sequence[Any], *, then: str = "Done.", text: str | None = None
) -> Responder:
    """A model that calls StructuredOutput with ``documents[0]``, then ``documents[1]``, ...

    Each main-loop request (one that advertises the StructuredOutput tool) whose last message
    is not a successful tool result gets the next document (the last one repeats). Once a call
    succeeded, the model ends its turn with the text ``then``. ``text``, if given, is sent as a
    text block before each tool call. Requests without the tool (side calls) get ``then``.
    """
    counter = itertools.count()

    def respond(body: Mapping[str, Any]) -> Reply:
        if STRUCTURED_OUTPUT_TOOL not in tool_names(body) or _answered_structured_output(body):
            return Reply(content=[{"type": "text", "text": then}])
        document = documents[min(next(counter), len(documents) - 1)]
        blocks: list[Mapping[str, Any]] = []
        if text is not None:
            blocks.append({"type": "text", "text": text})
        blocks.append({"type": "tool_use", "name": STRUCTURED_OUTPUT_TOOL, "input": document})
        return Reply(content=blocks)

    return respond


def structured_output(document: Any, *, then: str = "Done.", text: str | None = None) -> Responder:
    """A model that calls StructuredOutput once with ``document``; see `structured_outputs`."""
    return structured_outputs([document], then=then, text=text)


def cli_env(base_url: str, *, config_dir: Path | None = None) -> dict[str, str]:
    """Environment for the real CLI: talk only to ``base_url``, send nothing else anywhere."""
    env = {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-api03-standin-not-a-real-key",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_BUG_COMMAND": "1",
        "DISABLE_NON_ESSENTIAL_MODEL_CALLS": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
        "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
        "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
        # An API error is not retried ten times with back-off.
        "CLAUDE_CODE_MAX_RETRIES": "0",
        # Whatever the surrounding environment says, use this key against this URL.
        "ANTHROPIC_AUTH_TOKEN": "",
        "CLAUDE_CODE_OAUTH_TOKEN": "",
        "CLAUDE_CODE_USE_BEDROCK": "",
        "CLAUDE_CODE_USE_VERTEX": "",
        "CLAUDE_CODE_USE_FOUNDRY": "",
        "ANTHROPIC_MODEL": "",
        "ANTHROPIC_SMALL_FAST_MODEL": "",
        # Never proxy 127.0.0.1 through whatever the environment configures.
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "HTTPS_PROXY": "",
        "HTTP_PROXY": "",
        "https_proxy": "",
        "http_proxy": "",
    }
    if config_dir is not None:
        env["CLAUDE_CONFIG_DIR"] = str(config_dir)
    return env


def _sse(event: str, data: Mapping[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class MessagesAPIStandIn:
    """The stand-in server. Start with :meth:`start` or ``with``; stop with :meth:`stop`."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        model: str = DEFAULT_MODEL,
        check_tool_schemas: bool = True,
    ) -> None:
        self.responder: Responder = responder or text_only("Hello from the stand-in.")
        self.model = model
        self.check_tool_schemas = check_tool_schemas
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> MessagesAPIStandIn:
        """Listen on an ephemeral port of 127.0.0.1 in a daemon thread."""
        if self._server is not None:
            return self
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="messages-api-standin",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> MessagesAPIStandIn:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``, for ``ANTHROPIC_BASE_URL``."""
        if self._server is None:
            raise RuntimeError("the stand-in is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- what was received -----------------------------------------------------------------

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def recorded(self) -> list[RecordedRequest]:
        """A snapshot of every request so far."""
        with self._lock:
            return list(self.requests)

    def message_requests(self) -> list[Mapping[str, Any]]:
        """The JSON bodies of every ``POST /v1/messages`` so far, in order."""
        return [r.body for r in self.recorded() if r.is_messages and isinstance(r.body, dict)]

    def main_loop_requests(self) -> list[Mapping[str, Any]]:
        """The ``POST /v1/messages`` bodies that advertise the StructuredOutput tool."""
        return [b for b in self.message_requests() if STRUCTURED_OUTPUT_TOOL in tool_names(b)]

    def next_id(self, prefix: str) -> str:
        return f"{prefix}_standin{next(self._ids):06d}"

    # -- answers ---------------------------------------------------------------------------

    def render(self, body: Mapping[str, Any]) -> tuple[int, str, bytes]:
        """Status, content type and payload answering one ``POST /v1/messages``."""
        reply = self._invalid_tool_schema(body) or self.responder(body)
        if reply.raw_body is not None:
            return reply.status, reply.content_type, reply.raw_body
        if reply.status != 200:
            error = {
                "type": "error",
                "error": {"type": reply.error_type, "message": reply.error_message},
            }
            return reply.status, "application/json", json.dumps(error).encode()
        blocks = [dict(block) for block in reply.content]
        for block in blocks:
            if block.get("type") == "tool_use":
                block.setdefault("id", self.next_id("toolu"))
        stop_reason = reply.stop_reason or (
            "tool_use" if any(b.get("type") == "tool_use" for b in blocks) else "end_turn"
        )
        model = str(body.get("model") or self.model)
        message_id = self.next_id("msg")
        usage = {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens}
        if not body.get("stream"):
            message = {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": blocks,
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "usage": usage,
            }
            return 200, "application/json", json.dumps(message).encode()
        return 200, "text/event-stream", b"".join(self._stream(message_id, model, blocks, reply))

    def _invalid_tool_schema(self, body: Mapping[str, Any]) -> Reply | None:
        """The real API's 400 for a tool schema that is not valid JSON Schema draft 2020-12."""
        if not self.check_tool_schemas:
            return None
        for index, tool in enumerate(body.get("tools") or []):
            # Against the meta-schema only: no format assertions, so that an ECMAScript regex
            # in "pattern" that Python's re cannot compile is not taken for an invalid schema.
            if _META_VALIDATOR.is_valid(tool.get("input_schema")):
                continue
            return Reply(
                status=400,
                error_type="invalid_request_error",
                error_message=(
                    f"tools.{index}.custom.input_schema: JSON schema is invalid. It must "
                    "match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12)."
                    " Learn more about tool use at https://docs.claude.com/en/docs/tool-use."
                ),
            )
        return None

    def _stream(
        self, message_id: str, model: str, blocks: list[dict[str, Any]], reply: Reply
    ) -> Iterator[bytes]:
        start: dict[str, Any] = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }
        yield _sse("message_start", {"type": "message_start", "message": start})
        for index, block in enumerate(blocks):
            if block.get("type") == "tool_use":
                opening = {
                    "type": "tool_use",
                    "id": block["id"],
                    "name": block["name"],
                    "input": {},
                }
                text = json.dumps(block.get("input", {}))
                # Two deltas, as a real stream splits the JSON arbitrarily.
                cut = len(text) // 2
                deltas = [
                    {"type": "input_json_delta", "partial_json": part}
                    for part in (text[:cut], text[cut:])
                ]
            else:
                opening = {"type": "text", "text": ""}
                deltas = [{"type": "text_delta", "text": str(block.get("text", ""))}]
            yield _sse(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            )
            for delta in deltas:
                yield _sse(
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
        stop_reason = reply.stop_reason or (
            "tool_use" if any(b.get("type") == "tool_use" for b in blocks) else "end_turn"
        )
        yield _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": reply.output_tokens},
            },
        )
        yield _sse("message_stop", {"type": "message_stop"})


def _decode_body(raw: bytes, encoding: str) -> Any:
    if encoding == "gzip":
        raw = gzip.decompress(raw)
    elif encoding == "deflate":
        raw = zlib.decompress(raw)
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def _count_tokens(body: Any) -> int:
    return max(1, len(json.dumps(body)) // 4)


def _make_handler(standin: MessagesAPIStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "messages-api-standin/1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            return

        def _read(self) -> RecordedRequest:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            request = RecordedRequest(
                method=self.command,
                path=parts.path,
                query=parts.query,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=_decode_body(raw, (self.headers.get("Content-Encoding") or "").lower()),
            )
            standin.record(request)
            return request

        def _send(self, status: int, content_type: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("request-id", standin.next_id("req"))
            if content_type == "text/event-stream":
                self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()

        def _not_found(self, request: RecordedRequest) -> None:
            error = {
                "type": "error",
                "error": {
                    "type": "not_found_error",
                    "message": f"stand-in: {request.method} {request.path}",
                },
            }
            self._send(HTTPStatus.NOT_FOUND, "application/json", json.dumps(error).encode())

        def do_POST(self) -> None:
            request = self._read()
            path = request.path.rstrip("/")
            if path == "/v1/messages" and isinstance(request.body, dict):
                try:
                    status, content_type, payload = standin.render(request.body)
                except Exception as exc:  # a broken responder must show, not hang the CLI
                    error = {"type": "error", "error": {"type": "api_error", "message": repr(exc)}}
                    status, content_type = 500, "application/json"
                    payload = json.dumps(error).encode()
                self._send(status, content_type, payload)
            elif path == "/v1/messages/count_tokens":
                count = {"input_tokens": _count_tokens(request.body)}
                self._send(200, "application/json", json.dumps(count).encode())
            else:
                self._not_found(request)

        def do_GET(self) -> None:
            request = self._read()
            path = request.path.rstrip("/")
            model = {
                "type": "model",
                "id": standin.model,
                "display_name": "Stand-in",
                "created_at": "2025-01-01T00:00:00Z",
            }
            if path == "/v1/models":
                listing = {"data": [model], "has_more": False, "first_id": model["id"]}
                listing["last_id"] = model["id"]
                self._send(200, "application/json", json.dumps(listing).encode())
            elif path.startswith("/v1/models/"):
                self._send(200, "application/json", json.dumps(model).encode())
            else:
                self._not_found(request)

        def do_HEAD(self) -> None:
            self._read()
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_PUT = do_POST
        do_DELETE = do_GET

    return Handler
