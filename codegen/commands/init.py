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
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import TextIO

from codegen.commands.init_exclude import excluding_refused, update_exclude, write_checked
from codegen.core.config_tables import TABLE
from codegen.core.drafts import DEFAULT_DRAFT, DRAFTS, draft_of
from codegen.core.errors import CodegenError, Location, SchemaError
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
        return update_exclude(config, text, out)
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
        written, report = excluding_refused(config, written)
    table = written[len(before) :]
    write_checked(config, written)
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
