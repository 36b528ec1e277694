"""The two versions a breaking-change check compares, and the pairs its rules are given.

:class:`Side` is one version of the schema folder, :class:`Node` a schema node of one side;
:class:`ContractPair` and :class:`NodePair` pair them. Contracts pair by ``$id``
(:func:`pair_contracts`): a contract whose ``$id`` is gone pairs with the current file of the
same path or title (its ``$id`` was changed), else it was deleted. :func:`describe` words a
place of a contract for findings. The walk down a pair of contracts is
:mod:`codegen.breaking.walk`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from codegen.core.jsonpos import pointer_tokens
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["ContractPair", "Node", "NodePair", "Side", "describe", "pair_contracts", "root_pair"]


@dataclass(frozen=True)
class Side:
    """One version of the schema folder, and the folder shown in front of its paths."""

    tree: SchemaTree
    display_root: str

    def shown(self, schema: SchemaFile) -> str:
        """The file's path as findings show it: a document outside the schema folder by its
        path in the project (where the schema folder is ``display_root``), else its URI."""
        if schema.external:
            project, path = self.tree.root.resolve(), schema.path.resolve()
            for _ in PurePosixPath(self.display_root).parts:
                project = project.parent
            local = schema.path.is_absolute() and path.is_relative_to(project)
            return path.relative_to(project).as_posix() if local else schema.uri
        return f"{self.display_root}/{schema.rel}" if self.display_root else str(schema.rel)


@dataclass(frozen=True)
class Node:
    """A schema node of one side: where it is shown, and its content with refs resolved.

    ``file``/``pointer`` locate the node for findings; ``home``/``base`` are where its
    content was written (the target file and pointer when a ``$ref`` was resolved), which
    is where its children are.
    """

    side: Side
    file: SchemaFile
    pointer: str
    value: Any
    home: SchemaFile
    base: str

    def child(self, key: str, value: Any) -> Node:
        here = f"{self.base}/{key}"
        return Node(self.side, self.home, here, value, self.home, here)


@dataclass(frozen=True)
class ContractPair:
    """The previous and current file of one contract, named by its current title."""

    name: str
    prev: SchemaFile
    cur: SchemaFile
    prev_side: Side
    cur_side: Side


@dataclass(frozen=True)
class NodePair:
    """A previous and a current node at the same place of one contract."""

    contract: str
    prev: Node
    cur: Node
    opaque: frozenset[str] = field(default_factory=frozenset)


def pair_contracts(
    previous: Side, current: Side
) -> tuple[list[ContractPair], list[SchemaFile], list[tuple[ContractPair, str]]]:
    """Pairs by identity (``$id``, else the path), the deleted previous files, and pairs
    found by path or title whose identity changed (with the previous ``$id``)."""
    by_id = {f.identity: f for f in current.tree.files}
    pairs, deleted, moved_id = [], [], []
    claimed = {f.identity for f in previous.tree.files} & set(by_id)
    for prev in previous.tree.files:
        cur = by_id.get(prev.identity)
        if cur is not None:
            pairs.append(ContractPair(cur.title, prev, cur, previous, current))
            continue
        candidates = [
            f
            for f in current.tree.files
            if f.identity not in claimed and (f.rel == prev.rel or f.title == prev.title)
        ]
        if candidates:
            pair = ContractPair(candidates[0].title, prev, candidates[0], previous, current)
            claimed.add(candidates[0].identity)
            moved_id.append((pair, prev.schema_id))
        else:
            deleted.append(prev)
    return pairs, deleted, moved_id


def root_pair(pair: ContractPair) -> NodePair:
    prev = Node(pair.prev_side, pair.prev, "", pair.prev.data, pair.prev, "")
    cur = Node(pair.cur_side, pair.cur, "", pair.cur.data, pair.cur, "")
    return NodePair(pair.name, prev, cur)


_KINDS = {"properties": "", "$defs": "$defs.", "items": "[]", "additionalProperties": "{}"}


def describe(
    contract: str, pointer: str, *, capital: bool = False, file: SchemaFile | None = None
) -> str:
    """``property "files_changed[].file_path" of TaskResult (/properties/...)``; with
    ``file``, the pointer as the file writes it (and its URI when ``contract`` is empty)."""
    tokens = pointer_tokens(pointer)
    if file is not None:
        contract, pointer = contract or file.uri, file.file_pointer(pointer)
    path, index = "", 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("properties", "$defs") and index + 1 < len(tokens):
            name = tokens[index + 1]
            path += ("." if path and token == "properties" else "") + _KINDS[token] + name
            index += 2
            continue
        if token in ("prefixItems", "patternProperties") and index + 1 < len(tokens):
            inner = tokens[index + 1]
            path += f"[{inner}]" if token == "prefixItems" else f"{{{inner}}}"
            index += 2
            continue
        if token in ("items", "additionalProperties", "unevaluatedProperties",
                     "unevaluatedItems", "propertyNames"):  # fmt: skip
            path += {"unevaluatedProperties": "{}", "unevaluatedItems": "[]",
                     "propertyNames": "{names}"}.get(token, _KINDS.get(token, ""))  # fmt: skip
        index += 1
    if not path:
        text = f"{contract} ({pointer or '/'})"
    elif path.startswith("$defs."):
        text = f'definition "{path[6:]}" of {contract} ({pointer})'
    elif path[0] in "[{":
        text = f'value "{path}" of {contract} ({pointer})'
    else:
        text = f'property "{path}" of {contract} ({pointer})'
    return text[0].upper() + text[1:] if capital else text
