"""What a contract is made from: its inputs, and digests of them.

One design, used by every job that must know whether a contract changed:

* :func:`closure_digest`: the contract's schema file and every file it references, directly
  or not (:meth:`~codegen.core.loader.SchemaTree.closure`), by relative path and bytes. Two
  versions of a contract with the same closure digest accept the same documents and generate
  the same names: ``breaking`` and ``changelog`` skip such a pair.
* :func:`generator_digest`: every file of the generator package (code and templates) and the
  versions of the pinned tools (datamodel-code-generator, ruff). A generated file made by
  another generator is stale even when its schemas did not change.
* :func:`contract_inputs`: what every file generated for one contract is made from: its
  closure, the part of the configuration that names it (:func:`contract_config`) and the
  generator. Incremental ``generate`` regenerates a contract exactly when this changes.
* :func:`view_inputs`: what a file rendered from a small summary of the tree is made from
  (the registry, from the contracts' names and files): the summary and the generator.
* :func:`tree_inputs`: what the whole generation is made from: every schema file, the whole
  configuration (:func:`config_view`) and the generator. ``check`` compares it with the one a
  target's manifest records, reading bytes only (no schema is parsed).

Every digest is a SHA-256, written ``sha256:<hex>`` in the records of generated files.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from codegen.core.config import Config
from codegen.core.exclude import Exclude
from codegen.core.filecache import read_bytes
from codegen.core.schema_paths import digest_bytes, schema_paths

if TYPE_CHECKING:
    from codegen.core.loader import SchemaFile, SchemaTree

__all__ = [
    "closure_digest",
    "closure_digests",
    "config_digest",
    "config_view",
    "contract_config",
    "contract_inputs",
    "files_digest",
    "generator_digest",
    "generator_sources",
    "raw_schema_files",
    "schema_digests",
    "tree_inputs",
    "view_inputs",
]


def _hash_files(files: Iterable[tuple[str, bytes]]) -> str:
    sha = hashlib.sha256()
    for rel, data in files:
        sha.update(b"\0" + rel.encode() + b"\0" + data)
    return sha.hexdigest()


def files_digest(files: Iterable[SchemaFile]) -> str:
    """A digest of schema files by relative path and bytes, in the order given (each file's
    bytes are hashed once, however many closures hold it)."""
    return _hash_files((schema.rel.as_posix(), schema.sha256) for schema in files)


def closure_digest(tree: SchemaTree, schema: SchemaFile) -> str:
    """A digest of ``schema`` and every file it references, directly or not."""
    return files_digest(tree.closure(schema))


def closure_digests(tree: SchemaTree) -> dict[PurePosixPath, str]:
    """:func:`closure_digest` of every file of ``tree``, by relative path (each file's bytes
    are hashed once, however many closures hold it)."""
    return {schema.rel: closure_digest(tree, schema) for schema in tree.files}


def generator_sources(package: Path) -> Iterator[Path]:
    """Every file of a package at any depth (code and templates), not caches."""
    for path in package.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


@cache
def version(distribution: str) -> str:
    """The installed version of ``distribution``, looked up once per process (every generated
    file's header names the tools; importlib.metadata is imported on first use: the CLI does
    not need it for every command)."""
    from importlib.metadata import version as installed  # noqa: PLC0415

    return installed(distribution)


@cache
def generator_digest() -> str:
    """A digest of the generator's own files and of the pinned tools' versions."""
    import codegen  # noqa: PLC0415 - the package this module belongs to

    sha = hashlib.sha256()
    sha.update(f"{version('datamodel-code-generator')}|{version('ruff')}".encode())
    package = Path(codegen.__file__).parent
    for path in sorted(generator_sources(package)):
        sha.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0")
        sha.update(digest_bytes(path.read_bytes()))
    return sha.hexdigest()


def _digest(kind: str, *parts: str) -> str:
    """One digest of the generator and ``parts``, told apart by ``kind``."""
    return hashlib.sha256("\0".join((kind, generator_digest(), *parts)).encode()).hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def config_view(config: Config) -> dict[str, Any]:
    """The configuration that shapes generated files (the lint and breaking tables do not)."""

    def shown(path: Path | None) -> str | None:
        return None if path is None else config.display(path)

    return {
        "schema_dir": shown(config.schema_dir),
        "output_dir": shown(config.output_dir),
        "package": config.package,
        "docs_file": shown(config.docs_file),
        "export_dir": shown(config.export_dir),
        "agents": sorted(config.agents.items()),
        "tools": sorted(config.tools.items()),
        "tool_inputs": sorted(config.tool_inputs.items()),
        "loading": loading_view(config),
        **({"exclude": list(config.loading.exclude.shown)} if config.loading.exclude else {}),
        "npm": None
        if config.npm is None
        else {
            "name": config.npm.name,
            "version": config.npm.version,
            "npm_dir": shown(config.npm.npm_dir),
            "description": config.npm.description,
            "license": config.npm.license,
            "ajv_strict": config.npm.ajv_strict,
        },
    }


def loading_view(config: Config) -> dict[str, Any]:
    """How the schema files are read: the default draft, and each URL mapping's folder."""
    return {
        "default_draft": config.loading.default_draft.name,
        "refs": [
            [prefix, Path(os.path.relpath(folder, config.root.resolve())).as_posix()]
            for prefix, folder in config.loading.refs
        ],
        # Said only when asserted: a project that annotates records what it recorded before.
        **({"formats": "assert"} if config.loading.asserts_formats else {}),
    }


