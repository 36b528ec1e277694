"""The ``rules`` subcommand: the lint and breaking-change rules, and which the project turns on."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from codegen.commands.breaking import breaking_selection
from codegen.commands.common import EXIT_OK
from codegen.core.config import Config

__all__ = ["rules_options", "run_rules"]


def rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run_rules(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.breaking.table import BREAKING_RULES  # noqa: PLC0415
    from codegen.lint.runner import select_rules  # noqa: PLC0415
    from codegen.lint.table import LINT_RULES  # noqa: PLC0415

    lint = select_rules(config.lint, config.path)
    lint_on = {rule.id for rule in lint.rules}
    breaking = breaking_selection(None, config)
    tables: dict[str, list[tuple[str, str, bool, list[str], str]]] = {
        "lint": [
            (r.id, ",".join(r.categories), r.id in lint_on, lint.ignored_in(r.id), r.purpose)
            for r in LINT_RULES
        ],
        "breaking": [
            (r.id, ",".join(r.categories), bool(breaking & {r.id, *r.categories}), [], r.purpose)
            for r in BREAKING_RULES
        ],
    }
    if args.format == "json":
        rows = {
            name: [
                {"id": i, "categories": c.split(","), "on": on, "ignored_in": ig, "purpose": p}
                for i, c, on, ig, p in table
            ]
            for name, table in tables.items()
        }
        out.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    for name, table in tables.items():
        shown = [("ID", "CATEGORIES", "ON", "PURPOSE")]
        shown += [(i, c, _state(on, ig), p) for i, c, on, ig, p in table]
        widths = [max(len(row[k]) for row in shown) for k in (0, 1, 2)]
        source = f"[tool.maverick-codegen.{name}] of {config.display(config.path)}"
        print(f"{name} rules: (ON: as {source} selects)", file=out)
        for row in shown:
            cells = "  ".join(f"{v:<{w}}" for v, w in zip(row, widths, strict=False))
            print(f"  {cells}  {row[3]}", file=out)
    return EXIT_OK


def _state(on: bool, ignored_in: list[str]) -> str:
    if not on:
        return "off"
    return f"on, not in {', '.join(ignored_in)}" if ignored_in else "on"
