"""Resolve every reference of a schema tree as its drafts say, without the network.

Each file is read by its draft (:mod:`codegen.core.drafts`): its base URI (``$id``, draft-04's
``id``, embedded resources), ``$anchor`` and plain-name ``$id`` fragments, ``$dynamicAnchor``
and ``$recursiveAnchor``, are the ``referencing`` library's reading of that draft. A file is
known by its own URI (``file:``) and by its ``$id``; a reference to a URL reaches a document
only through ``[tool.maverick-codegen.refs]`` (a URL prefix to a local folder) or, for the
JSON Schema metaschemas, the copies ``jsonschema-specifications`` installs. Nothing is ever
fetched: an unmapped URL is an error naming the file, line and URL.

The documents reached outside the schema folder are *external* files of the tree, named
``~remote/<host>/<path>``: their schemas are checked, never generated as contracts.

What every job then reads of a file (:class:`Resolved`): its internal form
(:mod:`codegen.core.translate`) where every ``$ref`` names its target by relative path and
JSON pointer (a reference already written so is left as it is); each ``$dynamicRef`` (and
2019-09's ``$recursiveRef``) with its static target the same way and, on the side, the
dynamic anchor it looks for when its target declares one; and the file's resources, each with
the dynamic anchors it declares.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from referencing import Registry, Resource
from referencing import exceptions as ref_errors
from referencing.jsonschema import DynamicAnchor

from codegen.core.drafts import DEFAULT_DRAFT, Draft, Role, by_uri
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.rewrite import Problem, Resolved, Rewriter, Source
from codegen.core.translate import positions

__all__ = [
    "EXTERNAL",
    "LoadOptions",
    "Problem",
    "Resolved",
    "Source",
    "draft_of",
    "resolve_sources",
]

EXTERNAL = "~remote"
RECURSIVE = "$recursiveAnchor"  # the dynamic anchor 2019-09's $recursiveAnchor: true declares


@dataclass(frozen=True)
class LoadOptions:
    """How a tree is read: the draft of a file without ``$schema``, and where URLs lead."""

    default_draft: Draft = DEFAULT_DRAFT
    refs: tuple[tuple[str, Path], ...] = ()  # URL prefix -> local folder, longest first
    # Reads a mapped folder's document as a git revision holds it (None: read from disk).
    read: Callable[[Path], bytes | None] | None = field(default=None, compare=False)


class _Unmapped(Exception):
    pass


@dataclass(frozen=True)
class _Ref:
    source: Source
    pointer: str  # of the schema holding it (in the file)
    key: str
    value: Any
    base: str


def draft_of(raw: Any, default: Draft) -> Draft:
    """The draft a document's ``$schema`` names (``default`` without one); ValueError for an
    unknown one."""
    if not isinstance(raw, dict) or "$schema" not in raw:
        return default
    draft = by_uri(raw["$schema"])
    if draft is None:
        raise ValueError(f"unknown $schema {raw['$schema']!r}")
    return draft


class _Reader:
    def __init__(self, root: Path, options: LoadOptions, sources: list[Source]) -> None:
        self.root = root
        self.root_uri = root.resolve().as_uri() + "/"
        self.options = options
        self.sources: dict[PurePosixPath, Source] = {}
        self.by_uri = {s.uri: s for s in sources}
        self.identity: dict[int, tuple[Source, str]] = {}
        self.walked: dict[tuple[PurePosixPath, str], tuple[str, bool]] = {}  # -> base, kept
        self.resources: dict[PurePosixPath, dict[str, dict[str, str]]] = {}
        self.refs: dict[tuple[PurePosixPath, str], list[_Ref]] = {}
        self.targets: dict[tuple[PurePosixPath, str, str], tuple[Source, str, str | None]] = {}
        self.registry: Registry[Any] = Registry(retrieve=self._retrieve)  # type: ignore[call-arg]
        for source in sources:
            self._add(source)
        self.registry = self.registry.with_resources(
            (s.uri, s.draft.specification.create_resource(s.raw)) for s in sources
        ).crawl()

    # -- reading documents -----------------------------------------------------------------

    def _add(self, source: Source) -> None:
        self.sources[source.rel] = source
        self.resources[source.rel] = {}
        self._walk(source, "", source.raw, source.uri, kept=True)

    def _walk(self, source: Source, at: str, node: Any, base: str, *, kept: bool) -> None:
        spec, draft = source.draft.specification, source.draft
        bases = {at: base}
        for pointer, sub, keep, parent in positions(node, draft, at, kept):
            here = bases[parent] if pointer != at else base
            if not isinstance(sub, dict):
                self.walked[(source.rel, pointer)] = (here, keep)
                continue
            self.identity[id(sub)] = (source, pointer)
            found = spec.id_of(sub)
            resource = pointer == "" or found is not None
            if found is not None:
                here = urljoin(here, found.rstrip("#"))
            bases[pointer] = here
            self.walked[(source.rel, pointer)] = (here, keep)
            if resource and pointer:
                self._same_draft(source, pointer, sub)
            if resource:
                self.resources[source.rel].setdefault(pointer, {})
            self._anchors(source, pointer, sub, resource)
            for key in ("$ref", "$dynamicRef", "$recursiveRef"):
                if key in sub and draft.keywords.get(key) in (Role.REF, Role.DYNAMIC_REF):
                    found_ref = _Ref(source, pointer, key, sub[key], here)
                    self.refs.setdefault((source.rel, pointer), []).append(found_ref)

    def _same_draft(self, source: Source, pointer: str, node: dict[str, Any]) -> None:
        if "$schema" in node and by_uri(node["$schema"]) is not source.draft:
            raise Problem(
                source.rel,
                f"{pointer}/$schema",
                f"an embedded resource in another draft ({node['$schema']!r}) than its file's "
                f"({source.draft.name}) is not supported",
                "DRAFT",
            )

    def _anchors(self, source: Source, pointer: str, node: dict[str, Any], resource: bool) -> None:
        keywords = source.draft.keywords
        name = node.get("$dynamicAnchor") if "$dynamicAnchor" in keywords else None
        if node.get("$recursiveAnchor") is True and "$recursiveAnchor" in keywords and resource:
            name = RECURSIVE
        if isinstance(name, str):
            owner = self._resource_of(source.rel, pointer)
            self.resources[source.rel][owner].setdefault(name, pointer)

    def _resource_of(self, rel: PurePosixPath, pointer: str) -> str:
        roots = self.resources[rel]
        while pointer not in roots:
            pointer = pointer.rsplit("/", 1)[0] if pointer else ""
        return pointer

    def _retrieve(self, uri: str) -> Resource[Any]:
        if uri.startswith("file:"):
            raise ref_errors.NoSuchResource(ref=uri)  # type: ignore[call-arg]
        for prefix, folder in self.options.refs:
            if uri.startswith(prefix):
                return self._external(uri, folder / unquote(uri[len(prefix) :]))
        import jsonschema_specifications  # noqa: PLC0415 (the metaschemas, when one is named)

        known = jsonschema_specifications.REGISTRY.get(uri.rstrip("#"))
        if known is None:
            raise _Unmapped(uri)
        return self._external(uri, None, known.contents)

    def _external(self, uri: str, path: Path | None, contents: Any = None) -> Resource[Any]:
        text = None
        if path is not None:
            data = self.options.read(path) if self.options.read is not None else None
            if data is not None:
                text = data.decode("utf-8").replace("\r\n", "\n")
            elif not path.is_file():
                raise ref_errors.NoSuchResource(ref=uri)  # type: ignore[call-arg]
            else:
                text = path.read_text(encoding="utf-8")
            contents = json.loads(text)
        parts = urlsplit(uri)
        rel = PurePosixPath(EXTERNAL, parts.netloc.replace(":", "_") or "_", *parts.path.split("/"))
        try:
            draft = draft_of(contents, self.options.default_draft)
        except ValueError as exc:
            raise _Unmapped(f"{uri}: {exc}") from None
        source = Source(rel, path or Path(uri), uri, contents, draft, external=True, text=text)
        self._add(source)
        return draft.specification.create_resource(contents)  # type: ignore[no-any-return]

    # -- resolving references --------------------------------------------------------------

    def resolve_all(self) -> None:
        done: set[tuple[PurePosixPath, str]] = set()
        while True:
            pending = [
                key for key in self.refs if key not in done and self.walked.get(key, ("", False))[1]
            ]
            if not pending:
                return
            for key in pending:
                done.add(key)
                for ref in self.refs[key]:
                    self._resolve(ref)

    def _resolve(self, ref: _Ref) -> None:
        source, where = ref.source, f"{ref.pointer}/{escape_pointer(ref.key)}"
        if not isinstance(ref.value, str):
            raise Problem(source.rel, where, f"{ref.key} must be a string", "REF")
        if ref.key == "$recursiveRef" and ref.value != "#":
            raise Problem(source.rel, where, '$recursiveRef must be "#"', "REF")
        if ref.value.startswith("#"):  # as referencing reads it (also against a URN)
            uri, fragment = ref.base, ref.value[1:]
        else:
            uri, fragment = urldefrag(urljoin(ref.base, ref.value))
        fragment = unquote(fragment)
        try:
            retrieved = self.registry.get_or_retrieve(uri)
        except (ref_errors.Unretrievable, ref_errors.NoSuchResource) as exc:
            raise self._unreachable(ref, uri, exc) from None
        self.registry = retrieved.registry
        target, pointer = self._locate(retrieved.value.contents, ref)
        name = None
        if fragment and not fragment.startswith("/"):
            try:
                anchor = self.registry.anchor(uri, fragment)
            except ref_errors.Unresolvable:
                raise Problem(source.rel, where, f"$ref {ref.value!r}: no anchor {fragment!r} "
                              f"in {target.rel}", "REF_RESOLVES") from None  # fmt: skip
            self.registry = anchor.registry
            target, pointer = self._locate(anchor.value.resource.contents, ref)
            if isinstance(anchor.value, DynamicAnchor) and ref.key == "$dynamicRef":
                name = fragment
        elif fragment:
            pointer = pointer + fragment
            try:
                resolve_pointer(target.raw, pointer)
            except LookupError:
                raise Problem(source.rel, where, f"$ref {ref.value!r}: {fragment!r} does not "
                              f"exist in {target.rel}", "REF_RESOLVES") from None  # fmt: skip
        if ref.key == "$recursiveRef":
            root = self._resource_of(target.rel, pointer)
            if self.resources[target.rel][root].get(RECURSIVE) == pointer:
                name = RECURSIVE
        self.targets[(source.rel, ref.pointer, ref.key)] = (target, pointer, name)
        self._reach(target, pointer, ref.base)

    def _locate(self, contents: Any, ref: _Ref) -> tuple[Source, str]:
        found = self.identity.get(id(contents))
        if found is None:
            where = f"{ref.pointer}/{escape_pointer(ref.key)}"
            raise Problem(ref.source.rel, where, f"$ref {ref.value!r} names a schema that is "
                          "not where its draft reads schemas", "REF_RESOLVES")  # fmt: skip
        return found

    def _reach(self, target: Source, pointer: str, base: str) -> None:
        """Make sure the schema at ``pointer`` of ``target`` is read, also where its draft reads
        none (it will be moved): its references are then resolved too."""
        walked = self.walked.get((target.rel, pointer))
        if walked is not None:
            if not walked[1]:  # ignored where it stands: read as a schema of its own now
                self._unignore(target, pointer)
            return
        node = resolve_pointer(target.raw, pointer)
        parent = pointer
        while (target.rel, parent) not in self.walked and parent:
            parent = parent.rsplit("/", 1)[0]
        base = self.walked[(target.rel, parent)][0]
        self._walk(target, pointer, node, base, kept=True)

    def _unignore(self, target: Source, pointer: str) -> None:
        for (rel, at), (base, kept) in list(self.walked.items()):
            if rel == target.rel and not kept and (at == pointer or at.startswith(pointer + "/")):
                self.walked[(rel, at)] = (base, True)

    def _unreachable(self, ref: _Ref, uri: str, exc: Exception) -> Problem:
        source, where = ref.source, f"{ref.pointer}/{escape_pointer(ref.key)}"
        by_path = urldefrag(urljoin(source.uri, ref.value))[0]
        if not urlsplit(ref.value).scheme and not source.external:
            # A relative reference: read against the file's own path, where does it lead?
            if not by_path.startswith(self.root_uri):
                message = f"$ref {ref.value!r} escapes the schema folder"
                return Problem(source.rel, where, message, "REF_INSIDE_TREE")
            if by_path != uri and by_path in self.by_uri:
                named = self.by_uri[by_path]
                return Problem(
                    source.rel,
                    where,
                    f"$ref {ref.value!r} names {named.rel} by path but {uri} by the $id of "
                    "this file, and no file has that $id: give every file an $id that mirrors "
                    "its path",
                    "ID_MIRRORS_PATH",
                )
            if by_path not in self.by_uri:
                return Problem(source.rel, where, f"$ref {ref.value!r} names no schema file",
                               "REF_RESOLVES")  # fmt: skip
        cause: BaseException | None = exc
        while cause is not None and not isinstance(cause, _Unmapped):
            cause = cause.__cause__
        if isinstance(cause, _Unmapped):
            return Problem(
                source.rel,
                where,
                f"remote $ref {ref.value!r} is refused: no [tool.maverick-codegen.refs] prefix "
                f"maps {cause.args[0]} to a local folder, and nothing is fetched from the network",
                "NO_REMOTE_REF",
            )
        return Problem(source.rel, where, f"$ref {ref.value!r} names no document ({uri})",
                       "REF_RESOLVES")  # fmt: skip


def resolve_sources(root: Path, sources: list[Source], options: LoadOptions) -> list[Resolved]:
    """Every source, and every external document their references reach, read as every job
    reads them (tree files first, in the order given). Raises :class:`Problem`."""
    reader = _Reader(root, options, sources)
    reader.resolve_all()
    rewriter = Rewriter(reader.targets, reader.resources)
    return [rewriter.internal(s) for s in reader.sources.values()]
