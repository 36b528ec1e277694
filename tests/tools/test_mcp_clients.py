"""The MCP server with real clients: the SDK's in-memory client and the stdio client.

Each client lists the tools (every outputSchema must equal the export's file), makes every
call of the table in :mod:`tests.tools._expected` in one session, and every answer is checked
field by field: structuredContent valid by the canonical schema files and by the generated
model, isError and the text block as the server promises.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import StdioServerParameters

from maverick.contracts import TOOL_CONTRACTS, TOOL_INPUT_CONTRACTS, canonical_schema
from maverick.tools.base import Limits
from maverick.tools.mcp_server import TOOL_NAMES, build_server
from tests.tools._expected import ERRORS, SUCCESSES, expected
from tests.tools._mcp_checks import case_ids, check_answer, collect, exported_output_schema

CLIENTS = ("in-memory", "stdio")
BUDGET = 60.0
CASES = [(t, a, r, True) for t, a, r in SUCCESSES] + [(t, a, m, False) for t, a, m in ERRORS]


def console_script() -> str:
    script = Path(sys.executable).with_name("maverick-tools-mcp")
    found = str(script) if script.exists() else shutil.which("maverick-tools-mcp")
    assert found, "the console script maverick-tools-mcp is not installed"
    return found


@pytest.fixture(scope="module")
def sessions(repo: Path) -> dict[str, dict[str, Any]]:
    """One session per client for the whole module (one server process for stdio). The calls
    walk this repository: a time budget of a minute, not the default 10 s, so that a loaded
    machine checks the answers (the budget has its tests: test_hostile, test_searchers)."""
    budget = ["--time-budget", str(BUDGET)]
    stdio = StdioServerParameters(command=console_script(), args=["--root", str(repo), *budget])
    in_memory = build_server(repo, limits=Limits(time_budget=BUDGET))
    return {"in-memory": collect(in_memory), "stdio": collect(stdio)}


@pytest.mark.parametrize("client", CLIENTS)
def test_output_schemas_are_the_export(sessions: dict[str, dict[str, Any]], client: str) -> None:
    tools = sessions[client]["tools"]
    assert list(tools) == list(TOOL_NAMES)
    assert sorted(tools) == sorted(TOOL_CONTRACTS) == sorted(TOOL_INPUT_CONTRACTS)
    for name, tool in tools.items():
        assert tool.output_schema == exported_output_schema(name), name
        assert tool.input_schema == exported_output_schema(name, "input"), name
        arguments = canonical_schema(TOOL_INPUT_CONTRACTS[name].name)
        assert tool.description == arguments["description"]


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(("index", "case"), list(enumerate(CASES)), ids=case_ids())
def test_every_call(
    sessions: dict[str, dict[str, Any]],
    repo: Path,
    client: str,
    index: int,
    case: tuple[str, dict[str, Any], Any, bool],
) -> None:
    tool, _, want, success = case
    document = check_answer(sessions[client]["answers"][index], tool, success)
    document.pop("metadata")
    if success:
        assert document == expected(want, repo)
    else:
        assert want in document["error"]
        assert document["data"] is None


@pytest.mark.parametrize("client", CLIENTS)
def test_unknown_tool_is_a_protocol_error(sessions: dict[str, dict[str, Any]], client: str) -> None:
    assert "Unknown tool 'rm_rf'" in (sessions[client]["unknown"] or "")


def test_bad_arguments_are_error_results(repo: Path) -> None:
    """Arguments outside the inputSchema: an error result of the tool's contract, not a crash."""
    bad = [
        ("get_file", {}, "Invalid arguments for get_file: path: Field required"),
        ("search_codebase", {"query": "x", "surplus": 1}, "surplus: Extra inputs are not"),
        ("search_codebase", {"query": 3}, "query: Input should be a valid string"),
    ]

    import anyio
    from mcp import Client

    async def run() -> list[Any]:
        async with Client(build_server(repo)) as client:
            return [await client.call_tool(tool, args) for tool, args, _ in bad]

    for (tool, _, message), answer in zip(bad, anyio.run(run), strict=True):
        document = check_answer(answer, tool, success=False)
        assert message in document["error"]


def test_a_missing_root_is_refused() -> None:
    done = subprocess.run(
        [console_script(), "--root", "/nonexistent/root"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert "is not a directory" in done.stderr


def test_streamable_http_on_localhost(repo: Path) -> None:
    """``--http`` serves streamable HTTP on 127.0.0.1; a client lists and calls the tools."""
    import socket
    import time

    import anyio
    from mcp import Client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [console_script(), "--root", str(repo), "--http", "--port", str(port)]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        try:
            deadline = time.monotonic() + 30
            while True:
                with socket.socket() as attempt:
                    if attempt.connect_ex(("127.0.0.1", port)) == 0:
                        break
                assert server.poll() is None, "the HTTP server exited"
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.1)

            async def run() -> tuple[Any, Any]:
                async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                    listing = await client.list_tools()
                    return listing, await client.call_tool("get_file", {"path": "agents/test.py"})

            listing, answer = anyio.run(run)
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert {t.name: t.output_schema for t in listing.tools} == {
        name: exported_output_schema(name) for name in TOOL_CONTRACTS
    }
    assert check_answer(answer, "get_file", success=True)["lines"] == 10


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--time-budget", "0"], "time_budget must be positive, not 0.0"),
        (["--workers", "0"], "workers must be at least 1, not 0"),
        (["--search-processes", "-1"], "processes must be at least 0, not -1"),
        (["--deny", "[z-a]"], "invalid deny rule '[z-a]'"),
        (["--deny-file", "/nonexistent/deny.txt"], "/nonexistent/deny.txt"),
    ],
)
def test_bad_options_are_refused(repo: Path, options: list[str], message: str) -> None:
    done = subprocess.run(
        [console_script(), "--root", str(repo), *options],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("maverick-tools-mcp: ")
    assert message in done.stderr
