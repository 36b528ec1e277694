"""``maverick-codegen init [SCHEMA_DIR]``: a ``[tool.maverick-codegen]`` table for a folder of
schemas that exist already, written into ``pyproject.toml``.

It runs without a configuration (it writes one). What it writes: ``schema_dir``; ``output_dir``
and ``package`` named after the project (``[project] name``, else the folder of
``pyproject.toml``); ``default_draft``, the draft most files name by ``$schema`` (2020-12 when
none does), for the files without one; and a lint selection without this repository's house
rules (``use = ["DEFAULT"]``). It never changes an existing table: a ``pyproject.toml`` that has
one is refused, with where it is. The file is written whole or not at all, and only once the
configuration it would hold loads.

A file that is no readable JSON object is not counted, and named (``generate`` refuses it).
``--exclude-refused`` adds ``exclude``: every schema file a generation refuses today (the
checks a generation makes before it generates: files that cannot be read, references that
name nothing, an ``$id`` another file has, what no model can decide, and the files that
reference one of those), each line marked ``# refused: RULE, ...``. On a project that has a
table already it changes that list only: the marked entries are found again (a file fixed
since leaves the list), the others are the user's and stay as written; run again, it writes
the same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import tempfile
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from codegen.core.config import TABLE, load_config
from codegen.core.drafts import DEFAULT_DRAFT, DRAFTS, draft_of
from codegen.core.errors import CodegenError, Location, SchemaError
from codegen.core.exclude import Exclude
from codegen.core.jsonparse import parse_schema
from codegen.core.loader import schema_paths

__all__ = ["init_options", "run_init"]


def init_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "schema_dir",
        nargs="?",
        type=Path,
        default=None,
        metavar="SCHEMA_DIR",
        help="the folder of schema files (default: schemas), inside the project of --config",
    )
    parser.add_argument(
        "--exclude-refused",
        action="store_true",
        help="write [tool.maverick-codegen] exclude: the schema files generate refuses today, "
        "each marked '# refused'; where the table exists, update only that list (again after "
        "fixing files: a fixed file leaves it)",
    )


def _existing_table(path: Path, text: str) -> Location | None:
    """Where ``[tool.maverick-codegen]`` (or one of its tables) is written in ``text``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CodegenError(
            f"malformed TOML: {exc}; init adds to a pyproject.toml it can read", Location(path)
        ) from None
    tool = data.get("tool")
    if not isinstance(tool, dict) or "maverick-codegen" not in tool:
        return None
    header = re.compile(r"^\s*\[\s*tool\s*\.\s*(\"maverick-codegen\"|maverick-codegen)\b")
    for number, line in enumerate(text.splitlines(), 1):
        if header.match(line) or line.lstrip().startswith("tool.maverick-codegen"):
            return Location(path, number, len(line) - len(line.lstrip()) + 1)
    return Location(path)


def _package(root: Path, text: str) -> str:
    """The project's name as a Python package name, with ``_contracts``: ``my-shop`` ->
    ``my_shop_contracts``."""
    name = ""
    with contextlib.suppress(tomllib.TOMLDecodeError):
        project = tomllib.loads(text).get("project")
        if isinstance(project, dict) and isinstance(project.get("name"), str):
            name = project["name"]
    name = name or root.resolve().name
    stem = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")
    if not stem or stem[0].isdigit():
        stem = f"p_{stem}" if stem else "schema"
    return f"{stem}_contracts"


def _census(schema_dir: Path) -> tuple[int, Counter[str], int, int, list[CodegenError]]:
    """How many files, how many name each draft, how many name none, how many no ``$id``, and
    why each file that is no readable JSON object cannot be read (it is not counted)."""
    files = schema_paths(schema_dir)
    if not files:
        raise CodegenError(f"no *.json schema files below {schema_dir}", Location(schema_dir))
    drafts: Counter[str] = Counter()
    unnamed = without_id = 0
    unreadable: list[CodegenError] = []
    for _, path in files:
        try:
            _, data = parse_schema(path, path.read_bytes())
            if not isinstance(data, dict):
                raise SchemaError("a schema file must hold a JSON object", Location(path), "JSON")
        except SchemaError as exc:
            unreadable.append(exc)
            continue
        try:
            draft = draft_of(data, DEFAULT_DRAFT)
        except ValueError:
            draft = None
        if "$schema" not in data:
            unnamed += 1
        elif draft is not None:
            drafts[draft.name] += 1
        if not isinstance(data.get("$id", data.get("id")), str):
            without_id += 1
    return len(files) - len(unreadable), drafts, unnamed, without_id, unreadable


