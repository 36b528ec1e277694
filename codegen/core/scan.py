"""One reading of a document by its draft (:func:`scan`): its base URIs (``$id``, draft-04's
``id``, embedded resources), its anchors (``$anchor``, plain-name ``$id`` fragments,
``$dynamicAnchor``, ``$recursiveAnchor``) as the ``referencing`` library reads that draft, its
references, and whether it is its own internal form. It depends on the document's content, URI
and draft only, so a run that loads the same folder again reads only the files that changed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from codegen.core.drafts import ANNOTATIONS, DRAFTS, Role, by_uri
from codegen.core.jsonpos import escape_pointer
from codegen.core.rewrite import Problem, Source
from codegen.core.translate import children

__all__ = ["RECURSIVE", "Scan", "scan", "split_reference"]


RECURSIVE = "$recursiveAnchor"  # the dynamic anchor 2019-09's $recursiveAnchor: true declares


# The keywords a draft 2020-12 document may hold and still be its own internal form.
_PLAIN = frozenset(
    k for k, role in DRAFTS[-1].keywords.items()
    if role not in (Role.ID, Role.CORE, Role.DYNAMIC_REF, Role.DYNAMIC_ANCHOR, Role.DEFS)
) | ANNOTATIONS | {"$defs"}  # fmt: skip


_PLAIN_ROOT = _PLAIN | {"$id"}


@dataclass
class Scan:
    """What one reading of a document (or of a subschema of it) finds."""

    resources: dict[str, str] = field(default_factory=dict)  # pointer -> base URI
    anchors: dict[tuple[str, str], tuple[str, bool]] = field(default_factory=dict)  # (resource,
    # name) -> (pointer, dynamic); 2019-09's $recursiveAnchor: true is the anchor RECURSIVE
    refs: list[tuple[str, str, Any, str, bool]] = field(default_factory=list)  # (pointer of
    # the schema, keyword, value, base URI, kept)
    plain: bool = True  # a 2020-12 document that is its own internal form (references aside)
    problems: list[Problem] = field(default_factory=list)  # what makes it no schema of its draft


@functools.lru_cache(maxsize=1 << 16)
def split_reference(base: str, value: str) -> tuple[str, str]:
    """The URI and the fragment (decoded) a reference names from ``base``, as referencing reads
    it (a fragment alone names the base itself, also a URN)."""
    if value.startswith("#"):
        return base, unquote(value[1:])
    uri, fragment = urldefrag(urljoin(base, value))
    return uri, unquote(fragment)


def _pointer(tokens: tuple[str, ...]) -> str:
    return "".join(f"/{escape_pointer(t)}" for t in tokens)


def scan(source: Source, node: Any = None, at: str = "", base: str | None = None) -> Scan:
    """Read ``source`` (or its subschema ``node`` at ``at``, under ``base``) by its draft."""
    draft, spec = source.draft, source.draft.specification
    id_key = "id" if draft.keywords.get("id") == Role.ID else "$id"
    found = Scan(plain=draft is DRAFTS[-1] and node is None)
    named = ("$anchor", "$dynamicAnchor") if "$anchor" in draft.keywords else ("$id", "id")
    refs = [k for k in ("$ref", "$dynamicRef", "$recursiveRef") if k in draft.keywords]
    recursive = RECURSIVE in draft.keywords
    # (path below ``at``, node, kept, base URI, pointer of the resource it belongs to)
    pending: list[tuple[tuple[str, ...], Any, bool, str, str]] = [
        ((), source.raw if node is None else node, True, base or source.uri, at)
    ]
    while pending:
        path, sub, kept, here, owner = pending.pop()
        if not isinstance(sub, dict):
            continue
        identifier = spec.id_of(sub)  # None for one that is not a string
        if id_key in sub and not isinstance(sub[id_key], str):
            where = f"{at}{_pointer(path)}/{id_key}"
            found.problems.append(Problem(source.rel, where, f"{id_key} must be a string", "JSON"))
        if identifier is not None or not (path or at):
            owner = at + _pointer(path)
            here = urljoin(here, identifier.rstrip("#")) if identifier is not None else here
            found.resources[owner] = here
            if owner and "$schema" in sub and by_uri(sub["$schema"]) is not draft:
                message = (f"an embedded resource in another draft ({sub['$schema']!r}) than its "
                           f"file's ({draft.name}) is not supported: write it in {draft.name}, "
                           "or as a file of its own")  # fmt: skip
                found.problems.append(Problem(source.rel, f"{owner}/$schema", message, "DRAFT"))
        if found.plain and not sub.keys() <= (_PLAIN if path else _PLAIN_ROOT):
            found.plain = False
        if named[0] in sub or named[1] in sub:
            pointer = at + _pointer(path)
            for anchor in spec.anchors_in(sub):
                dynamic = type(anchor).__name__ == "DynamicAnchor"
                found.anchors.setdefault((owner, anchor.name), (pointer, dynamic))
        if recursive and sub.get(RECURSIVE) is True and owner == at + _pointer(path):
            found.anchors.setdefault((owner, RECURSIVE), (owner, True))
        for key in refs:
            if key in sub:
                found.refs.append((at + _pointer(path), key, sub[key], here, kept))
        for tokens, child, keep in reversed(children(sub, draft, kept)):
            pending.append(((*path, *tokens), child, keep, here, owner))
    return found
