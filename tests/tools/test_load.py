"""The load test, smaller: concurrent HTTP clients and a hostile search never fail a call.

``bench/bench_tools_load.py`` runs the same driver (:mod:`tests.tools._load`) with 8 clients
and 2,000 calls and prints the figures; here 4 clients make 120 mixed calls over streamable
HTTP on 127.0.0.1 while a hostile regular expression is in flight the whole time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools._load import build_load_tree, run_load

# Wall-clock bounds: make test runs these apart from the parallel run.
pytestmark = pytest.mark.timing

TIME_BUDGET = 3.0


@pytest.fixture(scope="module")
def load_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_load_tree(tmp_path_factory.mktemp("load"))


def test_no_call_fails_and_get_file_stays_fast(load_tree: Path) -> None:
    report = run_load(load_tree, clients=4, calls=120, time_limit=120, time_budget=TIME_BUDGET)
    assert not report.timed_out
    assert report.failures == []
    assert report.answered == 120
    assert set(report.latencies) == {
        "search_codebase",
        "get_file",
        "check_patterns",
        "analyze_deps",
    }
    # A behavioural bound for a loaded 2-core machine: each get_file answered within 1 s
    # while the hostile search held a worker and a core.
    assert max(report.latencies["get_file"]) < 1.0
    # The hostile search was always in flight, and every call of it answered by its budget
    # (plus the time to ship the answer).
    assert report.hostile
    assert all(seconds < TIME_BUDGET + 2.0 for seconds, _ in report.hostile)
