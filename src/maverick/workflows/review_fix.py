"""The review-fix workflow: review once, then fix the findings in rounds (FR-008).

`run_review_fix` runs a unified reviewer (a `GroupedReviewResult`), then a simple fixer on the
open findings (``list[FixOutcome]``), round after round, and decides on the typed outcomes only:

* ``fixed`` closes the finding as fixed; ``blocked`` closes it as blocked;
* ``deferred`` leaves it open for the next round, until it has had ``max_attempts`` attempts
  (default 3); then it is reported **unresolved**;
* a finding the fixer did not report on counts as deferred; an outcome for an id that was not
  asked about is kept in ``unknown_outcomes`` (and logged);
* a fixer answer that cannot be read (`MalformedResponseError`) defers every finding of that
  round (the edits already made stay on disk; the findings are tried again); any other error of
  either agent is raised.

The agents are passed in (anything with the right ``execute``), so the workflow needs neither
claude-agent-sdk nor a real model to be tested. `FindingTracker` holds the decisions.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Protocol

from maverick.agents.context import FixFindingsContext, ReviewContext
from maverick.contracts import Finding, FixOutcome, FixOutcomeKind, GroupedReviewResult
from maverick.exceptions import MalformedResponseError

__all__ = [
    "MAX_FIX_ATTEMPTS",
    "FindingStatus",
    "FindingTracker",
    "FixerLike",
    "ReviewFixSummary",
    "ReviewerLike",
    "run_review_fix",
]

logger = logging.getLogger("maverick.workflows.review_fix")

#: Attempts a finding gets before it is reported unresolved.
MAX_FIX_ATTEMPTS = 3

NOT_REPORTED = "fixer did not report on this finding"


class ReviewerLike(Protocol):
    async def execute(self, context: ReviewContext, /) -> GroupedReviewResult: ...


class FixerLike(Protocol):
    async def execute(self, context: FixFindingsContext, /) -> list[FixOutcome]: ...


class FindingStatus(StrEnum):
    OPEN = "open"
    FIXED = "fixed"
    BLOCKED = "blocked"
    UNRESOLVED = "unresolved"


@dataclass
class _Tracked:
    finding: Finding
    status: FindingStatus = FindingStatus.OPEN
    attempts: list[FixOutcome] = field(default_factory=list)


class FindingTracker:
    """The state of every finding across fix rounds, keyed by finding id."""

    def __init__(
        self, findings: Sequence[Finding], *, max_attempts: int = MAX_FIX_ATTEMPTS
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be >= 1")
        self.max_attempts = max_attempts
        self._tracked: dict[str, _Tracked] = {}
        self.unknown_outcomes: list[FixOutcome] = []
        for finding in findings:
            if finding.id in self._tracked:
                logger.warning("duplicate finding id %r: only the first is tracked", finding.id)
                continue
            self._tracked[finding.id] = _Tracked(finding)

    def open_findings(self) -> list[Finding]:
        """The findings still to be attempted, in review order."""
        return [t.finding for t in self._tracked.values() if t.status is FindingStatus.OPEN]

    def record(self, attempted: Sequence[Finding], outcomes: Sequence[FixOutcome]) -> None:
        """Apply one round's outcomes to the findings that were attempted in it."""
        by_id: dict[str, FixOutcome] = {}
        attempted_ids = {f.id for f in attempted}
        for outcome in outcomes:
            if outcome.id not in attempted_ids:
                logger.warning("fix outcome for an id that was not attempted: %r", outcome.id)
                self.unknown_outcomes.append(outcome)
            else:
                by_id.setdefault(outcome.id, outcome)
        for finding in attempted:
            tracked = self._tracked[finding.id]
            if tracked.status is not FindingStatus.OPEN:
                continue
            outcome = by_id.get(finding.id) or FixOutcome(
                id=finding.id, outcome=FixOutcomeKind.DEFERRED, explanation=NOT_REPORTED
            )
            tracked.attempts.append(outcome)
            if outcome.outcome is FixOutcomeKind.FIXED:
                tracked.status = FindingStatus.FIXED
            elif outcome.outcome is FixOutcomeKind.BLOCKED:
                tracked.status = FindingStatus.BLOCKED
            elif len(tracked.attempts) >= self.max_attempts:
                tracked.status = FindingStatus.UNRESOLVED

    def with_status(self, status: FindingStatus) -> tuple[Finding, ...]:
        return tuple(t.finding for t in self._tracked.values() if t.status is status)

    def attempts(self) -> Mapping[str, tuple[FixOutcome, ...]]:
        return MappingProxyType({i: tuple(t.attempts) for i, t in self._tracked.items()})


@dataclass(frozen=True, slots=True)
class ReviewFixSummary:
    """What a review-fix run did: the review, and where every finding ended."""

    review: GroupedReviewResult
    fixed: tuple[Finding, ...]
    blocked: tuple[Finding, ...]
    unresolved: tuple[Finding, ...]
    attempts: Mapping[str, tuple[FixOutcome, ...]]
    rounds: int
    unknown_outcomes: tuple[FixOutcome, ...] = ()

    @property
    def all_fixed(self) -> bool:
        """True when every finding was fixed (vacuously true for a clean review)."""
        return not self.blocked and not self.unresolved


async def run_review_fix(
    context: ReviewContext,
    reviewer: ReviewerLike,
    fixer: FixerLike,
    *,
    max_attempts: int = MAX_FIX_ATTEMPTS,
) -> ReviewFixSummary:
    """Review ``context`` with ``reviewer``, fix the findings with ``fixer``, summarise."""
    review = await reviewer.execute(context)
    findings = [f for group in review.groups for f in group.findings]
    tracker = FindingTracker(findings, max_attempts=max_attempts)
    rounds = 0
    while attempted := tracker.open_findings():
        rounds += 1
        try:
            outcomes = await fixer.execute(FixFindingsContext(cwd=context.cwd, findings=attempted))
        except MalformedResponseError as error:
            logger.warning(
                "round %d: fixer answer unreadable, findings deferred: %s", rounds, error
            )
            reason = f"fixer answer could not be read: {error.message}"
            outcomes = [
                FixOutcome(id=f.id, outcome=FixOutcomeKind.DEFERRED, explanation=reason)
                for f in attempted
            ]
        tracker.record(attempted, outcomes)
    return ReviewFixSummary(
        review=review,
        fixed=tracker.with_status(FindingStatus.FIXED),
        blocked=tracker.with_status(FindingStatus.BLOCKED),
        unresolved=tracker.with_status(FindingStatus.UNRESOLVED),
        attempts=tracker.attempts(),
        rounds=rounds,
        unknown_outcomes=tuple(tracker.unknown_outcomes),
    )
