"""`display_text`: any agent result as text for a terminal or a log (FR-009).

Every agent contract, ``list[FixOutcome]`` (the simple fixer's result), the deprecated
`AgentResult`, a `ReviewFixSummary`, a plain string, and any other pydantic model (as indented
JSON) are handled.
Does not import claude-agent-sdk.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from maverick.agents.result import AgentResult
from maverick.contracts import (
    FileChange,
    Finding,
    FindingGroup,
    FixerResult,
    FixOutcome,
    FixOutcomes,
    FixResult,
    GroupedReviewResult,
    ImplementationResult,
    ReviewFinding,
    ReviewResult,
)
from maverick.workflows.review_fix import ReviewFixSummary

__all__ = ["display_text"]


def _files(changes: Iterable[FileChange]) -> list[str]:
    lines = []
    for change in changes:
        renamed = f" (from {change.old_path})" if change.old_path else ""
        lines.append(
            f"  {change.change_type.value} {change.file_path}{renamed}"
            f" +{change.lines_added} -{change.lines_removed}"
        )
    return lines


def _errors(errors: Sequence[str]) -> list[str]:
    return [f"Errors ({len(errors)}):", *(f"  - {e}" for e in errors)] if errors else []


def _fixer(result: FixerResult) -> list[str]:
    head = "Fix succeeded" if result.success else "Fix failed"
    lines = [f"{head}: {result.summary}"]
    if result.error_details:
        lines.append(f"Error: {result.error_details}")
    if result.files_mentioned:
        lines.append("Files: " + ", ".join(result.files_mentioned))
    return lines


def _fix_result(result: FixResult) -> list[str]:
    state = "fixed" if result.success else "not fixed"
    lines = [f"Issue #{result.issue_number} {state}: {result.issue_title}"]
    if result.root_cause:
        lines.append(f"Root cause: {result.root_cause}")
    if result.fix_description:
        lines.append(f"Fix: {result.fix_description}")
    lines.append(
        f"Verified: {'yes' if result.verification_passed else 'no'}; "
        f"validation {'passed' if result.validation_passed else 'failed'}"
    )
    if result.files_changed:
        lines += [f"Files changed ({len(result.files_changed)}):", *_files(result.files_changed)]
    return lines + _errors(result.errors)


def _implementation(result: ImplementationResult) -> list[str]:
    state = "succeeded" if result.success else "failed"
    lines = [
        f"Implementation {state}: {result.tasks_completed} completed, "
        f"{result.tasks_failed} failed, {result.tasks_skipped} skipped"
    ]
    for task in result.task_results:
        error = f": {task.error}" if task.error else ""
        lines.append(f"  {task.task_id} {task.status.value}{error}")
    if result.files_changed:
        lines += [f"Files changed ({len(result.files_changed)}):", *_files(result.files_changed)]
    if result.commits:
        lines.append("Commits: " + ", ".join(result.commits))
    return lines + _errors(result.errors)


def _review_finding(finding: ReviewFinding) -> str:
    where = f"{finding.file}:{finding.line}" if finding.line is not None else finding.file
    text = f"[{finding.severity.value}] {where}: {finding.message}"
    return text + (f"\n    suggestion: {finding.suggestion}" if finding.suggestion else "")


def _review(result: ReviewResult) -> list[str]:
    state = "" if result.success else " (incomplete)"
    lines = [
        f"Review{state}: {result.summary}",
        f"{len(result.findings)} finding(s) in {result.files_reviewed} file(s) reviewed",
    ]
    lines += [f"  {_review_finding(f)}" for f in result.findings]
    return lines + _errors(result.errors)


def _finding(finding: Finding) -> str:
    hint = f" (hint: {finding.fix_hint})" if finding.fix_hint else ""
    return (
        f"{finding.id} [{finding.severity.value}/{finding.category}] "
        f"{finding.file}:{finding.line}: {finding.issue}{hint}"
    )


def _group(group: FindingGroup) -> list[str]:
    return [f"{group.description}:", *(f"  {_finding(f)}" for f in group.findings)]


def _grouped(result: GroupedReviewResult) -> list[str]:
    total = sum(len(g.findings) for g in result.groups)
    if not total:
        return ["No issues found."]
    lines = [f"{total} finding(s) in {len(result.groups)} group(s)"]
    for group in result.groups:
        lines += _group(group)
    return lines


def _outcomes(outcomes: Sequence[FixOutcome]) -> list[str]:
    if not outcomes:
        return ["No fix outcomes."]
    counts = {
        kind: sum(o.outcome == kind for o in outcomes) for kind in ("fixed", "blocked", "deferred")
    }
    lines = [", ".join(f"{n} {kind}" for kind, n in counts.items())]
    lines += [
        f"  {o.id}: {o.outcome.value}" + (f" ({o.explanation})" if o.explanation else "")
        for o in outcomes
    ]
    return lines


def _agent_result(result: AgentResult) -> list[str]:
    lines = [result.output] if result.output else []
    if not result.success:
        lines = ["Agent failed", *lines, *(f"Error: {e.message}" for e in result.errors)]
    return lines


def _summary(result: ReviewFixSummary) -> list[str]:
    total = len(result.fixed) + len(result.blocked) + len(result.unresolved)
    lines = [
        f"Review-fix: {total} finding(s) in {result.rounds} round(s): {len(result.fixed)} fixed, "
        f"{len(result.blocked)} blocked, {len(result.unresolved)} unresolved"
    ]
    for label, findings in (("Blocked", result.blocked), ("Unresolved", result.unresolved)):
        for finding in findings:
            last = result.attempts.get(finding.id, ())
            why = f" ({last[-1].explanation})" if last and last[-1].explanation else ""
            lines.append(f"  {label}: {_finding(finding)}{why}")
    return lines


def _lines(result: Any) -> list[str]:
    if isinstance(result, str):
        return [result]
    handlers: list[tuple[type[Any], Any]] = [
        (FixerResult, _fixer),
        (FixResult, _fix_result),
        (ImplementationResult, _implementation),
        (ReviewResult, _review),
        (GroupedReviewResult, _grouped),
        (FindingGroup, _group),
        (AgentResult, _agent_result),
        (ReviewFixSummary, _summary),
    ]
    for kind, handler in handlers:
        if isinstance(result, kind):
            lines: list[str] = handler(result)
            return lines
    if isinstance(result, FixOutcomes):
        return _outcomes(result.outcomes)
    if isinstance(result, FixOutcome):
        return _outcomes([result])
    if isinstance(result, Finding):
        return [_finding(result)]
    if isinstance(result, ReviewFinding):
        return [_review_finding(result)]
    if isinstance(result, Sequence) and all(isinstance(o, FixOutcome) for o in result):
        return _outcomes(result)
    if isinstance(result, BaseModel):
        return [result.model_dump_json(indent=2)]
    return [str(result)]


def display_text(result: Any) -> str:
    """``result`` (any agent result) as human-readable text."""
    return "\n".join(_lines(result))
