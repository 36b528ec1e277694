"""Whether a schema refuses ``null`` by what its keywords say (:func:`null_refused`): an optional
property keeps ``None`` among its field's values only when its schema takes null, also where the
skeleton cannot tell its type (a reference to a union of strings and arrays refuses null: its
root model does)."""

from __future__ import annotations

from typing import Any

from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.models.types.skeleton_shapes import types

__all__ = ["null_refused"]


def null_refused(
    tree: SchemaTree, file: SchemaFile, node: Any, seen: dict[tuple[str, str], bool]
) -> bool:
    """Whether the internal schema ``node`` of ``file`` refuses null by what its keywords say:
    a type, enum or const without it, or a reference, an allOf member or every anyOf (oneOf)
    member that refuses it. False: it takes null, or that is for a validator. ``seen`` holds
    the answers by reference target (a circle of references decides nothing)."""
    if isinstance(node, bool):
        return not node
    if not isinstance(node, dict):
        return False
    kinds = types(node)
    enum = node.get("enum")
    if (kinds is not None and "null" not in kinds) or (isinstance(enum, list) and None not in enum):
        return True
    if "const" in node and node["const"] is not None:
        return True
    every = node.get("allOf")
    if isinstance(every, list) and any(null_refused(tree, file, s, seen) for s in every):
        return True
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if (
            isinstance(branches, list)
            and branches
            and all(null_refused(tree, file, branch, seen) for branch in branches)
        ):
            return True
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return False
    target, pointer = tree.resolve(file, ref)
    at = (target.rel.as_posix(), pointer)
    if at not in seen:
        seen[at] = False  # a circle of references decides nothing
        seen[at] = null_refused(tree, target, resolve_pointer(target.data, pointer), seen)
    return seen[at]
