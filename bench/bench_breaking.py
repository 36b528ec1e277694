"""Benchmark ``maverick-codegen breaking``: its differential proof against jsoncompat, and speed.

Prints, from one run:
- one row for maverick-codegen and one for jsoncompat on the same change pairs as
  ``tests/test_breaking_differential.py`` (hand-made ones and ``--pairs`` drawn ones): pairs,
  separated cases (a document the ECMA-262 oracle accepts on one side and refuses on the
  other, found by the search), silent passes (separated, not reported), false alarms (a
  witness that does not separate, or a report where nothing separates or the sets are equal),
  unproven findings (jsoncompat: errors), witnesses checked, and the time each checker took
  (maverick: loading both trees and comparing; jsoncompat: its ``check_compat`` calls, on
  schemas bundled beforehand);
- ``maverick-codegen breaking --against HEAD~1`` on this repository's schemas, run as a user
  runs it (a fresh process, best of ``--repeat``; goal: under 1 s);
- the same on the 500-schema tree of ``bench/bench_codegen.py`` with one schema changed in the
  last commit of a scratch git repository (goal: under 3 s).

Usage: python bench/bench_breaking.py [--pairs 115] [--examples 3] [--schemas 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_codegen import make_project  # noqa: E402  (bench/ is the script's folder)

from tests._evolution import all_pairs  # noqa: E402  (the repository root is on the path now)
from tests._separation import generated_sides  # noqa: E402
from tests._verdicts import DIRECTIONS, Tally, run  # noqa: E402

CLI = [sys.executable, "-m", "codegen"]
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@example.test",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@example.test",
}


def differential(drawn: int, examples: int) -> list[Tally]:
    pairs = all_pairs(drawn)
    with (
        tempfile.TemporaryDirectory(prefix="bench-breaking-") as tmp,
        generated_sides(Path(tmp), pairs) as generated,
    ):
        _, tallies = run(pairs, generated, examples)
    return tallies


def print_table(tallies: list[Tally]) -> None:
    back, forward = (tallies[0].separated[d] for d in DIRECTIONS)
    print(f"{tallies[0].pairs} change pairs; separated by a document: {back} backward, "
          f"{forward} forward (cases are (pair, direction))")  # fmt: skip
    print("| checker | pairs | silent passes | false alarms | unproven / errors | "
          "witnesses checked | time |\n|---|---|---|---|---|---|---|")  # fmt: skip
    for t in tallies:
        name = "maverick-codegen breaking" if t.tool == "maverick" else "jsoncompat 0.3.1"
        print(f"| {name} | {t.pairs} | {t.silent} | {t.false_alarms} | {t.unproven} | "
              f"{t.witnesses_checked} | {t.seconds:.2f} s |")  # fmt: skip


def breaking_time(cwd: Path, repeat: int) -> tuple[float, int, int]:
    """Best wall time of ``breaking --against HEAD~1`` in ``cwd``, its exit code and how many
    findings it printed."""
    best, code, lines = float("inf"), 0, 0
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([*CLI, "breaking", "--against", "HEAD~1"], cwd=cwd,
                              capture_output=True, text=True, check=False)  # fmt: skip
        best = min(best, time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"breaking failed ({done.returncode}):\n{done.stderr[-2000:]}")
        code, lines = done.returncode, len(done.stdout.splitlines()) if done.returncode else 0
    return best, code, lines


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=ENV, check=True, capture_output=True)


def bench_tree(count: int, repeat: int) -> tuple[float, int, int]:
    """``breaking`` on ``count`` synthetic schemas, one of them tightened in the last commit."""
    with tempfile.TemporaryDirectory(prefix="bench-breaking-tree-") as tmp:
        root = Path(tmp)
        make_project(root, count)
        git(root, "init", "-q")
        git(root, "add", ".")
        git(root, "commit", "-qm", "schemas")
        path = root / "schemas" / "synthetic" / f"model_{count // 2:04d}.json"
        document = json.loads(path.read_text())
        document["properties"]["field_1"]["minimum"] = 1  # a tightened bound
        path.write_text(json.dumps(document, indent=2) + "\n")
        git(root, "commit", "-qam", "one schema changed")
        return breaking_time(root, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=115, help="drawn pairs beside hand-made")
    parser.add_argument("--examples", type=int, default=3, help="generated per contract, side")
    parser.add_argument("--schemas", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the CLI runs")
    args = parser.parse_args()
    print_table(differential(args.pairs, args.examples))
    own, code, lines = breaking_time(REPO, args.repeat)
    print(f"\nbreaking --against HEAD~1 on this repository: {own:.2f} s (exit {code}, "
          f"{lines} findings; goal: under 1 s, {own / 1.0:.2f}x of it)")  # fmt: skip
    tree, code, lines = bench_tree(args.schemas, args.repeat)
    print(f"breaking --against HEAD~1 on {args.schemas} schemas, one changed: {tree:.2f} s "
          f"(exit {code}, {lines} findings; goal: under 3 s, {tree / 3.0:.2f}x of it)")  # fmt: skip


if __name__ == "__main__":
    main()
