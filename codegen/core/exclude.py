"""``[tool.maverick-codegen] exclude``: schema files that every job leaves out.

```toml
[tool.maverick-codegen]
exclude = [
  "schemas/legacy",                  # a folder: every file below it
  "schemas/**/draft3-*.json",        # a glob (gitignore's wildcards, anchored at the project)
  "schemas/broken.json",  # refused: REF_RESOLVES
]
```

Entries are paths or globs relative to the configuration file, inside ``schema_dir``; a path
that names nothing is an error. An excluded file is not read by ``generate``, ``check``,
``export``, ``lint``, ``breaking`` or ``changelog`` (each names the files it leaves out), and a
reference to it is refused with a message naming the entry that excludes it (rule
``REF_EXCLUDED``): the files that reference an excluded file must be excluded too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pathspec import GitIgnoreSpec

__all__ = ["GLOB_CHARS", "Exclude", "pattern_of"]

GLOB_CHARS = frozenset("*?[")


def pattern_of(root: Path, schema_dir: Path, entry: str) -> str | None:
    """``entry`` (a path or glob relative to ``root``) relative to ``schema_dir``, or None when
    it is not below it."""
    folder = Path(os.path.normpath(schema_dir.resolve()))
    target = Path(os.path.normpath(root.resolve() / entry))
    if not target.is_relative_to(folder) or target == folder:
        return None
    return target.relative_to(folder).as_posix()


@dataclass(frozen=True)
class Exclude:
    """The entries as written (``shown``) and as patterns relative to the schema folder."""

    shown: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.patterns)

    @cached_property
    def _spec(self) -> GitIgnoreSpec:
        return GitIgnoreSpec.from_lines(f"/{pattern}" for pattern in self.patterns)

    def entry(self, rel: str) -> str | None:
        """The entry (as written) that leaves out the file at ``rel`` (POSIX, relative to the
        schema folder), or None when it is read."""
        if not self.patterns:
            return None
        result = self._spec.check_file(rel)
        if not result.include or result.index is None:
            return None
        return self.shown[result.index]
