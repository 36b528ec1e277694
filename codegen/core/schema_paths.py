"""The schema files of a folder, as every job lists them (sorted, links kept inside, less the
files ``exclude`` leaves out), and their bytes as the records' digests see them. Light on
purpose: a drift check by records lists and digests files and imports nothing more.
"""

from __future__ import annotations

import os
from pathlib import Path

from codegen.core.errors import Location, SchemaError
from codegen.core.exclude import Exclude

__all__ = ["digest_bytes", "excluded_paths", "schema_paths"]


def digest_bytes(data: bytes) -> bytes:
    """A file's bytes as the records' digests see them: CRLF line ends (what a Windows
    checkout writes, ``core.autocrlf``) read as LF, so that the same commit has the same
    records on every machine. Only whitespace between JSON tokens changes: a JSON string
    cannot hold a raw line end."""
    return data.replace(b"\r\n", b"\n")


def excluded_paths(root: Path, exclude: Exclude) -> list[tuple[str, str]]:
    """Each ``*.json`` file below ``root`` that ``exclude`` leaves out (relative POSIX path),
    with the entry that does, sorted."""
    if not exclude:
        return []
    found = ((name, exclude.entry(name)) for name, _ in schema_paths(root))
    return [(name, entry) for name, entry in found if entry is not None]


def schema_paths(root: Path, exclude: Exclude | None = None) -> list[tuple[str, Path]]:
    """Every ``*.json`` file below ``root`` by POSIX path relative to it, sorted, less those
    ``exclude`` leaves out; a folder reached through a symbolic link is not entered, and a
    file that is a link must stay inside ``root`` (:class:`SchemaError`)."""
    found: list[tuple[str, Path]] = []
    resolved: Path | None = None
    pending = [(root, "")] if root.is_dir() else []
    while pending:
        folder, prefix = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir() and not entry.is_symlink():
                    pending.append((Path(entry.path), f"{prefix}{entry.name}/"))
                elif entry.name.endswith(".json") and entry.is_file():
                    path = Path(entry.path)
                    if entry.is_symlink():
                        resolved = resolved or root.resolve()
                        if not path.resolve().is_relative_to(resolved):
                            raise SchemaError(
                                "schema file links outside the schema folder", Location(path)
                            )
                    found.append((prefix + entry.name, path))
    if exclude:
        found = [(name, path) for name, path in found if exclude.entry(name) is None]
    return sorted(found)
