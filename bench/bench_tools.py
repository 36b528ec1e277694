"""Benchmark ``search_codebase`` against ``grep -rn`` on a generated tree (issue 10's goal).

Generates a tree of 10,000 files, 100 MB in all (``--files``, ``--mb``): Python-like text in
nested folders, a query that matches in about 1 file in 50. Then times, on the same warm tree:

- ``grep -rn --include='*.py' QUERY ROOT`` (the baseline the issue names; output to a pipe);
- ``CodebaseTools(root).search_codebase(QUERY, file_pattern="*.py", max_results=1000)``,
  literal, the whole tool call (walk, read, search, result validated by the model);
- the same with ``regex=True`` and an equivalent regular expression (``grep -rnE`` beside it).

and prints each time with its ratio to grep (the goal: at most 2.0x for the literal search).
Each figure is the best of N runs (time.perf_counter). Both sides must find the same number
of matching lines: the script exits non-zero when they do not, and asserts nothing on time.

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


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times, found = [], -1
    for _ in range(repeat):
        started = time.perf_counter()
        found = fn()
        times.append(time.perf_counter() - started)
    return min(times), found


def grep(root: Path, *flags: str, pattern: str) -> Callable[[], int]:
    binary = shutil.which("grep")
    if binary is None:
        sys.exit("grep not found: the baseline needs it")

    def run() -> int:
        done = subprocess.run(
            [binary, "-rn", *flags, "--include=*.py", pattern, str(root)],
            capture_output=True,
            check=False,
        )
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
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="1,000 files, 10 MB, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.files, args.mb, args.repeat = 1000, 10, 3
    with tempfile.TemporaryDirectory(prefix="bench-tools-") as folder:
        root = Path(folder)
        started = time.perf_counter()
        hits = generate(root, args.files, args.mb * 1_000_000)
        made = time.perf_counter() - started
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        print(
            f"tree: {args.files} files, {size / 1e6:.1f} MB, {hits} matching lines in *.py "
            f"(generated in {made:.1f}s); best of {args.repeat} runs, warm cache"
        )
        rows = [
            ("grep -rn (literal)", grep(root, "-F", pattern=QUERY)),
            ("search_codebase (literal)", tool(root, QUERY, regex=False)),
            ("grep -rnE (regex)", grep(root, "-E", pattern=GREP_REGEX)),
            ("search_codebase (regex)", tool(root, REGEX, regex=True)),
        ]
        grep(root, "-F", pattern=QUERY)()  # warm the page cache once
        measured = {name: best(fn, args.repeat) for name, fn in rows}
    failures = 0
    for kind in ("literal", "regex"):
        base_name = f"grep -rn{'E' if kind == 'regex' else ''} ({kind})"
        base, base_found = measured[base_name]
        mine, found = measured[f"search_codebase ({kind})"]
        print(f"  {base_name:28} {base * 1000:8.1f} ms  {base_found:6d} lines")
        verdict = "within" if mine <= 2 * base else "OVER"
        print(
            f"  {'search_codebase (' + kind + ')':28} {mine * 1000:8.1f} ms  {found:6d} lines  "
            f"ratio {mine / base:.2f}x grep ({verdict} the 2.0x goal)"
        )
        if found != base_found:
            print(f"  MISMATCH: grep found {base_found} lines, search_codebase {found}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
