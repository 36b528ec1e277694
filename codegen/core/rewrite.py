"""Each document of a tree in the internal form, every reference naming its target by path.

:mod:`codegen.core.resolve` finds where each reference of the tree leads (a source and a JSON
pointer of the document as written); this module writes each document in the internal form
(:mod:`codegen.core.translate`), where each ``$ref`` becomes a relative path and a JSON pointer
*of the internal form* (a reference already written so is left as it is, byte for byte), each
``$dynamicRef`` (and 2019-09's ``$recursiveRef``) its static target the same way, with the
dynamic anchor it looks for on the side, and lists each resource's dynamic anchors.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from codegen.core.drafts import Draft
from codegen.core.jsonpos import pointer_tokens, resolve_pointer
from codegen.core.translate import LEFT_OUT, Internal, TranslationError, internal_pointer, translate
from codegen.core.walk import joined

__all__ = ["Problem", "Resolved", "Rewriter", "Source", "Target"]


class Problem(Exception):
    """A file cannot be read: ``pointer`` of the source named ``rel``, a message and a rule.

    ``at``: the line and column, for a file that is not a readable JSON object at all
    (``unreadable``: it has no positions to find the pointer in).
    """

    def __init__(
        self,
        rel: PurePosixPath,
        pointer: str,
        message: str,
        rule: str,
        *,
        at: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.rel, self.pointer, self.message, self.rule = rel, pointer, message, rule
        self.at = at

    @property
    def unreadable(self) -> bool:
        """Whether the file is no readable JSON object (it is not in the tree)."""
        return self.at is not None


@dataclass(eq=False)
class Source:
    """One document of the tree as read from disk (or from a mapped folder)."""

    rel: PurePosixPath
    path: Path
    uri: str
    raw: Any
    draft: Draft
    external: bool = False
    text: str | None = None  # external documents keep their text here for positions

    @cached_property
    def key(self) -> str:
        """The source's path as a string (its name in the tree)."""
        return self.rel.as_posix()


@dataclass(eq=False)
class Resolved:
    """What every job reads of one source (see the module's docstring)."""

    source: Source
    internal: Internal
    dynamic: dict[str, str | None] = field(default_factory=dict)  # $dynamicRef -> anchor
    resources: dict[str, dict[str, str]] = field(default_factory=dict)  # root -> anchor -> node


Target = tuple[Source, str, str | None]
"""Where a reference leads: a source, a pointer of it as written, the dynamic anchor sought."""


