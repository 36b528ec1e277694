"""The review-fix workflow's decisions, on typed results from scripted agents and the fake CLI."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from maverick.agents.context import FixFindingsContext, ReviewContext
from maverick.agents.simple_fixer import SimpleFixerAgent
from maverick.agents.unified_reviewer import UnifiedReviewerAgent
from maverick.contracts import Finding, FindingGroup, FixOutcome, GroupedReviewResult
from maverick.exceptions import MalformedResponseError, ProcessError
from maverick.workflows.review_fix import (
    NOT_REPORTED,
    FindingTracker,
    ReviewFixSummary,
    run_review_fix,
)
from tests.agents.conftest import FakeCLI, run
from tests.standins import fake_cli


def finding(finding_id: str) -> Finding:
    return Finding(id=finding_id, file="a.py", line="1", issue="x", severity="minor", category="c")


def review(*ids: str) -> GroupedReviewResult:
    return GroupedReviewResult(
        groups=[FindingGroup(description="Batch 1", findings=[finding(i) for i in ids])]
    )


class ScriptedReviewer:
    def __init__(self, result: GroupedReviewResult) -> None:
        self.result = result

    async def execute(self, context: ReviewContext) -> GroupedReviewResult:
        return self.result


Round = dict[str, str] | Exception


class ScriptedFixer:
    """Round n answers ``rounds[n]`` (id -> outcome; the last round repeats) or raises it."""

    def __init__(self, rounds: Sequence[Round]) -> None:
        self.rounds = list(rounds)
        self.calls: list[list[str]] = []

    async def execute(self, context: FixFindingsContext) -> list[FixOutcome]:
        self.calls.append([f.id for f in context.findings])
        script = self.rounds[min(len(self.calls) - 1, len(self.rounds) - 1)]
        if isinstance(script, Exception):
            raise script
        return [FixOutcome(id=i, outcome=o, explanation=f"{o} {i}") for i, o in script.items()]


def workflow(
    tmp_path: Path, ids: Sequence[str], rounds: Sequence[Round], **kwargs: int
) -> tuple[ReviewFixSummary, ScriptedFixer]:
    fixer = ScriptedFixer(rounds)
    context = ReviewContext(cwd=tmp_path)
    summary = run(run_review_fix(context, ScriptedReviewer(review(*ids)), fixer, **kwargs))
    return summary, fixer


def ids(findings: Sequence[Finding]) -> list[str]:
    return [f.id for f in findings]


def test_clean_review_runs_no_fixer(tmp_path: Path) -> None:
    summary, fixer = workflow(tmp_path, [], [{}])
    assert (summary.rounds, fixer.calls) == (0, [])
    assert summary.all_fixed


def test_fixed_and_blocked_are_final(tmp_path: Path) -> None:
    summary, fixer = workflow(tmp_path, ["F1", "F2"], [{"F1": "fixed", "F2": "blocked"}])
    assert fixer.calls == [["F1", "F2"]]
    assert (ids(summary.fixed), ids(summary.blocked), ids(summary.unresolved)) == (
        ["F1"],
        ["F2"],
        [],
    )
    assert not summary.all_fixed


def test_deferred_is_retried_until_fixed(tmp_path: Path) -> None:
    rounds: list[Round] = [
        {"F1": "deferred", "F2": "fixed"},
        {"F1": "deferred"},
        {"F1": "fixed"},
    ]
    summary, fixer = workflow(tmp_path, ["F1", "F2"], rounds)
    assert fixer.calls == [["F1", "F2"], ["F1"], ["F1"]]
    assert ids(summary.fixed) == ["F1", "F2"]
    assert [o.outcome for o in summary.attempts["F1"]] == ["deferred", "deferred", "fixed"]
    assert summary.rounds == 3


def test_deferred_three_times_is_unresolved(tmp_path: Path) -> None:
    summary, fixer = workflow(tmp_path, ["F1"], [{"F1": "deferred"}])
    assert len(fixer.calls) == 3
    assert ids(summary.unresolved) == ["F1"]
    assert len(summary.attempts["F1"]) == 3


def test_max_attempts_is_configurable(tmp_path: Path) -> None:
    summary, fixer = workflow(tmp_path, ["F1"], [{"F1": "deferred"}], max_attempts=1)
    assert (len(fixer.calls), ids(summary.unresolved)) == (1, ["F1"])


def test_unreported_findings_are_deferred_and_unknown_ids_kept(tmp_path: Path) -> None:
    summary, fixer = workflow(
        tmp_path, ["F1", "F2"], [{"F1": "fixed", "F9": "fixed"}, {"F2": "fixed"}]
    )
    assert fixer.calls == [["F1", "F2"], ["F2"]]
    assert summary.attempts["F2"][0].explanation == NOT_REPORTED
    assert ids(summary.fixed) == ["F1", "F2"]
    assert [o.id for o in summary.unknown_outcomes] == ["F9"]


def test_unreadable_fixer_answer_defers_the_round(tmp_path: Path) -> None:
    rounds: list[Round] = [MalformedResponseError("garbled"), {"F1": "fixed"}]
    summary, fixer = workflow(tmp_path, ["F1"], rounds)
    assert len(fixer.calls) == 2
    first = summary.attempts["F1"][0]
    assert (first.outcome, first.explanation) == (
        "deferred",
        "fixer answer could not be read: garbled",
    )
    assert ids(summary.fixed) == ["F1"]


def test_other_fixer_errors_are_raised(tmp_path: Path) -> None:
    with pytest.raises(ProcessError):
        workflow(tmp_path, ["F1"], [ProcessError("crash", exit_code=1)])


def test_tracker_ignores_duplicate_ids() -> None:
    tracker = FindingTracker([finding("F1"), finding("F1")])
    assert ids(tracker.open_findings()) == ["F1"]
    with pytest.raises(ValueError, match="max_attempts"):
        FindingTracker([], max_attempts=0)


def test_workflow_with_the_real_agents(fake: FakeCLI, repo: Path) -> None:
    grouped = review("F001", "F002").model_dump(mode="json")
    scenarios = [
        fake_cli.success(grouped),
        fake_cli.success({"outcomes": [{"id": "F001", "outcome": "fixed", "explanation": "ok"}]}),
        fake_cli.success({"outcomes": [{"id": "F002", "outcome": "blocked", "explanation": "no"}]}),
    ]
    options = fake.sequence(scenarios)
    context = ReviewContext(cwd=repo, diff="diff --git a/a.py b/a.py\n+1\n")

    summary = run(
        run_review_fix(context, UnifiedReviewerAgent(**options), SimpleFixerAgent(**options))
    )

    assert fake.runs() == 3
    assert (ids(summary.fixed), ids(summary.blocked)) == (["F001"], ["F002"])
    assert summary.attempts["F002"][0].explanation == "agent did not report on this finding"
