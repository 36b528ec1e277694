"""`CodeReviewerAgent` (``code-reviewer``): reviews a branch diff, returns a `ReviewResult`.

Input: a `ReviewContext` (the diff is taken from ``git diff <base>...HEAD`` unless given).
A diff larger than ``max_chunk_chars`` is split at file boundaries into chunks that are
reviewed one run each (a single file larger than that is one chunk of its own).

* An empty diff: a successful review of 0 files, without running the model.
* Every chunk answered: the findings of all chunks, ``files_reviewed`` counted from the diff
  (binary files excluded), usage summed over the runs, ``success`` as the model(s) said.
* Some chunks failed (an unreadable answer, a process or network error): the findings of the
  good chunks are kept; ``success=False``, each failure in ``errors`` ("chunk i/n (files): why")
  and ``metadata["failed_chunks"]`` lists their 1-based numbers.
* Every chunk failed: the first chunk's error is raised (`MalformedResponseError` for an
  unreadable answer): an empty findings list would read as "no issues". A missing CLI
  (`CLINotFoundError`) is raised at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Unpack

from maverick.agents._git import branch_diff
from maverick.agents._sdk import QueryOutcome
from maverick.agents.base import AgentOptions, MaverickAgent
from maverick.agents.context import ReviewContext
from maverick.agents.registry import registry
from maverick.contracts import ReviewFinding, ReviewResult, UsageStats
from maverick.exceptions import AgentError, CLINotFoundError

__all__ = [
    "CODE_REVIEWER_INSTRUCTIONS",
    "CODE_REVIEWER_TOOLS",
    "DEFAULT_MAX_CHUNK_CHARS",
    "CodeReviewerAgent",
    "DiffFile",
    "chunk_diff",
    "split_diff",
]

CODE_REVIEWER_TOOLS: tuple[str, ...] = ("Read", "Glob", "Grep")

#: About 50,000 tokens of diff per run.
DEFAULT_MAX_CHUNK_CHARS = 200_000

CODE_REVIEWER_INSTRUCTIONS = """\
You are a senior code reviewer. Review the diff you are given for correctness, security,
performance, maintainability and the project's conventions (CLAUDE.md, when there is one).
Read surrounding code when the diff alone is not enough. Do not edit files.

Your answer is a ReviewResult:
- success: true when you completed the review;
- findings: one per issue, with severity (critical, major, minor or suggestion), file, line
  (null for a whole-file finding), message (at least 10 characters), suggestion, and
  convention_ref when a project convention is broken;
- files_reviewed: how many files of the diff you reviewed;
- summary: a short overall assessment."""

_FILE_HEADER = re.compile(r"^diff --git a/(.*?) b/(.*)$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class DiffFile:
    """One file's section of a diff."""

    path: str
    text: str
    binary: bool


def split_diff(diff: str) -> list[DiffFile]:
    """The per-file sections of a ``git diff`` (text before the first header is dropped)."""
    headers = list(_FILE_HEADER.finditer(diff))
    if not headers and diff.strip():
        return [DiffFile(path="(diff)", text=diff, binary=False)]
    files = []
    for header, following in zip(headers, [*headers[1:], None], strict=False):
        text = diff[header.start() : following.start() if following else len(diff)]
        binary = "\nBinary files " in text or "\nGIT binary patch" in text
        files.append(DiffFile(path=header.group(2), text=text, binary=binary))
    return files


def chunk_diff(files: list[DiffFile], max_chars: int) -> list[list[DiffFile]]:
    """Pack file sections, in order, into chunks of at most ``max_chars`` characters."""
    chunks: list[list[DiffFile]] = []
    size = 0
    for file in files:
        if not chunks or (size + len(file.text) > max_chars and chunks[-1]):
            chunks.append([])
            size = 0
        chunks[-1].append(file)
        size += len(file.text)
    return chunks