class Rewriter:
    """The internal form of each source, given where every reference leads.

    ``targets``: (source name, pointer of the schema holding the reference, keyword) -> target;
    ``resources``: source name -> each resource's pointer -> its dynamic anchors' pointers;
    ``moved``: source name -> the pointers references target where its draft reads no schema
    (the internal form moves them under the root's ``$defs``). ``failed`` (lint's permissive
    reading): the references that resolve to nothing, left out of the internal form; a value the
    draft cannot read is left out too, its problem kept in :attr:`problems`.
    """

    def __init__(
        self,
        targets: Mapping[tuple[PurePosixPath, str, str], Target],
        resources: Mapping[PurePosixPath, Mapping[str, Mapping[str, str]]],
        moved: Mapping[PurePosixPath, Collection[str]],
        failed: Collection[tuple[PurePosixPath, str, str]] | None = None,
    ) -> None:
        self.targets = targets
        self.resources = resources
        self.failed = failed
        self.problems: list[Problem] = []
        self.moved = {rel: frozenset(at) for rel, at in moved.items()}
        # Each source's references that the internal form writes anew (or leaves out).
        self.refs: dict[PurePosixPath, list[tuple[str, str]]] = {}
        for rel, pointer, key in (*targets, *(failed or ())):
            self.refs.setdefault(rel, []).append((pointer, key))

    def internal(self, source: Source, *, plain: bool = False) -> Resolved:
        """``source`` in the internal form; ``plain``: a 2020-12 document that is its own
        internal form but for its references (then it is, when none needs rewriting)."""
        moved = self.moved.get(source.rel, frozenset())
        if (
            plain
            and not moved
            and all(
                self.value(source, pointer, key, resolve_pointer(source.raw, pointer)[key], moved)
                is resolve_pointer(source.raw, pointer)[key]
                for pointer, key in self.refs.get(source.rel, ())
            )
        ):
            resources = {root: dict(a) for root, a in self.resources[source.rel].items()}
            return Resolved(source, Internal(source.raw), {}, resources)
        resolved = Resolved(source, Internal(None))

        def value(at: str, key: str, written: Any) -> Any:
            if key != "$ref" and (source.rel, at, key) in self.targets:
                here = internal_pointer(source.raw, source.draft, at, moved)
                resolved.dynamic[here or at] = self.targets[(source.rel, at, key)][2]
            return self.value(source, at, key, written, moved)

        document = source.raw
        while resolved.internal.data is None:
            try:
                resolved.internal = translate(document, source.draft, value, moved)
            except TranslationError as exc:
                problem = Problem(source.rel, exc.pointer, exc.message, "JSON")
                if self.failed is None or not exc.pointer:
                    raise problem from None
                self.problems.append(problem)
                document = _without(document, exc.pointer)
        for root, anchors in self.resources[source.rel].items():
            inner_root = internal_pointer(source.raw, source.draft, root, moved)
            if inner_root is None:
                continue
            resolved.resources[inner_root] = {
                name: internal_pointer(source.raw, source.draft, at, moved) or at
                for name, at in anchors.items()
            }
        return resolved

    def value(self, source: Source, at: str, key: str, written: Any, moved: Collection[str]) -> Any:
        """The internal value of the reference ``key`` of the schema at ``at``."""
        found = self.targets.get((source.rel, at, key))
        if found is None and self.failed is not None and (source.rel, at, key) in self.failed:
            return LEFT_OUT
        if found is None:  # ignored where it stands, and never targeted: never read
            return written
        target, pointer, _ = found
        target_moved = moved if target is source else self.moved.get(target.rel, frozenset())
        inner = internal_pointer(target.raw, target.draft, pointer, target_moved)
        assert inner is not None, (target.rel, pointer)
        return _written(source, written, target, inner)


def _without(document: Any, pointer: str) -> Any:
    """A copy of ``document`` without the value at ``pointer`` (an entry of a list is read as
    ``{}``, so that the pointers after it stay as written); only the path to it is copied."""
    *parents, last = pointer_tokens(pointer)
    top = copy = dict(document) if isinstance(document, dict) else list(document)
    for token in parents:
        key: Any = int(token) if isinstance(copy, list) else token
        inner = copy[key]
        copy[key] = inner = dict(inner) if isinstance(inner, dict) else list(inner)
        copy = inner
    if isinstance(copy, list):
        copy[int(last)] = {}
    else:
        del copy[last]
    return top


def _literal(source: Source, written: str) -> tuple[Source | str, str] | None:
    """What ``written`` names read as a relative path and a JSON pointer: ``source`` itself or
    the path of another file, and the pointer (None when it is no such reference)."""
    path, _, fragment = written.partition("#")
    if ":" in path and urlsplit(written).scheme:
        return None
    if not path:
        return source, unquote(fragment)
    folder = source.rel.as_posix().rpartition("/")[0]
    try:
        return joined(folder, path), unquote(fragment)
    except ValueError:
        return None


def _written(source: Source, written: Any, target: Source, pointer: str) -> str:
    """The reference from ``source`` to ``pointer`` of ``target``: ``written`` itself when it
    reads so already (a relative path and a JSON pointer)."""
    if isinstance(written, str):
        read = _literal(source, written)
        if read is not None and read[1] == pointer and read[0] in (target, target.key):
            return written
    anchor = "#" + quote(pointer, safe="/~!$&'()*+,;=:@") if pointer else ""
    if target is source:
        return anchor or "#"
    start = source.rel.parent.as_posix()
    return posixpath.relpath(target.rel.as_posix(), start) + anchor
