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

__all__ = ["Skeleton", "build_skeleton"]

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
        self.refusing_null: dict[tuple[str, str], bool] = {}  # by reference target
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
            out["$ref"] = self.module_ref(node["$ref"])
            kept.add("$ref")
        elif types(node) is not None:
            self.typed(node, pointer, out, kept)
        elif isinstance(node.get("anyOf"), list) and not self.enum_class(node, pointer, "anyOf"):
            out["anyOf"] = [
                self.node(sub, f"{pointer}/anyOf/{i}") for i, sub in enumerate(node["anyOf"])
            ]
            kept.add("anyOf")
        elif isinstance(node.get("oneOf"), list) and not self.enum_class(node, pointer, "oneOf"):
            branches = node["oneOf"]
            stripped = [self.node(sub, f"{pointer}/oneOf/{i}") for i, sub in enumerate(branches)]
            tag = self.tag(branches)
            if tag is None:
                out["anyOf"] = stripped  # a union types the value; predicates count the matches
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
        self.skeleton.kept[(self.rel, pointer)] = frozenset(kept)
        return out

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
        elif kind == "object":
            self.object(node, pointer, out, kept, nullable="null" in kinds)

    def null_refused(self, file: SchemaFile, node: Any) -> bool:
        """Whether the internal schema ``node`` of ``file`` refuses null by what its keywords
        say: a type, enum or const without it, or a reference, an allOf member or every anyOf
        (oneOf) member that refuses it. False: it takes null, or that is for a validator."""
        if isinstance(node, bool):
            return not node
        if not isinstance(node, dict):
            return False
        kinds = types(node)
        enum = node.get("enum")
        if (kinds is not None and "null" not in kinds) or (
            isinstance(enum, list) and None not in enum
        ):
            return True
        if "const" in node and node["const"] is not None:
            return True
        every = node.get("allOf")
        if isinstance(every, list) and any(self.null_refused(file, s) for s in every):
            return True
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if (
                isinstance(branches, list)
                and branches
                and all(self.null_refused(file, branch) for branch in branches)
            ):
                return True
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return False
        target, pointer = self.tree.resolve(file, ref)
        at = (target.rel.as_posix(), pointer)
        if at not in self.refusing_null:
            self.refusing_null[at] = False  # a circle of references decides nothing
            self.refusing_null[at] = self.null_refused(
                target, resolve_pointer(target.data, pointer)
            )
        return self.refusing_null[at]

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
                if keeps_null and isinstance(stripped, dict) and types(stripped) is None:
                    # A reference or a union whose type the skeleton cannot tell: null stays a
                    # value only when the schema takes it (a reference to a union of strings
                    # and arrays refuses it: its root model does); read from the keywords when
                    # they say so, else decided by the validator.
                    at = f"{pointer}/properties/{escape_pointer(name)}"
                    keeps_null = not self.null_refused(self.schema, sub) and self.defaults.valid(
                        self.schema, at, None
                    )
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
