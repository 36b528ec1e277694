"""A load test of ``maverick-tools-mcp --http`` on 127.0.0.1, shared by the suite and the bench.

:func:`run_load` starts the installed console script on a fixture tree (the tool tests'
repository plus hostile files), then N clients, each its own streamable-HTTP MCP session,
make their share of a fixed number of mixed calls one after the other, while one more client
keeps a hostile regular expression in flight the whole time (it calls again as soon as it is
answered). It is bounded in count and in time (``time_limit``: past it the run stops and
says so) and stops the server itself. Every answer is checked: its structured content must be
valid for the tool's contract and say success; anything else, or an exception, is a failed
call. It reports each tool's latencies, the hostile calls (how long each took and whether it
ended on its time budget) and the peak resident memory (Linux ``VmHWM``; None elsewhere) of
the server and of its search processes.
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from maverick.contracts import TOOL_CONTRACTS
from tests.tools._repo import build_repo

__all__ = ["HOSTILE_CALLS", "MIX", "LoadReport", "build_load_tree", "percentile", "run_load"]

A_LINE = "a" * 40_000
# The mixed calls, in turn; each must answer success.
MIX: list[tuple[str, dict[str, Any]]] = [
    ("search_codebase", {"query": "google.adk"}),
    ("get_file", {"path": "agents/bob/agent.py"}),
    ("search_codebase", {"query": r"VertexAi\w+Service", "regex": True, "path": "agents"}),
    ("check_patterns", {}),
    ("get_file", {"path": "requirements.txt"}),
    ("analyze_deps", {"path": "agents"}),
    ("search_codebase", {"query": "spiffe", "file_pattern": "*", "path": "agents"}),
    # over 600 files: large enough to be shared among the server's search processes
    ("search_codebase", {"query": "VertexAiSessionService", "path": "many"}),
    ("search_codebase", {"query": r"VertexAi\w+Service\(", "regex": True, "path": "many"}),
]
# The hostile calls, in turn: the catastrophic-backtracking case (one line of 40,000
# a's), and an expression whose automaton does not fit RE2's cache, over 16 MB: its slow path.
HOSTILE_CALLS: list[dict[str, Any]] = [
    {"query": "(a+)+$", "regex": True, "path": "hostile", "file_pattern": "a-line.txt"},
    {"query": "[ab]*a[ab]{20}c", "regex": True, "path": "hostile", "file_pattern": "ab-*.txt"},
]


@dataclass
class LoadReport:
    """What one run measured."""

    clients: int
    calls: int
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    hostile: list[tuple[float, bool]] = field(default_factory=list)  # (seconds, hit budget)
    peak_rss_kib: int | None = None
    workers_peak_rss_kib: list[int] = field(default_factory=list)  # the search processes'
    timed_out: bool = False

    @property
    def answered(self) -> int:
        return sum(len(v) for v in self.latencies.values())


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def build_load_tree(folder: Path) -> Path:
    """The tool tests' repository plus ``hostile/`` (one 40,000-a line and 16 MB of a/b) and
    ``many/`` (600 small Python files)."""
    root = build_repo(folder)
    for n in range(600):
        module = root / "many" / f"pkg{n % 20}" / f"mod{n}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        hit = "session = VertexAiSessionService(project='demo')\n" if n % 25 == 0 else ""
        module.write_text(f"import os\n{hit}" + f"value_{n} = os.getcwd()\n" * 20)
    hostile = root / "hostile"
    hostile.mkdir()
    (hostile / "a-line.txt").write_text(A_LINE + "\n")
    rng = random.Random(17)
    table = bytes.maketrans(bytes(range(256)), b"ab" * 128)
    for n in range(4):
        data = bytearray(rng.randbytes(4 * 1024 * 1024).translate(table))
        data[4095::4096] = b"\n" * len(data[4095::4096])
        (hostile / f"ab-{n}.txt").write_bytes(bytes(data))
    return root


def console_script() -> str:
    script = Path(sys.executable).with_name("maverick-tools-mcp")
    found = str(script) if script.exists() else shutil.which("maverick-tools-mcp")
    assert found, "the console script maverick-tools-mcp is not installed"
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(server: subprocess.Popen[bytes], port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with socket.socket() as attempt:
            if attempt.connect_ex(("127.0.0.1", port)) == 0:
                return
        if server.poll() is not None:
            raise RuntimeError("the HTTP server exited")
        if time.monotonic() > deadline:
            raise RuntimeError("the HTTP server did not start")
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux; empty elsewhere)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _peak_rss_kib(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None


def _failure(tool: str, answer: Any) -> str | None:
    """Why ``answer`` is not a valid success of ``tool``, or None."""
    document = answer.structured_content
    if not isinstance(document, dict):
        return f"{tool}: no structured content"
    try:
        TOOL_CONTRACTS[tool].model.model_validate_json(json.dumps(document))
    except Exception as exc:
        return f"{tool}: invalid result: {exc}"
    if answer.is_error or not document.get("success"):
        return f"{tool}: error: {document.get('error')}"
    return None


async def _client(url: str, calls: list[tuple[str, dict[str, Any]]], report: LoadReport) -> None:
    async with Client(url, read_timeout_seconds=60) as client:
        for tool, arguments in calls:
            started = time.perf_counter()
            try:
                answer = await client.call_tool(tool, arguments)
            except Exception as exc:
                report.failures.append(f"{tool}: {type(exc).__name__}: {exc}")
                continue
            report.latencies.setdefault(tool, []).append(time.perf_counter() - started)
            problem = _failure(tool, answer)
            if problem:
                report.failures.append(problem)


async def _hostile(url: str, report: LoadReport, done: anyio.Event) -> None:
    async with Client(url, read_timeout_seconds=60) as client:
        turn = 0
        while not done.is_set():
            arguments = HOSTILE_CALLS[turn % len(HOSTILE_CALLS)]
            turn += 1
            started = time.perf_counter()
            answer = await client.call_tool("search_codebase", arguments)
            seconds = time.perf_counter() - started
            document = answer.structured_content or {}
            ended_on_budget = bool(answer.is_error and "time budget" in str(document.get("error")))
            if answer.is_error and not ended_on_budget:
                report.failures.append(f"hostile search: {document.get('error')}")
            report.hostile.append((seconds, ended_on_budget))


def run_load(
    root: Path,
    *,
    clients: int = 8,
    calls: int = 2000,
    time_limit: float = 300,
    time_budget: float = 10,
) -> LoadReport:
    """Run the load on ``root`` (a :func:`build_load_tree`); see the module's docstring."""
    report = LoadReport(clients=clients, calls=calls)
    port = _free_port()
    command = [console_script(), "--root", str(root), "--http", "--port", str(port)]
    command += ["--time-budget", str(time_budget)]
    plan = [MIX[n % len(MIX)] for n in range(calls)]
    shares = [plan[i::clients] for i in range(clients)]
    url = f"http://127.0.0.1:{port}/mcp"

    async def main() -> None:
        done = anyio.Event()
        with anyio.move_on_after(time_limit) as scope:
            async with anyio.create_task_group() as outer:
                outer.start_soon(_hostile, url, report, done)
                async with anyio.create_task_group() as group:
                    for share in shares:
                        group.start_soon(_client, url, share, report)
                done.set()
        report.timed_out = scope.cancelled_caught

    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as server:
        try:
            _wait_for(server, port)
            started = time.perf_counter()
            anyio.run(main)
            report.seconds = time.perf_counter() - started
            report.peak_rss_kib = _peak_rss_kib(server.pid)
            peaks = (_peak_rss_kib(child) for child in _children(server.pid))
            report.workers_peak_rss_kib = [peak for peak in peaks if peak is not None]
        finally:
            server.terminate()
            server.wait(timeout=30)
    return report
