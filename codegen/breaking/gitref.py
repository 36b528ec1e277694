"""Read the schema folder as it was at a git revision, without touching the work tree.

``git ls-tree`` lists the files at the revision and one ``git cat-file --batch`` process
reads them all; the texts are loaded by :func:`codegen.core.loader.load_texts` in memory, so
the previous version passes the same checks as the current one. The documents that references
reach through ``[tool.maverick-codegen.refs]`` are read as the revision holds them too, when
their folder is in the repository (a folder outside it is read as it is now). Nothing is
written: not the index, the work tree, the refs, nor a temporary folder.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

from codegen.core.errors import CodegenError, Location, SchemaError
from codegen.core.exclude import Exclude, pattern_of
from codegen.core.loader import LoadOptions, SchemaTree, load_texts

__all__ = ["default_ref", "parse_ref", "tags", "tree_at"]


def _git(repo: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", "-C", str(repo), *args], input=data, capture_output=True, check=False
        )
    except OSError as exc:
        raise CodegenError(f"cannot run git: {exc}", rule="GIT") from exc


def _toplevel(repo: Path) -> Path:
    done = _git(repo, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise CodegenError(f"{repo} is not inside a git repository", Location(repo), "GIT")
    return Path(done.stdout.decode().strip())


def default_ref(repo: Path) -> str:
    """The upstream branch of the current branch when one is configured, else ``HEAD``."""
    done = _git(repo, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
    name = done.stdout.decode().strip()
    return name if done.returncode == 0 and name else "HEAD"


def tags(repo: Path, pattern: str) -> list[str]:
    """The tags of the repository holding ``repo`` that match the glob ``pattern``."""
    _toplevel(repo)  # a clear error outside a repository
    done = _git(repo, "tag", "--list", pattern)
    if done.returncode != 0:
        raise CodegenError(f"git tag failed: {done.stderr.decode().strip()}", rule="GIT")
    return done.stdout.decode().split()


def parse_ref(text: str) -> str:
    """A git revision; buf's ``.git#branch=main``, ``#tag=v1`` and ``#ref=X`` are accepted."""
    if not text.startswith(".git#"):
        return text
    options = dict(part.partition("=")[::2] for part in text[5:].split(","))
    for key, prefix in (("ref", ""), ("branch", ""), ("tag", "refs/tags/")):
        if options.get(key):
            return prefix + options[key]
    raise CodegenError(f"cannot read the git input {text!r}: name a branch=, tag= or ref=")


def _files_at(repo: Path, commit: str, prefix: str) -> dict[PurePosixPath, bytes]:
    listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", prefix)
    if listing.returncode != 0:
        raise CodegenError(f"git ls-tree failed: {listing.stderr.decode().strip()}", rule="GIT")
    entries: list[tuple[str, str]] = []
    for record in listing.stdout.decode().split("\0"):
        meta, _, path = record.partition("\t")
        parts = meta.split()
        if (
            len(parts) == 3
            and parts[1] == "blob"
            and parts[0] != "120000"
            and path.endswith(".json")
        ):
            entries.append((parts[2], path))
    if not entries:
        return {}
    batch = _git(repo, "cat-file", "--batch", data="".join(f"{o}\n" for o, _ in entries).encode())
    if batch.returncode != 0:
        raise CodegenError(f"git cat-file failed: {batch.stderr.decode().strip()}", rule="GIT")
    files, offset, out = {}, 0, batch.stdout
    for _, path in entries:
        header_end = out.index(b"\n", offset)
        size = int(out[offset:header_end].split()[2])
        start = header_end + 1
        rel = PurePosixPath(path).relative_to(prefix) if prefix else PurePosixPath(path)
        files[rel] = out[start : start + size]
        offset = start + size + 1
    return files


