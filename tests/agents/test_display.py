"""display_text for every agent contract, list[FixOutcome], AgentResult and the workflow summary."""

from __future__ import annotations

from typing import Any

import pytest

from maverick.agents.display import display_text
from maverick.agents.result import AgentResult, AgentUsage
from maverick.contracts import (
    AGENT_CONTRACTS,
    FixerResult,
    FixOutcome,
    FixResult,
    GroupedReviewResult,
    ImplementationResult,
    ReviewResult,
    UsageStats,
    canonical_schema,
)
from maverick.exceptions import ProcessError
from maverick.workflows.review_fix import ReviewFixSummary

EXAMPLES = [
    (info.name, n)
    for info in sorted(AGENT_CONTRACTS.values(), key=lambda i: i.name)
    for n in range(len(canonical_schema(info.name)["examples"]))
]


@pytest.mark.parametrize(("contract", "index"), EXAMPLES)
def test_every_contract_example_displays(contract: str, index: int) -> None:
    document: dict[str, Any] = canonical_schema(contract)["examples"][index]
    result = AGENT_CONTRACTS_BY_CONTRACT[contract].model_validate(document)
    text = display_text(result)
    assert text.strip()
    assert "{" not in text.splitlines()[0]  # not a JSON dump


AGENT_CONTRACTS_BY_CONTRACT = {info.name: info.model for info in AGENT_CONTRACTS.values()}


def test_fixer_result() -> None:
    ok = FixerResult(success=True, summary="Fixed it", files_mentioned=["a.py", "b.py"])
    assert display_text(ok) == "Fix succeeded: Fixed it\nFiles: a.py, b.py"
    failed = FixerResult(success=False, summary="No", error_details="locked file")
    assert display_text(failed) == "Fix failed: No\nError: locked file"


def test_fix_result() -> None:
    result = FixResult(
        success=True,
        issue_number=7,
        issue_title="Bug",
        root_cause="off by one",
        files_changed=[
            {"file_path": "a.py", "change_type": "renamed", "old_path": "b.py", "lines_added": 2}
        ],
        errors=["lint warning"],
    )
    text = display_text(result)
    assert text.startswith("Issue #7 fixed: Bug\nRoot cause: off by one")
    assert "  renamed a.py (from b.py) +2 -0" in text
    assert "  - lint warning" in text


def test_implementation_result() -> None:
    result = ImplementationResult(
        success=False,
        tasks_completed=1,
        tasks_failed=1,
        tasks_skipped=0,
        task_results=[{"task_id": "T001", "status": "failed", "error": "timeout"}],
        commits=["abc123"],
    )
    text = display_text(result)
    assert text.startswith("Implementation failed: 1 completed, 1 failed, 0 skipped")
    assert "  T001 failed: timeout" in text
    assert "Commits: abc123" in text


def test_review_results() -> None:
    review = ReviewResult(
        success=True,
        findings=[{"severity": "major", "file": "a.py", "line": 3, "message": "division by zero"}],
        files_reviewed=2,
        summary="One issue.",
        usage=UsageStats(input_tokens=1, output_tokens=2, duration_ms=3),
    )
    assert "[major] a.py:3: division by zero" in display_text(review)
    assert display_text(GroupedReviewResult(groups=[])) == "No issues found."


def test_fix_outcomes_list() -> None:
    outcomes = [
        FixOutcome(id="F1", outcome="fixed", explanation="done"),
        FixOutcome(id="F2", outcome="deferred", explanation=""),
    ]
    assert (
        display_text(outcomes)
        == "1 fixed, 0 blocked, 1 deferred\n  F1: fixed (done)\n  F2: deferred"
    )
    assert display_text([]) == "No fix outcomes."


def test_agent_result_and_others() -> None:
    usage = AgentUsage(input_tokens=1, output_tokens=1)
    assert display_text(AgentResult.success_result("all good", usage)) == "all good"
    failed = AgentResult.failure_result([ProcessError("exit 1")], usage)
    assert display_text(failed) == "Agent failed\nError: exit 1"
    assert display_text("plain") == "plain"
    assert display_text(UsageStats(input_tokens=1, output_tokens=2, duration_ms=3)).startswith("{")


def test_review_fix_summary() -> None:
    finding = {
        "id": "F1",
        "file": "a.py",
        "line": "4",
        "issue": "bad",
        "severity": "minor",
        "category": "c",
    }
    review = GroupedReviewResult(groups=[{"description": "B", "findings": [finding]}])
    summary = ReviewFixSummary(
        review=review,
        fixed=(),
        blocked=(),
        unresolved=tuple(review.groups[0].findings),
        attempts={"F1": (FixOutcome(id="F1", outcome="deferred", explanation="later"),)},
        rounds=3,
    )
    assert display_text(summary) == (
        "Review-fix: 1 finding(s) in 3 round(s): 0 fixed, 0 blocked, 1 unresolved\n"
        "  Unresolved: F1 [minor/c] a.py:4: bad (later)"
    )
