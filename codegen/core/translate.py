"""Read a schema document by its draft, and write it in the internal form (draft 2020-12).

Every job reads a schema file in one form, :attr:`codegen.core.loader.SchemaFile.data`: the
keywords of draft 2020-12, meaning what the file's own draft says (:mod:`codegen.core.drafts`
holds the differences). The translation is exact:

* draft-04 to 2019-09: ``items`` holding a list is ``prefixItems``, and ``additionalItems``
  beside it is ``items``; ``additionalItems`` anywhere else is ignored, as those drafts say;
* draft-04 to draft-07: ``definitions`` is ``$defs``; a ``dependencies`` entry is a
  ``dependentRequired`` entry (a list of names) or a ``dependentSchemas`` one (a schema); the
  keywords beside ``$ref`` that apply to the instance are ignored, as those drafts say
  (annotations and ``definitions`` stay);
* draft-04: ``exclusiveMaximum: true`` beside ``maximum: 5`` is ``exclusiveMaximum: 5``;
* every draft: a keyword the draft does not define is ignored (lint reports it); identifiers
  (a nested ``$id``, ``$anchor``, ``$dynamicAnchor``, ``$recursiveAnchor``) are left out, since
  every reference is rewritten to name its target by file and JSON pointer
  (:mod:`codegen.core.resolve`), and a dynamic reference keeps its anchor on the side.

A subschema that a reference targets where the draft applies nothing (beside a ``$ref``, inside
a keyword the draft does not define) is moved under the root's ``$defs``, keyed by its pointer
in the file. ``origin`` maps each renamed or moved pointer back to the file's own, for
messages. A document whose draft changes nothing is returned as it is (the same objects).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from codegen.core.drafts import ANNOTATIONS, Draft, Role
from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer

__all__ = ["LEFT_OUT", "Internal", "TranslationError", "children", "internal_pointer",
           "positions", "translate"]  # fmt: skip

_SCHEMA_ONE = frozenset({Role.SCHEMA, Role.ANNOTATION_SCHEMA})
_SCHEMA_MANY = frozenset({Role.SCHEMA_MAP, Role.SCHEMA_LIST, Role.DEFS})
_NAMED = frozenset({Role.SCHEMA_MAP, Role.DEFS, Role.DEPENDENCIES})
# The roles whose values hold no schema.
_NO_SCHEMA = frozenset({Role.VALUE, Role.EXCLUSIVE_FLAG, Role.ID, Role.REF, Role.DYNAMIC_REF,
                        Role.DYNAMIC_ANCHOR, Role.CORE})  # fmt: skip
# What stays beside a $ref in the drafts where $ref ignores the keywords beside it.
_BESIDE_REF = frozenset({Role.REF, Role.DEFS, Role.ID, Role.CORE})
# draft-04's boolean "additional" keywords: false forbids, true allows.
_BOOLEAN_04 = frozenset({"additionalProperties", "additionalItems"})


class TranslationError(Exception):
    """The document is not a schema of its draft, at ``pointer`` (of the file)."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.message = message


@dataclass
class Internal:
    """A document in the internal form, and where its renamed and moved pointers came from."""

    data: Any
    origin: dict[str, str] = field(default_factory=dict)  # internal pointer -> file pointer


def _ignored(draft: Draft, node: dict[str, Any], key: str) -> bool:
    """Whether ``key`` is a keyword the draft ignores in ``node`` (beside ``$ref``)."""
    return draft.ref_alone and "$ref" in node and draft.keywords.get(key) not in _BESIDE_REF


def _step(draft: Draft, node: dict[str, Any], key: str, name: str | None) -> tuple[str, ...]:
    """The internal name of the schema under ``node[key]`` (``[name]`` for maps and lists), or
    ``()`` when the draft reads no schema there."""
    role = draft.keywords.get(key)
    if role is None or key in ANNOTATIONS or _ignored(draft, node, key):
        return ()
    if role in _SCHEMA_ONE:
        return (key,)
    if name is None:
        return ()
    if role == Role.DEFS:
        return ("$defs", name)
    if role in _SCHEMA_MANY:
        return (key, name)
    if role == Role.ITEMS_SCHEMA_OR_LIST:
        return ("prefixItems", name) if isinstance(node[key], list) else ()
    if role == Role.DEPENDENCIES:
        entry = node[key].get(name) if isinstance(node[key], dict) else None
        return () if isinstance(entry, list) else ("dependentSchemas", name)
    return ()


def _one(draft: Draft, node: dict[str, Any], key: str) -> str | None:
    """The internal keyword of a single schema under ``node[key]``, or None."""
    role = draft.keywords.get(key)
    if role is None or key in ANNOTATIONS or _ignored(draft, node, key):
        return None
    if role in _SCHEMA_ONE:
        return key
    if role == Role.ITEMS_SCHEMA_OR_LIST and not isinstance(node[key], list):
        return "items"
    if role == Role.ADDITIONAL_ITEMS and isinstance(node.get("items"), list):
        return "items"
    return None


