"""The root folder the tools may read, and nothing outside it.

Every path a caller gives is relative to the root (an absolute path must lie inside it). A
path is refused, with a message naming it as the caller wrote it, when it does not exist,
when it lies outside the root, or when a symbolic link on the way leaves the root. Walking a
folder never follows a link to a folder, and skips a linked file whose target is outside.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SKIPPED_DIRS", "PathRefused", "Workspace"]

# Folders no tool looks into: version control, dependencies, caches, virtual environments
# (any folder holding a pyvenv.cfg is one too).
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
     ".mypy_cache", ".ruff_cache", ".pytest_cache", ".terraform"}
)  # fmt: skip


class PathRefused(ValueError):
    """A path the tools will not touch; the message says why, for the error result."""


@dataclass(frozen=True)
class Workspace:
    """The root folder, resolved once at start-up."""

    root: Path

    @classmethod
    def at(cls, root: str | os.PathLike[str]) -> Workspace:
        resolved = Path(root).resolve()
        if not resolved.is_dir():
            raise NotADirectoryError(f"root {root} is not a directory")
        return cls(resolved)

    def resolve(self, path: str) -> Path:
        """The real path of ``path`` (relative to the root), inside the root, existing."""
        if not isinstance(path, str) or not path or "\0" in path:
            raise PathRefused(f"Invalid path: {path!r}")
        given = Path(path)
        lexical = Path(os.path.normpath(self.root / given))
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
        return real

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, POSIX style (``"."`` for the root itself)."""
        return path.relative_to(self.root).as_posix() or "."

    def walk(self, folder: Path) -> Iterator[Path]:
        """Every regular file below ``folder`` (sorted), skipping SKIPPED_DIRS and venvs.

        Links to folders are never followed; a linked file is yielded only when its target
        is a regular file inside the root.
        """
        return map(Path, self.walk_paths(str(folder)))

    def walk_paths(self, folder: str) -> Iterator[str]:
        """:meth:`walk` as plain strings: what the search's hot loop wants (no pathlib)."""
        stack = [folder]
        while stack:
            current = stack.pop()
            try:
                with os.scandir(current) as entries:
                    listed = sorted(entries, key=lambda e: e.name)
            except OSError:
                continue
            subdirs = []
            for entry in listed:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in SKIPPED_DIRS and not os.path.exists(
                            os.path.join(entry.path, "pyvenv.cfg")
                        ):
                            subdirs.append(entry.path)
                    elif entry.is_file(follow_symlinks=False) or (
                        entry.is_symlink() and self._link_to_file_inside(entry.path)
                    ):
                        yield entry.path
                except OSError:
                    continue
            stack.extend(reversed(subdirs))

    def _link_to_file_inside(self, path: str) -> bool:
        try:
            real = Path(path).resolve(strict=True)
        except (OSError, RuntimeError):
            return False
        return real.is_relative_to(self.root) and real.is_file()
