"""The ``breaking`` subcommand: each incompatible change since a git revision
(:mod:`codegen.breaking.table`), with its witness; exit 0 none, 1 breaks, 2 input errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from codegen.commands.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    against_option,
    format_option,
    print_excluded,
)
from codegen.core.config import Config
from codegen.core.config_tables import config_location
from codegen.core.errors import CodegenError
from codegen.core.report import render

__all__ = ["breaking_options", "breaking_selection", "run_breaking"]


def breaking_options(parser: argparse.ArgumentParser) -> None:
    against_option(parser)
    parser.add_argument(
        "--categories",
        metavar="LIST",
        help="comma-separated categories (CODEGEN, DATA_BACKWARD, DATA_FORWARD) and rule ids "
        "(default: [tool.maverick-codegen.breaking] use, else CODEGEN,DATA_BACKWARD,"
        "PROPERTY_DELETED)",
    )
    parser.add_argument(
        "--check-models",
        action="store_true",
        help="also judge each witness by the model generated from the new schema (generates "
        "it: seconds on a large schema); a model that disagrees with its schema is reported "
        "as an internal error",
    )
    format_option(parser)


def breaking_selection(categories: str | None, config: Config) -> frozenset[str]:
    """``--categories``, else ``[tool.maverick-codegen.breaking] use``, else the default."""
    from codegen.breaking import table as breaking  # noqa: PLC0415

    if categories is not None:
        return breaking.parse_selection(categories.split(","))
    if config.breaking_use is None:
        return breaking.parse_selection(breaking.DEFAULT_USE)
    section = "tool.maverick-codegen.breaking"
    for name in config.breaking_use:
        try:
            breaking.parse_selection([name])
        except CodegenError as exc:
            where = config_location(config.path, section, "use", name)
            raise CodegenError(f"[{section}] use: {exc.message}", where, "CONFIG") from None
    return breaking.parse_selection(config.breaking_use)


def run_breaking(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.breaking import gitref  # noqa: PLC0415
    from codegen.breaking import table as breaking  # noqa: PLC0415
    from codegen.core.loader import load_tree  # noqa: PLC0415

    selection = breaking_selection(args.categories, config)
    ref = gitref.parse_ref(args.against) if args.against else gitref.default_ref(config.root)
    shown = config.display(config.schema_dir)
    print_excluded(config, out if args.format == "text" else sys.stderr)
    current = breaking.Side(load_tree(config.schema_dir, options=config.loading), shown)
    previous_tree = gitref.tree_at(
        config.root, ref, config.schema_dir, shown, config.loading, config=config.path
    )
    if previous_tree is None:
        findings = []
    else:
        findings = breaking.compare(
            breaking.Side(previous_tree, shown),
            current,
            breaking.directions_for(selection),
            check_models=args.check_models,
        )
    chosen = breaking.select(findings, selection)
    out.write(render(chosen, args.format))
    if args.format == "text":
        against = f"{shown}/ against {ref} ({', '.join(sorted(selection))})"
        if chosen:
            print(
                f"{len(chosen)} breaking changes in {against}. Contracts change additively "
                "only: see 'Evolving a contract' (docs/evolving.md) in the documentation of "
                "maverick-contracts",
                file=out,
            )
        else:
            print(f"no breaking changes in {against}", file=out)
    return EXIT_FINDINGS if chosen else EXIT_OK
