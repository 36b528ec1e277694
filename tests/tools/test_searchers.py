"""A large search shared among worker processes: the same result as one thread, and budgets.

The tree holds more files than ``PARALLEL_FROM``, so a search with ``search_processes=2``
goes to the workers; the same search with ``search_processes=0`` runs on its thread and is
the reference. Workers are stopped (SIGSTOP) and killed (SIGKILL) for real to see a stuck
worker replaced on time and a crashed one searched around; the protocol of one worker is also
driven in-process.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maverick.tools import CodebaseTools, Limits
from maverick.tools.search import PARALLEL_FROM
from maverick.tools.searchers import GRACE, frame, read_frames, serve

# Deadlines and wall-clock bounds: make test runs these apart from the parallel run.
pytestmark = pytest.mark.timing

FILES = PARALLEL_FROM + 700
QUERIES: list[dict[str, Any]] = [
    {"query": "needle"},
    {"query": "needle", "max_results": 7},  # truncated: the first 7 in walk order
    {"query": r"ne+dle\(\d+\)", "regex": True, "max_results": 1000},
    {"query": "^$", "regex": True, "file_pattern": "*", "max_results": 50},
    {"query": "needle", "file_pattern": "*"},  # .env and the binary file are skipped
    {"query": "absent from every file"},
]


def _build(root: Path) -> int:
    """The tree; returns the bytes of its *.py files (what a search of them reads)."""
    rng = random.Random(17)
    for n in range(FILES):
        lines = [f"line {k} of {n}" for k in range(rng.randrange(0, 40))]
        for _ in range(rng.choice([0, 0, 0, 1, 3])):
            lines.insert(rng.randrange(len(lines) + 1), f"x = needle({n})  # caf\xe9")
        if n % 97 == 0:
            lines.insert(0, "")
        folder = root / f"pkg{n % 13}" / f"sub{n % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{n:04d}.py").write_text("\n".join(lines) + ("\n" if n % 5 else ""))
    (root / "pkg0" / "big.py").write_text(("filler line\n" * 100_000) + "needle(big)\n")
    (root / "pkg1" / "blob.bin").write_bytes(b"\0needle\n" * 10)
    (root / "pkg2" / ".env").write_text("SECRET=needle-secret\n")
    return sum(p.stat().st_size for p in root.rglob("*.py"))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    root = tmp_path_factory.mktemp("many")
    return root, _build(root)


@pytest.fixture
def tools(tree: tuple[Path, int]) -> Iterator[CodebaseTools]:
    shared = CodebaseTools(tree[0], search_processes=2, limits=Limits(time_budget=5))
    yield shared
    shared.close()


def _search(tools: CodebaseTools, **arguments: Any) -> dict[str, Any]:
    result = asyncio.run(tools.search_codebase(**arguments)).model_dump()
    del result["metadata"]
    return result


@pytest.mark.parametrize("arguments", QUERIES)
def test_workers_find_what_one_thread_finds(
    tree: tuple[Path, int], tools: CodebaseTools, arguments: dict[str, Any]
) -> None:
    alone = _search(CodebaseTools(tree[0], search_processes=0), **arguments)
    assert alone["success"], alone["error"]
    assert _search(tools, **arguments) == alone
    assert len(tools.searchers.idle()) == 2  # they ran it, and are back


@pytest.mark.parametrize("processes", [0, 2])
def test_what_they_find_and_skip(tree: tuple[Path, int], processes: int) -> None:
    tools = CodebaseTools(tree[0], search_processes=processes)
    found = _search(tools, query="needle", file_pattern="*", max_results=1000)
    assert len(tools.searchers.idle()) == processes
    tools.close()
    assert found["match_count"] > 100
    assert found["secret_files_skipped"] == 1  # .env, never opened
    assert not any("secret" in m["text"] for m in found["matches"])
    assert {"pkg0/big.py"} <= {m["file"] for m in found["matches"]}  # past the 1 MiB buffer
    assert "pkg1/blob.bin" not in {m["file"] for m in found["matches"]}  # binary


def test_concurrent_searches_agree(tree: tuple[Path, int], tools: CodebaseTools) -> None:
    async def both() -> list[Any]:
        calls = [tools.search_codebase("needle", max_results=1000) for _ in range(3)]
        return list(await asyncio.gather(*calls))

    results = [r.model_dump(exclude={"metadata"}) for r in asyncio.run(both())]
    assert results[0]["success"]
    assert results[1] == results[0] == results[2]


@pytest.mark.parametrize("spare", [0, -1])
def test_the_size_budget_counts_every_worker(tree: tuple[Path, int], spare: int) -> None:
    root, size = tree
    for processes in (0, 2):
        tools = CodebaseTools(
            root, search_processes=processes, limits=Limits(read_budget=size + spare)
        )
        result = asyncio.run(tools.search_codebase("needle"))
        tools.close()
        if spare < 0:
            assert not result.success
            assert "past its size budget" in (result.error or "")
        else:
            assert result.success, result.error


def test_a_stuck_worker_is_replaced_on_time(tree: tuple[Path, int], tools: CodebaseTools) -> None:
    assert _search(tools, query="needle")["success"]
    stuck = tools.searchers.idle()
    os.kill(stuck[0], signal.SIGSTOP)
    tools.limits = Limits(time_budget=1.0)
    started = time.monotonic()
    result = asyncio.run(tools.search_codebase("needle"))
    assert time.monotonic() - started < 1.0 + GRACE
    assert not result.success
    assert result.error == "search_codebase ran past its time budget of 1 s"
    time.sleep(GRACE + 0.5)  # the call's thread kills the workers at the deadline plus GRACE
    for pid in stuck:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # killed and reaped
    assert _search(tools, query="needle")["success"]
    assert set(tools.searchers.idle()).isdisjoint(stuck)


def test_a_crashed_worker_is_searched_around(tree: tuple[Path, int], tools: CodebaseTools) -> None:
    expected = _search(tools, query="needle", max_results=1000)
    crashed = tools.searchers.idle()[0]
    os.kill(crashed, signal.SIGKILL)
    assert _search(tools, query="needle", max_results=1000) == expected
    assert tools.searchers.failures == 1
    assert _search(tools, query="needle", max_results=1000) == expected  # a new worker
    assert crashed not in tools.searchers.idle()
    assert tools.searchers.failures == 0


def test_a_worker_keeps_to_its_own_deadline(tmp_path: Path) -> None:
    """RE2's slow path over many files: the workers stop themselves and are kept."""
    rng = random.Random(17)
    table = bytes.maketrans(bytes(range(256)), b"ab" * 128)
    for n in range(PARALLEL_FROM + 100):  # 16 KiB each, ~2.5 ms of RE2's slow path
        data = bytearray(rng.randbytes(16 * 1024).translate(table))
        data[4095::4096] = b"\n" * 4
        (tmp_path / f"f{n:04d}.txt").write_bytes(bytes(data))
    tools = CodebaseTools(tmp_path, search_processes=2, limits=Limits(time_budget=30))
    quick = asyncio.run(tools.search_codebase("zzz", file_pattern="*.txt"))
    assert quick.success
    assert quick.match_count == 0
    workers = tools.searchers.idle()
    tools.limits = Limits(time_budget=0.5)
    started = time.monotonic()
    result = asyncio.run(tools.search_codebase("[ab]*a[ab]{20}c", regex=True, file_pattern="*.txt"))
    assert time.monotonic() - started < 0.5 + GRACE
    assert result.error == "search_codebase ran past its time budget of 0.5 s"
    time.sleep(GRACE)  # the answer the call no longer waited for comes in meanwhile
    assert sorted(tools.searchers.idle()) == sorted(workers)
    tools.close()


