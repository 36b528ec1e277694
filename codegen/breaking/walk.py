"""Pair two versions of a schema folder: contracts by ``$id``, then nodes down the tree.

Shared adapters of the breaking-change rules (:mod:`codegen.breaking.table`), as in buf: the
rules are small functions of one pair, and this module decides what is paired with what.

* Contracts pair by ``$id``; a contract whose ``$id`` is gone pairs with the current file of
  the same path or title (its ``$id`` was changed), else it was deleted.
* Inside a pair, properties pair by name, and the walk enters nested object schemas,
  ``items``, ``additionalProperties``, ``$defs`` (by name) and ``anyOf`` branches, each
  paired with the branch that is the same one (:func:`_branch_pairs`: an equal subtree, then
  the same place, then the same JSON types), never by the order the walk meets them.
* A ``$ref`` naming the same target on both sides is opaque: the target is compared once,
  where it is defined. A ``$ref`` without such a counterpart is resolved in its own side's
  tree and compared as if its target were written inline.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = [
    "ContractPair",
    "Node",
    "NodePair",
    "Side",
    "aligned",
    "describe",
    "json_types",
    "pair_contracts",
    "root_pair",
    "walk",
]


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


def _target(node: Node, ref: Any) -> str | None:
    """A stable identity of what ``ref`` (written in ``node``'s home file) names."""
    if not isinstance(ref, str):
        return None
    try:
        target, fragment = node.side.tree.resolve(node.home, ref)
    except (KeyError, ValueError):
        return None
    return f"{target.identity}#{fragment}"


def _refs_at(node: Node) -> set[str]:
    value = node.value
    if not isinstance(value, dict):
        return set()
    refs = {_target(node, value.get("$ref"))}
    for branch in value.get("anyOf") or []:
        if isinstance(branch, dict):
            refs.add(_target(node, branch.get("$ref")))
    refs.discard(None)
    return {r for r in refs if r is not None}


def _resolve(node: Node, opaque: frozenset[str], depth: int = 0) -> Node:
    """``node`` with a top-level ``$ref`` not in ``opaque`` replaced by its target."""
    value = node.value
    if not isinstance(value, dict) or "$ref" not in value or depth > 32:
        return node
    target_id = _target(node, value["$ref"])
    if target_id is None or target_id in opaque:
        return node  # kept as a reference: compared where its target is defined
    home, fragment = node.side.tree.resolve(node.home, value["$ref"])
    if home.external:
        return node  # no generated class holds what a document outside the folder says
    siblings = {k: v for k, v in value.items() if k != "$ref"}
    content = resolve_pointer(home.data, fragment)
    inner = _resolve(Node(node.side, home, fragment, content, home, fragment), opaque, depth + 1)
    merged = {**inner.value, **siblings} if isinstance(inner.value, dict) else inner.value
    return Node(node.side, node.file, node.pointer, merged, inner.home, inner.base)


def resolved(pair: NodePair) -> NodePair:
    """The pair with refs resolved, except those naming the same target on both sides."""
    opaque = frozenset(_refs_at(pair.prev) & _refs_at(pair.cur))
    return NodePair(pair.contract, _resolve(pair.prev, opaque), _resolve(pair.cur, opaque), opaque)


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"


def _meet(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None or b is None:
        return a if b is None else b
    widened = {t for t in a if t in b or (t == "integer" and "number" in b)}
    widened |= {t for t in b if t == "integer" and "number" in a}
    return frozenset(widened)


def json_types(node: Node, opaque: frozenset[str]) -> frozenset[str] | None:
    """The JSON types ``node`` accepts (``ref:ID`` for an opaque ref), None for any type."""
    value = node.value
    if value is True or not isinstance(value, dict):
        return None if value is not False else frozenset()
    result: frozenset[str] | None = None
    target = _target(node, value.get("$ref"))
    if target is not None and target in opaque:
        result = frozenset({f"ref:{target}"})
    if "type" in value:
        kinds = value["type"] if isinstance(value["type"], list) else [value["type"]]
        result = _meet(result, frozenset(str(k) for k in kinds))
    if "const" in value:
        result = _meet(result, frozenset({_json_type(value["const"])}))
    if isinstance(value.get("enum"), list):
        result = _meet(result, frozenset(_json_type(v) for v in value["enum"]))
    if isinstance(value.get("anyOf"), list):
        union: set[str] = set()
        for index, branch in enumerate(value["anyOf"]):
            sub = node.child(f"anyOf/{index}", branch)
            target = _target(sub, branch.get("$ref")) if isinstance(branch, dict) else None
            if target is not None and target in opaque:
                union.add(f"ref:{target}")
                continue
            branch_kinds = json_types(_resolve(sub, opaque), opaque)
            if branch_kinds is None:
                return result  # one branch takes any type: the union does too
            union |= branch_kinds
        result = _meet(result, frozenset(union))
    return result


def canonical(value: Any) -> str:
    """A JSON value as a canonical string (``true`` and ``1`` stay different)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _branches(node: Node) -> list[Node]:
    value = node.value
    if isinstance(value, dict) and isinstance(value.get("anyOf"), list):
        return [node.child(f"anyOf/{i}", b) for i, b in enumerate(value["anyOf"])]
    return [node]


def aligned(pair: NodePair) -> bool:
    """Whether both sides are ``anyOf`` unions or neither is (else branches are compared)."""
    prev, cur = pair.prev.value, pair.cur.value
    return (isinstance(prev, dict) and "anyOf" in prev) == (
        isinstance(cur, dict) and "anyOf" in cur
    )


def _children(pair: NodePair) -> Iterator[NodePair]:
    prev, cur = pair.prev.value, pair.cur.value
    if not (isinstance(prev, dict) and isinstance(cur, dict)):
        return
    if not aligned(pair) or "anyOf" in cur:
        yield from _branch_pairs(pair)
        return
    for key in ("properties", "$defs"):
        prev_map, cur_map = prev.get(key) or {}, cur.get(key) or {}
        for name in [n for n in prev_map if n in cur_map]:
            token = f"{key}/{escape_pointer(name)}"
            yield NodePair(
                pair.contract,
                pair.prev.child(token, prev_map[name]),
                pair.cur.child(token, cur_map[name]),
            )
    for key in ("items", "additionalProperties"):
        if isinstance(prev.get(key), dict) or isinstance(cur.get(key), dict):
            yield NodePair(
                pair.contract,
                pair.prev.child(key, prev.get(key, True)),
                pair.cur.child(key, cur.get(key, True)),
            )


def _branch_key(node: Node, opaque: frozenset[str]) -> str | None:
    value = node.value
    if isinstance(value, dict) and _target(node, value.get("$ref")) in opaque:
        return None  # the same target on both sides: compared where it is defined
    kinds = json_types(_resolve(node, opaque), opaque)
    return ",".join(sorted(kinds)) if kinds is not None else "any"


def _stripped(value: Any) -> Any:
    """A parsed subtree without its annotations (what it says of instances, as written)."""
    if isinstance(value, dict):
        return {k: _stripped(v) for k, v in value.items() if k not in _ANNOTATIONS}
    if isinstance(value, list):
        return [_stripped(v) for v in value]
    return value


_ANNOTATIONS = frozenset(
    {"title", "description", "examples", "default", "deprecated", "$comment", "readOnly",
     "writeOnly", "markdownDescription"}
)  # fmt: skip


def _branch_pairs(pair: NodePair) -> Iterator[NodePair]:
    """Each previous branch with the current branch that is the same one; a plain schema is
    one branch.

    Branches are paired by what they are, never by the order they are met: first a branch
    equal to it (the parsed subtree, then the same subtree with other annotations), then the
    branch at the same place (the same index of the same union), then, for what is left, a
    branch of the same JSON types, in order. Each branch is paired at most once, so a branch
    added, removed or moved between unchanged ones pairs nothing it is not.
    """
    earlier = [(b, _branch_key(b, pair.opaque)) for b in _branches(pair.prev)]
    later = [(b, _branch_key(b, pair.opaque)) for b in _branches(pair.cur)]
    earlier = [(b, k) for b, k in earlier if k is not None]
    later = [(b, k) for b, k in later if k is not None]
    matched: dict[int, int] = {}  # previous index -> current index
    taken: set[int] = set()

    def match(same: Any) -> None:
        for i, (prev, prev_key) in enumerate(earlier):
            if i in matched:
                continue
            for j, (cur, cur_key) in enumerate(later):
                if j not in taken and same(prev, prev_key, cur, cur_key):
                    matched[i] = j
                    taken.add(j)
                    break

    match(lambda a, _, b, __: canonical(a.value) == canonical(b.value))
    match(lambda a, _, b, __: canonical(_stripped(a.value)) == canonical(_stripped(b.value)))
    if aligned(pair):
        match(lambda a, ka, b, kb: a.pointer.rsplit("/", 1)[-1] == b.pointer.rsplit("/", 1)[-1]
              and ka == kb)  # fmt: skip
    match(lambda a, ka, b, kb: ka == kb)
    for i, j in sorted(matched.items()):
        yield NodePair(pair.contract, earlier[i][0], later[j][0])


def walk(pair: NodePair, depth: int = 0) -> Iterator[NodePair]:
    """``pair`` (refs resolved) and every pair below it, parents first."""
    if depth > 64:
        return
    current = resolved(pair)
    yield current
    for child in _children(current):
        yield from walk(child, depth + 1)


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
