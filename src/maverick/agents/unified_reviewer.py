"""`UnifiedReviewerAgent` (``unified-reviewer``): reviews a branch, returns a `GroupedReviewResult`.

Input: a `ReviewContext` (the diff is taken from ``git diff <base>...HEAD`` unless given).

* An empty diff: ``GroupedReviewResult(groups=[])`` without running the model.
* Otherwise: the model's validated `GroupedReviewResult` (findings grouped into batches that
  can be fixed in parallel). ``{"groups": []}`` means the model found no issue, and is only
  returned when the model said so: an unreadable answer raises `MalformedResponseError`, it
  never turns into an empty review. Duplicate finding ids are logged (the review-fix workflow
  tracks findings by id).
* Any other `AgentError` is raised; a git failure raises `maverick.agents._git.GitError`.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Unpack

from maverick.agents._git import branch_diff
from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import ReviewContext
from maverick.agents.registry import registry
from maverick.contracts import GroupedReviewResult

__all__ = ["UNIFIED_REVIEWER_INSTRUCTIONS", "UNIFIED_REVIEWER_TOOLS", "UnifiedReviewerAgent"]

logger = logging.getLogger("maverick.agents.unified_reviewer")

UNIFIED_REVIEWER_TOOLS: tuple[str, ...] = ("Read", "Glob", "Grep", "Task")

UNIFIED_REVIEWER_INSTRUCTIONS = """\
You review code changes as two experts at once: a Python expert (correctness, clean code, type
hints, tests, library standards, security, performance) and a requirements expert (does the
change do what the requirements ask, completely). Read the surrounding code when the diff is
not enough. Do not edit files.

Your answer is a GroupedReviewResult: findings grouped into batches whose findings touch
different code and can be fixed in parallel. Each finding has a unique id ("F001", "F002", ...),
file, line ("45" or "45-67"), issue, severity (critical, major or minor), category
(requirements_gap, library_standards, clean_code, type_hints, testing, data_model, security,
performance) and an optional fix_hint. No issues: {"groups": []}."""


@registry.register("unified-reviewer")
class UnifiedReviewerAgent(MaverickAgent[ReviewContext, GroupedReviewResult]):
    """Reviews the changes of a branch and groups the findings for parallel fixing."""

    def __init__(
        self,
        *,
        allowed_tools: tuple[str, ...] = UNIFIED_REVIEWER_TOOLS,
        **options: Unpack[AgentOptions],
    ) -> None:
        super().__init__(
            "unified-reviewer",
            UNIFIED_REVIEWER_INSTRUCTIONS,
            allowed_tools,
            output_model=GroupedReviewResult,
            **options,
        )

    @staticmethod
    def build_prompt(context: ReviewContext, diff: str) -> str:
        requirements = context.requirements.strip() or "(none given: review for quality only)"
        return (
            f"Review these changes against {context.base_branch}.\n\n"
            f"Requirements:\n{requirements}\n\nDiff:\n```diff\n{diff}\n```"
        )

    async def execute(self, context: ReviewContext) -> GroupedReviewResult:
        diff = context.diff
        if diff is None:
            diff = branch_diff(context.cwd, context.base_branch)
        if not diff.strip():
            return GroupedReviewResult(groups=[])
        result = await self._run(self.build_prompt(context, diff), context.cwd, GroupedReviewResult)
        ids = Counter(f.id for group in result.groups for f in group.findings)
        duplicates = sorted(i for i, n in ids.items() if n > 1)
        if duplicates:
            logger.warning("unified reviewer reported duplicate finding ids: %s", duplicates)
        return result
