"""Write a plan to disk atomically and remove stale generated files.

Every file is first written to a temporary file beside its target; only when all of them
are written are they renamed into place. A failure before that point removes the temporary
files and leaves the previous generation untouched. Only files that carry our header are
ever replaced or deleted.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codegen.errors import CodegenError, Location
from codegen.plan import is_generated

__all__ = ["WriteReport", "generated_on_disk", "write_files"]


@dataclass(frozen=True)
class WriteReport:
    """What a write changed, by path relative to the output folder."""

    written: tuple[PurePosixPath, ...]
    unchanged: tuple[PurePosixPath, ...]
    removed: tuple[PurePosixPath, ...]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def generated_on_disk(output_dir: Path) -> dict[PurePosixPath, str]:
    """Every ``*.py`` file below ``output_dir`` with its text (generated or not)."""
    if not output_dir.is_dir():
        return {}
    found = {}
    for path in sorted(output_dir.rglob("*.py")):
        text = _read(path)
        if text is not None:
            found[PurePosixPath(path.relative_to(output_dir).as_posix())] = text
    return found


def _target(output_dir: Path, rel: PurePosixPath) -> Path:
    target = output_dir / rel
    if (
        rel.is_absolute()
        or ".." in rel.parts
        or not target.resolve().is_relative_to(output_dir.resolve())
    ):
        raise CodegenError(f"output path {rel} escapes {output_dir}", Location(output_dir))
    return target


def write_files(output_dir: Path, files: Mapping[PurePosixPath, str]) -> WriteReport:
    """Make ``output_dir`` hold exactly ``files`` among its generated files."""
    on_disk = generated_on_disk(output_dir)
    changed = {rel: text for rel, text in files.items() if on_disk.get(rel) != text}
    for rel in changed:
        existing = on_disk.get(rel)
        if existing is not None and not is_generated(existing):
            raise CodegenError(
                f"refusing to overwrite {output_dir / rel}: it is not a generated file "
                "(no maverick-codegen header); move it out of the generated folder",
                Location(output_dir / rel),
                "HAND_WRITTEN",
            )
    staged: list[tuple[Path, Path]] = []
    try:
        for rel, text in sorted(changed.items()):
            target = _target(output_dir, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            staged.append((Path(name), target))
            try:
                handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            except BaseException:
                os.close(fd)
                raise
            with handle:
                handle.write(text)
    except BaseException:
        for staged_file, _ in staged:
            staged_file.unlink(missing_ok=True)
        raise
    for staged_file, target in staged:
        os.replace(staged_file, target)
    stale = sorted(rel for rel, text in on_disk.items() if rel not in files and is_generated(text))
    for rel in stale:
        (output_dir / rel).unlink()
    _remove_empty_folders(output_dir)
    return WriteReport(
        written=tuple(sorted(changed)),
        unchanged=tuple(sorted(set(files) - set(changed))),
        removed=tuple(stale),
    )


def _remove_empty_folders(output_dir: Path) -> None:
    for folder in sorted((p for p in output_dir.rglob("*") if p.is_dir()), reverse=True):
        leftovers = [p for p in folder.iterdir() if p.name != "__pycache__"]
        if not leftovers:
            for cache in folder.glob("__pycache__"):
                for item in cache.iterdir():
                    item.unlink()
                cache.rmdir()
            folder.rmdir()
