"""`SimpleFixerAgent` (``simple-fixer``): fixes review findings, returns ``list[FixOutcome]``.

Input: a `FixFindingsContext` (the findings to fix). The structured-output contract is the
`FixOutcomes` wrapper (a structured output's root must be an object); callers get its list.

* Success: one outcome per finding, in the order of the findings given:

  - a finding the model did not report on becomes ``deferred`` with the explanation
    ``"agent did not report on this finding"`` (never lost, so the workflow retries it);
  - for an id reported twice, the first outcome counts (the others are logged);
  - outcomes for ids that were not given are kept after the others, and logged.
* No findings: ``[]`` without running the model.
* The answer cannot be read: `MalformedResponseError` is raised (the review-fix workflow turns
  that into deferred outcomes, so that the findings are tried again).
* Any other `AgentError` is raised.
"""

from __future__ import annotations

import json
import logging
from typing import Unpack

from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import FixFindingsContext
from maverick.agents.registry import registry
from maverick.contracts import Finding, FixOutcome, FixOutcomeKind, FixOutcomes

__all__ = [
    "NOT_REPORTED",
    "SIMPLE_FIXER_INSTRUCTIONS",
    "SIMPLE_FIXER_TOOLS",
    "SimpleFixerAgent",
    "merge_outcomes",
]

logger = logging.getLogger("maverick.agents.simple_fixer")

#: The explanation of an outcome the agent did not report.
NOT_REPORTED = "agent did not report on this finding"

SIMPLE_FIXER_TOOLS: tuple[str, ...] = ("Read", "Write", "Edit", "Glob", "Grep", "Task")

SIMPLE_FIXER_INSTRUCTIONS = """\
You fix code review findings. For each finding, make the smallest change that resolves it.
Groups of findings are independent of each other: you may hand a group to a subagent.

Your answer is a FixOutcomes document with one outcome per finding, keyed by the finding's id:
- fixed: you made the change;
- blocked: the change cannot or should not be made (say why);
- deferred: you did not get to it this time (say why).
Report on every finding you were given, and on no other."""


def merge_outcomes(findings: list[Finding], reported: list[FixOutcome]) -> list[FixOutcome]:
    """One outcome per finding (missing ones deferred), then the outcomes for unknown ids."""
    by_id: dict[str, FixOutcome] = {}
    unknown: list[FixOutcome] = []
    wanted = {finding.id for finding in findings}
    for outcome in reported:
        if outcome.id not in wanted:
            logger.warning("simple fixer reported on unknown finding id %r", outcome.id)
            unknown.append(outcome)
        elif outcome.id in by_id:
            logger.warning(
                "simple fixer reported twice on %r; the first outcome counts", outcome.id
            )
        else:
            by_id[outcome.id] = outcome
    merged = [
        by_id.get(f.id)
        or FixOutcome(id=f.id, outcome=FixOutcomeKind.DEFERRED, explanation=NOT_REPORTED)
        for f in findings
    ]
    return merged + unknown


@registry.register("simple-fixer")
class SimpleFixerAgent(MaverickAgent[FixFindingsContext, list[FixOutcome]]):
    """Fixes a list of findings and reports one `FixOutcome` per finding."""

    def __init__(
        self,
        *,
        allowed_tools: tuple[str, ...] = SIMPLE_FIXER_TOOLS,
        **options: Unpack[AgentOptions],
    ) -> None:
        super().__init__(
            "simple-fixer",
            SIMPLE_FIXER_INSTRUCTIONS,
            allowed_tools,
            output_model=FixOutcomes,
            **options,
        )

    @staticmethod
    def build_prompt(findings: list[Finding]) -> str:
        listed = json.dumps([f.model_dump(mode="json") for f in findings], indent=2)
        return f"Fix these findings:\n\n```json\n{listed}\n```"

    async def execute(self, context: FixFindingsContext) -> list[FixOutcome]:
        findings = list(context.findings)
        if not findings:
            return []
        result = await self._run(self.build_prompt(findings), context.cwd, FixOutcomes)
        return merge_outcomes(findings, result.outcomes)
