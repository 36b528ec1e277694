"""``init --exclude-refused``: the ``exclude`` list of ``[tool.maverick-codegen]`` written from what
a generation refuses today, each entry marked ``# refused: RULE, ...``; the user's entries kept as
written. The file is written whole or not at all, once the configuration it would hold loads.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from codegen.core.config import load_config
from codegen.core.config_tables import TABLE
from codegen.core.errors import CodegenError
from codegen.core.exclude import Exclude

__all__ = ["excluding_refused", "update_exclude", "write_checked"]


def _staged(config: Path, text: str) -> Path:
    """``text`` in a new file beside ``config`` (its relative paths read the same there)."""
    mode = config.stat().st_mode & 0o777 if config.exists() else 0o644
    handle, staged = tempfile.mkstemp(dir=config.parent, prefix=".pyproject.", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(staged, mode)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise
    return config.parent / Path(staged).name  # as relative as ``config``, for messages


def write_checked(config: Path, text: str) -> None:
    """Write ``config`` with ``text`` once the configuration it holds loads, atomically."""
    staged = _staged(config, text)
    try:
        load_config(staged)
        os.replace(staged, config)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


_MARK = "# refused"


# A table header (``[a.b]``, ``[[a]]``, quoted keys): not a line of an array of arrays.
_HEADER_LINE = re.compile(r"""^\s*\[\[?\s*[\w.\-"' ]+\s*\]\]?\s*(#.*)?$""")


_OWN_HEADER = re.compile(r"""^\s*\[\s*tool\s*\.\s*("maverick-codegen"|maverick-codegen)\s*\]""")


_EXCLUDE_KEY = re.compile(r"""^\s*("exclude"|exclude)\s*=""")


_MARKED = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*,?\s*# refused\b""")


_EXCLUDE_COMMENT = (
    "# Schema files no job reads (paths or globs, relative to this file). Those marked\n"
    "# refused are what generate refuses: maverick-codegen init --exclude-refused finds\n"
    "# them again (a file fixed since leaves the list); the other entries are kept as written.\n"
)


@dataclass(frozen=True)
class _Report:
    """What ``--exclude-refused`` found: the files read, the refused ones with their reasons,
    the user's entries kept, and the marked entries no longer refused."""

    total: int
    refused: dict[PurePosixPath, list[CodegenError]]
    kept: tuple[str, ...]
    fixed: tuple[str, ...]
    shown: str
    exclude: Exclude

    def show(self, config: Path, out: TextIO) -> None:
        for reasons in self.refused.values():
            for error in reasons:
                print(error.describe(), file=out)
        count = len(self.refused)
        own = len(self.kept)
        kept = f", and keeps your {own} entries" if own > 1 else ", and keeps your entry"
        kept = kept if own else ""
        fixed = (
            f"; no longer refused, so taken out of it: {', '.join(self.fixed)}"
            if self.fixed
            else ""
        )
        verb, them = ("is", "it") if count == 1 else ("are", "them")
        rest = self.total - count
        print(
            f"{count} of {self.total} schema files in {self.shown}/ {verb} refused today "
            f"(reasons above): [{TABLE}] exclude in {config.name} lists {them}, marked "
            f"{_MARK!r}{kept}{fixed}. Next: maverick-codegen generate (the other {rest} "
            f"file{'' if rest == 1 else 's'})",
            file=out,
        )


def _span(lines: list[str]) -> tuple[int, int, tuple[int, int] | None]:
    """The body of ``[tool.maverick-codegen]`` in ``lines`` (first and past-the-last line)
    and, when it has one, the lines of its ``exclude`` value (first and past-the-last)."""
    start = next((i for i, line in enumerate(lines) if _OWN_HEADER.match(line)), None)
    if start is None:
        raise CodegenError(
            f"init --exclude-refused edits a [{TABLE}] table written with that header; add "
            "exclude to yours by hand",
            rule="CONFIG",
        )
    end = next(
        (i for i in range(start + 1, len(lines)) if _HEADER_LINE.match(lines[i])), len(lines)
    )
    for first in range(start + 1, end):
        if not _EXCLUDE_KEY.match(lines[first]):
            continue
        for last in range(first + 1, end + 1):  # the value ends where it first parses
            try:
                tomllib.loads("\n".join(lines[first:last]))
            except tomllib.TOMLDecodeError:
                continue
            return start + 1, end, (first, last)
    return start + 1, end, None


def _entry_line(entry: str, rules: str = "") -> str:
    comment = f"  {_MARK}: {rules}" if rules else ""
    return f"  {json.dumps(entry, ensure_ascii=False)},{comment}"


def _with_exclude(text: str, marked: list[tuple[str, str]]) -> tuple[str, list[str], list[str]]:
    """``text`` whose ``[tool.maverick-codegen] exclude`` holds the user's entries as written
    and ``marked`` (entry, rules), replacing the marked ones it held; the user's entries and
    the marked entries it held."""
    lines = text.split("\n")
    body, end, found = _span(lines)
    new = [_entry_line(entry, rules) for entry, rules in marked]
    if found is None:
        if not marked:
            return text, [], []
        last = max((i for i in range(body, end) if lines[i].strip()
                    and not lines[i].lstrip().startswith("#")), default=body - 1)  # fmt: skip
        block = [*_EXCLUDE_COMMENT.rstrip("\n").split("\n"), "exclude = [", *new, "]"]
        if lines[last].strip():
            block.insert(0, "")
        if last + 1 < len(lines) and lines[last + 1].strip():
            block.append("")
        return "\n".join([*lines[: last + 1], *block, *lines[last + 1 :]]), [], []
    first, last = found
    value = tomllib.loads("\n".join(lines[first:last])).get("exclude")
    entries = [e for e in value if isinstance(e, str)] if isinstance(value, list) else []
    held = [tomllib.loads(f"v = {m[1]}")["v"] for m in map(_MARKED.match, lines[first:last]) if m]
    kept = list(entries)
    for entry in held:
        if entry in kept:
            kept.remove(entry)
    inner = lines[first + 1 : last - 1]
    if lines[first].strip().endswith("[") and lines[last - 1].strip() == "]":
        own = [line for line in inner if not _MARKED.match(line)]  # the user's lines, as written
    else:  # written on one line (or some other way): one entry a line
        own = [_entry_line(entry) for entry in kept]
    block = [lines[first].split("=", 1)[0].rstrip() + " = [", *own, *new, "]"]
    return "\n".join([*lines[:first], *block, *lines[last:]]), kept, held


def _refused_entries(config_path: Path, text: str) -> _Report:
    """Today's refusals of the project ``text`` configures (the file's other exclusions
    applied: the caller has taken out the marked ones)."""
    from codegen.generate.refusals import find_refusals  # noqa: PLC0415 (a heavy import)

    staged = _staged(config_path, text)
    try:
        config = load_config(staged)
        total, refused = find_refusals(config)
    finally:
        staged.unlink(missing_ok=True)
    return _Report(total, refused, (), (), config.shown_schema_dir, config.loading.exclude)


def excluding_refused(config_path: Path, text: str) -> tuple[str, _Report]:
    """``text`` with ``exclude`` holding today's refusals (and the user's entries)."""
    cleared, kept, held = _with_exclude(text, [])
    report = _refused_entries(config_path, cleared)
    marked = [
        (f"{report.shown}/{rel}", ", ".join(sorted({e.rule for e in reasons if e.rule})))
        for rel, reasons in report.refused.items()
    ]
    written, _, _ = _with_exclude(cleared, marked)
    wanted = [*kept, *(entry for entry, _ in marked)]
    table = tomllib.loads(written).get("tool", {}).get("maverick-codegen", {})
    if table.get("exclude", []) != wanted:  # the edit must say what it means
        raise CodegenError(
            f"init --exclude-refused could not write exclude in {config_path.name}; write it by "
            f"hand: exclude = {json.dumps(wanted)}",
            rule="CONFIG",
        )
    left = {m for m, _ in marked}
    fixed = tuple(  # not refused now, nor left out by the user's entries
        e for e in held if e not in left and report.exclude.entry(_below(e, report.shown)) is None
    )
    return written, dataclasses.replace(report, kept=tuple(kept), fixed=fixed)


def _below(entry: str, folder: str) -> str:
    """``entry`` (a path relative to the configuration) relative to the schema folder."""
    return entry.removeprefix(f"{folder}/")


def update_exclude(config: Path, text: str, out: TextIO) -> int:
    written, report = excluding_refused(config, text)
    if written != text:
        write_checked(config, written)
    report.show(config, out)
    return 0
