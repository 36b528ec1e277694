"""The ``maverick-codegen`` command line. The only module that prints.

Exit codes: 0 clean, 1 drift or findings, 2 usage or schema errors.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from codegen import __version__
from codegen.changelog_cli import changelog_options, run_changelog
from codegen.core.config import Config, load_config
from codegen.core.errors import CodegenError
from codegen.generate_cli import (
    DEBUG_VARIABLE,
    generate_options,
    internal_error,
    print_excluded,
    print_report,
    run_generate,
)
from codegen.governance_cli import (
    breaking_options,
    format_options,
    lint_options,
    rules_options,
    run_breaking,
    run_format,
    run_lint,
    run_rules,
)
from codegen.init_cli import init_options, run_init
from codegen.npm_cli import npm_option, prepare_npm

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Command:
    """One subcommand: its help line, how it adds its options, and what it runs (``setup``:
    without a configuration, which it writes)."""

    help: str
    run: Callable[[argparse.Namespace, Config, TextIO], int] | None
    options: Callable[[argparse.ArgumentParser], None] = lambda parser: None
    setup: Callable[[argparse.Namespace, TextIO], int] | None = None


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


def _check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="trust no record: regenerate everything in memory and compare",
    )


def _check(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.generate.files import drift  # noqa: PLC0415
    from codegen.generate.files.targets import Disk  # noqa: PLC0415

    disk = Disk()
    excluded = print_excluded(config, out)
    left_out = f"; {excluded} schema files excluded" if excluded else ""
    if not args.no_cache:
        count = drift.verify(config, disk)
        if count is not None:
            print(
                f"generated code is up to date ({count} files, by their records{left_out})",
                file=out,
            )
            return EXIT_OK
    from codegen.generate.plan import build_plan  # noqa: PLC0415

    plan = build_plan(config, reuse=not args.no_cache, disk=disk)
    result = drift.compare(plan.outputs)
    if result.clean:
        count = sum(len(output.files) for output in plan.outputs)
        print(f"generated code is up to date ({count} files{left_out})", file=out)
        return EXIT_OK
    _summary(result, drift.reasons(config, disk), out)
    for path, diff in result.changed.items():
        print(f"changed: {path}" + ("" if diff else " (its records only)"), file=out)
        out.write(diff)
    for path in result.missing:
        print(f"missing: {path}", file=out)
    for path in result.stale:
        print(f"stale: {path} (its schema is gone)", file=out)
    for path in result.foreign:
        print(
            f"hand-written: {path} (the generated folder holds generated files only)",
            file=out,
        )
    print(
        f"generated code has drifted from the schemas; fix it with: {fix_command(args, config)}",
        file=out,
    )
    return EXIT_FINDINGS


def _summary(result: Any, why: list[str], out: TextIO) -> None:
    """What drifted, counted, and why, before any diff."""
    records = sum(1 for diff in result.changed.values() if not diff)
    counts = [
        f"{len(result.changed)} changed"
        + (f" ({records} in their records only)" if records else ""),
        f"{len(result.missing)} missing",
        f"{len(result.stale)} stale",
    ]
    if result.foreign:
        counts.append(f"{len(result.foreign)} hand-written")
    print(f"generated code has drifted: {', '.join(counts)}", file=out)
    for reason in why:
        print(f"  why: {reason}", file=out)


_MAKE_TARGET = re.compile(r"^([^\s:#=][^:#=]*?)\s*::?(?!=)", re.MULTILINE)


def _make_targets(root: Path) -> set[str]:
    """The explicit targets of the Makefile in ``root`` (GNU make's search order), if any."""
    for name in ("GNUmakefile", "makefile", "Makefile"):
        try:
            text = (root / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        return {t for m in _MAKE_TARGET.finditer(text) for t in m.group(1).split()}
    return set()


def fix_command(args: argparse.Namespace, config: Config, command: str = "generate") -> str:
    """The command that regenerates, as it can be run here: ``maverick-codegen generate`` (with
    ``--config`` when it is not the default), and ``make generate`` when the project's Makefile
    has that target."""
    default = args.config == Path("pyproject.toml")
    option = "" if default else f"--config {shlex.quote(str(args.config))} "
    own = f"maverick-codegen {option}{command}"
    if default and command in _make_targets(config.root):
        return f"make {command} (or {own})"
    return own


def _export_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder to write the export to (default: export_dir of [tool.maverick-codegen], "
        "unless only --npm is given)",
    )
    npm_option(parser)


def _export(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.generate.files.targets import export_target  # noqa: PLC0415
    from codegen.generate.files.writer import write_outputs  # noqa: PLC0415
    from codegen.generate.plan import build_plan  # noqa: PLC0415

    # --npm alone writes the package only; otherwise the export goes to --out or export_dir.
    folder = args.out if args.out is not None or args.npm else config.export_dir
    if folder is None and args.npm is None:
        raise CodegenError(
            "export needs --out DIR (or export_dir in [tool.maverick-codegen])", rule="CONFIG"
        )
    mine = folder.resolve() if folder is not None else None
    for name in ("schema_dir", "output_dir"):
        other = getattr(config, name).resolve()
        if mine is not None and (mine.is_relative_to(other) or other.is_relative_to(mine)):
            raise CodegenError(
                f"export folder {folder} and {name} must not be inside one another", rule="CONFIG"
            )
    npm = prepare_npm(args.npm, config, folder) if args.npm is not None else None
    print_excluded(config, out)
    plan = build_plan(config, reuse=True)
    outputs = [plan.npm_to(npm.target)] if npm is not None else []
    if folder is not None:
        outputs.insert(0, plan.export_to(export_target(folder, folder.as_posix())))
    report = write_outputs(outputs)
    print_report(report, out)
    where = " and ".join(str(f) for f in (folder, args.npm) if f is not None)
    print(
        f"exported {len(plan.contracts)} contracts to {where}: {len(report.written)} written, "
        f"{len(report.unchanged)} unchanged, {len(report.removed)} removed",
        file=out,
    )
    if npm is not None:
        print(f"npm package {args.npm}: {npm.version.describe()}", file=out)
    return EXIT_OK


# One row per subcommand; each command's code is imported only when it runs.
COMMANDS: dict[str, Command] = {
    "generate": Command(
        "write the generated code and remove stale generated files (--watch: on every save)",
        run_generate,
        generate_options,
    ),
    "check": Command(
        "fail (exit 1) when generated code has drifted from the schemas", _check, _check_options
    ),
    "export": Command(
        "write the schemas for consumers that are not Python (files, bundle, index) to a folder, "
        "and the npm package (--npm)",
        _export,
        _export_options,
    ),
    "lint": Command(
        "fail (exit 1) when a schema breaks a lint rule; lists every finding",
        run_lint,
        lint_options,
    ),
    "format": Command(
        "rewrite schema files in the canonical layout (--check: list them, exit 1)",
        run_format,
        format_options,
    ),
    "breaking": Command(
        "fail (exit 1) when the schemas changed incompatibly since a git revision",
        run_breaking,
        breaking_options,
    ),
    "changelog": Command(
        "print what changed since a git revision, per contract, and the semver bump it implies",
        run_changelog,
        changelog_options,
    ),
    "rules": Command("list the lint and breaking-change rules", run_rules, rules_options),
    "init": Command(
        "write a [tool.maverick-codegen] table into pyproject.toml for a folder of schemas",
        None,
        init_options,
        run_init,
    ),
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    command = COMMANDS[args.command]
    try:
        try:
            if command.setup is not None:
                return command.setup(args, out)
            assert command.run is not None
            return command.run(args, load_config(args.config), out)
        except Exception as exc:
            if isinstance(exc, CodegenError) or os.environ.get(DEBUG_VARIABLE):
                raise
            raise internal_error(exc, args.command) from exc
    except CodegenError as exc:
        print(exc.describe(), file=sys.stderr)
        return EXIT_ERROR
