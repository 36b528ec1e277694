"""The root folder the tools may read, and nothing outside it or behind the secrets policy.

Every path a caller gives is relative to the root (an absolute path must lie inside it). A
path is refused, with a message naming it as the caller wrote it, when it does not exist,
when it lies outside the root, when a symbolic link on the way leaves the root, or when it
names a file the secrets policy denies (:mod:`maverick.tools.policy`; the path as given and
the path it resolves to are both judged). Walking a folder never follows a link to a folder,
skips a linked file whose target is outside, and never yields a denied file: it counts it in
a :class:`Tally` instead, so a result can say how many files the policy kept from the call.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from maverick.tools.base import Budget
from maverick.tools.policy import SecretsPolicy

__all__ = ["SKIPPED_DIRS", "PathRefused", "SecretRefused", "Tally", "Workspace"]

# Folders no tool looks into: version control, dependencies, caches, virtual environments
# (any folder holding a pyvenv.cfg is one too).
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
     ".mypy_cache", ".ruff_cache", ".pytest_cache", ".terraform"}
)  # fmt: skip

# select(relative path, file name) -> whether the tool wants the file
Select = Callable[[str, str], bool]


_name = attrgetter("name")


class PathRefused(ValueError):
    """A path the tools will not touch; the message says why, for the error result."""


class SecretRefused(PathRefused):
    """A path the secrets policy denies."""


@dataclass
class Tally:
    """The files the secrets policy kept from one call (relative paths; each counted once)."""

    denied: set[str] = field(default_factory=set)

    @property
    def secret_files(self) -> int:
        return len(self.denied)


@dataclass(frozen=True)
class Workspace:
    """The root folder, resolved once at start-up, and the secrets policy."""

    root: Path
    policy: SecretsPolicy = field(default_factory=SecretsPolicy)

    @classmethod
    def at(cls, root: str | os.PathLike[str], policy: SecretsPolicy | None = None) -> Workspace:
        resolved = Path(root).resolve()
        if not resolved.is_dir():
            raise NotADirectoryError(f"root {root} is not a directory")
        return cls(resolved, policy or SecretsPolicy())

    @property
    def prefix(self) -> int:
        """How many characters of an absolute path string name the root and its separator."""
        return len(os.path.join(str(self.root), ""))

    def resolve(self, path: str) -> Path:
        """The real path of ``path`` (relative to the root), inside the root, existing, and
        not a file the secrets policy denies."""
        if not isinstance(path, str) or not path or "\0" in path:
            raise PathRefused(f"Invalid path: {path!r}")
        lexical = Path(os.path.normpath(self.root / path))
        if not lexical.is_relative_to(self.root):
            raise PathRefused(f"Path is outside the root: {path}")
        try:
            real = lexical.resolve(strict=True)
        except FileNotFoundError:
            raise PathRefused(f"Path not found: {path}") from None
        except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long...
            raise PathRefused(f"Path cannot be resolved: {path} ({exc})") from None
        if not real.is_relative_to(self.root):
            raise PathRefused(f"Path is a symbolic link that leaves the root: {path}")
        if not real.is_dir() and self.policy.denies_any(
            self.relative(lexical), self.relative(real)
        ):
            raise SecretRefused(f"Access denied: {path} may hold secrets (secrets policy)")
        return real

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, POSIX style (``"."`` for the root itself)."""
        return path.relative_to(self.root).as_posix() or "."

    def walk(
        self,
        folder: Path | str,
        tally: Tally,
        select: Select | None = None,
        budget: Budget | None = None,
    ) -> Iterator[tuple[str, str]]:
        """``(relative path, path to open)`` of every regular file below ``folder`` (sorted)
        that ``select`` wants and the policy allows; the denied ones go to ``tally``.

        SKIPPED_DIRS and virtual environments are not entered. Links to folders are never
        followed; a linked file is yielded (opened at its target) only when its target is a
        regular file inside the root, and denied when the link or its target is.
        """
        skip = self.prefix
        stack = [str(folder)]
        while stack:
            if budget is not None:
                budget.check()
            try:
                with os.scandir(stack.pop()) as entries:
                    listed = sorted(entries, key=_name)
            except OSError:
                continue
            subdirs: list[str] = []
            found: list[tuple[str, str]] = []  # (relative path, path to open) of wanted files
            judged: list[str] = []  # what the policy judges: each relative path, link targets
            for entry in listed:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in SKIPPED_DIRS and not os.path.exists(
                            os.path.join(entry.path, "pyvenv.cfg")
                        ):
                            subdirs.append(entry.path)
                        continue
                    if entry.is_file(follow_symlinks=False):
                        target = entry.path
                    elif entry.is_symlink():
                        linked = self._link_to_file_inside(entry.path)
                        if linked is None:
                            continue
                        target = linked
                        judged.append(target[skip:])
                    else:
                        continue  # FIFOs, sockets, devices
                except OSError:
                    continue
                rel = entry.path[skip:]
                if select is None or select(rel, entry.name):
                    found.append((rel, target))
                    judged.append(rel)
            denied = self.policy.denied(judged)
            for rel, target in found:
                if denied and (rel in denied or target[skip:] in denied):
                    tally.denied.add(rel)
                else:
                    yield rel, target
            stack.extend(reversed(subdirs))

    def _link_to_file_inside(self, path: str) -> str | None:
        try:
            real = Path(path).resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        return str(real) if real.is_relative_to(self.root) and real.is_file() else None
