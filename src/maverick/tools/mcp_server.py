"""Serve the four tools over MCP: ``maverick-tools-mcp --root DIR [--http [--port N]]``.

Built on the official ``mcp`` SDK's low-level server (the ``mcp`` extra). Each tool's
``outputSchema`` is its contract's canonical schema in one self-contained form, read from
the generated registry (:func:`maverick.contracts.tool_output_schema`, the same document as
``export/structured-output/tools/``), never derived from the Pydantic model; its
``inputSchema`` and description come the same way from its arguments' contract
(:func:`maverick.contracts.tool_input_schema`, ``schemas/tools/*_input.json``). Arguments and
results are judged by the contracts' generated models, in JSON mode: they decide as the schemas
do (ECMA-262 patterns included, which python-jsonschema would read as Python's ``re``). Every
result is validated before it is sent:

- a success: ``structuredContent`` is the result, and a text block holds the same JSON;
- an error (any bad input): ``isError`` true, a text block holding the error message, and the
  error-form result (``success`` false, ``error``, every other field at its default) as
  ``structuredContent``.

Arguments are checked against their contract first; arguments that do not fit
get an error result of the tool's contract as well. Only an unknown tool name is a protocol
error. stdio is the default transport; ``--http`` serves streamable HTTP on 127.0.0.1 only.

Calls are answered concurrently: each runs on a bounded pool of worker threads
(``--workers``; a large search also on the server's search processes, ``--search-processes``)
under its time and size budgets (``--time-budget``, ``--read-budget``), and
the secrets policy takes the deny rules of ``--deny`` and ``--deny-file`` after its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS
from pydantic import BaseModel, ValidationError

from maverick.contracts import (
    TOOL_CONTRACTS,
    TOOL_INPUT_CONTRACTS,
    ToolResult,
    tool_input_schema,
    tool_output_schema,
)
from maverick.tools.base import Limits
from maverick.tools.codebase import DEFAULT_SEARCH_PROCESSES, DEFAULT_WORKERS, CodebaseTools
from maverick.tools.policy import SecretsPolicy
from maverick.tools.results import create_error_result

__all__ = ["TOOL_NAMES", "build_server", "call_result", "main", "options"]

SERVER_NAME = "maverick-tools"

# The tools served, in this order; their schemas and descriptions come from the registry.
TOOL_NAMES = ("search_codebase", "get_file", "check_patterns", "analyze_deps")


@dataclass(frozen=True)
class _Tool:
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    arguments: type[BaseModel]
    contract: type[ToolResult]
    run: Callable[..., Awaitable[ToolResult]]


def _tools(codebase: CodebaseTools) -> dict[str, _Tool]:
    tools = {}
    for name in TOOL_NAMES:
        input_schema = tool_input_schema(name)
        output_schema = tool_output_schema(name)
        tools[name] = _Tool(
            name=name,
            description=input_schema["description"],
            input_schema=input_schema,
            output_schema=output_schema,
            arguments=TOOL_INPUT_CONTRACTS[name].model,
            contract=TOOL_CONTRACTS[name].model,
            run=getattr(codebase, name),
        )
    return tools


def call_result(document: dict[str, Any]) -> types.CallToolResult:
    """The MCP answer for a schema-valid result document (success or error form)."""
    if document["success"]:
        text = json.dumps(document, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=document
        )
    return types.CallToolResult(
        content=[types.TextContent(text=document["error"])],
        structured_content=document,
        is_error=True,
    )


async def _call(tool: _Tool, arguments: dict[str, Any]) -> dict[str, Any]:
    """Run ``tool``; the result document, always valid against its output schema."""
    problem = _problem(tool.arguments, arguments, "arguments")
    if problem is not None:
        message = f"Invalid arguments for {tool.name}: {problem}"
        result = create_error_result(tool.contract, tool.name, message)
    else:
        result = await tool.run(**arguments)
    document = result.model_dump(mode="json")
    problem = _problem(tool.contract, document, "result")
    if problem is not None:  # never send what the contract refuses
        message = f"Internal error in {tool.name}: result refused by its contract: {problem}"
        document = create_error_result(tool.contract, tool.name, message).model_dump(mode="json")
        tool.contract.model_validate_json(json.dumps(document))
    return document


def _problem(model: type[BaseModel], document: dict[str, Any], whole: str) -> str | None:
    """The first thing ``model`` refuses in ``document`` (read as JSON), where and why; or None.

    ``whole`` names the document where the refusal is about all of it (a cross-field rule)."""
    try:
        model.model_validate_json(json.dumps(document))
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = "/".join(str(part) for part in error["loc"]) or whole
        return f"{where}: {error['msg']}"
    return None


def build_server(
    root: str | Path,
    *,
    policy: SecretsPolicy | None = None,
    limits: Limits | None = None,
    workers: int = DEFAULT_WORKERS,
    search_processes: int = DEFAULT_SEARCH_PROCESSES,
) -> Server[Any]:
    """The MCP server of the four tools on ``root`` (see :class:`CodebaseTools` for the rest)."""
    codebase = CodebaseTools(
        root, policy=policy, limits=limits, workers=workers, search_processes=search_processes
    )
    tools = _tools(codebase)
    listing = types.ListToolsResult(
        tools=[
            types.Tool(
                name=t.name,
                description=t.description,
                input_schema=t.input_schema,
                output_schema=t.output_schema,
            )
            for t in tools.values()
        ]
    )

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            known = ", ".join(tools)
            raise MCPError(INVALID_PARAMS, f"Unknown tool {params.name!r}; tools: {known}")
        return call_result(await _call(tool, dict(params.arguments or {})))

    return Server(
        SERVER_NAME,
        version="0.1.0",
        instructions="Bob's Brain's codebase tools; results follow the maverick tool contracts.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=lambda name: tools[name].input_schema if name in tools else None,
    )


async def _serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def _serve_http(server: Server[Any], port: int) -> None:
    import uvicorn  # noqa: PLC0415 - only the HTTP transport needs it

    app = server.streamable_http_app(host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def options() -> argparse.ArgumentParser:
    """The command line of ``maverick-tools-mcp`` (docs/cli.md documents every option)."""
    parser = argparse.ArgumentParser(
        prog="maverick-tools-mcp",
        description="Serve search_codebase, get_file, check_patterns and analyze_deps over MCP.",
    )
    parser.add_argument("--root", required=True, help="the folder the tools may read")
    parser.add_argument(
        "--http", action="store_true", help="serve streamable HTTP on 127.0.0.1 (not stdio)"
    )
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    parser.add_argument(
        "--deny",
        action="append",
        default=[],
        metavar="RULE",
        help="a gitignore-style rule the secrets policy adds (repeatable), e.g. 'config/prod/'",
    )
    parser.add_argument(
        "--deny-file",
        action="append",
        default=[],
        metavar="FILE",
        help="a file of gitignore-style deny rules, one a line (repeatable)",
    )
    parser.add_argument(
        "--time-budget", type=float, default=10.0, metavar="SECONDS",
        help="time a call may take before it answers an error (default 10)",
    )  # fmt: skip
    parser.add_argument(
        "--read-budget", type=float, default=256, metavar="MIB",
        help="MiB a call may read before it answers an error (default 256)",
    )  # fmt: skip
    parser.add_argument(
        "--workers", type=int, default=DEFAULT_WORKERS,
        help=f"calls that run at once; more wait (default {DEFAULT_WORKERS})",
    )  # fmt: skip
    parser.add_argument(
        "--search-processes", type=int, default=DEFAULT_SEARCH_PROCESSES, metavar="N",
        help="processes a large search is shared among; 0: none "
        f"(default {DEFAULT_SEARCH_PROCESSES}: one per core, up to 4)",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = options().parse_args(argv)
    try:
        limits = Limits(args.time_budget, round(args.read_budget * 1024 * 1024))
        policy = SecretsPolicy.with_rules(args.deny, args.deny_file)
        server = build_server(
            args.root,
            policy=policy,
            limits=limits,
            workers=args.workers,
            search_processes=args.search_processes,
        )
    except (NotADirectoryError, OSError, ValueError) as exc:
        print(f"maverick-tools-mcp: {exc}", file=sys.stderr)
        return 2
    if args.http:
        _serve_http(server, args.port)
    else:
        anyio.run(_serve_stdio, server)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
