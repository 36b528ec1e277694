"""The node checks of the CODEGEN rules: small functions of one pair of nodes.

Each sees a :class:`~codegen.breaking.pairs.NodePair` whose refs are already resolved and yields
hits naming their rule; messages are past tense and name the contract and the property path.
Whether documents still load is not decided here but by the inclusion engine
(:mod:`codegen.breaking.engine.inclusion`); these checks see what generated code uses: names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from codegen.breaking.pairs import Node, NodePair, describe
from codegen.core.jsonpos import escape_pointer

__all__ = ["NODE_CHECKS", "Hit", "members"]


@dataclass(frozen=True)
class Hit:
    """A rule that fired: where (a node of one side) and what happened."""

    rule: str
    node: Node
    message: str


def _is_object(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    return (
        kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in value
    )


def members(node: Node, depth: int = 0) -> tuple[dict[str, Node], set[str]]:
    """The properties of an object node and its required names, its bases' included."""
    value = node.value
    found = {
        name: node.child(f"properties/{escape_pointer(name)}", sub)
        for name, sub in (value.get("properties") or {}).items()
    }
    required = set(value.get("required") or [])
    for entry in value.get("allOf") or [] if node.base == "" and depth < 16 else []:
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
            base, fragment = node.side.tree.resolve(node.home, entry["$ref"])
            if not fragment:
                inherited = Node(node.side, base, "", base.data, base, "")
                more, needed = members(inherited, depth + 1)
                found = {**more, **found}
                required |= needed
    return found, required


def property_deleted(pair: NodePair) -> Iterator[Hit]:
    """A property the generated class had is gone: code reading it breaks."""
    if not (_is_object(pair.prev.value) and _is_object(pair.cur.value)):
        return
    before, after = members(pair.prev)[0], members(pair.cur)[0]
    for name, node in before.items():
        if name not in after:
            subject = describe(node.file.title, node.pointer, file=node.file)
            message = (
                f'Previously present {subject} was deleted. Mark it "deprecated": true instead.'
            )
            yield Hit("PROPERTY_DELETED", node, message)


NODE_CHECKS: tuple[Callable[[NodePair], Iterator[Hit]], ...] = (property_deleted,)
