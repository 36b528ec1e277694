"""Derive the structured-output form of a contract from its canonical schema.

The Claude CLI validates an ``output_format`` schema on its own, without our files: it must be
one self-contained object schema. Every file the contract references is embedded under
``$defs`` by title and each ``$ref`` is rewritten to point there; ``$schema`` and ``$id`` are
dropped (the embedded documents must not look like separate resources to the validator).
Unknown keywords never reach this point: :mod:`codegen.support` refuses them.
"""

from __future__ import annotations

import copy
from typing import Any

from codegen.errors import SchemaError
from codegen.loader import SchemaFile, SchemaTree, iter_subschemas

__all__ = ["structured_output_schema"]

_DROPPED = ("$schema", "$id", "$comment")


def structured_output_schema(tree: SchemaTree, contract: SchemaFile) -> dict[str, Any]:
    """The self-contained object schema sent as ``output_format`` for ``contract``."""
    if contract.data.get("type") != "object":
        raise SchemaError(
            "an agent's structured output must have an object root (the SDK never validates "
            "another root): wrap it in an object",
            contract.loc("/type"),
            "OBJECT_ROOT",
        )
    closure = [f for f in tree.closure(contract) if f is not contract]
    prefix = {f.rel: f"#/$defs/{f.title}" for f in closure}
    prefix[contract.rel] = "#"
    root = _rewrite(tree, contract, prefix)
    defs = dict(root.get("$defs", {}))
    for other in closure:
        if other.title in defs:
            raise SchemaError(
                f"{other.title!r} clashes with a $defs entry of the same name",
                contract.loc("/$defs"),
                "OUTPUT_FORMAT",
            )
        defs[other.title] = _rewrite(tree, other, prefix)
    if defs:
        root["$defs"] = defs
    return root


def _rewrite(tree: SchemaTree, schema: SchemaFile, prefix: dict[Any, str]) -> dict[str, Any]:
    document = copy.deepcopy(schema.data)
    for key in _DROPPED:
        document.pop(key, None)
    for _, node in iter_subschemas(document):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target, fragment = tree.resolve(schema, ref)
            node["$ref"] = prefix[target.rel] + fragment if fragment else prefix[target.rel]
    return document
