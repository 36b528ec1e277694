"""Benchmark ``maverick-codegen generate --watch``: from a schema's save to its regenerated module.

On a copy of this project (its schemas, configuration and generated files), ``generate --watch``
runs in a subprocess; each round saves one schema with a new description and times how long
until the generated module holds it. Prints each latency, the median and the worst
(goal: within 1.5 s of the save).

Usage: python bench/bench_watch.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCHEMA = "schemas/agents/fixer_result.json"
MODULE = "src/maverick/contracts/agents/fixer_result.py"
GOAL = 1.5


def copy_project(root: Path) -> None:
    for rel in ("pyproject.toml", "schemas", "src/maverick/contracts", "docs", "export"):
        source = REPO / rel
        if source.is_dir():
            shutil.copytree(source, root / rel, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, root / rel)


def save(schema: Path, marker: str) -> None:
    doc = json.loads(schema.read_text())
    doc["description"] = f"{doc['description'].split(' [')[0]} [{marker}]"
    schema.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def wait_for(module: Path, marker: str, timeout: float, resave: Path | None = None) -> float:
    """Seconds until ``module`` holds ``marker`` (polled every millisecond)."""
    start = time.perf_counter()
    last_save = start
    while time.perf_counter() - start < timeout:
        try:
            if marker in module.read_text():
                return time.perf_counter() - start
        except FileNotFoundError:
            pass
        if resave is not None and time.perf_counter() - last_save > 1.0:
            save(resave, marker)  # the watcher was not up yet: save again
            last_save = time.perf_counter()
        time.sleep(0.001)
    raise SystemExit(f"timed out after {timeout} s waiting for {marker} in {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        copy_project(root)
        process = subprocess.Popen(
            [sys.executable, "-m", "codegen", "generate", "--watch"],
            cwd=root,
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            schema, module = root / SCHEMA, root / MODULE
            save(schema, "warm-up")
            wait_for(module, "warm-up", 60, resave=schema)
            latencies = []
            for round_ in range(args.rounds):
                time.sleep(0.3)  # let the previous generation settle
                marker = f"round {round_}"
                save(schema, marker)
                latencies.append(wait_for(module, marker, 30))
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    print(f"generate --watch, one-schema change of this project ({SCHEMA}), {args.rounds} saves:")
    print("  save -> regenerated module: " + ", ".join(f"{s:.3f}" for s in latencies) + " s")
    median, worst = statistics.median(latencies), max(latencies)
    verdict = "within" if worst <= GOAL else "OVER"
    print(f"  median {median:.3f} s, worst {worst:.3f} s ({verdict} the {GOAL} s goal)")


if __name__ == "__main__":
    main()