def contract_config(config: Config, title: str) -> dict[str, Any]:
    """The part of the configuration that shapes the files of contract ``title``: where the
    schemas are shown from, the package, and the agents and tools that name it."""
    return {
        "schema_dir": config.shown_schema_dir,
        "package": config.package,
        "agents": sorted(a for a, t in config.agents.items() if t == title),
        "tools": sorted(n for n, t in config.tools.items() if t == title),
        "tool_inputs": sorted(n for n, t in config.tool_inputs.items() if t == title),
        "loading": loading_view(config),
    }


def contract_inputs(tree: SchemaTree, schema: SchemaFile, config: Config) -> str:
    """The inputs of every file generated for one contract: its closure, its part of the
    configuration and the generator."""
    view = _canonical(contract_config(config, schema.title))
    return _digest("contract", view, closure_digest(tree, schema))


def view_inputs(kind: str, view: Any) -> str:
    """The inputs of a file rendered from ``view`` alone (JSON data) by the generator."""
    return _digest(f"view:{kind}", _canonical(view))


def raw_schema_files(schema_dir: Path, exclude: Exclude | None = None) -> list[tuple[str, bytes]]:
    """Every ``*.json`` file below ``schema_dir`` (less those ``exclude`` leaves out) by
    relative path and bytes, in the order :func:`~codegen.core.loader.load_tree` reads them
    (nothing is parsed)."""
    return [(rel, read_bytes(str(path))) for rel, path in schema_paths(schema_dir, exclude)]


def config_digest(config: Config) -> str:
    """A digest of the configuration that shapes generated files (:func:`config_view`)."""
    return hashlib.sha256(_canonical(config_view(config)).encode()).hexdigest()


def schema_digests(config: Config, files: Iterable[tuple[str, bytes]]) -> dict[str, str]:
    """Each schema file (``files``) and each file of a mapped folder (named by its URL), by
    its digest: what a generation reads, file by file."""
    found = {rel: hashlib.sha256(digest_bytes(data)).hexdigest() for rel, data in files}
    for prefix, folder in config.loading.refs:
        for rel, data in raw_schema_files(folder):
            found[f"{prefix}{rel}"] = hashlib.sha256(digest_bytes(data)).hexdigest()
    return found


def tree_inputs(config: Config, files: Iterable[tuple[str, bytes]] | None = None) -> str:
    """The inputs of the whole generation: every schema file (``files``, else read from
    ``schema_dir``), the configuration and the generator."""
    found = raw_schema_files(config.schema_dir, config.loading.exclude) if files is None else files
    schemas = _hash_files((rel, digest_bytes(data)) for rel, data in found)
    # The mapped folders that references may reach (their files are read only when reached).
    mapped = _hash_files(
        (f"{prefix}{rel}", digest_bytes(data))
        for prefix, folder in config.loading.refs
        for rel, data in raw_schema_files(folder)
    )
    return _digest("tree", _canonical(config_view(config)), schemas, mapped)
