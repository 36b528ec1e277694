"""TypeScript declarations of the contracts: one ``.d.ts`` module per schema file.

Emitted from the schemas as the generator reads them (the loaded tree, the classes of the
Python package, the references between files), never from ``model_json_schema()``. Every class
of the Python package (a file's root, a titled ``$defs`` entry) is an exported type of the same
name. A type describes a document as ``validate`` accepts it, so it holds every document the
schema accepts, and is exact where TypeScript can say it:

* a property not in ``required`` is optional (``?:``): it may be absent from the document,
  whether its Python field is ``MISSING`` then or takes its ``default`` (shown as
  ``@default``);
* a ``type`` list is a union (``string | null``), less a ``not`` of a type alone; without
  ``type``, the keywords of objects (arrays) give their shape, in a union with the other JSON
  types; ``enum`` and ``const`` are literal types (those ``type`` allows); ``anyOf`` and
  ``oneOf`` are unions (a tagged ``oneOf`` is a discriminated union: each branch has its own
  literal tag), ``allOf`` an intersection;
  ``prefixItems`` is a tuple (elements past ``minItems`` optional, a rest unless ``items`` is
  false);
* an object closed by ``additionalProperties: false`` declares its properties only (a literal
  with another key does not compile); an open one, or one with ``patternProperties``, has an
  index signature (of the pattern's values only, where a pattern ``""`` or ``.*`` takes every
  key); a property declared without a type, or required only, takes its type from the
  ``anyOf`` or ``oneOf`` branches (the union, when every branch that takes objects types it),
  an ``allOf`` entry or another entry of the ``allOf`` it is one of (:mod:`.ts_fields`);
  a subclass closed by ``unevaluatedProperties: false`` lists its bases' properties beside its
  own (and those its rules name, as ``unknown``);
* an untitled definition that contains itself is a type of the module (not exported) named
  after its key, where it names itself inside an object type only (else ``unknown`` there);
* what TypeScript cannot say (bounds, lengths, ``pattern``, ``multipleOf``, other ``not``s,
  the cross-field rules) is left to ``validate``: the type is wider there, never narrower.
"""

from __future__ import annotations

import re
from typing import Any

from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.consumers.ts_fields import FieldTypes, Stack
from codegen.generate.consumers.ts_names import ClassNames
from codegen.generate.consumers.ts_schema import (
    allowed_types,
    evaluated_names,
    list_of,
    literal_types,
    shapes,
)
from codegen.generate.consumers.ts_text import (
    NEVER,
    UNKNOWN,
    Field,
    TsType,
    array_of,
    doc_comment,
    intersection,
    merge_fields,
    render_object,
    type_imports,
    union,
    words_outside_objects,
)
from codegen.generate.rules import is_base

__all__ = ["declaration_module"]


def declaration_module(
    tree: SchemaTree, names: ClassNames, schema: SchemaFile, header: str
) -> tuple[str, tuple[str, ...]]:
    """The ``.d.ts`` text of ``schema``'s classes, and the names it exports."""
    refused: set[tuple[str, str]] = set()
    while True:  # again without the aliases that would name themselves directly
        module = _Module(tree, names, schema, frozenset(refused))
        body, exported = module.body()
        looping = module.looping()
        if not looping:
            break
        refused |= looping
    imports = type_imports(schema.rel, {n: t.rel for n, t in module.imports.items()})
    return "\n".join([header, *imports, *body]) + "\n", tuple(exported)