def _usage(outcomes: list[QueryOutcome]) -> UsageStats | None:
    measured = [o for o in outcomes if o.result is not None]
    if not measured:
        return None
    usage: dict[str, Any] = {}
    for key in ("input_tokens", "output_tokens"):
        usage[key] = sum(int((o.usage or {}).get(key, 0) or 0) for o in measured)
    costs = [o.result.total_cost_usd for o in measured if o.result is not None]
    total_cost = None if any(c is None for c in costs) else float(sum(c or 0.0 for c in costs))
    duration = sum(o.result.duration_ms for o in measured if o.result is not None)
    return UsageStats(total_cost=total_cost, duration_ms=duration, **usage)


@registry.register("code-reviewer")
class CodeReviewerAgent(MaverickAgent[ReviewContext, ReviewResult]):
    """Reviews the diff of a branch, in chunks when it is large."""

    def __init__(
        self,
        *,
        allowed_tools: tuple[str, ...] = CODE_REVIEWER_TOOLS,
        max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
        **options: Unpack[AgentOptions],
    ) -> None:
        super().__init__(
            "code-reviewer",
            CODE_REVIEWER_INSTRUCTIONS,
            allowed_tools,
            output_model=ReviewResult,
            **options,
        )
        self.max_chunk_chars = max_chunk_chars

    @staticmethod
    def build_prompt(context: ReviewContext, chunk: list[DiffFile], index: int, total: int) -> str:
        part = (
            f" (part {index} of {total}; other files are reviewed separately)" if total > 1 else ""
        )
        diff = "".join(file.text for file in chunk)
        return f"Review this diff against {context.base_branch}{part}:\n\n```diff\n{diff}\n```"

    async def execute(self, context: ReviewContext) -> ReviewResult:
        diff = context.diff
        if diff is None:
            diff = branch_diff(context.cwd, context.base_branch)
        sections = split_diff(diff)
        files = [f for f in sections if not f.binary]
        binary = [f.path for f in sections if f.binary]
        metadata: dict[str, Any] = {"base_branch": context.base_branch}
        if binary:
            metadata["binary_files_excluded"] = binary
        if not files:
            return ReviewResult(
                success=True, files_reviewed=0, summary="No changes to review.", metadata=metadata
            )
        chunks = chunk_diff(files, self.max_chunk_chars)
        results: list[ReviewResult] = []
        outcomes: list[QueryOutcome] = []
        failures: list[tuple[int, AgentError]] = []
        for number, chunk in enumerate(chunks, 1):
            prompt = self.build_prompt(context, chunk, number, len(chunks))
            try:
                outcome = await self._query(prompt, context.cwd)
                outcomes.append(outcome)
                results.append(self._extract_structured_output(outcome, ReviewResult))
            except CLINotFoundError:
                raise
            except AgentError as error:
                failures.append((number, error))
        if not results:
            raise failures[0][1]
        return self._merge(
            chunks=chunks,
            results=results,
            outcomes=outcomes,
            failures=failures,
            metadata=metadata,
            files_reviewed=len(files),
        )

    @staticmethod
    def _merge(
        *,
        chunks: list[list[DiffFile]],
        results: list[ReviewResult],
        outcomes: list[QueryOutcome],
        failures: list[tuple[int, AgentError]],
        metadata: dict[str, Any],
        files_reviewed: int,
    ) -> ReviewResult:
        findings: list[ReviewFinding] = [f for r in results for f in r.findings]
        errors = [e for r in results for e in r.errors]
        for number, error in failures:
            paths = ", ".join(f.path for f in chunks[number - 1])
            errors.append(f"chunk {number}/{len(chunks)} ({paths}): {error.message}")
        if len(chunks) > 1:
            metadata |= {"chunks_used": len(chunks), "chunking_reason": "diff size"}
            summary = (
                f"Reviewed {len(chunks) - len(failures)} of {len(chunks)} chunks: "
                + " ".join(r.summary for r in results)
            )
        else:
            summary = results[0].summary
        if failures:
            metadata["failed_chunks"] = [number for number, _ in failures]
        return ReviewResult(
            success=not failures and all(r.success for r in results),
            findings=findings,
            files_reviewed=files_reviewed,
            summary=summary,
            output=outcomes[0].text if len(chunks) == 1 else "",
            metadata=metadata,
            errors=errors,
            usage=_usage(outcomes),
        )
