"""The ``changelog`` subcommand: what changed since a git revision, and the semver bump.

The core is :func:`codegen.breaking.changelog.changelog`; this module reads the previous
schemas at the revision (:mod:`codegen.breaking.gitref`, which raises clean errors), renders
the changelog as Markdown or JSON and prints it. Exit 0 when the changelog was produced, 2 for
bad input (raised as ``CodegenError``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from codegen.core.config import Config
from codegen.core.errors import CodegenError
from codegen.generate_cli import print_excluded
from codegen.governance_cli import against_option

if TYPE_CHECKING:
    from codegen.breaking.changelog import Bump

__all__ = ["changelog_options", "run_changelog"]

EXIT_OK = 0


def changelog_options(parser: argparse.ArgumentParser) -> None:
    against_option(parser)
    parser.add_argument(
        "--format",
        choices=("markdown", "json"),
        default="markdown",
        help="markdown (a section per contract) or json (stable keys, see docs/evolving.md)",
    )
    parser.add_argument(
        "--released",
        metavar="VERSION",
        help="the semver version released at REF: the changelog then names the next version",
    )


def _versions(released: str | None, bump: Bump) -> tuple[str, str] | None:
    """``(released, next)``; a version that is not semver exits 2."""
    from codegen.breaking.changelog import next_version  # noqa: PLC0415

    if released is None:
        return None
    try:
        return released, next_version(released, bump)
    except ValueError as exc:
        raise CodegenError(f"--released: {exc}", rule="VERSION") from None


def run_changelog(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.breaking import gitref  # noqa: PLC0415
    from codegen.breaking.changelog import changelog, sides_at  # noqa: PLC0415
    from codegen.breaking.changelog_format import CHANGELOG_FORMATS, Header  # noqa: PLC0415

    if args.released is not None:
        _versions(args.released, "none")  # a bad version is refused before git is read
    ref = gitref.parse_ref(args.against) if args.against else gitref.default_ref(config.root)
    shown = config.display(config.schema_dir)
    print_excluded(config, sys.stderr)
    sides = sides_at(config.root, ref, config.schema_dir, shown, config.loading, config=config.path)
    log = changelog(*sides)
    header = Header(shown, ref, _versions(args.released, log.bump))
    out.write(CHANGELOG_FORMATS[args.format](log, header))
    return EXIT_OK