Child = tuple[tuple[str, ...], Any, bool]


def children(node: dict[str, Any], draft: Draft, kept: bool) -> list[Child]:
    """The subschemas the draft reads in ``node``: ``(tokens below node, subschema, kept)``.

    ``kept`` is False where the draft applies nothing (beside a ``$ref``; an ``additionalItems``
    without a list of ``items``): such a schema is only a place a reference may target.
    """
    found: list[Child] = []
    keywords = draft.keywords
    alone = draft.ref_alone and "$ref" in node
    for key, value in node.items():
        role = keywords.get(key)
        if role is None or role in _NO_SCHEMA or key in ANNOTATIONS:
            continue
        keep = kept and not (alone and role not in _BESIDE_REF)
        if role in _SCHEMA_ONE:
            found.append(((key,), value, keep))
        elif role == Role.ADDITIONAL_ITEMS:
            found.append(((key,), value, keep and isinstance(node.get("items"), list)))
        elif role in _NAMED and isinstance(value, dict):
            found += [
                ((key, name), sub, keep)
                for name, sub in value.items()
                if not (role == Role.DEPENDENCIES and isinstance(sub, list))
            ]
        elif role in (Role.SCHEMA_LIST, Role.ITEMS_SCHEMA_OR_LIST) and isinstance(value, list):
            found += [((key, str(i)), sub, keep) for i, sub in enumerate(value)]
        elif role == Role.ITEMS_SCHEMA_OR_LIST:
            found.append(((key,), value, keep))
    return found


def positions(
    document: Any, draft: Draft, at: str = "", kept: bool = True
) -> Iterator[tuple[str, Any, bool]]:
    """Every schema the draft reads in ``document`` (found at ``at``), parents first:
    ``(pointer, node, kept)`` (:func:`children` says what ``kept`` means)."""
    pending: list[tuple[str, Any, bool]] = [(at, document, kept)]
    while pending:
        pointer, node, keep = pending.pop()
        yield pointer, node, keep
        if isinstance(node, dict):
            below = children(node, draft, keep)
            pending += [
                (pointer + "".join(f"/{escape_pointer(t)}" for t in tokens), sub, k)
                for tokens, sub, k in reversed(below)
            ]


def internal_pointer(
    document: Any, draft: Draft, pointer: str, moved: Collection[str] = ()
) -> str | None:
    """The internal pointer of the schema at ``pointer`` of the file, or None when the draft
    reads no schema there (and it was not moved: ``moved`` holds the moved pointers)."""
    tokens = pointer_tokens(pointer)
    start = 0
    out: list[str] = []
    for end in range(len(tokens), -1, -1):  # the deepest moved ancestor, if any
        prefix = "".join(f"/{escape_pointer(t)}" for t in tokens[:end])
        if end and prefix in moved:
            start, out = end, ["$defs", prefix]
            break
    try:
        node = resolve_pointer(document, "".join(f"/{escape_pointer(t)}" for t in tokens[:start]))
    except LookupError:
        return None
    i = start
    while i < len(tokens):
        if not isinstance(node, dict) or tokens[i] not in node:
            return None
        key = tokens[i]
        one = _one(draft, node, key)
        if one is not None:
            out.append(one)
            node, i = node[key], i + 1
            continue
        name = tokens[i + 1] if i + 1 < len(tokens) else None
        step = _step(draft, node, key, name)
        if not step:
            return None
        container = node[key]
        if isinstance(container, list):
            if name is None or not name.isdigit() or int(name) >= len(container):
                return None
            node = container[int(name)]
        elif isinstance(container, dict) and name in container:
            node = container[name]
        else:
            return None
        out += step
        i += 2
    return "".join(f"/{escape_pointer(t)}" for t in out)


RefValue = Callable[[str, str, Any], Any]
"""The internal value of a reference: (file pointer of its schema, keyword, value) -> value,
or :data:`LEFT_OUT` to leave the reference out (lint reads on past one that names nothing)."""
LEFT_OUT: Any = object()


