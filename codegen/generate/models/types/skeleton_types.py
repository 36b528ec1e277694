"""The skeleton of each kind of schema node (:class:`TypedShapes`, the typing half of a file's
stripper in :mod:`codegen.generate.models.types.skeleton`): a typed node and its keywords whose
strict Pydantic form is exact, an object's properties, bases and openness, references between
module files, string enumerations, and the most specific superset types of nodes whose exact form
is no type (values without a type, maps, ``prefixItems`` arrays).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile
from codegen.core.tree import objects_class
from codegen.generate.models.types.fields import MISSING_MARK, MISSING_OR_NULL_MARK
from codegen.generate.models.types.null_refusal import null_refused
from codegen.generate.models.types.skeleton_shapes import (
    ANNOTATIONS,
    BOUNDS,
    LENGTHS,
    MAP_VALUES,
    types,
)
from codegen.generate.models.types.skeleton_wider import WiderShapes, one_value_schema
from codegen.generate.rules import is_base

__all__ = ["NOT_OBJECT", "NOT_OBJECT_KEYWORDS", "TYPED_FORMATS", "TypedShapes", "module_file"]

# The JSON types besides objects, and the keywords that may refuse a value of one of them.
NOT_OBJECT = ("array", "boolean", "null", "number", "string")


NOT_OBJECT_KEYWORDS = frozenset({
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "format", "maxItems", "minItems",
    "uniqueItems", "maxContains", "minContains", "contains", "items", "prefixItems",
    "additionalItems", "unevaluatedItems", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "$ref", "$dynamicRef", "$recursiveRef", "extends", "disallow", "divisibleBy",
    "contentMediaType", "contentEncoding", "contentSchema",
})  # fmt: skip


# The asserted formats whose Python type holds every valid string, typed so: the generator's
# UUID, IPv4Address and IPv6Address, renamed to the package's subclasses of them that check the
# string exactly first and keep it, and dump it back as it was (codegen.core.formats.FORMAT_TYPES:
# every check reads the text, no dump rewrites it). Dates and times are no such type: Python's
# datetime and time have no leap second (23:59:60) and no year 0, and keep microseconds only; a
# duration with years or months is no timedelta. Those stay checked strings.
TYPED_FORMATS = frozenset({"uuid", "ipv4", "ipv6"})


# Pydantic compares a bound with a float value as floats: exact while both are below 2**52
# (integer bounds of integers compare as integers, exactly, whatever their size).
_EXACT_FLOAT = 2**52


def module_file(schema: SchemaFile) -> PurePosixPath:
    """Where the generator reads a file's skeleton: its module path (the generator names a
    module after its file), with ``.json``."""
    *folders, name = schema.module_parts
    return PurePosixPath(*folders, f"{name}.json")


class TypedShapes(WiderShapes):
    """The skeleton of each kind of node; :meth:`node` (the stripper's) strips any node."""

    refusing_null: dict[tuple[str, str], bool]  # by reference target (null_refusal)

    def node(self, node: Any, pointer: str) -> Any:
        raise NotImplementedError  # the stripper's: every kind of node, by its keywords

    def reference(self, ref: str, out: dict[str, Any], kept: set[str]) -> None:
        """A kept reference: its class, or, for a definition whose class takes its objects only
        (:func:`objects_class`), the union of the class and the other JSON types, kept only when
        the definition says nothing of those (else the predicates check it in full here)."""
        moved = self.module_ref(ref)
        target, pointer = self.tree.resolve(self.schema, ref)
        data = resolve_pointer(target.data, pointer)
        key = (target.rel.as_posix(), pointer)
        if not (pointer and key in self.skeleton.classes and objects_class(data)):
            out["$ref"] = moved
            kept.add("$ref")
            return
        out["anyOf"] = [{"$ref": moved}, {"type": list(NOT_OBJECT)}]
        if not set(data) & NOT_OBJECT_KEYWORDS:
            kept.add("$ref")

    @staticmethod
    def single_base(node: Mapping[str, Any]) -> bool:
        """Whether a node is ``allOf`` of one reference, beside annotations only."""
        entries = node.get("allOf")
        return (
            isinstance(entries, list)
            and len(entries) == 1
            and is_base(entries[0])
            and isinstance(entries[0]["$ref"], str)
            and not set(node) - {*ANNOTATIONS, "$defs", "definitions", "allOf"}
        )

    def objects(
        self, node: dict[str, Any], pointer: str, out: dict[str, Any], kept: set[str]
    ) -> None:
        """Properties without ``"type": "object"`` (:func:`objects_class`): the objects are a
        class (a definition's class takes objects only, and every reference to it says which
        other values the definition admits); inline, the union of the class and the other JSON
        types. Nothing is kept here: the predicates check the node in full."""
        whole: dict[str, Any] = {"type": "object"}
        if pointer and (self.rel, pointer) in self.skeleton.classes:
            self.object(node, pointer, whole, kept, nullable=False)
            out.update(whole)  # the class is its objects; the references say the rest
        else:
            self.object(node, pointer, whole, set(), nullable=False, bases=False)
            out["anyOf"] = [whole, {"type": list(NOT_OBJECT)}]

    def module_ref(self, ref: str) -> str:
        """``ref`` between the files as the generator reads them (at their module paths, each
        ``$defs`` key as :meth:`Skeleton.defs_keys` gives it)."""
        target, pointer = self.tree.resolve(self.schema, ref)
        here, there = module_file(self.schema), module_file(target)
        path, hashed, fragment = ref.partition("#")
        safe = self.skeleton.generator_pointer(target, pointer)
        if safe != pointer:
            hashed, fragment = "#", quote(safe, safe="/~$!&'()*+,;=:@")
        elif here == self.schema.rel and there == target.rel:
            return ref  # the names are the files': as written
        if path:
            path = posixpath.relpath(there.as_posix(), here.parent.as_posix())
        moved = path + hashed + fragment
        if moved != ref:
            self.originals[moved] = ref
        return moved

    def typed(
        self, node: dict[str, Any], pointer: str, out: dict[str, Any], kept: set[str]
    ) -> None:
        kinds = types(node) or []
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
        kept.add("type")
        concrete = [k for k in kinds if k != "null"]
        if len(concrete) != 1:
            # A union of types: each member's constraints are checked by predicates; its
            # objects (arrays) typed by their properties (items) where it says them.
            if (self.rel, pointer) not in self.skeleton.classes:
                self.shaped_members(node, pointer, out, kinds)
            return
        kind = concrete[0]
        if kind == "object" and "null" in kinds and (self.rel, pointer) in self.skeleton.classes:
            return  # a class is never null: the type alone (a dict or null), predicates the rest
        # With null among the types, the generator would accept null beside the enum or const,
        # which excludes it: they are left to the predicates.
        string = kind == "string" and "null" not in kinds
        enum = string and self.string_enum(node) and self.enum_alone(node, pointer)
        const = string and not enum and isinstance(node.get("const"), str)
        typed_format = kind == "string" and not (enum or const) and self.typed_format(node)
        if typed_format:  # its lengths are checked on the text it keeps, by predicates
            out["format"] = node["format"]
            kept.add("format")
        for key in LENGTHS.get(kind, ()) if not (enum or const or typed_format) else ():
            if key in node:  # (an Enum or a Literal takes no length)
                out[key] = node[key]
                kept.add(key)
        for key in BOUNDS if kind in ("integer", "number") else ():
            bound = node.get(key)
            if isinstance(bound, bool) or not (
                isinstance(bound, int) or (kind == "number" and isinstance(bound, float))
            ):
                continue
            if abs(bound) < _EXACT_FLOAT:
                out[key] = bound
                kept.add(key)
        if enum:
            out.update(self.enum_said(node, pointer))
            kept.add("enum")
        elif const:
            out["const"] = node["const"]
            kept.add("const")
        elif kind == "array" and "items" in node and "prefixItems" not in node:
            out["items"] = self.node(node["items"], f"{pointer}/items")
            kept.add("items")
        elif kind == "array" and isinstance(node.get("prefixItems"), list):
            values = self.prefix_values(node, pointer)
            if values is not None:
                out["items"] = values  # list[T]; the predicates check each position
        elif kind == "object":
            self.object(node, pointer, out, kept, nullable="null" in kinds)

    def typed_format(self, node: dict[str, Any]) -> bool:
        """Whether an asserted ``format`` is a type of its own (:data:`TYPED_FORMATS`): one
        that holds every valid string and dumps it back (a UUID, an IP address), at a node
        without a ``default`` (the generator would write the string as the field's default)."""
        return (
            self.tree.asserts_formats
            and node.get("format") in TYPED_FORMATS
            and "default" not in node
        )

    def shaped_members(
        self, node: dict[str, Any], pointer: str, out: dict[str, Any], kinds: list[str]
    ) -> None:
        """A union of types whose objects say their ``properties`` (arrays their ``items``):
        the union of the types, the objects a class of their properties (the arrays a list of
        the items' type), a superset the predicates narrow (no bases: the class is no class
        node, and nothing is kept but the type)."""
        objects = "object" in kinds and isinstance(node.get("properties"), dict)
        arrays = "array" in kinds and isinstance(node.get("items"), dict)
        if not (objects or arrays) or "prefixItems" in node:
            return
        members: list[dict[str, Any]] = []
        for kind in kinds:
            member: dict[str, Any] = {"type": kind}
            if kind == "object" and objects:
                self.object(node, pointer, member, set(), nullable=False, bases=False)
            elif kind == "array" and arrays:
                member["items"] = self.node(node["items"], f"{pointer}/items")
            members.append(member)
        del out["type"]
        out["anyOf"] = members

    def object(
        self,
        node: dict[str, Any],
        pointer: str,
        out: dict[str, Any],
        kept: set[str],
        *,
        nullable: bool,
        bases: bool = True,
    ) -> None:
        """The skeleton of an object node's properties, bases (unless ``bases`` is false: an
        object class in a union with the other JSON types, which its bases would refuse) and
        openness."""
        properties = node.get("properties")
        required = node.get("required")
        if isinstance(properties, dict):
            out["properties"] = {}
            for name, sub in properties.items():
                stripped = self.node(sub, f"{pointer}/properties/{escape_pointer(name)}")
                if self.untyped(stripped):  # its type, when every branch says one
                    stripped.update(self.branch_property(node, pointer, name))
                out["properties"][name] = stripped
            kept.add("properties")
            if (self.rel, pointer) in self.skeleton.classes:
                self.exact_tuples(pointer, properties, required or [])
            for name, sub in properties.items():
                if name in (required or []):
                    continue
                stripped = out["properties"][name]
                if isinstance(sub, dict) and "default" in sub:
                    if self.defaults.applies(self.schema, pointer, name, sub["default"]):
                        continue
                    del stripped["default"]  # never filled in: absent stays absent, as below
                # Absent stays absent (pydantic.MISSING, fields.use_missing), whether null is
                # refused or allowed (then the field keeps None among its values).
                keeps_null = not (self.refuses_null(stripped) or self.untyped(stripped))
                if keeps_null and isinstance(stripped, dict) and types(stripped) is None:
                    # A reference or a union whose type the skeleton cannot tell: null stays a
                    # value only when the schema takes it, read from the keywords when they say
                    # so (null_refusal), else decided by the validator.
                    at = f"{pointer}/properties/{escape_pointer(name)}"
                    keeps_null = not null_refused(
                        self.tree, self.schema, sub, self.refusing_null
                    ) and self.defaults.valid(self.schema, at, None)
                examples = stripped.get("examples")
                mark = MISSING_OR_NULL_MARK if keeps_null else MISSING_MARK
                stripped["examples"] = [*(examples if isinstance(examples, list) else []), mark]
        if isinstance(required, list) and set(required) <= set(properties or {}):
            out["required"] = required
            kept.add("required")
        exact = self.exact_bases(node) if bases else []
        if exact:
            out["allOf"] = [{"$ref": self.module_ref(e["$ref"])} for e in exact]
            for index, entry in enumerate(node["allOf"]):
                if entry in exact:
                    self.skeleton.kept[(self.rel, f"{pointer}/allOf/{index}")] = frozenset({"$ref"})
        self.openness(node, pointer, out, kept, nullable=nullable, exact=exact)

    def openness(
        self,
        node: dict[str, Any],
        pointer: str,
        out: dict[str, Any],
        kept: set[str],
        *,
        nullable: bool,
        exact: list[dict[str, Any]],
    ) -> None:
        """Whether an object node's class is closed (``exact``: its bases), and the values of
        an open one without properties."""
        properties = node.get("properties")
        # A nullable object without properties is typed ``dict | None``, which the generator
        # leaves open: the predicates close it.
        closed = (
            node.get("additionalProperties") is False
            and "patternProperties" not in node
            and not (nullable and not isinstance(properties, dict))
        )
        if exact and node.get("unevaluatedProperties") is False and self.closes(node, exact):
            out["unevaluatedProperties"] = False
            kept.add("unevaluatedProperties")
        elif closed and "unevaluatedProperties" not in node:
            out["additionalProperties"] = False
            kept.add("additionalProperties")
        elif not exact:
            out["additionalProperties"] = True
            if node.get("additionalProperties") is True:
                kept.add("additionalProperties")
            elif not properties:
                values = self.map_values(node, pointer)
                branches = None if values else self.branch_objects(node, pointer, nullable)
                if values is not None:
                    out["additionalProperties"] = values  # dict[str, T]; predicates check all
                    if one_value_schema(node) and not nullable:  # dict | None drops T
                        kept.add(MAP_VALUES)  # T is the one schema's type: every value holds it
                elif branches is not None:
                    # The objects of the branches that say their properties: the union of
                    # their classes (the type kept: each is an object).
                    del out["type"], out["additionalProperties"]
                    out.update(branches[0] if len(branches) == 1 else {"anyOf": branches})
