"""Split each schema into what the generated types enforce and what compiled predicates check.

datamodel-code-generator turns a schema into typed Pydantic classes, but it silently drops or
approximates much of JSON Schema. So it is given only a *skeleton* of each file: the keywords
whose Pydantic form decides exactly as JSON Schema does, with strict types:

* ``type`` (one type, a type and ``null``, or a union of types), and per type: ``minLength``
  and ``maxLength`` for strings (code points), the bounds of numbers (below 2**52, where
  Pydantic's comparisons are exact), ``minItems``, ``maxItems`` and ``items`` for arrays,
  and ``properties``, ``required`` (of declared names) and a boolean
  ``additionalProperties`` for objects (every object says whether it is open, so that no
  generated class ever drops unknown keys);
* ``enum`` and ``const`` of strings, not beside ``null`` (the generator makes an ``Enum`` or a
  ``Literal``, which take no length; a class node keeps an ``enum``, or an ``anyOf`` of
  strings, only when nothing else is said there, since an ``Enum`` class takes no
  validator); a ``$ref`` to a file of the schema folder or one of its ``$defs`` entries (a
  reference elsewhere, to a document outside the folder, or in a tree with dynamic references,
  is the predicates'); ``anyOf`` (a union: it holds when a branch holds); a ``oneOf`` whose
  branches are classes told apart by a string ``const`` (a discriminated union; any other
  ``oneOf`` is typed as a union and its matches counted by predicates); ``allOf`` entries
  that are only a ``$ref`` (the bases of a class), and ``unevaluatedProperties: false``
  beside them, which closes the subclass;
* an exact ``prefixItems`` array (``items: false``, ``minItems`` its length) of scalars or
  classes, as a ``tuple`` (:mod:`codegen.generate.models.types.fields`); an optional property
  without a default, as a field that defaults to ``pydantic.MISSING``: it carries a mark among its
  ``examples``, by which :mod:`codegen.generate.models.types.fields` finds its field in whatever
  class the generator makes;
* annotations (``title`` on the nodes that are classes only, since the generator makes a class
  of any titled node; ``description``, ``default``, ``examples``, ``deprecated``); a
  property's ``default`` is the field's only where filling it in never makes the schema refuse
  a document it accepted (:mod:`codegen.generate.models.types.defaults`), else the field is
  ``MISSING`` when absent.

Where a keyword's exact form is no type, the skeleton still gives the most specific type that
accepts a superset of what the schema accepts, and keeps nothing there (the predicates check the
node in full): ``properties`` without ``"type": "object"`` (a definition's class is its objects,
and each reference to it the union of the class and the other JSON types, kept when the
definition says nothing of those; inline or at a root, the union itself); ``allOf`` of one
reference alone (that reference); ``additionalProperties`` or ``patternProperties`` schemas of an
object without ``properties`` that say the value of every key (``dict[str, T]``, T the union of
their types); ``prefixItems`` with ``items`` saying the rest (``list[T]``); an ``enum`` or
``const`` of values other than strings (the union of their JSON types, its strings an ``Enum``).

A class node that may be an object or null keeps only its type (a class is never null), and
a nullable object without ``properties`` leaves ``additionalProperties: false`` to the
predicates (the generator types it ``dict | None``, open).

Every other keyword is left out of the skeleton, whose types then accept a superset of what the
schema accepts, and is checked after validation by
:mod:`codegen.generate.models.checks.predicates`, which skips exactly the keywords recorded here as
*kept* at each node.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.tree import object_only
from codegen.generate.models.types.defaults import DefaultRule
from codegen.generate.models.types.fields import MISSING_MARK, MISSING_OR_NULL_MARK
from codegen.generate.models.types.skeleton_shapes import (
    ANNOTATIONS,
    BOUNDS,
    LENGTHS,
    Shapes,
    Skeleton,
    types,
)
from codegen.generate.rules import is_base

__all__ = ["Skeleton", "build_skeleton"]

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

_JSON_TYPES = {bool: "boolean", int: "number", float: "number", str: "string",
               type(None): "null", list: "array", dict: "object"}  # fmt: skip

# Pydantic compares a bound with a float value as floats: exact while both are below 2**52
# (integer bounds of integers compare as integers, exactly, whatever their size).
_EXACT_FLOAT = 2**52


def build_skeleton(tree: SchemaTree, files: Sequence[SchemaFile] | None = None) -> Skeleton:
    """The skeleton of ``files`` (which hold every file they reference), by default of every
    file of ``tree``."""
    files = tree.files if files is None else files
    skeleton = Skeleton()
    for schema in files:
        rel = schema.rel.as_posix()
        skeleton.classes.update((rel, pointer) for pointer in schema.classes)
    defaults = DefaultRule(tree)
    for schema in files:
        rel = schema.rel.as_posix()
        stripper = _Stripper(tree, schema, skeleton, defaults)
        document = stripper.node(schema.data, "")
        skeleton.documents[rel] = document if isinstance(document, dict) else {}
    return skeleton


def module_file(schema: SchemaFile) -> PurePosixPath:
    """Where the generator reads a file's skeleton: its module path (the generator names a
    module after its file), with ``.json``."""
    *folders, name = schema.module_parts
    return PurePosixPath(*folders, f"{name}.json")


class _Stripper(Shapes):
    def __init__(
        self, tree: SchemaTree, schema: SchemaFile, skeleton: Skeleton, defaults: DefaultRule
    ) -> None:
        self.tree = tree
        self.schema = schema
        self.rel = schema.rel.as_posix()
        self.skeleton = skeleton
        self.defaults = defaults
        self.originals: dict[
            str, str
        ] = {}  # each reference as the generator reads it -> as written

    def node(self, node: Any, pointer: str) -> Any:
        if not isinstance(node, dict):
            return {}  # true and false: any value; the predicates refuse what false refuses
        # A title names a class: the generator makes one of any titled node, so a class node's
        # title is its class name and no other node keeps one.
        name = (
            self.schema.classes.get(pointer)
            if (self.rel, pointer) in self.skeleton.classes
            else None
        )
        # ``default`` and ``deprecated`` are a field's only: a root model's default makes the
        # generator's type nullable, and pydantic's deprecated root cannot be set (validating
        # one raises).
        field = pointer.rpartition("/")[0].endswith("/properties")
        out = {
            k: name if k == "title" else node[k]
            for k in ANNOTATIONS
            if (k in node or (k == "title" and name))
            and (k != "$id" or not pointer)
            and (k != "title" or name)
            and (k not in ("default", "deprecated") or field)
        }
        kept: set[str] = set()
        defs = node.get("$defs")
        if isinstance(defs, dict):
            keys = self.skeleton.defs_keys(self.schema) if not pointer else {}
            out["$defs"] = {
                keys.get(name, name): self.node(sub, f"{pointer}/$defs/{escape_pointer(name)}")
                for name, sub in defs.items()
            }
        if isinstance(node.get("$ref"), str) and self.typed_ref(node["$ref"]):
            self.reference(node["$ref"], out, kept)
        elif self.single_base(node) and self.typed_ref(node["allOf"][0]["$ref"]):
            # ``allOf`` of one reference and nothing else: that reference's type, kept at the
            # entry (the predicates then skip the class, which validates itself).
            entry: set[str] = set()
            self.reference(node["allOf"][0]["$ref"], out, entry)
            self.skeleton.kept[(self.rel, f"{pointer}/allOf/0")] = frozenset(entry)
        elif types(node) is not None:
            self.typed(node, pointer, out, kept)
        elif isinstance(node.get("anyOf"), list) and not self.enum_class(node, pointer, "anyOf"):
            out["anyOf"] = _flat(
                [self.node(sub, f"{pointer}/anyOf/{i}") for i, sub in enumerate(node["anyOf"])]
            )
            kept.add("anyOf")
        elif isinstance(node.get("oneOf"), list) and not self.enum_class(node, pointer, "oneOf"):
            branches = node["oneOf"]
            stripped = [self.node(sub, f"{pointer}/oneOf/{i}") for i, sub in enumerate(branches)]
            tag = self.tag(branches)
            if tag is None:
                out["anyOf"] = _flat(stripped)  # a union types it; predicates count matches
            else:
                # A tagged union: the branches exclude each other, so a discriminated union of
                # their classes holds exactly when one branch does.
                out["oneOf"], out["discriminator"] = stripped, {"propertyName": tag}
                kept.add("oneOf")
        elif isinstance(node.get("const"), str):
            out["const"] = node["const"]
            kept.add("const")
        elif self.string_enum(node) and self.enum_alone(node, pointer):
            out["type"], out["enum"] = "string", node["enum"]
            kept.add("enum")
        elif self.values_types(node) is not None:
            # An enum or const of other values than strings: the union of their JSON types (a
            # string enum of its strings), a superset the predicates narrow. A class node is
            # never an Enum class (which takes no validator): its strings are strings.
            said = self.values_types(node) or {}
            if "enum" in said and (self.rel, pointer) in self.skeleton.classes:
                said = {"type": "string"}
            out.update(said)
        elif self.object_only(node):
            # Properties without ``"type": "object"``: the objects are a class (a definition's
            # class takes objects only, and every reference to it says which other values the
            # definition admits); inline, the union of the class and the other JSON types.
            # Nothing is kept here: the predicates check the node in full.
            whole: dict[str, Any] = {"type": "object"}
            if pointer and (self.rel, pointer) in self.skeleton.classes:
                self.object(node, pointer, whole, kept, nullable=False)
                out.update(whole)  # the class is its objects; the references say the rest
            else:
                self.object(node, pointer, whole, set(), nullable=False)
                out["anyOf"] = [whole, {"type": list(NOT_OBJECT)}]
        self.skeleton.kept[(self.rel, pointer)] = frozenset(kept)
        return out

    def values_types(self, node: dict[str, Any]) -> dict[str, Any] | None:
        """The skeleton of a node that says its values (``enum``, ``const``) and no type: the
        union of the JSON types of its values, the strings among them an enum of their own."""
        if "const" in node:
            values = [node["const"]]
        elif isinstance(node.get("enum"), list) and node["enum"]:
            values = node["enum"]
        else:
            return None
        kinds: dict[str, list[Any]] = {}
        for value in values:
            kinds.setdefault(_JSON_TYPES[type(value)], []).append(value)
        branches: list[dict[str, Any]] = []
        for kind, found in sorted(kinds.items()):
            strings = list(dict.fromkeys(found)) if kind == "string" else []
            if strings and all(s and s.strip() == s for s in strings):
                branches.append({"type": "string", "enum": strings})
            elif kind == "object":  # open: no key is dropped
                branches.append({"type": kind, "additionalProperties": True})
            else:
                branches.append({"type": kind})
        return branches[0] if len(branches) == 1 else {"anyOf": branches}

    def reference(self, ref: str, out: dict[str, Any], kept: set[str]) -> None:
        """A kept reference: its class, or, for a definition whose class takes its objects only
        (:meth:`object_only`), the union of the class and the other JSON types, kept only when
        the definition says nothing of those (else the predicates check it in full here)."""
        moved = self.module_ref(ref)
        target, pointer = self.tree.resolve(self.schema, ref)
        data = resolve_pointer(target.data, pointer)
        key = (target.rel.as_posix(), pointer)
        if not (pointer and key in self.skeleton.classes and self.object_only(data)):
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

    @staticmethod
    def object_only(node: Any) -> bool:
        """Whether a node without a type declares ``properties`` and no keyword the skeleton
        reads first: its objects are a class of their own."""
        return object_only(node)

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

    @staticmethod
    def string_enum(node: Mapping[str, Any]) -> bool:
        values = node.get("enum")
        return (
            isinstance(values, list)
            and bool(values)
            and all(isinstance(v, str) for v in values)
            and len(set(values)) == len(values)
        )

    def enum_alone(self, node: Mapping[str, Any], pointer: str) -> bool:
        """Whether a string ``enum`` may be kept: the generator makes it an ``Enum``, which
        takes no validator and no length, so a class node keeps it only when nothing is left
        for predicates to check there."""
        if (self.rel, pointer) not in self.skeleton.classes:
            return True  # an inline enum: its other keywords are checked by the class's validator
        return not set(node) - {*ANNOTATIONS, "$defs", "type", "enum"}

    def enum_class(self, node: Mapping[str, Any], pointer: str, key: str) -> bool:
        """Whether a class node's union of strings would become an ``Enum`` class (which the
        generator makes of it) that needs a validator, which an ``Enum`` cannot take: then the
        union is left to the predicates. A ``oneOf`` always needs one (it counts matches)."""
        if (self.rel, pointer) not in self.skeleton.classes:
            return False
        branches = node[key]
        strings = all(
            isinstance(b, dict) and (isinstance(b.get("const"), str) or self.string_enum(b))
            for b in branches
        )
        if not strings:
            return False
        alone = key == "anyOf" and not set(node) - {*ANNOTATIONS, "$defs", key}
        return not (
            alone and all(not set(b) - {*ANNOTATIONS, "type", "const", "enum"} for b in branches)
        )

    def typed(
        self, node: dict[str, Any], pointer: str, out: dict[str, Any], kept: set[str]
    ) -> None:
        kinds = types(node) or []
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
        kept.add("type")
        concrete = [k for k in kinds if k != "null"]
        if len(concrete) != 1:
            return  # a union of types: each member's constraints are checked by predicates
        kind = concrete[0]
        if kind == "object" and "null" in kinds and (self.rel, pointer) in self.skeleton.classes:
            return  # a class is never null: the type alone (a dict or null), predicates the rest
        # With null among the types, the generator would accept null beside the enum or const,
        # which excludes it: they are left to the predicates.
        string = kind == "string" and "null" not in kinds
        enum = string and self.string_enum(node) and self.enum_alone(node, pointer)
        const = string and not enum and isinstance(node.get("const"), str)
        for key in LENGTHS.get(kind, ()) if not (enum or const) else ():  # an Enum or Literal
            if key in node:
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
            out["enum"] = node["enum"]
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

    def prefix_values(self, node: dict[str, Any], pointer: str) -> dict[str, Any] | None:
        """The type of every item of an array with ``prefixItems``, when ``items`` says one for
        the items past them (or refuses them): the union of their schemas' types (a superset:
        the predicates check which applies where), else None."""
        rest = node.get("items", True)
        values = [
            self.node(sub, f"{pointer}/prefixItems/{index}")
            for index, sub in enumerate(node["prefixItems"])
        ]
        if isinstance(rest, dict):
            values.append(self.node(rest, f"{pointer}/items"))
        elif rest is not False:
            return None
        if not values or any(self.untyped(v) for v in values):
            return None
        return values[0] if len(values) == 1 else {"anyOf": values}

    def object(
        self,
        node: dict[str, Any],
        pointer: str,
        out: dict[str, Any],
        kept: set[str],
        *,
        nullable: bool,
    ) -> None:
        properties = node.get("properties")
        required = node.get("required")
        if isinstance(properties, dict):
            out["properties"] = {
                name: self.node(sub, f"{pointer}/properties/{escape_pointer(name)}")
                for name, sub in properties.items()
            }
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
                examples = stripped.get("examples")
                mark = MISSING_OR_NULL_MARK if keeps_null else MISSING_MARK
                stripped["examples"] = [*(examples if isinstance(examples, list) else []), mark]
        if isinstance(required, list) and set(required) <= set(properties or {}):
            out["required"] = required
            kept.add("required")
        bases = self.exact_bases(node)
        if bases:
            out["allOf"] = [{"$ref": self.module_ref(e["$ref"])} for e in bases]
            for index, entry in enumerate(node["allOf"]):
                if entry in bases:
                    self.skeleton.kept[(self.rel, f"{pointer}/allOf/{index}")] = frozenset({"$ref"})
        # A nullable object without properties is typed ``dict | None``, which the generator
        # leaves open: the predicates close it.
        closed = (
            node.get("additionalProperties") is False
            and "patternProperties" not in node
            and not (nullable and not isinstance(properties, dict))
        )
        if bases and node.get("unevaluatedProperties") is False and self.closes(node, bases):
            out["unevaluatedProperties"] = False
            kept.add("unevaluatedProperties")
        elif closed and "unevaluatedProperties" not in node:
            out["additionalProperties"] = False
            kept.add("additionalProperties")
        elif not bases:
            out["additionalProperties"] = True
            if node.get("additionalProperties") is True:
                kept.add("additionalProperties")
            elif not properties:
                values = self.map_values(node, pointer)
                if values is not None:
                    out["additionalProperties"] = values  # dict[str, T]; predicates check all

    def map_values(self, node: dict[str, Any], pointer: str) -> dict[str, Any] | None:
        """The type of every value of an object without properties, when its
        ``patternProperties`` and ``additionalProperties`` say one for every key: the union of
        their schemas' types (a superset: the predicates check which applies), else None."""
        patterns = node.get("patternProperties")
        patterns = patterns if isinstance(patterns, dict) else {}
        extra = node.get("additionalProperties")
        values = [
            self.node(sub, f"{pointer}/patternProperties/{escape_pointer(source)}")
            for source, sub in patterns.items()
        ]
        # A pattern found in every key ("" and ".*" match the empty string at its start).
        covered = extra is False or any(source in ("", ".*") for source in patterns)
        if isinstance(extra, dict):
            values.append(self.node(extra, f"{pointer}/additionalProperties"))
            covered = True
        if not covered or not values or any(self.untyped(v) for v in values):
            return None
        return values[0] if len(values) == 1 else {"anyOf": values}


def _flat(branches: list[Any]) -> list[Any]:
    """A union's branches with each branch that is only a union replaced by its members, and
    each member once (the same union, written once)."""
    members: list[Any] = []
    for branch in branches:
        alone = isinstance(branch, dict) and set(branch) == {"anyOf"}
        inner = branch["anyOf"] if alone else None
        for member in inner if isinstance(inner, list) else [branch]:
            if member not in members:
                members.append(member)
    return members
