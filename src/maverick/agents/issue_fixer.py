"""`IssueFixerAgent` (``issue-fixer``): fixes one GitHub issue and returns a `FixResult`.

Input: an `IssueContext` (issue number, title, body, url, labels, working directory).

* Success: the model's validated `FixResult`, with ground truth merged in: ``issue_number``,
  ``issue_title`` and ``issue_url`` come from the context, and ``files_changed`` from
  ``git diff`` (line counts from ``--numstat``, ``change_type`` from ``--name-status``, so an
  added, deleted or renamed file says so). What the model claimed about files is dropped.
* The answer cannot be read (`MalformedResponseError`): ``FixResult(success=False, ...)`` with
  the reason in ``errors`` and the files git sees as changed, so the edits are not lost.
* Any other `AgentError` is raised.
"""

from __future__ import annotations

from typing import Unpack

from maverick.agents._git import GitError, changed_files
from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import IssueContext
from maverick.agents.registry import registry
from maverick.contracts import FileChange, FixResult
from maverick.exceptions import MalformedResponseError

__all__ = ["ISSUE_FIXER_INSTRUCTIONS", "ISSUE_FIXER_TOOLS", "IssueFixerAgent"]

ISSUE_FIXER_TOOLS: tuple[str, ...] = ("Read", "Write", "Edit", "Glob", "Grep", "Bash")

ISSUE_FIXER_INSTRUCTIONS = """\
You fix GitHub issues with the smallest change that resolves them. Find the root cause before
editing; change only what the fix needs; run the relevant tests when you can.

Your answer is a FixResult:
- success: true only if the issue is fixed;
- issue_number, issue_title: as given;
- root_cause: what caused the issue;
- fix_description: what you changed and why;
- files_changed: the files you changed (file_path, change_type, lines_added, lines_removed);
- verification_passed: true only if you ran something that shows the fix works;
- validation_passed: whether format, lint, type checks and tests passed, as far as you ran them;
- errors: anything that went wrong."""


def _ground_truth(context: IssueContext) -> tuple[list[FileChange], list[str]]:
    try:
        return list(changed_files(context.cwd)), []
    except GitError as error:
        return [], [f"could not list changed files: {error.message}"]


@registry.register("issue-fixer")
class IssueFixerAgent(MaverickAgent[IssueContext, FixResult]):
    """Fixes the GitHub issue described by an `IssueContext`."""

    def __init__(
        self,
        *,
        allowed_tools: tuple[str, ...] = ISSUE_FIXER_TOOLS,
        **options: Unpack[AgentOptions],
    ) -> None:
        super().__init__(
            "issue-fixer",
            ISSUE_FIXER_INSTRUCTIONS,
            allowed_tools,
            output_model=FixResult,
            **options,
        )

    @staticmethod
    def build_prompt(context: IssueContext) -> str:
        labels = ", ".join(context.labels) or "none"
        return (
            f"Fix GitHub issue #{context.issue_number}: {context.issue_title}\n"
            f"URL: {context.issue_url or 'unknown'}\nLabels: {labels}\n\n"
            f"{context.issue_body or '(no description)'}"
        )

    async def execute(self, context: IssueContext) -> FixResult:
        try:
            result = await self._run(self.build_prompt(context), context.cwd, FixResult)
        except MalformedResponseError as error:
            files, git_errors = _ground_truth(context)
            return FixResult(
                success=False,
                issue_number=context.issue_number,
                issue_title=context.issue_title,
                issue_url=context.issue_url,
                files_changed=files,
                verification_passed=False,
                validation_passed=False,
                errors=[error.message, *git_errors],
            )
        files, git_errors = _ground_truth(context)
        return result.model_copy(
            update={
                "issue_number": context.issue_number,
                "issue_title": context.issue_title,
                "issue_url": context.issue_url or result.issue_url,
                "files_changed": files,
                "errors": [*result.errors, *git_errors],
            }
        )