def tree_at(
    repo: Path,
    ref: str,
    schema_dir: Path,
    shown: str,
    options: LoadOptions | None = None,
    *,
    config: Path | None = None,
) -> SchemaTree | None:
    """The schema folder ``schema_dir`` as it was at ``ref``; None when it had no files.

    ``shown`` names the folder in errors (a previous file that does not load exits 2);
    ``options`` are the work tree's (its default draft and URL mappings). The files left out
    are those the ``[tool.maverick-codegen] exclude`` of ``config`` (the configuration file)
    left out at ``ref``, which the generation of that revision left out too.
    """
    top = _toplevel(repo)
    verified = _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if verified.returncode != 0:
        raise CodegenError(f"{ref!r} names no commit in {top}", rule="GIT")
    commit = verified.stdout.decode().strip()
    prefix = schema_dir.resolve().relative_to(top.resolve()).as_posix()
    files = _files_at(repo, commit, "" if prefix == "." else prefix)
    if not files:
        return None
    project = Path(tempfile.gettempdir()) / f"maverick-breaking-{commit[:12]}"  # never written
    root = project / prefix if prefix != "." else project
    options = _options_at(repo, commit, top, project, options)
    if config is not None:
        options = dataclasses.replace(
            options,
            exclude=_exclude_at(repo, commit, config, schema_dir),
            asserts_formats=_table_at(repo, commit, config).get("formats") == "assert",
        )
    try:
        return load_texts(root, files, options=options)
    except SchemaError as exc:
        where = exc.location or Location(root)
        rel_path = where.path.relative_to(root) if where.path.is_relative_to(root) else where.path
        raise CodegenError(
            f"the schemas at {ref} do not load: {exc.message}",
            Location(Path(f"{ref}:{shown}/{rel_path}"), where.line, where.column, where.pointer),
            exc.rule,
        ) from exc


def _table_at(repo: Path, commit: str, config: Path) -> dict[str, Any]:
    """``[tool.maverick-codegen]`` of the configuration file as it was at ``commit`` (empty,
    when the file or the table was not there or cannot be read then)."""
    top = _toplevel(repo)
    try:
        name = config.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return {}
    done = _git(repo, "cat-file", "blob", f"{commit}:{name}")
    if done.returncode != 0:
        return {}
    try:
        table = tomllib.loads(done.stdout.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    found = table.get("maverick-codegen") if isinstance(table, dict) else None
    return found if isinstance(found, dict) else {}


def _exclude_at(repo: Path, commit: str, config: Path, schema_dir: Path) -> Exclude:
    """``[tool.maverick-codegen] exclude`` of the configuration file as it was at ``commit``
    (nothing, when the file or the key was not there or cannot be read then)."""
    entries = _table_at(repo, commit, config).get("exclude")
    if not isinstance(entries, list):
        return Exclude()
    found = [(e, pattern_of(config.parent, schema_dir, e)) for e in entries if isinstance(e, str)]
    kept = [(entry, pattern) for entry, pattern in found if pattern is not None]
    return Exclude(tuple(e for e, _ in kept), tuple(p for _, p in kept))


def _options_at(
    repo: Path, commit: str, top: Path, project: Path, options: LoadOptions | None
) -> LoadOptions:
    """``options`` with each mapped folder of the repository read at ``commit``, below
    ``project`` (where the revision's schema folder is loaded from, never written)."""
    options = options or LoadOptions()
    refs, folders = [], {}
    for prefix, folder in options.refs:
        try:
            inside = folder.resolve().relative_to(top.resolve())
        except ValueError:
            refs.append((prefix, folder))  # outside the repository: no revision of it
            continue
        there = Path(os.path.normpath(project / inside))
        folders[there] = inside
        refs.append((prefix, there))
    if not folders:
        return options

    def read(path: Path) -> bytes | None:
        path = Path(os.path.normpath(path))
        for there, inside in folders.items():
            if path.is_relative_to(there):
                name = (inside / path.relative_to(there)).as_posix()
                done = _git(repo, "cat-file", "blob", f"{commit}:{name}")
                return done.stdout if done.returncode == 0 else None
        return None

    return dataclasses.replace(options, refs=tuple(refs), read=read)
