"""The ``format`` subcommand: schema files rewritten in the canonical layout (``--check``: listed,
exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from codegen.commands.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location

__all__ = ["format_options", "run_format"]


def format_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing: list the files that are not in the canonical layout (exit 1)",
    )
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="FILES",
        help="schema files or folders inside schema_dir (default: every *.json in schema_dir)",
    )


def _format_targets(config: Config, given: list[Path]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The schema files to format: ``given`` (files, or folders searched) or all of them; and
    the files of the folders searched that ``exclude`` leaves out, with the entry that does."""
    schema_dir = config.schema_dir.resolve()
    found: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    exclude = config.loading.exclude
    for path in given or [config.schema_dir]:
        if not path.exists():
            raise CodegenError(f"no such file or folder: {path}", Location(path), "FORMAT_INPUT")
        if not path.is_dir():
            found.append(path)
            continue
        for file in sorted(path.rglob("*.json")):  # less the files exclude leaves out
            inside = file.resolve().is_relative_to(schema_dir)
            entry = (
                exclude.entry(file.resolve().relative_to(schema_dir).as_posix()) if inside else None
            )
            if entry is None:
                found.append(file)
            else:
                skipped.append((file, entry))
    for path in found:  # a file named, or a link found, may lead elsewhere
        if not path.resolve().is_relative_to(schema_dir):
            raise CodegenError(
                f"{path} is not inside the schema folder {config.display(config.schema_dir)}",
                Location(path),
                "FORMAT_INPUT",
            )
    return list(dict.fromkeys(found)), skipped


def _count(files: int) -> str:
    return f"{files} file" if files == 1 else f"{files} files"


def run_format(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.lint.formatter import format_file  # noqa: PLC0415

    changed, unchanged, errors = [], 0, 0
    targets, skipped = _format_targets(config, args.files)
    for path, entry in skipped:
        shown = config.display(path)
        print(f"excluded: {shown}" + ("" if entry == shown else f" (by {entry!r})"), file=out)
    for path in targets:
        try:
            result = format_file(path, write=not args.check)
        except CodegenError as exc:
            print(str(exc), file=sys.stderr)
            errors += 1
            continue
        if result.changed:
            changed.append(path)
            print(
                f"{'would reformat' if args.check else 'reformatted'} {config.display(path)}",
                file=out,
            )
        else:
            unchanged += 1
    verb = "would be reformatted" if args.check else "reformatted"
    print(
        f"{_count(len(changed))} {verb}, {unchanged} already formatted"
        + (f", {errors} refused" if errors else ""),
        file=out,
    )
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if args.check and changed else EXIT_OK
