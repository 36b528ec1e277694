"""The changes of a changelog that are no breaking finding: additions, deprecations, documentation.

The breaking check (:func:`codegen.breaking.table.compare`) reports what a version refuses or
breaks; a changelog also says what was added, deprecated or documented. This module finds
those by pairing the two documents of each contract node for node, where they are written
(``$ref`` is not followed: a referenced file is a contract of its own, with its own changes):

* added: a contract, a property, a definition (``$defs`` entry) or an enum value;
* deprecated: a node newly marked ``"deprecated": true``;
* documentation: ``description``, ``examples``, ``$comment``, a ``title`` that names no
  class (the root's and titled ``$defs`` entries' titles are class names: the check's), and
  ``deprecated`` lifted;
* changed: a ``default`` (the data accepted is the same, the value a model fills is not),
  the draft a contract is read by (its ``$schema``: what each version accepts is compared by
  the breaking check, which reports any difference), and, for a contract with no other entry,
  any other rewrite (:func:`rewritten`).

Subschemas pair by keyword, by name in maps, by index in lists of the same length, and by
equal content in lists whose length changed. Everything in an added subtree is the addition.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from codegen.breaking.pairs import ContractPair, describe, pair_contracts
from codegen.breaking.table import Side
from codegen.breaking.walk import canonical
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, SchemaFile

__all__ = ["DOC_KEYWORDS", "Change", "changes", "rewritten"]

ChangeKind = Literal["added", "deprecated", "documentation", "changed"]
DOC_KEYWORDS = ("title", "description", "examples", "$comment")
"""The keywords whose change is documentation only (and ``deprecated``, when it is lifted)."""


@dataclass(frozen=True)
class Change:
    """One change found here: its kind and rule, and where it is (a node of one side)."""

    kind: ChangeKind
    rule: str
    contract: str
    side: Side
    file: SchemaFile
    pointer: str
    message: str


def changes(previous: Side, current: Side) -> Iterator[Change]:
    """Every addition, deprecation, documentation change and changed default."""
    pairs, _, moved = pair_contracts(previous, current)
    paired = [*pairs, *(pair for pair, _ in moved)]
    kept = {pair.cur.identity for pair in paired}
    for schema in current.tree.files:
        if schema.identity not in kept:
            message = f'Contract "{schema.title}" ({schema.identity}) was added.'
            yield Change("added", "CONTRACT_ADDED", schema.title, current, schema, "", message)
    for pair in paired:
        if pair.prev.draft is not pair.cur.draft:
            message = (
                f'The draft of contract "{pair.name}" was changed from {pair.prev.draft.name} '
                f"to {pair.cur.draft.name}; the breaking check compares what the two accept."
            )
            at = "/$schema" if "$schema" in pair.cur.data else ""
            yield Change("changed", "DRAFT_CHANGED", pair.name, current, pair.cur, at, message)
        for prev_at, cur_at, prev, cur in _node_pairs(pair.prev.data, pair.cur.data, "", ""):
            yield from _node_changes(pair, prev_at, cur_at, prev, cur)


def rewritten(previous: Side, current: Side, explained: Collection[str]) -> Iterator[Change]:
    """A change for each contract whose document changed while nothing else names it.

    ``explained`` holds the contracts that have entries already. A rewrite the check finds
    no difference in (a reordered ``enum``, a pattern written anew) is still a change: the
    changelog never says "none" for schemas that differ.
    """
    pairs, _, moved = pair_contracts(previous, current)
    for pair in [*pairs, *(pair for pair, _ in moved)]:
        if pair.name in explained or canonical(pair.prev.data) == canonical(pair.cur.data):
            continue
        message = (
            f"The schema of {pair.name} was rewritten; the breaking check found no document "
            "it reads differently."
        )
        yield Change("changed", "SCHEMA_REWRITTEN", pair.name, current, pair.cur, "", message)


# ---------------------------------------------------------------------------- pairing


def _stripped(node: Any) -> str:
    """A subschema as compared when pairing list entries: its annotations left out."""
    if isinstance(node, dict):
        node = {k: v for k, v in node.items() if k not in (*DOC_KEYWORDS, "deprecated", "default")}
    return canonical(node)


def _matched(before: list[Any], after: list[Any]) -> Iterator[tuple[int, int]]:
    """Index pairs of two lists of subschemas: by place, or by content when lengths differ."""
    if len(before) == len(after):
        yield from ((i, i) for i in range(len(after)))
        return
    free = {i: _stripped(entry) for i, entry in enumerate(before)}
    for j, entry in enumerate(after):
        key = _stripped(entry)
        match = next((i for i, k in free.items() if k == key), None)
        if match is not None:
            del free[match]
            yield match, j


def _node_pairs(
    prev: Any, cur: Any, prev_at: str, cur_at: str
) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """The pair of schema objects at ``prev_at``/``cur_at`` and every pair below it."""
    if not (isinstance(prev, dict) and isinstance(cur, dict)):
        return
    yield prev_at, cur_at, prev, cur
    for key in SCHEMA_ONE:
        yield from _node_pairs(prev.get(key), cur.get(key), f"{prev_at}/{key}", f"{cur_at}/{key}")
    for key in SCHEMA_MAP:
        before, after = prev.get(key), cur.get(key)
        if isinstance(before, dict) and isinstance(after, dict):
            for name in [n for n in after if n in before]:
                token = f"/{key}/{escape_pointer(name)}"
                yield from _node_pairs(before[name], after[name], prev_at + token, cur_at + token)
    for key in SCHEMA_LIST:
        before, after = prev.get(key), cur.get(key)
        if isinstance(before, list) and isinstance(after, list):
            for i, j in _matched(before, after):
                yield from _node_pairs(before[i], after[j], f"{prev_at}/{key}/{i}",
                                       f"{cur_at}/{key}/{j}")  # fmt: skip


# ---------------------------------------------------------------------------- one node


def _subject(
    contract: str, pointer: str, *, capital: bool = False, file: SchemaFile | None = None
) -> str:
    """``contract "Note"`` for the root, else what :func:`describe` says."""
    if pointer == "":
        return f'{"C" if capital else "c"}ontract "{contract}"'
    return describe(contract, pointer, capital=capital, file=file)


def _change(pair: ContractPair, kind: ChangeKind, rule: str, pointer: str, text: str) -> Change:
    return Change(kind, rule, pair.name, pair.cur_side, pair.cur, pointer, text)


def _names_class(pointer: str, prev: dict[str, Any], cur: dict[str, Any]) -> bool:
    """Whether the node's title is a class name: the root's, or a titled ``$defs`` entry's."""
    parts = pointer.split("/")
    titled = "title" in prev or "title" in cur
    return pointer == "" or (len(parts) == 3 and parts[1] == "$defs" and titled)


