"""What several subcommands share: exit codes, the options ``--format`` and ``--against``,
the lines naming excluded files and written files, the command that regenerates, and the
error an unexpected exception becomes.
"""

from __future__ import annotations

import argparse
import re
import shlex
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location

if TYPE_CHECKING:
    from codegen.generate.files.writer import WriteReport
from typing import TYPE_CHECKING

from codegen.core.report import FORMATS

__all__ = [
    "DEBUG_VARIABLE",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "against_option",
    "fix_command",
    "format_option",
    "internal_error",
    "print_excluded",
    "print_report",
]


EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


DEBUG_VARIABLE = "MAVERICK_CODEGEN_DEBUG"


def internal_error(exc: Exception, command: str) -> CodegenError:
    """An exception no check of the generator expected (a bug of maverick-codegen, or of a
    tool it runs), as an error naming the schema file it was working on: the innermost frame
    of the traceback that holds a schema file (or a contract) names it; the traceback itself
    is printed only with ``MAVERICK_CODEGEN_DEBUG=1``. An :class:`OSError` is said as it is
    (a generation is written all or nothing: the previous one is still there)."""
    from codegen.core.loader import SchemaFile  # noqa: PLC0415
    from codegen.core.resolve import Source  # noqa: PLC0415

    if isinstance(exc, OSError):  # the machine's answer (a full disk, a permission), not a bug
        return CodegenError(f"{command} stopped: {exc}", None, "OS")
    frames = list(traceback.walk_tb(exc.__traceback__))
    found: Path | None = None
    for frame, _ in reversed(frames):
        for value in frame.f_locals.values():
            held = getattr(value, "schema", value)
            if isinstance(held, SchemaFile | Source) and not getattr(held, "external", False):
                found = held.path
                break
        if found is not None:
            break
    where = ""
    if frames:
        code, line = frames[-1][0].f_code, frames[-1][1]
        where = f" ({Path(code.co_filename).name}:{line} in {code.co_name})"
    subject = f"in {command}, reading {found}" if found else f"in {command}"
    return CodegenError(
        f"internal error {subject}: {type(exc).__name__}: {exc}{where}. This is a bug of "
        "maverick-codegen, not a problem of the schema: please report it with the file; "
        f"meanwhile, [tool.maverick-codegen] exclude can leave the file out ({DEBUG_VARIABLE}=1 "
        "prints the traceback)",
        Location(found) if found else None,
        "INTERNAL",
    )


def print_excluded(config: Config, out: TextIO) -> int:
    """Name each schema file ``[tool.maverick-codegen] exclude`` leaves out (and the entry
    that does, when it is not the file's own path); returns how many."""
    from codegen.core.schema_paths import excluded_paths  # noqa: PLC0415

    found = excluded_paths(config.schema_dir, config.loading.exclude)
    for name, entry in found:
        shown = f"{config.shown_schema_dir}/{name}"
        by = "" if entry == shown else f" (by {entry!r})"
        print(f"excluded: {shown}{by}", file=out)
    return len(found)


def print_report(report: WriteReport, out: TextIO) -> None:
    for path in report.written:
        print(f"wrote {path}", file=out)
    for path in report.removed:
        print(f"removed stale {path}", file=out)


def format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="text (path:line:col: message (RULE_ID)), json, or github (Actions annotations)",
    )


def against_option(parser: argparse.ArgumentParser) -> None:
    """``--against REF``: the git revision ``breaking`` and ``changelog`` compare with."""
    parser.add_argument(
        "--against",
        metavar="REF",
        help="git revision to compare with, e.g. HEAD~1, main, v1.4.2 or '.git#branch=main' "
        "(default: the upstream branch if one is configured, else HEAD)",
    )


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
