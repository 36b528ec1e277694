"""`ImplementerAgent` (``implementer``): implements tasks and returns an `ImplementationResult`.

Input: an `ImplementationContext`: one task description, or a tasks.md file the agent reads.

* Success: the model's validated `ImplementationResult`, with ground truth merged in:
  ``files_changed`` from ``git diff`` (``--numstat`` counts, ``--name-status`` change types),
  ``metadata["branch"]`` from the context, and ``success`` only when the model said so *and*
  reported no failed task (a success it cannot show is not passed on).
* The answer cannot be read (`MalformedResponseError`): ``success=False``, zero counts, the
  reason in ``errors`` and the files git sees as changed (the edits are kept, not hidden).
* Any other `AgentError` is raised.
"""

from __future__ import annotations

from typing import Any, Unpack

from maverick.agents._git import GitError, changed_files
from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import ImplementationContext
from maverick.agents.registry import registry
from maverick.contracts import FileChange, ImplementationResult
from maverick.exceptions import MalformedResponseError

__all__ = ["IMPLEMENTER_INSTRUCTIONS", "IMPLEMENTER_TOOLS", "ImplementerAgent"]

IMPLEMENTER_TOOLS: tuple[str, ...] = ("Read", "Write", "Edit", "Glob", "Grep", "Bash", "Task")

IMPLEMENTER_INSTRUCTIONS = """\
You implement software tasks. Work through the tasks in order, following the project's
conventions; write tests with the code; keep each change focused on its task.

Your answer is an ImplementationResult:
- tasks_completed, tasks_failed, tasks_skipped: how many tasks ended each way;
- success: true only if no task failed;
- task_results: one entry per task (task_id, status, files_changed, tests_added, error);
- files_changed: every file you changed;
- validation_passed: whether the checks you ran passed;
- errors: anything that went wrong."""


@registry.register("implementer")
class ImplementerAgent(MaverickAgent[ImplementationContext, ImplementationResult]):
    """Implements one task description or the tasks of a tasks.md file."""

    def __init__(
        self,
        *,
        allowed_tools: tuple[str, ...] = IMPLEMENTER_TOOLS,
        **options: Unpack[AgentOptions],
    ) -> None:
        super().__init__(
            "implementer",
            IMPLEMENTER_INSTRUCTIONS,
            allowed_tools,
            output_model=ImplementationResult,
            **options,
        )

    @staticmethod
    def build_prompt(context: ImplementationContext) -> str:
        if context.task_file is not None:
            return (
                f"Implement the tasks listed in {context.task_file} (read it first). Use the "
                'task ids of that file (e.g. "T001") in task_results.'
            )
        return f'Implement this task (task id "T001"):\n\n{context.task_description}'

    async def execute(self, context: ImplementationContext) -> ImplementationResult:
        metadata: dict[str, Any] = {"branch": context.branch} if context.branch else {}
        try:
            result = await self._run(self.build_prompt(context), context.cwd, ImplementationResult)
        except MalformedResponseError as error:
            files, git_errors = _ground_truth(context)
            return ImplementationResult(
                success=False,
                tasks_completed=0,
                tasks_failed=0,
                tasks_skipped=0,
                files_changed=files,
                validation_passed=False,
                metadata=metadata,
                errors=[error.message, *git_errors],
            )
        files, git_errors = _ground_truth(context)
        errors = [*result.errors, *git_errors]
        if result.success and result.tasks_failed:
            errors.append(f"reported success with {result.tasks_failed} failed task(s)")
        return result.model_copy(
            update={
                "success": result.success and result.tasks_failed == 0,
                "files_changed": files,
                "metadata": {**result.metadata, **metadata},
                "errors": errors,
            }
        )


def _ground_truth(context: ImplementationContext) -> tuple[list[FileChange], list[str]]:
    try:
        return list(changed_files(context.cwd)), []
    except GitError as error:
        return [], [f"could not list changed files: {error.message}"]
