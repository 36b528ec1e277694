"""Resolve every reference of a schema tree as its drafts say, without the network.

Each file is read by its draft (:mod:`codegen.core.drafts`): its base URIs (``$id``, draft-04's
``id``, embedded resources) and anchors (``$anchor``, plain-name ``$id`` fragments,
``$dynamicAnchor``, ``$recursiveAnchor``) are the ``referencing`` library's reading of that
draft. A file is known by its own URI (``file:``) and by its ``$id``; a URL reaches a document
only through ``[tool.maverick-codegen.refs]`` (a URL prefix to a local folder) or, for the JSON
Schema metaschemas, the copies ``jsonschema-specifications`` installs. Nothing is ever fetched:
an unmapped URL is an error naming the file, line and URL.

The documents reached outside the schema folder are *external* files of the tree, named
``~remote/<host>/<path>``: their schemas are checked, never generated as contracts.

Each document is read once by :func:`codegen.core.scan.scan`, so a run that loads the same
folder again (``generate --watch``) reads only the files that changed.
:mod:`codegen.core.rewrite` then writes each document in the internal form.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from codegen.core.drafts import draft_of
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.load_options import LoadOptions
from codegen.core.rewrite import Problem, Resolved, Rewriter, Source, Target
from codegen.core.scan import RECURSIVE, Scan, scan, split_reference
from codegen.core.translate import internal_pointer

__all__ = [
    "EXTERNAL",
    "LoadOptions",
    "Problem",
    "Resolved",
    "Scan",
    "Source",
    "draft_of",
    "resolve_sources",
]


EXTERNAL = "~remote"


_RefRead = tuple[str, str, Any, str, bool]  # (pointer of the schema, keyword, value, base, kept)


class _Unmapped(Exception):
    pass


class _Reader:
    def __init__(
        self,
        root: Path,
        options: LoadOptions,
        sources: list[Source],
        known: Mapping[Any, Scan],
        problems: list[Problem] | None = None,
        *,
        absent: Mapping[PurePosixPath, tuple[str, str]] | None = None,
    ) -> None:
        self.problems = problems  # None: stop at the first problem; else collect them all
        # The files of the folder that are not read: why (``which ...``), and the rule of a
        # reference to one.
        self.absent = absent or {}
        self.failed: set[tuple[PurePosixPath, str, str]] = set()  # references left out
        self.root_uri = root.resolve().as_uri() + "/"
        self.options = options
        self.sources: dict[PurePosixPath, Source] = {}
        self.scans: dict[PurePosixPath, Scan] = {}
        self.by_uri: dict[str, tuple[Source, str]] = {}  # every resource's URI
        self.files = {s.uri: s for s in sources}
        self.targets: dict[tuple[PurePosixPath, str, str], Target] = {}
        self.moved: set[tuple[PurePosixPath, str]] = set()
        self.own: dict[PurePosixPath, dict[str, str]] = {}  # each file's resources by URI
        self.pending: list[tuple[Source, _RefRead]] = []  # references to resolve
        for source in sources:
            cached = known.get((source.rel, source.uri, source.draft.name, id(source.raw)))
            self._add(source, cached)

    def _add(self, source: Source, cached: Scan | None = None) -> None:
        self.sources[source.rel] = source
        found = cached if cached is not None else scan(source)
        self.scans[source.rel] = found
        self._report(*found.problems)
        self.pending += [(source, ref) for ref in found.refs if ref[4]]
        self.by_uri.setdefault(source.uri, (source, ""))
        for pointer, uri in found.resources.items():
            self.by_uri.setdefault(uri, (source, pointer))

    def _own(self, source: Source, uri: str) -> tuple[Source, str] | None:
        """A resource of ``source`` itself named by ``uri``, even when an earlier file claims
        that URI (ID_UNIQUE says so once; its ``#/$defs/...`` are not reported again)."""
        if (own := self.own.get(source.rel)) is None:
            resources = self.scans[source.rel].resources
            own = self.own[source.rel] = {u: p for p, u in reversed(resources.items())}
        pointer = own.get(uri)
        return None if pointer is None else (source, pointer)

    def _retrieve(self, uri: str) -> tuple[Source, str]:
        if uri in self.by_uri:
            return self.by_uri[uri]
        if uri.startswith("file:"):
            raise LookupError(uri)
        for prefix, folder in self.options.refs:
            if uri.startswith(prefix):
                path = folder / unquote(uri[len(prefix) :])
                data = self.options.read(path) if self.options.read is not None else None
                if data is not None:
                    text = data.decode("utf-8").replace("\r\n", "\n")
                elif path.is_file():
                    text = path.read_text(encoding="utf-8")
                else:
                    raise LookupError(uri)
                return self._external(uri, json.loads(text), path, text)
        import jsonschema_specifications  # noqa: PLC0415 (the metaschemas, when one is named)

        known = jsonschema_specifications.REGISTRY.get(uri)
        if known is None:
            raise _Unmapped(uri)
        return self._external(uri, known.contents, Path(uri), None)

    def _external(
        self, uri: str, contents: Any, path: Path, text: str | None
    ) -> tuple[Source, str]:
        parts = urlsplit(uri)
        rel = PurePosixPath(EXTERNAL, parts.netloc.replace(":", "_") or "_", *parts.path.split("/"))
        try:
            draft = draft_of(contents, self.options.default_draft)
        except ValueError as exc:
            raise _Unmapped(f"{uri}: {exc}") from None
        source = Source(rel, path, uri, contents, draft, external=True, text=text)
        self._add(source)
        return source, ""

    # -- resolving references --------------------------------------------------------------

    def resolve_all(self) -> None:
        while self.pending:
            source, ref = self.pending.pop()
            try:
                self.pending += self._resolve(source, *ref[:4])
            except Problem as problem:
                self._report(problem)  # permissive: the reference is left out
                self.failed.add((source.rel, ref[0], ref[1]))

    def _report(self, *problems: Problem) -> None:
        """Stop at a problem, or (permissive) note it and read on."""
        if self.problems is not None:
            self.problems += problems
        elif problems:
            raise problems[0]

    def _resolve(
        self, source: Source, pointer: str, key: str, value: Any, base: str
    ) -> list[tuple[Source, tuple[str, str, Any, str, bool]]]:
        where = f"{pointer}/{escape_pointer(key)}"
        if not isinstance(value, str):
            raise Problem(source.rel, where, f"{key} must be a string", "REF")
        if key == "$recursiveRef" and value != "#":
            raise Problem(source.rel, where, '$recursiveRef must be "#"', "REF")
        uri, fragment = split_reference(base, value)
        try:
            target, at = self._own(source, uri) or self._retrieve(uri)
        except (LookupError, _Unmapped) as exc:
            raise self._unreachable(source, where, value, uri, exc) from None
        name = None
        if fragment and not fragment.startswith("/"):
            anchor = self.scans[target.rel].anchors.get((at, fragment))
            if anchor is None:
                raise Problem(source.rel, where, f"$ref {value!r}: no anchor {fragment!r} in "
                              f"{target.rel}", "REF_RESOLVES")  # fmt: skip
            at, dynamic = anchor
            name = fragment if dynamic and key == "$dynamicRef" else None
        elif fragment:
            at += fragment
            try:
                resolve_pointer(target.raw, at)
            except LookupError:
                raise Problem(source.rel, where, f"$ref {value!r}: {fragment!r} does not exist "
                              f"in {target.rel}", "REF_RESOLVES") from None  # fmt: skip
        if key == "$recursiveRef" and self.scans[target.rel].anchors.get((at, RECURSIVE)):
            name = RECURSIVE
        self.targets[(source.rel, pointer, key)] = (target, at, name)
        return self._reach(target, at)

    def _reach(
        self, target: Source, at: str
    ) -> list[tuple[Source, tuple[str, str, Any, str, bool]]]:
        """The references to resolve now that the schema at ``at`` of ``target`` is read: those
        below it, when its draft reads no schema there (it will be moved)."""
        if (target.rel, at) in self.moved or internal_pointer(
            target.raw, target.draft, at
        ) is not None:
            return []
        self.moved.add((target.rel, at))
        found = self.scans[target.rel] = dataclasses.replace(  # the cached reading stays as is
            self.scans[target.rel], anchors=dict(self.scans[target.rel].anchors)
        )
        owner = max((p for p in found.resources if at == p or at.startswith(p + "/")), key=len)
        inner = scan(target, resolve_pointer(target.raw, at), at, found.resources[owner])
        self._report(*inner.problems)
        for (resource, name), anchor in inner.anchors.items():
            found.anchors.setdefault((resource or owner, name), anchor)
        return [(target, ref) for ref in inner.refs if ref[4]]

    def _unreachable(
        self, source: Source, where: str, value: str, uri: str, exc: Exception
    ) -> Problem:
        """Why ``value`` (resolved to ``uri``) names nothing, and what would make it name a
        document: the file it names by path, or the ``[tool.maverick-codegen.refs]`` line that
        maps its URI to a local copy."""
        by_path = urldefrag(urljoin(source.uri, value))[0]
        if not urlsplit(value).scheme and not source.external:
            # A relative reference: read against the file's own path, where does it lead?
            if not by_path.startswith(self.root_uri):
                return Problem(source.rel, where, f"$ref {value!r} escapes the schema folder: "
                               "move what it names inside, or name it by a URL that [tool."
                               "maverick-codegen.refs] maps", "REF_INSIDE_TREE")  # fmt: skip
            rel = PurePosixPath(unquote(by_path[len(self.root_uri) :]))
            if rel in self.absent:
                why, rule = self.absent[rel]
                return Problem(source.rel, where, f"$ref {value!r} names {rel}, which {why}", rule)
            if by_path != uri and by_path in self.files:
                return Problem(
                    source.rel,
                    where,
                    f"$ref {value!r} names {self.files[by_path].rel} by path but {uri} by the $id "
                    "of this file, and no file has that $id: give every file an $id that mirrors "
                    "its path",
                    "ID_MIRRORS_PATH",
                )
            if by_path not in self.files:
                if by_path == uri:
                    return Problem(source.rel, where, f"$ref {value!r} names no schema file: "
                                   f"{rel} is not in the schema folder (the reference resolves "
                                   f"to {uri})", "REF_RESOLVES")  # fmt: skip
                return Problem(
                    source.rel,
                    where,
                    f"$ref {value!r} names no schema file: it resolves to {uri} (against the $id "
                    f"of this file), which no file of the schema folder has as $id, and {rel} is "
                    f"not in the schema folder; add the file, or {_mapping_hint(uri)}",
                    "REF_RESOLVES",
                )
        for prefix, folder in self.options.refs:
            if uri.startswith(prefix):
                path = folder / unquote(uri[len(prefix) :])
                shown = os.path.relpath(path) if path.is_relative_to(Path.cwd()) else path
                return Problem(
                    source.rel,
                    where,
                    f"$ref {value!r}{'' if value == uri else f' resolves to {uri}, which'}: "
                    f"[tool.maverick-codegen.refs] {prefix!r} maps it to {shown}, which does not "
                    "exist",
                    "REF_RESOLVES",
                )
        if isinstance(exc, _Unmapped):
            cause = exc.args[0]
            unreadable = f" ({cause})" if cause != uri else ""
            named = self._absent_named(uri)
            resolved = "it" if value == uri else f"it resolves to {uri}, which"
            return Problem(
                source.rel,
                where,
                f"remote $ref {value!r} is refused: {resolved}{unreadable} is the $id of no file "
                f"of the schema folder{named}, and nothing is fetched from the network; "
                f"{_mapping_hint(uri)}",
                "NO_REMOTE_REF",
            )
        return Problem(source.rel, where, f"$ref {value!r} names no document ({uri})",
                       "REF_RESOLVES")  # fmt: skip

    def _absent_named(self, uri: str) -> str:
        """`` (x.json, a file of that name, is excluded ...)`` when a file that is not read
        bears the last name of ``uri``'s path (a reference by ``$id`` to it, most likely)."""
        name = PurePosixPath(unquote(urlsplit(uri).path)).name
        for rel, (why, _) in sorted(self.absent.items()):
            if name and rel.name == name:
                return f" ({rel}, a file of that name, {why})"
        return ""

    def dynamic_anchors(self) -> dict[PurePosixPath, dict[str, dict[str, str]]]:
        """Each source's resources with the dynamic anchors each declares."""
        found: dict[PurePosixPath, dict[str, dict[str, str]]] = {}
        for rel, read in self.scans.items():
            roots: dict[str, dict[str, str]] = {p: {} for p in read.resources}
            for (owner, name), (pointer, dynamic) in read.anchors.items():
                if dynamic:
                    roots.setdefault(owner, {})[name] = pointer
            found[rel] = roots
        return found


def _mapping_hint(uri: str) -> str:
    """The ``[tool.maverick-codegen.refs]`` line that would read ``uri`` from a local copy."""
    parts = urlsplit(uri)
    head, _, name = parts.path.rpartition("/")
    if not parts.netloc or not name:
        return "map its URL to a local folder in [tool.maverick-codegen.refs]"
    prefix = f"{parts.scheme}://{parts.netloc}{head}/"
    folder = "/".join(("vendor", parts.netloc.replace(":", "_"), *filter(None, head.split("/"))))
    return (
        f'map it to a local copy: add "{prefix}" = "{folder}" to [tool.maverick-codegen.refs] '
        f"(a folder relative to pyproject.toml) and put the document at {folder}/{unquote(name)}"
    )


def resolve_sources(
    root: Path,
    sources: list[Source],
    options: LoadOptions,
    known: Mapping[Any, Scan] | None = None,
    problems: list[Problem] | None = None,
    *,
    absent: Mapping[PurePosixPath, tuple[str, str]] | None = None,
) -> tuple[list[Resolved], dict[Any, Scan]]:
    """Every source, and every external document their references reach, read as every job
    reads them (tree files first, in the order given), and the scans of the tree files (for
    ``known`` in a later call: a file read again is not scanned again). Raises
    :class:`Problem`; with ``problems`` (the permissive reading) appends every one there and
    reads on: a reference to nothing, or a value its draft cannot read, is left out.
    ``absent``: the files of the folder that are not read (excluded, unreadable), each with
    why (``which ...``) and the rule of a reference to it."""
    reader = _Reader(root, options, sources, known or {}, problems, absent=absent)
    reader.resolve_all()
    moved: dict[PurePosixPath, set[str]] = {}
    for rel, at in reader.moved:
        moved.setdefault(rel, set()).add(at)
    failed = None if problems is None else reader.failed
    rewriter = Rewriter(reader.targets, reader.dynamic_anchors(), moved, failed)
    plain = {rel for rel, read in reader.scans.items() if read.plain}
    resolved = [rewriter.internal(s, plain=s.rel in plain) for s in reader.sources.values()]
    if problems is not None:
        problems += rewriter.problems
    touched = {rel for rel, _ in reader.moved}
    scans = {
        (s.rel, s.uri, s.draft.name, id(s.raw)): reader.scans[s.rel]
        for s in sources
        if s.rel not in touched
    }
    return resolved, scans