class _Translator:
    def __init__(self, draft: Draft, refs: RefValue) -> None:
        self.draft = draft
        self.refs = refs
        self.origin: dict[str, str] = {}

    def schema(self, raw: Any, at: str, to: str, key: str = "") -> Any:
        if isinstance(raw, bool):
            if not self.draft.booleans and key not in _BOOLEAN_04:
                raise TranslationError(at, f"{self.draft.name} has no boolean schemas")
            return raw
        if not isinstance(raw, dict):
            raise TranslationError(at, "a schema must be an object or a boolean")
        out: dict[str, Any] = {}
        changed = False
        for name, value in raw.items():
            new = self.keyword(raw, name, value, at=at, to=to, out=out)
            changed = changed or new
        return out if changed or len(out) != len(raw) else raw

    def rename(self, to: str, at: str) -> None:
        self.origin[to] = at

    def keyword(
        self, raw: dict[str, Any], key: str, value: Any, *, at: str, to: str, out: dict[str, Any]
    ) -> bool:
        """Write ``key`` of ``raw`` into ``out``; whether anything differs from the file."""
        draft, here = self.draft, f"{at}/{escape_pointer(key)}"
        role = draft.keywords.get(key)
        if key in ANNOTATIONS:
            out[key] = value
            return False
        if role is None or _ignored(draft, raw, key) or role in (Role.CORE, Role.DYNAMIC_ANCHOR):
            return True
        if role == Role.ID:
            if at == "":
                out["$id"] = value
                if key != "$id":
                    self.rename(f"{to}/$id", here)
            return key != "$id" or at != ""
        if role in (Role.REF, Role.DYNAMIC_REF):
            internal_key = "$ref" if role == Role.REF else "$dynamicRef"
            new = self.refs(at, key, value)
            if new is LEFT_OUT:
                return True
            out[internal_key] = new
            if internal_key != key:
                self.rename(f"{to}/{internal_key}", here)
            return new is not value or internal_key != key
        if role == Role.VALUE:
            return self.value(raw, key, value, here=here, to=to, out=out)
        if role == Role.EXCLUSIVE_FLAG:
            if not isinstance(value, bool):
                raise TranslationError(here, f"{key} must be a boolean in {draft.name}")
            return True  # read with its bound (see value)
        one = _one(draft, raw, key)
        if one is not None:
            internal_to = f"{to}/{escape_pointer(one)}"
            out[one] = new = self.schema(value, here, internal_to, key)
            if one != key:
                self.rename(internal_to, here)
            return new is not value or one != key
        if role == Role.ADDITIONAL_ITEMS:
            return True  # without a list of items: ignored
        return self.many(raw, key, value, here=here, to=to, out=out)

    def value(
        self, raw: dict[str, Any], key: str, value: Any, *, here: str, to: str, out: dict[str, Any]
    ) -> bool:
        flag = {"maximum": "exclusiveMaximum", "minimum": "exclusiveMinimum"}.get(key)
        if flag and self.draft.keywords.get(flag) == Role.EXCLUSIVE_FLAG and raw.get(flag) is True:
            out[flag] = value
            self.rename(f"{to}/{flag}", here)
            return True
        out[key] = value
        return False

    def many(
        self, raw: dict[str, Any], key: str, value: Any, *, here: str, to: str, out: dict[str, Any]
    ) -> bool:
        """A keyword holding several subschemas (or, for dependencies, lists of names)."""
        if isinstance(value, list) and self.draft.keywords[key] in (
            Role.SCHEMA_LIST,
            Role.ITEMS_SCHEMA_OR_LIST,
        ):
            internal = "prefixItems" if key == "items" else key
            new_list = [
                self.schema(sub, f"{here}/{i}", f"{to}/{internal}/{i}")
                for i, sub in enumerate(value)
            ]
            out[internal] = new_list
            if internal != key:
                self.rename(f"{to}/{internal}", here)
            return internal != key or any(n is not o for n, o in zip(new_list, value, strict=True))
        if not isinstance(value, dict):
            raise TranslationError(here, f"{key} must be an object")
        changed = False
        for name, sub in value.items():
            step = _step(self.draft, raw, key, name)
            if not step:  # a dependencies entry that is a list of names
                target = out.setdefault("dependentRequired", {})
                step = ("dependentRequired", name)
                target[name] = sub
            else:
                internal_to = f"{to}/{escape_pointer(step[0])}/{escape_pointer(name)}"
                target = out.setdefault(step[0], {})
                if name in target:
                    raise TranslationError(
                        f"{here}/{escape_pointer(name)}", f"{name!r} is defined twice in $defs"
                    )
                target[name] = self.schema(sub, f"{here}/{escape_pointer(name)}", internal_to)
                changed = changed or target[name] is not sub
            if step[0] != key:
                self.rename(f"{to}/{escape_pointer(step[0])}/{escape_pointer(name)}",
                            f"{here}/{escape_pointer(name)}")  # fmt: skip
                changed = True
        return changed


def translate(document: Any, draft: Draft, refs: RefValue, moved: Collection[str] = ()) -> Internal:
    """``document`` in the internal form. ``refs`` gives each reference its internal value;
    ``moved`` holds the pointers of the schemas to move under the root's ``$defs``."""
    translator = _Translator(draft, refs)
    data = translator.schema(document, "", "")
    if moved:
        if not isinstance(data, dict):
            raise TranslationError("", "a reference targets a part of a boolean schema")
        data = dict(data)
        defs = dict(data.get("$defs") or {})
        for pointer in sorted(moved):
            if pointer in defs:
                raise TranslationError(pointer, f"$defs already has an entry {pointer!r}")
            to = f"/$defs/{escape_pointer(pointer)}"
            defs[pointer] = translator.schema(resolve_pointer(document, pointer), pointer, to)
            translator.rename(to, pointer)
        data["$defs"] = defs
    return Internal(data, translator.origin)
