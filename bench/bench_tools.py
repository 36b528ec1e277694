"""Benchmark ``search_codebase`` against ripgrep (``rg``) on a generated tree (issue 17's goal).

Generates a tree of 10,000 files, 100 MB in all (``--files``, ``--mb``): Python-like text in
nested folders, a query that matches in about 1 file in 50. Then times, on the same warm tree:

- ``rg -n -F -g '*.py' QUERY ROOT`` (ripgrep's own CLI: the baseline of the goal; output to a
  pipe), ``rg -j1`` (ripgrep on one thread, as the tool searches) and ``grep -rn -F
  --include='*.py'`` beside it (the earlier baseline);
- ``CodebaseTools(root).search_codebase(QUERY, file_pattern="*.py", max_results=1000)``,
  literal, the whole tool call (walk, secrets policy, read, search, result validated), its
  files shared among the tools' search processes (one per core, up to 4) as in a running
  server: the first call starts them, and its time is printed apart;
- the same with ``regex=True`` and an equivalent expression (``rg -n`` and ``grep -rnE`` beside).

and prints each time with its ratio to rg (the goal: at most 1.2x) and to grep. Each figure is
the best of N runs (time.perf_counter), the rows interleaved run by run so that a machine
shared with other work slows them alike. Every side must find the same number of matching
lines: the script exits non-zero when they do not, and asserts nothing on time. When ``rg``
is not installed, the script says so in its first line and prints the ratio to grep only.

Usage: python bench/bench_tools.py [--repeat N] [--files N] [--mb N] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from maverick.tools import CodebaseTools

QUERY = "VertexAiSessionService"
REGEX = r"VertexAi\w+Service\("
GREP_REGEX = r"VertexAi[A-Za-z0-9_]+Service\("
WORDS = ["agent", "session", "memory", "service", "runner", "request", "response", "config"]


def generate(root: Path, files: int, total_bytes: int, seed: int = 10) -> int:
    """Write the tree; returns the number of lines holding QUERY."""
    rng = random.Random(seed)
    per_file = total_bytes // files
    hits = 0
    for n in range(files):
        folder = root / f"pkg{n % 50:02d}" / f"mod{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        lines: list[str] = []
        size = 0
        while size < per_file:
            words = " ".join(rng.choice(WORDS) for _ in range(8))
            line = f"    value_{len(lines)} = compute('{words}')  # {words}"
            lines.append(line)
            size += len(line) + 1
        if n % 50 == 1:
            at = rng.randrange(len(lines))
            lines[at] = f"session = {QUERY}(project='demo')"
            hits += 1
        suffix = ".py" if n % 10 else ".txt"  # --include / file_pattern must filter
        (folder / f"file{n:05d}{suffix}").write_text("\n".join(lines) + "\n")
    return hits


def interleaved(
    rows: dict[str, Callable[[], int]], repeat: int
) -> dict[str, tuple[float, int, float]]:
    """Best time, lines found and first time of each row, the rows run in turn ``repeat``
    times."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    found: dict[str, int] = {}
    for _ in range(repeat):
        for name, fn in rows.items():
            started = time.perf_counter()
            found[name] = fn()
            times[name].append(time.perf_counter() - started)
    return {name: (min(times[name]), found[name], times[name][0]) for name in rows}


def command(*argv: str) -> Callable[[], int]:
    def run() -> int:
        done = subprocess.run(argv, capture_output=True, check=False)
        return done.stdout.count(b"\n")

    return run


def tool(root: Path, query: str, regex: bool) -> Callable[[], int]:
    tools = CodebaseTools(root)

    def run() -> int:
        result = asyncio.run(
            tools.search_codebase(query, file_pattern="*.py", regex=regex, max_results=1000)
        )
        if not result.success:
            sys.exit(f"search_codebase failed: {result.error}")
        return result.match_count

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="1,000 files, 10 MB, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.files, args.mb, args.repeat = 1000, 10, 3
    rg, grep = shutil.which("rg"), shutil.which("grep")
    if rg is None:
        print("rg (ripgrep) is NOT installed: no ratio to rg is measured (apt-get install ripgrep)")
    if grep is None:
        sys.exit("grep not found: the second baseline needs it")
    with tempfile.TemporaryDirectory(prefix="bench-tools-") as folder:
        root = Path(folder)
        started = time.perf_counter()
        hits = generate(root, args.files, args.mb * 1_000_000)
        made = time.perf_counter() - started
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        print(
            f"tree: {args.files} files, {size / 1e6:.1f} MB, {hits} matching lines in *.py "
            f"(generated in {made:.1f}s); best of {args.repeat} interleaved runs, warm cache"
        )
        rows: dict[str, dict[str, Callable[[], int]]] = {}
        for kind, query, rg_query, grep_flag, grep_query in (
            ("literal", QUERY, QUERY, "-F", QUERY),
            ("regex", REGEX, REGEX, "-E", GREP_REGEX),
        ):
            rows[kind] = {}
            if rg is not None:
                rg_flags = ["-F"] if kind == "literal" else []
                rows[kind]["rg"] = command(rg, "-n", *rg_flags, "-g", "*.py", rg_query, folder)
                rows[kind]["rg -j1"] = command(
                    rg, "-j1", "-n", *rg_flags, "-g", "*.py", rg_query, folder
                )
            rows[kind]["grep"] = command(
                grep, "-rn", grep_flag, "--include=*.py", grep_query, folder
            )
            rows[kind]["search_codebase"] = tool(root, query, regex=kind == "regex")
        command(grep, "-rn", "-F", QUERY, folder)()  # warm the page cache once
        measured = {kind: interleaved(kind_rows, args.repeat) for kind, kind_rows in rows.items()}
    return report(measured)


def report(measured: dict[str, dict[str, tuple[float, int, float]]]) -> int:
    failures = 0
    for kind, rows in measured.items():
        mine, found, first = rows["search_codebase"]
        for name, (seconds, lines, _) in rows.items():
            line = f"  {name + ' (' + kind + ')':28} {seconds * 1000:8.1f} ms  {lines:6d} lines"
            if name == "search_codebase":
                ratios = [
                    f"{mine / rows[b][0]:.2f}x {b}" for b in ("rg", "rg -j1", "grep") if b in rows
                ]
                line += "  ratio " + ", ".join(ratios)
                if "rg" in rows:
                    verdict = "within" if mine <= 1.2 * rows["rg"][0] else "OVER"
                    line += f" ({verdict} the 1.2x rg goal)"
            print(line)
            if name == "search_codebase" and kind == "literal":
                print(f"  {'':28} {first * 1000:8.1f} ms  its first run (starting the processes)")
            if lines != found:
                print(f"  MISMATCH: {name} found {lines} lines, search_codebase {found}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
