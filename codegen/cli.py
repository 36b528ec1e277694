"""The ``maverick-codegen`` command line. The only module that prints.

Exit codes: 0 clean, 1 drift or findings, 2 usage or schema errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from codegen import __version__
from codegen.config import Config, load_config
from codegen.errors import CodegenError

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: its help line, how it adds its options, and what it runs."""

    help: str
    run: Callable[[argparse.Namespace, Config, TextIO], int]
    options: Callable[[argparse.ArgumentParser], None] = lambda parser: None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="maverick-codegen",
        description="Generate Pydantic v2 contracts and their registry from JSON Schema files.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--config",
        type=Path,
        default=Path("pyproject.toml"),
        help="pyproject.toml holding [tool.maverick-codegen] (default: ./pyproject.toml)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        command.options(commands.add_parser(name, help=command.help, description=command.help))
    return parser


def _generate(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.plan import build_plan  # noqa: PLC0415
    from codegen.writer import write_files  # noqa: PLC0415

    plan = build_plan(config)
    report = write_files(config.output_dir, plan.files)
    shown = config.display(config.output_dir)
    for rel in report.written:
        print(f"wrote {shown}/{rel}", file=out)
    for rel in report.removed:
        print(f"removed stale {shown}/{rel}", file=out)
    print(
        f"{len(plan.contracts)} contracts: {len(report.written)} written, "
        f"{len(report.unchanged)} unchanged, {len(report.removed)} removed",
        file=out,
    )
    return EXIT_OK


def _check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-cache", action="store_true", help="always regenerate in memory and compare"
    )


def _check(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen import drift  # noqa: PLC0415

    key = drift.fast_check_key(config)
    stamp = drift.read_stamp(config)
    if (
        not args.no_cache
        and stamp.get("inputs") == key
        and stamp.get("outputs") == drift.outputs_digest(config.output_dir)
    ):
        print("generated code is up to date (inputs and outputs unchanged)", file=out)
        return EXIT_OK
    from codegen.plan import build_plan  # noqa: PLC0415

    plan = build_plan(config)
    shown = config.display(config.output_dir)
    result = drift.compare(config.output_dir, plan.files, shown)
    if result.clean:
        drift.write_stamp(
            config, {"inputs": key, "outputs": drift.outputs_digest(config.output_dir)}
        )
        print(f"generated code is up to date ({len(plan.files)} files)", file=out)
        return EXIT_OK
    for rel, diff in result.changed.items():
        print(f"changed: {shown}/{rel}", file=out)
        out.write(diff)
    for rel in result.missing:
        print(f"missing: {shown}/{rel}", file=out)
    for rel in result.stale:
        print(f"stale: {shown}/{rel} (its schema is gone)", file=out)
    for rel in result.foreign:
        print(
            f"hand-written: {shown}/{rel} (the generated folder holds generated code only)",
            file=out,
        )
    print("generated code has drifted from the schemas; fix it with: make generate", file=out)
    return EXIT_FINDINGS


# One row per subcommand; each command's code is imported only when it runs.
COMMANDS: dict[str, Command] = {
    "generate": Command("write the generated code and remove stale generated files", _generate),
    "check": Command(
        "fail (exit 1) when generated code has drifted from the schemas", _check, _check_options
    ),
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        config = load_config(args.config)
        return COMMANDS[args.command].run(args, config, out)
    except CodegenError as exc:
        print(f"error: {exc}" if exc.location is None else str(exc), file=sys.stderr)
        return EXIT_ERROR
