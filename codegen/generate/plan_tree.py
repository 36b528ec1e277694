"""The schema tree a plan reads, and the worker processes that generate from it.

This process keeps the last tree it loaded from each schema folder (:data:`LOADED`), so that a
generation re-parses only the files whose bytes changed (``generate --watch`` saves one file at
a time); :func:`load_checked` loads the tree with every problem of it, not the first. How many
workers to start (:func:`start_workers`, before the tree is read; :func:`wanted_workers`, once
the contracts to generate are known) follows the size of what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from codegen.core.config import Config
from codegen.core.errors import CodegenError
from codegen.core.loader import SchemaTree, load_tree
from codegen.core.resolve import Problem
from codegen.generate.files.reuse import Previous
from codegen.generate.models._dmcg import WORKER_MIN_FILES, is_warm
from codegen.generate.refusals import Refusals

__all__ = ["LOADED", "load_checked", "preload", "start_workers", "wanted_workers"]

LOADED: dict[Path, SchemaTree] = {}
"""The tree this process last loaded from each schema folder: a generation re-parses only the
files whose bytes changed since (``generate --watch`` saves one file at a time)."""


def preload(config: Config) -> None:
    """Parse the schema tree into this process's cache, so that the next generation re-parses
    only the files that changed (``generate --watch``, whose first generation found everything
    up to date without parsing); a tree that does not load is left to that generation."""
    try:
        tree = load_tree(
            config.schema_dir, reuse=LOADED.get(config.schema_dir), options=config.loading
        )
    except CodegenError:
        return
    LOADED.clear()
    LOADED[config.schema_dir] = tree


def start_workers(files: int, previous: Previous, tree_digest: str) -> int:
    """How many worker processes to start before the tree is even read: two for a first
    generation of a large tree, one when a large tree changed (its import of the generator
    overlaps the reading), none when nothing changed, the tree is small or this process has
    the generator ready (``generate --watch``)."""
    if previous.manifest is not None and previous.manifest.inputs == tree_digest:
        return 0
    if previous.manifest is None:
        return 2 if files >= 2 * WORKER_MIN_FILES else int(files >= WORKER_MIN_FILES)
    return int(files >= WORKER_MIN_FILES and not is_warm())


def wanted_workers(files: int, *, started: int) -> int:
    """How many workers generate ``files`` schema files: two for a large set (each takes a
    part), one for a set of middle size or when one was started already, else none."""
    if files >= 2 * WORKER_MIN_FILES:
        return 2
    return 1 if files >= WORKER_MIN_FILES or (started and files) else 0


def load_checked(config: Config, raw: Sequence[tuple[str, bytes]]) -> tuple[SchemaTree, Refusals]:
    """The tree (reusing this process's last one), and every problem of it, not the first."""
    problems: list[Problem] = []
    tree = load_tree(
        config.schema_dir,
        reuse=LOADED.get(config.schema_dir),
        read=dict(raw),
        options=config.loading,
        problems=problems,
    )
    LOADED.clear()  # one tree kept, the last one
    LOADED[config.schema_dir] = tree
    return tree, Refusals(tree, problems)
