"""Load test of the MCP server over streamable HTTP on 127.0.0.1 (issue 17's goal).

Starts ``maverick-tools-mcp --http`` on a fixture tree, then 8 clients (``--clients``), each
its own MCP session, make 2,000 mixed calls in all (``--calls``: searches literal and RE2,
some over 600 files, which the server shares among its search processes, get_file,
check_patterns, analyze_deps), while one more client keeps a hostile regular
expression in flight the whole time: ``(a+)+$`` over one line of 40,000 a's, and an
expression that defeats RE2's automaton cache over 16 MB. Prints each tool's p50 and p99
latency, the hostile calls, the server's peak resident memory and the failed calls (the goal:
0). The run is bounded (``--time-limit`` seconds) and stops the server itself; it exits
non-zero when a call failed or the run ran out of time. The driver is
``tests/tools/_load.py``, which the test suite runs smaller.

Usage: python bench/bench_tools_load.py [--clients N] [--calls N] [--time-limit S]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.tools._load import build_load_tree, percentile, run_load  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--time-limit", type=float, default=600)
    parser.add_argument("--time-budget", type=float, default=10, help="the server's, seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        root = build_load_tree(Path(folder))
        report = run_load(
            root,
            clients=args.clients,
            calls=args.calls,
            time_limit=args.time_limit,
            time_budget=args.time_budget,
        )
    print(
        f"{report.answered} of {report.calls} calls answered by {report.clients} clients in "
        f"{report.seconds:.1f} s ({report.answered / max(report.seconds, 1e-9):.0f} calls/s), "
        f"one hostile search in flight throughout"
    )
    for tool, latencies in sorted(report.latencies.items()):
        p50, p99 = (percentile(latencies, q) * 1000 for q in (0.5, 0.99))
        print(
            f"  {tool:16} {len(latencies):5d} calls  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
            f"  max {max(latencies) * 1000:7.1f} ms"
        )
    if report.hostile:
        times = [seconds for seconds, _ in report.hostile]
        on_budget = sum(hit for _, hit in report.hostile)
        print(
            f"  hostile search   {len(times):5d} calls  longest {max(times):.2f} s "
            f"(time budget {args.time_budget:g} s); {on_budget} ended on the budget"
        )
    memory = report.peak_rss_kib
    print(f"server peak memory (VmHWM): {f'{memory / 1024:.0f} MiB' if memory else 'unavailable'}")
    peaks = ", ".join(f"{kib / 1024:.0f} MiB" for kib in report.workers_peak_rss_kib)
    print(f"search processes: {len(report.workers_peak_rss_kib)} (peak memory: {peaks or '-'})")
    print(f"failed calls: {len(report.failures)}")
    for failure in report.failures[:10]:
        print(f"  {failure}")
    if report.timed_out:
        print(f"STOPPED: the run passed its time limit of {args.time_limit:g} s")
    return 1 if report.failures or report.timed_out else 0


if __name__ == "__main__":
    raise SystemExit(main())
