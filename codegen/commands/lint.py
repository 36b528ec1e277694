"""The ``lint`` subcommand: every finding of the schema lint (:mod:`codegen.lint.runner`), against a
baseline when asked; exit 0 clean, 1 findings, 2 usage or input errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location, Refused
from codegen.core.report import Finding, render

if TYPE_CHECKING:
    from codegen.lint.runner import LintSelection

from codegen.commands.common import EXIT_FINDINGS, EXIT_OK, format_option, print_excluded

__all__ = ["lint_options", "run_lint"]


def lint_options(parser: argparse.ArgumentParser) -> None:
    format_option(parser)
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="fail only on findings FILE does not record: a missing FILE records today's "
        "findings; recorded findings that disappear are dropped from it",
    )


def run_lint(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.lint.runner import lint_tree, select_rules, unreadable_summary  # noqa: PLC0415

    selection = select_rules(config.lint, config.path)
    shown = config.display(config.schema_dir)
    if args.baseline is not None and args.baseline.resolve().is_relative_to(
        config.schema_dir.resolve()
    ):
        raise CodegenError(
            f"the lint baseline {args.baseline} is inside schema_dir, where it would be read as "
            "a schema: keep it elsewhere (e.g. lint-baseline.json beside pyproject.toml)",
            Location(args.baseline),
            "BASELINE",
        )
    print_excluded(config, out if args.format == "text" else sys.stderr)
    unreadable: list[CodegenError] = []
    findings = lint_tree(
        config.schema_dir,
        dict(config.agents),
        config_path=args.config,
        display_root=shown,
        selection=selection,
        options=config.loading,
        unreadable=unreadable,
    )
    refused = Refused(unreadable, unreadable_summary(len(unreadable), shown))
    if args.baseline is not None:
        if unreadable:  # the baseline records the findings of every file, or none
            raise refused
        return _against_baseline(args, findings, out, f"{shown}/")
    out.write(render(findings, args.format))
    if unreadable:
        out.flush()
        raise refused
    if args.format == "text":
        rules = _rules_ran(selection)
        if findings:
            print(
                f"{len(findings)} lint findings in {shown}/ from {rules}: fix each as it says, or "
                "turn its rule off ([tool.maverick-codegen.lint] except, or ignore for a path; "
                "maverick-codegen rules lists them), or record today's findings with --baseline "
                "FILE",
                file=out,
            )
        else:
            files = len(list(config.schema_dir.rglob("*.json")))
            print(f"{files} schema files in {shown}/ pass {rules}", file=out)
    return EXIT_FINDINGS if findings else EXIT_OK


def _rules_ran(selection: LintSelection) -> str:
    """``20 lint rules (13 off: HOUSE, 1 ignore)``: what the selection runs."""
    from codegen.lint.table import LINT_RULES  # noqa: PLC0415

    on = {rule.id for rule in selection.rules}
    off = [rule for rule in LINT_RULES if rule.id not in on]
    ignored = len(selection.ignore) + len(selection.ignore_only)
    house = {rule.id for rule in off} == {rule.id for rule in LINT_RULES if rule.house}
    parts = [f"{len(off)} off" + (": HOUSE" if house else "") if off else ""]
    parts.append(f"{ignored} ignores" if ignored else "")
    policy = ", ".join(part for part in parts if part)
    return f"{len(selection.rules)} lint rules" + (f" ({policy})" if policy else "")


def _against_baseline(
    args: argparse.Namespace, findings: list[Finding], out: TextIO, shown: str
) -> int:
    """The findings ``--baseline FILE`` does not record; records them all when FILE is new, and
    drops the recorded findings that are gone."""
    from codegen.lint.baseline import Baseline, read_baseline, write_baseline  # noqa: PLC0415

    path: Path = args.baseline
    if not path.exists():
        write_baseline(path, findings)
        out.write(render([], args.format))
        if args.format == "text":
            print(
                f"recorded {len(findings)} lint findings of {shown} in {path}: from now on, "
                f"lint --baseline {path} fails only on new ones",
                file=out,
            )
        return EXIT_OK
    result = Baseline.split(findings, read_baseline(path))
    if result.gone:
        write_baseline(path, result.kept)
    out.write(render(result.new, args.format))
    if args.format == "text":
        gone = f"; {result.gone} fixed since, dropped from it" if result.gone else ""
        recorded = f"{len(result.kept)} recorded in {path}{gone}"
        if result.new:
            print(
                f"{len(result.new)} new lint findings in {shown} ({recorded}): fix each as it "
                "says, or turn its rule off ([tool.maverick-codegen.lint] except, or ignore for a "
                "path)",
                file=out,
            )
        else:
            print(f"no new lint findings in {shown} ({recorded})", file=out)
    return EXIT_FINDINGS if result.new else EXIT_OK