class _Module(FieldTypes):
    """The types of one schema file, and the classes of other files they name."""

    def __init__(
        self,
        tree: SchemaTree,
        names: ClassNames,
        schema: SchemaFile,
        refused: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.tree = tree
        self.names = names
        self.schema = schema
        self.imports: dict[str, SchemaFile] = {}
        self.beside: dict[int, tuple[SchemaFile, list[Any]]] = {}
        # An untitled definition that contains itself: a type of this module (not exported),
        # by key; refused: those that would name themselves outside an object type.
        self.aliases: dict[tuple[str, str], str] = {}
        self.refused = refused
        self.bodies: dict[tuple[str, str], str] = {}
        self.alias_files: dict[tuple[str, str], SchemaFile] = {}

    def body(self) -> tuple[list[str], list[str]]:
        """The module's declarations: each class of the file, then each alias they need."""
        rel = self.schema.rel.as_posix()
        body: list[str] = []
        exported: list[str] = []
        for (owner, pointer), name in self.names.items():
            if owner != rel:
                continue
            node = resolve_pointer(self.schema.data, pointer)
            kind = self.of(self.schema, node, 0, frozenset())
            doc = doc_comment(node, "", default=False)
            body += ["", *doc, f"export type {name} = {kind.text};"]
            exported.append(name)
        while set(self.aliases) - set(self.bodies):
            for key in [k for k in self.aliases if k not in self.bodies]:
                target = self.alias_files[key]
                node = resolve_pointer(target.data, key[1])
                self.bodies[key] = self.of(target, node, 0, frozenset({key})).text
        for key, text in self.bodies.items():
            body += ["", f"type {self.aliases[key]} = {text};"]
        return body, exported

    def looping(self) -> set[tuple[str, str]]:
        """The aliases some alias names outside an object type (``type A = B | A`` is a
        circular alias TypeScript refuses; through a property it is not)."""
        aliases = set(self.aliases.values())
        return {key for key, text in self.bodies.items() if words_outside_objects(text) & aliases}

    def alias(self, target: SchemaFile, key: tuple[str, str]) -> str:
        """The alias of the definition ``key`` of ``target`` (named after its key)."""
        self.alias_files[key] = target
        name = self.aliases.get(key)
        if name is None:
            stem = "_" + re.sub(r"[^A-Za-z0-9_$]", "_", key[1].rpartition("/")[2])
            taken = {*self.names.values(), *self.aliases.values()}
            name, number = stem, 1
            while name in taken:
                number += 1
                name = f"{stem}{number}"
            self.aliases[key] = name
        return name

    def of(self, schema: SchemaFile, node: Any, depth: int, stack: Stack) -> TsType:
        """The type of ``node`` (written in ``schema``), indented for ``depth``."""
        if node is False:
            return NEVER
        if not isinstance(node, dict):
            return UNKNOWN
        parts: list[TsType] = []
        if isinstance(node.get("$ref"), str):
            parts.append(self.ref(schema, node["$ref"], depth, stack))
        if isinstance(node.get("$dynamicRef"), str):  # any schema it may lead to
            targets = [self.tree.resolve(schema, node["$dynamicRef"]), *self.anchored()]
            parts.append(union(self.at(t, p, depth, stack) for t, p in targets))
        kinds = allowed_types(node)
        merged: set[int] = set()
        values = literal_types(node, kinds)
        if values is not None:
            typed = values
        elif kinds is not None:
            typed, merged = self.typed(schema, node, kinds, depth, stack)
        elif said := shapes(node):
            # Without a type, an object's keywords say what its objects are; any other value
            # holds: the union of the object's shape (or the array's) and the other types.
            typed, merged = self.typed(schema, node, said, depth, stack)
            others = [k for k in ("string", "number", "boolean", "null") if k not in said]
            rest = [] if "array" in said else [array_of(UNKNOWN)]
            rest += [] if "object" in said else [TsType("{ [key: string]: unknown }")]
            typed = union([typed, *(TsType(k) for k in others), *rest])
        else:
            typed = UNKNOWN
        entries = list_of(node, "allOf")
        parts += [
            self.entry(schema, entries, i, depth, stack)
            for i in range(len(entries))
            if i not in merged
        ]
        parts.append(typed)
        for key in ("anyOf", "oneOf"):
            if isinstance(node.get(key), list):
                parts.append(union(self.of(schema, b, depth, stack) for b in node[key]))
        return intersection(parts)

    def ref(self, schema: SchemaFile, ref: str, depth: int, stack: Stack) -> TsType:
        target, pointer = self.tree.resolve(schema, ref)
        return self.at(target, pointer, depth, stack)

    def anchored(self) -> list[tuple[SchemaFile, str]]:
        """Every schema a dynamic reference of the tree may be bound to."""
        wanted = self.tree.dynamic_names
        return [
            (schema, at)
            for schema in (*self.tree.files, *self.tree.external)
            for anchors in schema.resources.values()
            for name, at in anchors.items()
            if name in wanted
        ]

    def at(self, target: SchemaFile, pointer: str, depth: int, stack: Stack) -> TsType:
        """The type of the schema at ``pointer`` of ``target``: its class, or it inline."""
        key = (target.rel.as_posix(), pointer)
        name = self.names.get(key)
        if name is not None:
            if target is not self.schema:
                self.imports[name] = target
            return TsType(name)
        if key in stack:  # an untitled definition that contains itself: a type of its own
            return UNKNOWN if key in self.refused else TsType(self.alias(target, key))
        return self.of(target, resolve_pointer(target.data, pointer), depth, stack | {key})

    def typed(
        self, schema: SchemaFile, node: dict[str, Any], kinds: list[str], depth: int, stack: Stack
    ) -> tuple[TsType, set[int]]:
        members: list[TsType] = []
        merged: set[int] = set()
        for kind in kinds:
            if kind in ("string", "boolean", "null"):
                members.append(TsType(kind))
            elif kind in ("integer", "number"):
                members.append(TsType("number"))
            elif kind == "array":
                members.append(self.array(schema, node, depth, stack))
            elif kind == "object":
                shape, merged = self.object(schema, node, depth, stack)
                members.append(shape)
        return union(members), merged

    def array(self, schema: SchemaFile, node: dict[str, Any], depth: int, stack: Stack) -> TsType:
        prefix = node.get("prefixItems")
        items = node.get("items", True)
        if not isinstance(prefix, list):
            return array_of(self.of(schema, items, depth, stack))
        least = node.get("minItems", 0)
        elements = []
        for index, item in enumerate(prefix):
            kind = self.of(schema, item, depth, stack)
            optional = not isinstance(least, int) or index >= least
            elements.append(f"{kind.grouped}?" if optional else kind.text)
        if items is not False:
            elements.append(f"...{array_of(self.of(schema, items, depth, stack)).text}")
        return TsType(f"[{', '.join(elements)}]")

    def object(
        self, schema: SchemaFile, node: dict[str, Any], depth: int, stack: Stack
    ) -> tuple[TsType, set[int]]:
        fields: dict[str, Field] = {}
        merged: set[int] = set()
        closes = node.get("unevaluatedProperties") is False and "additionalProperties" not in node
        if closes:  # the bases' properties are evaluated in place: list them here
            for index, entry in enumerate(list_of(node, "allOf")):
                base = self.base_fields(schema, entry, depth, stack) if is_base(entry) else None
                if base is not None:
                    merge_fields(fields, base)
                    merged.add(index)
        merge_fields(fields, self.own_fields(schema, node, depth, stack))
        others: TsType | None
        if closes:
            names, open_ = evaluated_names(self.tree, schema, node)
            for name in sorted(names - set(fields)):
                fields[name] = Field(UNKNOWN, False, None)  # declared by a rule only
            others = UNKNOWN if open_ else None
        else:
            others = self.index_signature(schema, node, depth, stack)
        if fields and others is not None:
            others = UNKNOWN  # every declared property must fit the index signature
        return render_object(fields, others, depth), merged

    def index_signature(
        self, schema: SchemaFile, node: dict[str, Any], depth: int, stack: Stack
    ) -> TsType | None:
        """What keys other than the declared ones may hold; None when there are none."""
        extra = node.get("additionalProperties", True)
        patterns = node.get("patternProperties")
        patterns = patterns if isinstance(patterns, dict) else {}
        values = [self.of(schema, s, depth + 1, stack) for s in patterns.values()]
        # A pattern found in every key ("" and ".*" match the empty string at its start):
        # additionalProperties judges no key.
        if extra is not False and not {"", ".*"} & set(patterns):
            values.append(self.of(schema, extra, depth + 1, stack))
        return union(values) if values else None
