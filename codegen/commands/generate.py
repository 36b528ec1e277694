"""The ``generate`` subcommand, once or ``--watch``: what it prints, and the watch loop.

``generate --watch`` generates, then regenerates on every save of a schema file (``*.json``
below ``schema_dir``) or of the configuration file, until interrupted. Every error is printed
with its ``file:line:col`` and the loop goes on; a change to the configuration reloads it (and
what is watched). Files are written by :func:`codegen.generate.files.writer.write_outputs`: all of a
generation or none of it, also when Ctrl-C arrives in the middle.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from codegen.commands.common import (
    DEBUG_VARIABLE,
    EXIT_OK,
    internal_error,
    print_excluded,
    print_report,
)
from codegen.core.config import Config, load_config
from codegen.core.errors import CodegenError
from codegen.core.loader import schema_paths

__all__ = ["generate", "generate_options", "run_generate", "watch"]


def generate_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--watch",
        action="store_true",
        help="keep running: regenerate on every save of a schema or of the configuration",
    )


def generate(config: Config, out: TextIO) -> None:
    """Generate what changed since the last generation (every output, when the records on
    disk say nothing is current); raises :class:`CodegenError` for bad input."""
    from codegen.generate.models._dmcg import (  # noqa: PLC0415
        WORKER_MIN_CHARS,
        WORKER_MIN_FILES,
        Generator,
        is_warm,
    )

    excluded = print_excluded(config, out)
    left_out = f"; {excluded} schema files excluded" if excluded else ""
    with ExitStack() as stack:
        # For a large tree, a worker starts importing the generator before anything is read
        # (or imported: the worker's import is the longest wait of a small edit): if a schema
        # changed, it is ready when the plan needs it (else it stops unused).
        paths = [] if is_warm() else schema_paths(config.schema_dir, config.loading.exclude)
        size = sum(path.stat().st_size for _, path in paths)  # bytes: at least the characters
        large = len(paths) >= WORKER_MIN_FILES or size >= WORKER_MIN_CHARS
        early = [stack.enter_context(Generator(in_worker=True))] if large else []
        from codegen.generate.files.drift import verify  # noqa: PLC0415
        from codegen.generate.files.targets import Disk  # noqa: PLC0415

        disk = Disk()  # every generated file is read once, for all three steps
        count = verify(config, disk)
        if count is not None:
            print(
                f"up to date: {count} generated files match their records{left_out}",
                file=out,
                flush=True,
            )
            return
        from codegen.generate.files.writer import write_outputs  # noqa: PLC0415
        from codegen.generate.plan import build_plan  # noqa: PLC0415

        plan = build_plan(config, reuse=True, disk=disk, workers=early)
        report = write_outputs(plan.outputs)
    print_report(report, out)
    print(
        f"{len(plan.contracts)} contracts ({len(plan.regenerated)} regenerated): "
        f"{len(report.written)} written, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed{left_out}",
        file=out,
        flush=True,
    )


def run_generate(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    if args.watch:
        return watch(args.config, out, sys.stderr)
    generate(config, out)
    return EXIT_OK


def _error(exc: CodegenError, err: TextIO) -> None:
    print(exc.describe(), file=err, flush=True)


def _attempt(config: Config, out: TextIO, err: TextIO) -> None:
    try:
        try:
            generate(config, out)
        except Exception as exc:
            if isinstance(exc, CodegenError) or os.environ.get(DEBUG_VARIABLE):
                raise
            raise internal_error(exc, "generate") from exc
    except CodegenError as exc:
        _error(exc, err)
        print("generation failed; fix the file and save it again", file=out, flush=True)


def _warm_up(config: Config) -> None:
    """Get the generator ready in this process: a save then regenerates its contracts here,
    with no worker to start (a large first generation ran in workers), and finds the planning
    modules imported, the schema tree parsed, the templates compiled and ruff found (a first
    generation that found everything up to date needed none of them)."""
    from codegen.generate.consumers.docs import CATALOG_TEMPLATE, catalog_templates  # noqa: PLC0415
    from codegen.generate.files import writer  # noqa: F401, PLC0415 (imported for the first save)
    from codegen.generate.files.fmt import ruff_binary  # noqa: PLC0415
    from codegen.generate.files.header import templates  # noqa: PLC0415
    from codegen.generate.models._dmcg import is_warm, warm_up  # noqa: PLC0415
    from codegen.generate.plan_tree import preload  # noqa: PLC0415

    if not is_warm():
        warm_up()
    preload(config)
    ruff_binary()
    for name in templates().list_templates():
        (catalog_templates() if name == CATALOG_TEMPLATE else templates()).get_template(name)


def watch(
    config_path: Path,
    out: TextIO,
    err: TextIO,
    *,
    stop: threading.Event | None = None,
) -> int:
    """Generate, then regenerate on every change until Ctrl-C (or ``stop`` is set)."""
    import watchfiles  # noqa: PLC0415

    config_file = config_path.resolve()
    try:
        config = load_config(config_path)
        _attempt(config, out, err)
        _warm_up(config)
        while True:
            schema_dir = config.schema_dir.resolve()

            def wanted(_: watchfiles.Change, name: str, folder: Path = schema_dir) -> bool:
                path = Path(name)
                if path == config_file:
                    return True
                return path.suffix == ".json" and path.is_relative_to(folder)

            shown = config.display(config.schema_dir)
            print(
                f"watching {shown}/ and {config.display(config_file)} (Ctrl-C stops)",
                file=out,
                flush=True,
            )
            for changes in watchfiles.watch(
                schema_dir, config_file, watch_filter=wanted, stop_event=stop, step=30
            ):
                names = sorted({Path(name) for _, name in changes})
                shown_names = ", ".join(config.display(name) for name in names)
                print(f"changed: {shown_names}", file=out, flush=True)
                if config_file not in names:
                    _attempt(config, out, err)
                    continue
                try:
                    config = load_config(config_path)
                except CodegenError as exc:
                    _error(exc, err)  # the previous configuration stays in force
                else:
                    _attempt(config, out, err)
                break  # watch again: the file may be new, schema_dir may have moved
            else:
                return EXIT_OK  # stopped
    except KeyboardInterrupt:
        print("stopped watching", file=out, flush=True)
        return EXIT_OK
