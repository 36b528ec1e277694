"""What an agent run needs to know: the working directory, the branch, and per-agent inputs.

Every context is a frozen dataclass. `AgentContext` is the generic one (seed 002); the other
contexts carry the typed inputs of one agent each, so that no agent has to dig its inputs out
of an untyped ``extra`` mapping. None of them imports claude-agent-sdk: workflows can build
contexts without the ``agents`` extra installed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maverick.contracts import Finding
from maverick.exceptions import ConfigError

__all__ = [
    "AgentContext",
    "FixFindingsContext",
    "ImplementationContext",
    "IssueContext",
    "ReviewContext",
    "detect_branch",
]

_GIT_TIMEOUT_SECONDS = 30


def _check_directory(cwd: Path) -> None:
    if not cwd.is_dir():
        raise ConfigError(
            f"Working directory {str(cwd)!r} is not a directory", field="cwd", value=cwd
        )


def detect_branch(cwd: Path) -> str:
    """The current branch of the git repository at ``cwd`` (``HEAD`` when detached).

    Raises `ConfigError` when ``cwd`` is not a directory, git is missing, or ``cwd`` is not
    inside a git repository.
    """
    _check_directory(cwd)
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "--abbrev-ref", "HEAD"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError as error:
        raise ConfigError("git is not installed or not on PATH", field="cwd", value=cwd) from error
    if completed.returncode != 0:
        detail = completed.stderr.strip() or f"exit code {completed.returncode}"
        raise ConfigError(
            f"{str(cwd)!r} is not inside a git repository with a commit: {detail}",
            field="cwd",
            value=cwd,
        )
    return completed.stdout.strip()


@dataclass(frozen=True, slots=True)
class AgentContext:
    """The runtime context of one agent run.

    ``config`` is a plain read-only mapping of settings (the full Maverick configuration is out
    of scope here); ``extra`` holds per-agent values, e.g. ``extra["prompt"]`` for the fixer.
    """

    cwd: Path
    branch: str
    config: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_directory(self.cwd)
        if not self.branch:
            raise ConfigError(
                "branch must be a non-empty string", field="branch", value=self.branch
            )

    @classmethod
    def from_cwd(
        cls,
        cwd: Path | str,
        config: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> AgentContext:
        """A context for ``cwd``, its branch detected with ``git rev-parse --abbrev-ref HEAD``."""
        path = Path(cwd)
        return cls(
            cwd=path, branch=detect_branch(path), config=dict(config or {}), extra=dict(extra or {})
        )


@dataclass(frozen=True, slots=True)
class IssueContext:
    """Input of the issue fixer: one GitHub issue, fixed in ``cwd``."""

    cwd: Path
    issue_number: int
    issue_title: str
    issue_body: str = ""
    issue_url: str = ""
    labels: Sequence[str] = ()

    def __post_init__(self) -> None:
        _check_directory(self.cwd)
        if self.issue_number < 1:
            raise ConfigError(
                "issue_number must be >= 1", field="issue_number", value=self.issue_number
            )


@dataclass(frozen=True, slots=True)
class ImplementationContext:
    """Input of the implementer: a task description, or a tasks.md file, worked on in ``cwd``."""

    cwd: Path
    task_description: str | None = None
    task_file: Path | None = None
    branch: str = ""

    def __post_init__(self) -> None:
        _check_directory(self.cwd)
        if (self.task_description is None) == (self.task_file is None):
            raise ConfigError("give exactly one of task_description and task_file")


@dataclass(frozen=True, slots=True)
class ReviewContext:
    """Input of both reviewers: the changes of ``cwd`` against ``base_branch``.

    ``diff``, when given, is reviewed as is; otherwise the reviewer runs
    ``git diff <base_branch>...HEAD`` itself. ``requirements`` (the spec or task text) lets the
    unified reviewer check for gaps.
    """

    cwd: Path
    base_branch: str = "main"
    diff: str | None = None
    requirements: str = ""

    def __post_init__(self) -> None:
        _check_directory(self.cwd)


@dataclass(frozen=True, slots=True)
class FixFindingsContext:
    """Input of the simple fixer: the findings to fix in ``cwd``."""

    cwd: Path
    findings: Sequence[Finding]

    def __post_init__(self) -> None:
        _check_directory(self.cwd)
