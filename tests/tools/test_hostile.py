"""Hostile searches: they answer by their time budget and never hold up another call.

Over stdio with the official ``mcp`` client, as a user would meet them: the issue's
``(a+)+$`` over one line of 40,000 a's, and an expression that defeats RE2's automaton cache
over 16 MB (RE2's slow path, still linear) under a small time budget, with a ``get_file``
sent while it runs. Then directly: the worker stops soon after the deadline, and the size
budget ends a call that would read too much.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from maverick.tools import CodebaseTools, Limits
from tests.tools._load import HOSTILE_CALLS, build_load_tree, console_script
from tests.tools._mcp_checks import check_answer

# Wall-clock bounds: make test runs these apart from the parallel run.
pytestmark = pytest.mark.timing

BUDGET = 1.5
BACKTRACKING, SLOW_PATH = HOSTILE_CALLS


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_load_tree(tmp_path_factory.mktemp("hostile"))


def test_over_stdio_the_server_stays_free(tree: Path) -> None:
    server = StdioServerParameters(
        command=console_script(), args=["--root", str(tree), "--time-budget", str(BUDGET)]
    )
    timings: dict[str, tuple[float, Any]] = {}

    async def timed(client: Client, name: str, tool: str, arguments: dict[str, Any]) -> None:
        started = time.perf_counter()
        answer = await client.call_tool(tool, arguments)
        timings[name] = (time.perf_counter() - started, answer)

    async def run() -> None:
        async with Client(server, read_timeout_seconds=60) as client:
            await timed(client, "backtracking", "search_codebase", BACKTRACKING)
            async with anyio.create_task_group() as group:
                group.start_soon(timed, client, "slow", "search_codebase", SLOW_PATH)
                await anyio.sleep(0.3)  # the slow search is running now
                await timed(client, "get_file", "get_file", {"path": "agents/bob/agent.py"})
            await timed(client, "after", "get_file", {"path": "requirements.txt"})

    anyio.run(run)
    seconds, answer = timings["backtracking"]
    assert check_answer(answer, "search_codebase", success=True)["match_count"] == 1
    assert seconds < BUDGET
    seconds, answer = timings["get_file"]
    assert check_answer(answer, "get_file", success=True)["lines"] == 10
    assert seconds < 1.0  # answered while the slow search held a worker and a core
    seconds, answer = timings["slow"]
    error = check_answer(answer, "search_codebase", success=False)["error"]
    assert error == f"search_codebase ran past its time budget of {BUDGET:g} s"
    assert BUDGET - 0.1 < seconds < BUDGET + 1.5
    seconds, answer = timings["after"]
    assert check_answer(answer, "get_file", success=True)
    assert seconds < 1.0


def test_the_worker_stops_soon_after_the_deadline(tree: Path) -> None:
    """With one worker, a call right after a timed-out one runs as soon as the worker stops."""
    tools = CodebaseTools(tree, limits=Limits(time_budget=0.5), workers=1)

    async def run() -> tuple[Any, float, Any]:
        slow = await tools.search_codebase(**SLOW_PATH)
        started = time.perf_counter()
        quick = await tools.get_file("agents/bob/agent.py")
        return slow, time.perf_counter() - started, quick

    slow, waited, quick = asyncio.run(run())
    assert slow.success is False
    assert slow.error == "search_codebase ran past its time budget of 0.5 s"
    assert quick.success is True
    assert waited < 0.5  # the worker looked at the clock within one block and stopped


def test_the_size_budget(tree: Path) -> None:
    tools = CodebaseTools(tree, limits=Limits(read_budget=4 * 1024 * 1024))
    result = asyncio.run(tools.search_codebase("zzz", path="hostile", file_pattern="*"))
    assert result.success is False
    assert result.error is not None
    assert result.error.startswith("search_codebase ran past its size budget: it may read 4 MiB")
    small = asyncio.run(tools.search_codebase("(a+)+$", regex=True, path="hostile/a-line.txt"))
    assert (small.success, small.match_count) == (True, 1)
