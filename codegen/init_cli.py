"""``maverick-codegen init [SCHEMA_DIR]``: a ``[tool.maverick-codegen]`` table for a folder of
schemas that exist already, written into ``pyproject.toml``.

It runs without a configuration (it writes one). What it writes: ``schema_dir``; ``output_dir``
and ``package`` named after the project (``[project] name``, else the folder of
``pyproject.toml``); ``default_draft``, the draft most files name by ``$schema`` (2020-12 when
none does), for the files without one; and a lint selection without this repository's house
rules (``use = ["DEFAULT"]``). It never changes an existing table: a ``pyproject.toml`` that has
one is refused, with where it is. The file is written whole or not at all, and only once the
configuration it would hold loads.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import tempfile
import tomllib
from collections import Counter
from pathlib import Path
from typing import TextIO

from codegen.core.config import TABLE, load_config
from codegen.core.drafts import DEFAULT_DRAFT, DRAFTS, draft_of
from codegen.core.errors import CodegenError, Location
from codegen.core.jsonparse import parse_schema
from codegen.core.loader import schema_paths

__all__ = ["init_options", "run_init"]


def init_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "schema_dir",
        nargs="?",
        type=Path,
        default=Path("schemas"),
        metavar="SCHEMA_DIR",
        help="the folder of schema files (default: schemas), inside the project of --config",
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


def _census(schema_dir: Path) -> tuple[int, Counter[str], int, int]:
    """How many files, how many name each draft, how many name none, how many no ``$id``."""
    files = schema_paths(schema_dir)
    if not files:
        raise CodegenError(f"no *.json schema files below {schema_dir}", Location(schema_dir))
    drafts: Counter[str] = Counter()
    unnamed = without_id = 0
    for _, path in files:
        _, data = parse_schema(path, path.read_bytes())
        if not isinstance(data, dict):
            raise CodegenError("a schema file must hold a JSON object", Location(path), "JSON")
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
    return len(files), drafts, unnamed, without_id


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
    if where is not None:
        raise CodegenError(
            f"{config.name} already has a [{TABLE}] table: init writes a new one only, and never "
            "changes one; edit it (docs/configuration.md of maverick-contracts lists every key), "
            "or remove it and run init again",
            where,
            "CONFIG",
        )
    schema_dir: Path = args.schema_dir
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
    count, drafts, unnamed, without_id = _census(schema_dir)
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
    table = _table(relative, output_dir, package, draft, why)
    written = (text.rstrip("\n") + "\n\n" if text.strip() else "") + table
    _write_checked(config, written)
    told = ", ".join(
        [f"{drafts[name]} {name}" for name in order if drafts[name]]
        + ([f"{unnamed} without $schema"] if unnamed else [])
    )
    print(f"wrote [{TABLE}] to {config}:\n", file=out)
    out.write(table)
    print(
        f"\n{count} schema files in {relative}/ ({told}); {without_id} without $id, known by "
        f"their path. Next: maverick-codegen lint (--baseline FILE records today's findings, so "
        f"that only new ones fail), then maverick-codegen generate.",
        file=out,
    )
    return 0


def _write_checked(config: Path, text: str) -> None:
    """Write ``config`` with ``text`` once the configuration it holds loads, atomically."""
    mode = config.stat().st_mode & 0o777 if config.exists() else 0o644
    handle, staged = tempfile.mkstemp(dir=config.parent, prefix=".pyproject.", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(staged, mode)
        load_config(Path(staged))
        os.replace(staged, config)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise
