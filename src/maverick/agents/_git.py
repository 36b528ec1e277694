"""Git as ground truth: which files an agent run changed, and the diff a reviewer reviews.

What an agent *says* it changed is a claim; what ``git`` reports is a fact. The agents fill
their ``files_changed`` / ``files_mentioned`` fields from here whenever the contract is about
files on disk:

* `changed_files`: every change of the working tree against ``HEAD`` (the empty tree in a
  repository without commits), tracked files from ``git diff --numstat`` and
  ``git diff --name-status`` (renames detected, so ``change_type`` is ``added``, ``modified``,
  ``deleted`` or ``renamed`` as git sees it), plus untracked files (``added``, their lines
  counted). Changes that were already in the working tree before the run are included: run
  agents on a clean tree when the distinction matters.
* `branch_diff`: ``git diff <base>...HEAD``, the changes of the branch since it left ``base``.

Neither imports claude-agent-sdk.
"""

from __future__ import annotations

import logging
import subprocess
from dataclasses import dataclass
from pathlib import Path

from maverick.contracts import ChangeType, FileChange
from maverick.exceptions import ConfigError

__all__ = ["EMPTY_TREE", "GitError", "branch_diff", "changed_files", "changed_paths"]

logger = logging.getLogger("maverick.agents.git")

#: The id of git's empty tree: the base of a repository that has no commit yet.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

_TIMEOUT_SECONDS = 60

_STATUS_TYPES = {
    "A": ChangeType.ADDED,
    "C": ChangeType.ADDED,
    "D": ChangeType.DELETED,
    "M": ChangeType.MODIFIED,
    "R": ChangeType.RENAMED,
    "T": ChangeType.MODIFIED,
    "U": ChangeType.MODIFIED,
}


class GitError(ConfigError):
    """A git command failed (not a repository, unknown base branch, git missing)."""


def _git(cwd: Path, *args: str) -> str:
    try:
        completed = subprocess.run(
            ["git", "-c", "core.quotepath=false", *args],
            cwd=cwd,
            capture_output=True,
            timeout=_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError as error:
        raise GitError("git is not installed or not on PATH") from error
    if completed.returncode != 0:
        stderr = completed.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)} failed in {str(cwd)!r}: {stderr}", value=str(cwd))
    return completed.stdout.decode("utf-8", "replace")


def _base(cwd: Path) -> str:
    try:
        _git(cwd, "rev-parse", "--verify", "--quiet", "HEAD")
    except GitError:
        _git(cwd, "rev-parse", "--git-dir")  # not a repository at all: raise that
        return EMPTY_TREE
    return "HEAD"


@dataclass
class _Entry:
    change_type: ChangeType
    old_path: str | None = None
    added: int = 0
    removed: int = 0


def _name_status(output: str) -> dict[str, _Entry]:
    entries: dict[str, _Entry] = {}
    tokens = output.split("\0")
    i = 0
    while i < len(tokens) and tokens[i]:
        status = tokens[i]
        kind = _STATUS_TYPES.get(status[0], ChangeType.MODIFIED)
        if status[0] in "RC":
            old, new = tokens[i + 1], tokens[i + 2]
            entries[new] = _Entry(kind, old_path=old if kind is ChangeType.RENAMED else None)
            i += 3
        else:
            entries[tokens[i + 1]] = _Entry(kind)
            i += 2
    return entries


def _numstat(output: str, entries: dict[str, _Entry]) -> None:
    tokens = output.split("\0")
    i = 0
    while i < len(tokens) and tokens[i]:
        added, removed, path = tokens[i].split("\t", 2)
        if path:
            i += 1
        else:  # a rename or copy: the old and the new path follow as their own tokens
            path = tokens[i + 2]
            i += 3
        entry = entries.setdefault(path, _Entry(ChangeType.MODIFIED))
        # Binary files count "-" lines.
        entry.added = int(added) if added.isdigit() else 0
        entry.removed = int(removed) if removed.isdigit() else 0


def _count_lines(path: Path) -> int:
    try:
        data = path.read_bytes()
    except OSError:
        return 0
    if b"\0" in data[:8000]:
        return 0  # binary, as git would say
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def changed_files(cwd: Path) -> tuple[FileChange, ...]:
    """Every file changed in the working tree of ``cwd`` against ``HEAD``, sorted by path.

    Raises `GitError` when ``cwd`` is not inside a git repository.
    """
    base = _base(cwd)
    entries = _name_status(_git(cwd, "diff", base, "--name-status", "-z", "-M"))
    _numstat(_git(cwd, "diff", base, "--numstat", "-z", "-M"), entries)
    top = Path(_git(cwd, "rev-parse", "--show-toplevel").strip())
    untracked = _git(cwd, "ls-files", "--others", "--exclude-standard", "-z", "--full-name")
    for path in filter(None, untracked.split("\0")):
        entries[path] = _Entry(ChangeType.ADDED, added=_count_lines(top / path))
    return tuple(
        FileChange(
            file_path=path,
            change_type=entry.change_type,
            lines_added=entry.added,
            lines_removed=entry.removed,
            old_path=entry.old_path,
        )
        for path, entry in sorted(entries.items())
    )


def changed_paths(cwd: Path) -> tuple[str, ...]:
    """The paths of `changed_files`, or ``()`` (logged) when ``cwd`` is not a git repository."""
    try:
        return tuple(change.file_path for change in changed_files(cwd))
    except GitError as error:
        logger.warning("cannot list changed files: %s", error)
        return ()


def branch_diff(cwd: Path, base_branch: str) -> str:
    """The diff of the current branch since it left ``base_branch`` (``git diff base...HEAD``)."""
    return _git(cwd, "diff", "--no-color", "--no-ext-diff", f"{base_branch}...HEAD")
