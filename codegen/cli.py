"""The ``maverick-codegen`` command line: parses, then runs the subcommand's module of
:mod:`codegen.commands` (which, with this module, are the only ones that print).

Exit codes: 0 clean, 1 drift or findings, 2 usage or schema errors.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from codegen import __version__
from codegen.core.errors import CodegenError

__all__ = ["main"]

EXIT_ERROR = 2


@dataclass(frozen=True)
class Command:
    """One subcommand: its help line and where its code is: the module of
    :mod:`codegen.commands` that adds its options (``options``) and runs it (``run``, given the
    configuration; ``setup``, without one, which it writes). Imported only when it runs."""

    help: str
    module: str
    options: str
    run: str | None
    setup: str | None = None

    def function(self, name: str) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(
            importlib.import_module(f"codegen.commands.{self.module}"), name
        )
        return found


# One row per subcommand.
COMMANDS: dict[str, Command] = {
    "generate": Command(
        "write the generated code and remove stale generated files (--watch: on every save)",
        "generate",
        "generate_options",
        "run_generate",
    ),
    "check": Command(
        "fail (exit 1) when generated code has drifted from the schemas",
        "check",
        "check_options",
        "run_check",
    ),
    "export": Command(
        "write the schemas for consumers that are not Python (files, bundle, index) to a folder, "
        "and the npm package (--npm)",
        "export",
        "export_options",
        "run_export",
    ),
    "lint": Command(
        "fail (exit 1) when a schema breaks a lint rule; lists every finding",
        "lint",
        "lint_options",
        "run_lint",
    ),
    "format": Command(
        "rewrite schema files in the canonical layout (--check: list them, exit 1)",
        "format",
        "format_options",
        "run_format",
    ),
    "breaking": Command(
        "fail (exit 1) when the schemas changed incompatibly since a git revision",
        "breaking",
        "breaking_options",
        "run_breaking",
    ),
    "changelog": Command(
        "print what changed since a git revision, per contract, and the semver bump it implies",
        "changelog",
        "changelog_options",
        "run_changelog",
    ),
    "rules": Command(
        "list the lint and breaking-change rules", "rules", "rules_options", "run_rules"
    ),
    "init": Command(
        "write a [tool.maverick-codegen] table into pyproject.toml for a folder of schemas",
        "init",
        "init_options",
        None,
        "run_init",
    ),
}


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the options of every subcommand, or of ``only`` (``""``: of none)."""
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
        sub = commands.add_parser(name, help=command.help, description=command.help)
        if only is None or only == name:
            command.function(command.options)(sub)
    return parser


def _named(argv: Sequence[str]) -> str:
    """The subcommand ``argv`` names (its first word that is no option nor the value of
    ``--config``), or ``""``."""
    words = iter(argv)
    for word in words:
        if word == "--":
            after = next(words, "")
            return after if after in COMMANDS else ""
        if not word.startswith("-"):
            return word if word in COMMANDS else ""
        if len(word) > 2 and "--config".startswith(word):  # argparse takes --conf for --config
            next(words, None)
    return ""


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser(_named(argv)).parse_args(argv)
    command = COMMANDS[args.command]
    try:
        try:
            if command.setup is not None:
                exit_code: int = command.function(command.setup)(args, out)
                return exit_code
            assert command.run is not None
            from codegen.core.config import load_config  # noqa: PLC0415

            exit_code = command.function(command.run)(args, load_config(args.config), out)
            return exit_code
        except Exception as exc:
            from codegen.commands.common import DEBUG_VARIABLE, internal_error  # noqa: PLC0415

            if isinstance(exc, CodegenError) or os.environ.get(DEBUG_VARIABLE):
                raise
            raise internal_error(exc, args.command) from exc
    except CodegenError as exc:
        print(exc.describe(), file=sys.stderr)
        return EXIT_ERROR
