"""The ``export`` subcommand: the schemas for consumers that are not Python (files, bundle,
index) to a folder, and the npm package (``--npm``, :mod:`codegen.commands.npm`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from codegen.commands.common import EXIT_OK, print_excluded, print_report
from codegen.commands.npm import npm_option, prepare_npm
from codegen.core.config import Config
from codegen.core.errors import CodegenError

__all__ = ["export_options", "run_export"]


def export_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder to write the export to (default: export_dir of [tool.maverick-codegen], "
        "unless only --npm is given)",
    )
    npm_option(parser)


def run_export(args: argparse.Namespace, config: Config, out: TextIO) -> int:
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