def _table(schema_dir: str, output_dir: str, package: str, draft: str, why: str) -> str:
    return (
        f"[tool.maverick-codegen]\n"
        f'schema_dir = "{schema_dir}"\n'
        f'output_dir = "{output_dir}"\n'
        f'package = "{package}"\n'
        f"# {why}\n"
        f'default_draft = "{draft}"\n'
        f"\n"
        f"# Every lint rule but maverick-contracts' house conventions (HOUSE: $schema 2020-12,\n"
        f"# $id mirroring the path, class-name titles, snake_case file names, descriptions,\n"
        f'# examples, the canonical layout); use = ["DEFAULT", "HOUSE"] turns them on too.\n'
        f"[tool.maverick-codegen.lint]\n"
        f'use = ["DEFAULT"]\n'
    )


def run_init(args: argparse.Namespace, out: TextIO) -> int:
    config: Path = args.config
    root = config.parent
    text = config.read_text(encoding="utf-8") if config.exists() else ""
    where = _existing_table(config, text)
    if where is not None and args.exclude_refused:
        return _update_exclude(config, text, out)
    if where is not None:
        raise CodegenError(
            f"{config.name} already has a [{TABLE}] table: init writes a new one only, and never "
            "changes one but for init --exclude-refused, which updates its exclude list; edit "
            "it (docs/configuration.md of maverick-contracts lists every key), or remove it and "
            "run init again",
            where,
            "CONFIG",
        )
    schema_dir: Path = args.schema_dir or Path("schemas")
    if not schema_dir.is_dir():
        raise CodegenError(f"schema folder {schema_dir} does not exist", Location(schema_dir))
    if not schema_dir.resolve().is_relative_to(root.resolve()):
        raise CodegenError(
            f"schema folder {schema_dir} is outside the project of {config}", Location(schema_dir)
        )
    relative = schema_dir.resolve().relative_to(root.resolve()).as_posix()
    if relative == ".":
        raise CodegenError(
            "init needs the schema files in a folder of their own, below the project",
            Location(schema_dir),
        )
    count, drafts, unnamed, without_id, unreadable = _census(schema_dir)
    # The draft most files name; among equals, the newest.
    order = [d.name for d in DRAFTS]
    named = max(drafts, key=lambda name: (drafts[name], order.index(name)), default=None)
    draft = named or DEFAULT_DRAFT.name
    why = (
        f"the draft of {drafts[named]} of the {count} files ($schema): files without one are "
        "read as this draft"
        if named
        else "no file names its draft ($schema): they are read as this one"
    )
    package = _package(root, text)
    output_dir = f"src/{package}" if (root / "src").is_dir() else package
    before = text.rstrip("\n") + "\n\n" if text.strip() else ""
    written = before + _table(relative, output_dir, package, draft, why)
    report = None
    if args.exclude_refused:
        written, report = _excluding_refused(config, written)
    table = written[len(before) :]
    _write_checked(config, written)
    told = ", ".join(
        [f"{drafts[name]} {name}" for name in order if drafts[name]]
        + ([f"{unnamed} without $schema"] if unnamed else [])
    )
    print(f"wrote [{TABLE}] to {config}:\n", file=out)
    out.write(table)
    after = (
        ""
        if report is not None
        else " Next: maverick-codegen lint (--baseline FILE records today's findings, so that "
        "only new ones fail), then maverick-codegen generate."
    )
    if unreadable and report is None:
        out.write("\n")
        for error in unreadable:
            print(error.describe(), file=out)
        after = (
            f" {len(unreadable)} cannot be read (above): generate refuses them until they are "
            "fixed or left out (init --exclude-refused lists every file generate refuses in "
            "[tool.maverick-codegen] exclude)." + after
        )
    print(
        f"\n{count} schema files in {relative}/ ({told}); {without_id} without $id, known by "
        f"their path.{after}",
        file=out,
    )
    if report is not None:
        out.write("\n")
        report.show(config, out)
    return 0


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


def _write_checked(config: Path, text: str) -> None:
    """Write ``config`` with ``text`` once the configuration it holds loads, atomically."""
    staged = _staged(config, text)
    try:
        load_config(staged)
        os.replace(staged, config)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


# -- exclude, from today's refusals -----------------------------------------------------------

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


def _excluding_refused(config_path: Path, text: str) -> tuple[str, _Report]:
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


def _update_exclude(config: Path, text: str, out: TextIO) -> int:
    written, report = _excluding_refused(config, text)
    if written != text:
        _write_checked(config, written)
    report.show(config, out)
    return 0
