"""The ``check`` subcommand: has the generated code drifted from the schemas? By the records
of the generated files (:func:`codegen.generate.files.drift.verify`) when they say so, else by
generating in memory and comparing; exit 0 up to date, 1 drifted.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from codegen.commands.common import EXIT_FINDINGS, EXIT_OK, fix_command, print_excluded
from codegen.core.config import Config

__all__ = ["check_options", "run_check"]


def check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="trust no record: regenerate everything in memory and compare",
    )


def run_check(args: argparse.Namespace, config: Config, out: TextIO) -> int:
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
