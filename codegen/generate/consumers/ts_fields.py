"""The properties of an object type, as :mod:`codegen.generate.consumers.typescript` declares
them: each declared property's type, or where it has none (``{}``, or ``required`` only) the type
the schema gives it elsewhere (its ``anyOf``/``oneOf`` branches, its ``allOf`` entries, the other
entries of the ``allOf`` it is an entry of: the document's object satisfies them too), and the
properties of a base an object closed by ``unevaluatedProperties: false`` lists beside its own.
"""

from __future__ import annotations

from typing import Any

from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.consumers.ts_schema import allowed_types, list_of
from codegen.generate.consumers.ts_text import UNKNOWN, Field, TsType, merge_fields, union
from codegen.generate.rules import is_base

__all__ = ["FieldTypes", "Stack"]

# The untitled definitions being declared (file, pointer): one met again names its alias.
Stack = frozenset[tuple[str, str]]


class FieldTypes:
    """The property types of object nodes; :meth:`of` (the type of any node) is the module's."""

    tree: SchemaTree
    # The allOf entry being declared (by id) -> its file and every entry of its allOf.
    beside: dict[int, tuple[SchemaFile, list[Any]]]

    def of(self, schema: SchemaFile, node: Any, depth: int, stack: Stack) -> TsType:
        raise NotImplementedError

    def entry(
        self, schema: SchemaFile, entries: list[Any], index: int, depth: int, stack: Stack
    ) -> TsType:
        """The type of ``allOf`` entry ``index``, where a property it leaves untyped takes its
        type from the other entries: there only (a reference to the entry alone applies it
        alone)."""
        entry = entries[index]
        self.beside[id(entry)] = (schema, entries)
        try:
            return self.of(schema, entry, depth, stack)
        finally:
            self.beside.pop(id(entry), None)

    def own_fields(
        self, schema: SchemaFile, node: dict[str, Any], depth: int, stack: Stack
    ) -> dict[str, Field]:
        properties = node.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        required = list_of(node, "required")
        fields = {}
        for name, sub in properties.items():
            kind = self.of(schema, sub, depth + 1, stack)
            if kind == UNKNOWN:  # its type, when the branches or an allOf entry say one
                kind = self.branch_property(schema, node, name, depth, stack)
            fields[name] = Field(kind, name in required, sub)
        for name in required:  # required, declared by no property: as the branches type it
            if name not in fields:
                kind = self.branch_property(schema, node, name, depth, stack)
                fields[name] = Field(kind, True, None)
        return fields

    def branch_property(
        self, schema: SchemaFile, node: dict[str, Any], name: str, depth: int, stack: Stack
    ) -> TsType:
        """The type of a property ``node`` declares without one, or requires only: the union of
        its types in the ``anyOf`` or ``oneOf`` branches (when every branch that takes objects
        declares it with one: the document's object holds one of them), else its type in an
        ``allOf`` entry, or in another entry of the ``allOf`` that ``node`` is an entry of
        (which hold too), else ``unknown``."""
        for key in ("anyOf", "oneOf"):
            found: list[TsType] = []
            for branch in list_of(node, key):
                kinds = allowed_types(branch) if isinstance(branch, dict) else None
                if branch is False or (kinds is not None and "object" not in kinds):
                    continue  # refuses every object
                declared = branch.get("properties") if isinstance(branch, dict) else None
                sub = declared.get(name) if isinstance(declared, dict) else None
                kind = UNKNOWN if sub is None else self.of(schema, sub, depth + 1, stack)
                if kind == UNKNOWN:
                    break
                found.append(kind)
            else:
                if found:
                    return union(found)
        entries = [(schema, entry) for entry in list_of(node, "allOf")]
        owner, others = self.beside.get(id(node), (schema, []))
        entries += [(owner, entry) for entry in others if entry is not node]
        for at, entry in entries:
            kind = self.entry_property(at, entry, name, depth, stack)
            if kind != UNKNOWN:
                return kind
        return UNKNOWN

    def entry_property(
        self, schema: SchemaFile, entry: Any, name: str, depth: int, stack: Stack
    ) -> TsType:
        """The type an ``allOf`` entry declares property ``name`` with, or the schema its
        ``$ref`` names does (``unknown`` when neither does)."""
        if not isinstance(entry, dict):
            return UNKNOWN
        declared = entry.get("properties")
        sub = declared.get(name) if isinstance(declared, dict) else None
        if sub is None and isinstance(entry.get("$ref"), str):
            schema, pointer = self.tree.resolve(schema, entry["$ref"])
            target = resolve_pointer(schema.data, pointer)
            declared = target.get("properties") if isinstance(target, dict) else None
            sub = declared.get(name) if isinstance(declared, dict) else None
        return UNKNOWN if sub is None else self.of(schema, sub, depth + 1, stack)

    def base_fields(
        self, schema: SchemaFile, entry: dict[str, Any], depth: int, stack: Stack
    ) -> dict[str, Field] | None:
        """The properties of a base (and of its bases), or None when it is not a plain object."""
        target, pointer = self.tree.resolve(schema, entry["$ref"])
        node = resolve_pointer(target.data, pointer)
        if not isinstance(node, dict) or allowed_types(node) != ["object"] or "$ref" in node:
            return None
        fields: dict[str, Field] = {}
        for sub in list_of(node, "allOf"):
            if is_base(sub):
                base = self.base_fields(target, sub, depth, stack)
                if base is None:
                    return None
                merge_fields(fields, base)
        merge_fields(fields, self.own_fields(target, node, depth, stack))
        return fields
