"""The skeleton of a tree (:func:`codegen.generate.models.types.skeleton.build_skeleton`): the
stripped documents the generator reads, the keywords their types enforce at each node, the class
nodes, and the ``$defs`` keys the generator is given."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from codegen.core.jsonpos import escape_pointer, pointer_tokens
from codegen.core.loader import SchemaFile

__all__ = ["Skeleton"]


@dataclass
class Skeleton:
    """The stripped documents, and the keywords their types enforce at each node."""

    documents: dict[str, dict[str, Any]] = field(default_factory=dict)  # rel -> document
    kept: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    classes: set[tuple[str, str]] = field(default_factory=set)  # nodes with their own validator
    # Class node -> required properties that are exact tuples: JSON name -> Python annotation.
    tuples: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    # rel -> each $defs key the generator cannot be given as it is -> the key it is given.
    keys: dict[str, dict[str, str]] = field(default_factory=dict)

    def kept_at(self, rel: str, pointer: str) -> frozenset[str]:
        return self.kept.get((rel, pointer), frozenset())

    def defs_keys(self, schema: SchemaFile) -> dict[str, str]:
        """The ``$defs`` keys of ``schema`` that hold ``/`` or ``~`` (which the internal form
        writes for a reference into a place no keyword of the file's draft names): the
        generator reads such a definition twice, as two classes, so it is given a key of
        letters, digits and underscores instead, unique in the file."""
        rel = schema.rel.as_posix()
        found = self.keys.get(rel)
        if found is None:
            defs = schema.data.get("$defs")
            keys = list(defs) if isinstance(defs, dict) else []
            taken = {k for k in keys if "/" not in k and "~" not in k}
            found = {}
            for key in keys:
                if key in taken:
                    continue
                safe = re.sub(r"[^0-9A-Za-z_]+", "_", key).strip("_") or "definition"
                candidate, number = safe, 1
                while candidate in taken:
                    number += 1
                    candidate = f"{safe}_{number}"
                taken.add(candidate)
                found[key] = candidate
            self.keys[rel] = found
        return found

    def generator_pointer(self, schema: SchemaFile, pointer: str) -> str:
        """Internal ``pointer`` of ``schema`` as the generator reads the skeleton (its
        ``$defs`` key made safe, :meth:`defs_keys`)."""
        tokens = pointer_tokens(pointer)
        if len(tokens) >= 2 and tokens[0] == "$defs":
            safe = self.defs_keys(schema).get(tokens[1])
            if safe is not None:
                return "".join(f"/{escape_pointer(t)}" for t in ["$defs", safe, *tokens[2:]])
        return pointer
