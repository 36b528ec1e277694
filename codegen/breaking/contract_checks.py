"""The contract checks of the breaking-change rules: small functions of one contract pair.

Each sees a :class:`~codegen.breaking.pairs.ContractPair` and yields hits naming their rule:
a changed title, a moved file, a deleted class, a changed base: what generated code that used
the contract depends on. Messages are past tense and name the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from codegen.breaking.node_checks import Hit
from codegen.breaking.pairs import ContractPair, Node
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["CONTRACT_CHECKS"]


def _root(pair: ContractPair, *, previous: bool = False, pointer: str = "") -> Node:
    side, schema = (pair.prev_side, pair.prev) if previous else (pair.cur_side, pair.cur)
    return Node(side, schema, pointer, schema.data, schema, pointer)


def title_changed(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.title != pair.cur.title:
        message = (
            f'Contract "{pair.prev.title}" was renamed to "{pair.cur.title}": '
            "its generated class changed name."
        )
        yield Hit("CONTRACT_TITLE_CHANGED", _root(pair, pointer="/title"), message)


def file_moved(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.rel != pair.cur.rel:
        message = (
            f'Contract "{pair.name}" was moved from {pair.prev.rel} to {pair.cur.rel}: '
            "its generated module changed."
        )
        yield Hit("CONTRACT_FILE_MOVED", _root(pair), message)


def class_deleted(pair: ContractPair) -> Iterator[Hit]:
    """Each class a ``$defs`` entry generated before whose name no class has now: the names
    the generator derives (a title that is no class name, an untitled object schema, a
    numbered name), not the titles as written, so a title written otherwise that names the same
    class is no finding, and an untitled class deleted is one."""
    now = set(pair.cur.classes.values())
    for pointer, name in sorted(pair.prev.classes.items()):
        if not pointer or name in now:
            continue
        entry = resolve_pointer(pair.prev.data, pointer)
        where = f"{pointer}/title" if isinstance(entry, dict) and "title" in entry else pointer
        message = (
            f'Previously generated class "{name}" of {pair.prev.title} '
            f"({pair.prev.file_pointer(where)}) was deleted or renamed."
        )
        yield Hit("CLASS_DELETED", _root(pair, previous=True, pointer=where), message)


def _bases(tree: SchemaTree, schema: SchemaFile) -> dict[str, str]:
    """The contracts ``schema`` extends by ``allOf`` ``$ref``: ``$id`` to title."""
    found = {}
    for entry in schema.data.get("allOf") or []:
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
            target, fragment = tree.resolve(schema, entry["$ref"])
            found[f"{target.identity}#{fragment}"] = target.title + (
                f"#{fragment}" * bool(fragment)
            )
    return found


def base_changed(pair: ContractPair) -> Iterator[Hit]:
    before = _bases(pair.prev_side.tree, pair.prev)
    after = _bases(pair.cur_side.tree, pair.cur)
    if set(before) != set(after):
        pointer = "/allOf" if "allOf" in pair.cur.data else ""
        message = (
            f"The bases of {pair.name} ({pointer or '/'}) were changed from "
            f"[{', '.join(sorted(before.values()))}] to [{', '.join(sorted(after.values()))}]."
        )
        yield Hit("BASE_CHANGED", _root(pair, pointer=pointer), message)


CONTRACT_CHECKS: tuple[Callable[[ContractPair], Iterator[Hit]], ...] = (
    title_changed,
    file_moved,
    class_deleted,
    base_changed,
)