def _docs_changed(prev: dict[str, Any], cur: dict[str, Any], cur_at: str) -> list[str]:
    keys = [k for k in DOC_KEYWORDS if canonical(prev.get(k)) != canonical(cur.get(k))]
    if keys and keys[0] == "title" and _names_class(cur_at, prev, cur):
        keys.pop(0)
    if prev.get("deprecated") is True and cur.get("deprecated") is not True:
        keys.append("deprecation")
    return keys


def _node_changes(
    pair: ContractPair, prev_at: str, cur_at: str, prev: dict[str, Any], cur: dict[str, Any]
) -> Iterator[Change]:
    name = pair.name
    subject = _subject(name, cur_at, file=pair.cur)
    if cur.get("deprecated") is True and prev.get("deprecated") is not True:
        said = cur.get("description")
        text = f"{_subject(name, cur_at, capital=True, file=pair.cur)} was deprecated" + (
            f": {said}" if isinstance(said, str) and said else "."
        )
        yield _change(pair, "deprecated", "DEPRECATED", f"{cur_at}/deprecated", text)
    keys = _docs_changed(prev, cur, cur_at)
    if keys:
        listed = " and ".join([", ".join(keys[:-1]), keys[-1]] if len(keys) > 1 else keys)
        first = next((k for k in keys if k in cur), None)
        where = f"{cur_at}/{escape_pointer(first)}" if first else cur_at
        text = f"The {listed} of {subject} changed."
        yield _change(pair, "documentation", "DOCS_CHANGED", where, text)
    if canonical(prev.get("default")) != canonical(cur.get("default")):
        old, new = (canonical(n["default"]) if "default" in n else "none" for n in (prev, cur))
        text = f"The default of {subject} was changed from {old} to {new}."
        where = f"{cur_at}/default" if "default" in cur else cur_at
        yield _change(pair, "changed", "DEFAULT_CHANGED", where, text)
    yield from _added(pair, prev, cur, cur_at)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _added(
    pair: ContractPair, prev: dict[str, Any], cur: dict[str, Any], at: str
) -> Iterator[Change]:
    for key, rule in (("properties", "PROPERTY_ADDED"), ("$defs", "DEFINITION_ADDED")):
        known, found = _mapping(prev.get(key)), _mapping(cur.get(key))
        for entry, node in found.items():
            if entry in known:
                continue
            here = f"{at}/{key}/{escape_pointer(entry)}"
            subject = describe(pair.name, here, capital=True, file=pair.cur)
            title = node.get("title") if isinstance(node, dict) else None
            named = f' (generated class "{title}")' if key == "$defs" and title else ""
            yield _change(pair, "added", rule, here, f"{subject}{named} was added.")
    before, after = prev.get("enum"), cur.get("enum")
    if isinstance(before, list) and isinstance(after, list):
        listed = {canonical(v) for v in before}
        subject = _subject(pair.name, at, capital=True, file=pair.cur)
        for value in dict.fromkeys(canonical(v) for v in after):
            if value not in listed:
                text = f"{subject} lists the new enum value {value}."
                yield _change(pair, "added", "ENUM_EXTENDED", f"{at}/enum", text)
