"""The ``lint``, ``format``, ``breaking`` and ``rules`` subcommands: options, and what they print.

Rows of :data:`codegen.cli.COMMANDS` point here. The cores (:mod:`codegen.lint.table`,
:mod:`codegen.breaking.table`) return findings; these functions render and print them and choose
the exit code: 0 clean, 1 findings, 2 usage or input errors (raised as ``CodegenError``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from codegen.core.config import Config, config_location
from codegen.core.errors import CodegenError, Location, Refused
from codegen.core.report import FORMATS, Finding, render
from codegen.generate_cli import print_excluded

if TYPE_CHECKING:
    from codegen.lint.table import LintSelection

__all__ = [
    "against_option",
    "breaking_options",
    "format_option",
    "format_options",
    "lint_options",
    "rules_options",
    "run_breaking",
    "run_format",
    "run_lint",
    "run_rules",
]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="text (path:line:col: message (RULE_ID)), json, or github (Actions annotations)",
    )


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
    from codegen.lint.table import lint_tree, select_rules, unreadable_summary  # noqa: PLC0415

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


def against_option(parser: argparse.ArgumentParser) -> None:
    """``--against REF``: the git revision ``breaking`` and ``changelog`` compare with."""
    parser.add_argument(
        "--against",
        metavar="REF",
        help="git revision to compare with, e.g. HEAD~1, main, v1.4.2 or '.git#branch=main' "
        "(default: the upstream branch if one is configured, else HEAD)",
    )


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


def _breaking_selection(categories: str | None, config: Config) -> frozenset[str]:
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

    selection = _breaking_selection(args.categories, config)
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


def rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run_rules(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    from codegen.breaking.table import BREAKING_RULES  # noqa: PLC0415
    from codegen.lint.table import LINT_RULES, select_rules  # noqa: PLC0415

    lint = select_rules(config.lint, config.path)
    lint_on = {rule.id for rule in lint.rules}
    breaking = _breaking_selection(None, config)
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
