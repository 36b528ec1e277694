"""`FixerAgent` (``fixer``): applies one minimal fix and returns a `FixerResult`.

Input: an `AgentContext` whose ``extra["prompt"]`` says what to fix.

* Success: the validated `FixerResult` of the model (``files_mentioned`` as it reported them:
  a best-effort claim; ``git diff`` is the ground truth for callers).
* The model's answer cannot be turned into a `FixerResult` (`MalformedResponseError`): the
  edits its tools made are still on disk, so the agent does not raise but returns
  ``FixerResult(success=False, error_details=<why>, files_mentioned=<git's changed paths>)``.
  Success is never assumed: it only ever comes from a validated answer.
* No prompt: ``success=False`` with the reason, without running the model.
* Any other `AgentError` (CLI missing, process failure, network) is raised.
"""

from __future__ import annotations

from typing import Unpack

from maverick.agents._git import changed_paths
from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import AgentContext
from maverick.agents.registry import registry
from maverick.contracts import FixerResult
from maverick.exceptions import MalformedResponseError

__all__ = ["FIXER_INSTRUCTIONS", "FIXER_TOOLS", "FixerAgent"]

FIXER_TOOLS: tuple[str, ...] = ("Read", "Write", "Edit", "Glob", "Grep")

FIXER_INSTRUCTIONS = """\
You are a careful fixer. Apply the smallest change that fixes exactly the problem you are given:
read the affected files first, edit only what the fix needs, and do not refactor or reformat
anything else.

Your answer is a FixerResult:
- success: true only if you made the fix (or verified nothing needed changing);
- summary: one or two sentences on what you did;
- files_mentioned: the paths (relative to the repository root) of the files you changed;
- error_details: when success is false, what stopped you (required then)."""


@registry.register("fixer")
class FixerAgent(MaverickAgent[AgentContext, FixerResult]):
    """Applies a minimal fix described by ``context.extra["prompt"]``."""

    def __init__(
        self, *, allowed_tools: tuple[str, ...] = FIXER_TOOLS, **options: Unpack[AgentOptions]
    ) -> None:
        super().__init__(
            "fixer", FIXER_INSTRUCTIONS, allowed_tools, output_model=FixerResult, **options
        )

    async def execute(self, context: AgentContext) -> FixerResult:
        prompt = context.extra.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            return FixerResult(
                success=False,
                summary="No fix was attempted.",
                error_details='AgentContext.extra["prompt"] must hold the fix instructions.',
            )
        try:
            return await self._run(prompt, context.cwd, FixerResult)
        except MalformedResponseError as error:
            files = changed_paths(context.cwd)
            return FixerResult(
                success=False,
                summary=(
                    f"The fixer's answer could not be read; {len(files)} file(s) changed on disk."
                ),
                files_mentioned=list(files),
                error_details=error.message,
            )
