"""Bob's Brain's four tools, for real, on one root folder given at start-up.

``CodebaseTools(root)`` offers ``search_codebase``, ``get_file``, ``check_patterns`` and
``analyze_deps``: async functions returning their contract (SearchResult, FileResult,
ComplianceResult, DependencyResult) built by the factories of :mod:`maverick.tools.results`.
Each tool lives in its own module (:mod:`~maverick.tools.search`, :mod:`~maverick.tools.files`,
:mod:`~maverick.tools.patterns`, :mod:`~maverick.tools.deps`); this class gives them a root,
a secrets policy and budgets, and runs them.

What they promise: they read files below the root only (see :mod:`maverick.tools.workspace`),
never a file the secrets policy denies (:mod:`maverick.tools.policy`), they never run a shell
or touch the network, and they never raise: every bad input comes back as an error result
whose ``error`` says what was wrong. Each call runs on a bounded pool of worker threads (the
event loop is never blocked) under a time and a size budget (:class:`~maverick.tools.base.
Limits`): past either it answers an error result at its deadline at the latest, and the worker
stops at its next look at the budget. A large search is shared among a few worker processes
(:mod:`maverick.tools.searchers`), started once and kept for the calls that follow.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from maverick.contracts import (
    ComplianceResult,
    DependencyResult,
    FileResult,
    SearchResult,
    ToolResult,
)
from maverick.tools import deps, files, patterns, search
from maverick.tools.base import Budget, Limits, ToolFailure
from maverick.tools.policy import SecretsPolicy
from maverick.tools.results import create_error_result, create_success_result
from maverick.tools.searchers import Searchers
from maverick.tools.workspace import PathRefused, Workspace

__all__ = ["DEFAULT_SEARCH_PROCESSES", "DEFAULT_WORKERS", "CodebaseTools"]

ResultT = TypeVar("ResultT", bound=ToolResult)
DEFAULT_WORKERS = 4  # calls running at once; more wait for a worker (their budget runs)
# Processes a large search is shared among: one per core, up to 4; none on a single core.
DEFAULT_SEARCH_PROCESSES = min(4, os.cpu_count() or 1) if (os.cpu_count() or 1) > 1 else 0
_DETAIL = 300  # characters of an unexpected exception's text an error result carries


class CodebaseTools:
    """The four tools on the folder ``root`` (resolved once; it must exist).

    ``policy`` adds deny rules to the built-in secrets policy; ``limits`` sets the budgets of
    every call; ``workers`` bounds how many calls run at once; ``search_processes`` is the
    number of worker processes a large search is shared among (0: every search on its
    thread), started on the first search that wants them; :meth:`close` stops them.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        policy: SecretsPolicy | None = None,
        limits: Limits | None = None,
        workers: int = DEFAULT_WORKERS,
        search_processes: int = DEFAULT_SEARCH_PROCESSES,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.workspace = Workspace.at(root, policy)
        self.limits = limits or Limits()
        self.searchers = Searchers(search_processes)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="maverick-tools")

    def close(self) -> None:
        """Stop the search's worker processes (they also stop with this object or the
        interpreter); a later search runs on its thread."""
        self.searchers.close()

    @property
    def root(self) -> Path:
        return self.workspace.root

    @property
    def policy(self) -> SecretsPolicy:
        return self.workspace.policy

    async def _run(
        self, cls: type[ResultT], tool: str, work: Callable[[Budget], dict[str, Any]]
    ) -> ResultT:
        """Run ``work`` on a worker under the call's budget; any failure is an error result."""
        started = time.monotonic()
        budget = Budget(tool, self.limits, started)

        def elapsed() -> int:
            return round((time.monotonic() - started) * 1000)

        running = asyncio.get_running_loop().run_in_executor(self._pool, work, budget)
        try:
            fields = await asyncio.wait_for(running, timeout=self.limits.time_budget)
        except TimeoutError:  # the worker stops at its next look at the budget
            message = budget.timed_out_message()
            return create_error_result(cls, tool, message, execution_time_ms=elapsed())
        except (ToolFailure, PathRefused) as exc:
            return create_error_result(cls, tool, str(exc), execution_time_ms=elapsed())
        except Exception as exc:  # the promise: nothing raises out of a tool
            message = f"Internal error in {tool}: {type(exc).__name__}: {str(exc)[:_DETAIL]}"
            return create_error_result(cls, tool, message, execution_time_ms=elapsed())
        try:
            return create_success_result(cls, tool, execution_time_ms=elapsed(), **fields)
        except Exception as exc:
            message = f"Internal error in {tool}: its result is not a valid {cls.__name__}: {exc}"
            return create_error_result(cls, tool, message, execution_time_ms=elapsed())

    def search_codebase(
        self,
        query: str,
        path: str = ".",
        file_pattern: str = "*.py",
        regex: bool = False,
        max_results: int = search.DEFAULT_MAX_RESULTS,
    ) -> Awaitable[SearchResult]:
        """Lines of the files below ``path`` whose name matches ``file_pattern`` holding ``query``.

        ``query`` is literal text, or an RE2 regular expression when ``regex`` is true (see
        :mod:`maverick.tools.search` for the dialect). At most ``max_results`` matches are
        returned (``truncated`` says when there were more); ``match_count`` counts them all,
        one per matching line. Binary files, ``.git``, ``node_modules`` and virtual
        environments are skipped; so are secrets, counted in ``secret_files_skipped``.
        """

        def work(budget: Budget) -> dict[str, Any]:
            return search.search_codebase(
                self.workspace,
                budget,
                query=query,
                path=path,
                file_pattern=file_pattern,
                regex=regex,
                max_results=max_results,
                searchers=self.searchers,
            )

        return self._run(SearchResult, "search_codebase", work)

    def get_file(self, path: str) -> Awaitable[FileResult]:
        """The UTF-8 text of the file ``path``, its size in bytes and its number of lines.

        Refused: folders, files over 1 MiB, binary or non-UTF-8 files, and secrets.
        """
        return self._run(
            FileResult, "get_file", lambda budget: files.get_file(self.workspace, budget, path)
        )

    def check_patterns(
        self, path: str = ".", rules: Sequence[str] | None = None
    ) -> Awaitable[ComplianceResult]:
        """Check the code below ``path`` against the ADK Hard Mode rules (default: all)."""

        def work(budget: Budget) -> dict[str, Any]:
            return patterns.check_patterns(self.workspace, budget, path, rules)

        return self._run(ComplianceResult, "check_patterns", work)

    def analyze_deps(self, path: str = ".") -> Awaitable[DependencyResult]:
        """The Python, Node and Terraform dependencies the project at ``path`` declares."""
        return self._run(
            DependencyResult,
            "analyze_deps",
            lambda budget: deps.analyze_deps(self.workspace, budget, path),
        )