def test_close_stops_the_workers(tree: tuple[Path, int]) -> None:
    tools = CodebaseTools(tree[0], search_processes=2)
    assert _search(tools, query="needle")["success"]
    pids = tools.searchers.idle()
    assert len(pids) == 2
    tools.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert _search(tools, query="needle")["success"]  # on the thread now
    assert tools.searchers.idle() == []


def _frames(*messages: Any) -> io.BytesIO:
    return io.BytesIO(b"".join(frame(m) for m in messages))


def _answers(stream: io.BytesIO) -> list[Any]:
    stream.seek(0)
    return list(read_frames(stream))


def test_a_worker_answers_each_job_after_its_end(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("one\nneedle two\n")
    (tmp_path / "b.py").write_text("needle\nneedle\n")
    paths = [str(tmp_path / "a.py"), str(tmp_path / "missing.py"), str(tmp_path / "b.py")]
    jobs = _frames(
        ("job", "needle", False, 5.0, 1000, 2),
        ("files", 10, paths[:2]),
        ("files", 12, paths[2:]),
        ("end",),
        ("job", "(?<=x)y", True, 5.0, 1000, 10),  # not RE2: the worker says so, then goes on
        ("files", 0, paths),
        ("end",),
        ("job", "needle", False, 5.0, 20, 10),  # past 20 bytes: the size budget
        ("files", 0, paths),
        ("end",),
    )
    sink = io.BytesIO()
    serve(jobs, sink)
    ok, error, size = _answers(sink)
    assert ok == ("ok", 29, [(10, 1, [(2, "needle two")]), (12, 2, [(1, "needle")])])
    assert error[0] == "error"
    assert "lookahead and lookbehind" in error[1]
    assert size == ("size", 29)


def test_the_worker_loads_no_contracts() -> None:
    """A worker imports the engine only: not pydantic, the contracts or the MCP SDK."""
    code = (
        "import sys, maverick.tools.searchers\n"
        "print([m for m in ('pydantic', 'maverick.contracts', 'mcp') if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_a_worker_outlives_ctrl_c_and_ends_with_its_input(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("needle\n")
    job = _frames(
        ("job", "needle", False, 5.0, 1000, 10), ("files", 0, [str(tmp_path / "a.py")]), ("end",)
    ).getvalue()
    worker = subprocess.Popen(
        [sys.executable, "-m", "maverick.tools.searchers"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert worker.stdin is not None
    assert worker.stdout is not None
    worker.stdin.write(job)
    worker.stdin.flush()
    answer = ("ok", 7, [(0, 1, [(1, "needle")])])
    assert next(read_frames(worker.stdout)) == answer  # it runs: its SIGINT is ignored now
    worker.send_signal(signal.SIGINT)
    out, err = worker.communicate(job, timeout=30)
    assert worker.returncode == 0
    assert err == b""
    assert _answers(io.BytesIO(out)) == [answer]
