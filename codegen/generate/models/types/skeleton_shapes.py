"""The skeleton's judgements of shapes: nullability, tuples, tags, closed subclasses.

:class:`Shapes` is the part of :mod:`codegen.generate.models.types.skeleton`'s stripper that
decides, for one node, whether a form the generator would make of it is exact: whether its type
refuses ``null``, whether a ``prefixItems`` array
is an exact ``tuple``, which property tags a ``oneOf``'s branches, and whether a subclass is
closed exactly by ``unevaluatedProperties: false``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.core.tree import objects_class
from codegen.generate.models.types.skeleton_data import Skeleton
from codegen.generate.rules import is_base

if TYPE_CHECKING:
    from codegen.generate.models.types.defaults import DefaultRule

__all__ = [
    "ANNOTATIONS",
    "BOUNDS",
    "LENGTHS",
    "MAP_VALUES",
    "Shapes",
    "literal_const",
    "types",
]

ANNOTATIONS = ("$schema", "$id", "title", "description", "default", "examples", "deprecated",
               "$comment")  # fmt: skip
LENGTHS = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems")}
BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
# Kept at an object typed ``dict[str, T]`` whose values one schema says (one of
# ``patternProperties`` or ``additionalProperties``): each value holds that schema's type, T,
# so the predicates check of it only what T leaves out. No keyword: nothing is skipped by it.
MAP_VALUES = "(map values)"


def types(node: Any) -> list[str] | None:
    """The types a node names (a list without repetition), or None."""
    kinds = node.get("type") if isinstance(node, dict) else None
    if isinstance(kinds, str):
        return [kinds]
    if isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds):
        return list(dict.fromkeys(kinds))
    return None


class Shapes:
    """The judgements of one file's stripper (see the module's docstring)."""

    tree: SchemaTree
    schema: SchemaFile
    rel: str
    skeleton: Skeleton
    defaults: DefaultRule
    originals: dict[str, str]  # a reference between module files -> the same one as written

    @staticmethod
    def string_enum(node: Mapping[str, Any]) -> bool:
        values = node.get("enum")
        return (
            isinstance(values, list)
            and bool(values)
            and all(isinstance(v, str) for v in values)
            and len(set(values)) == len(values)
        )

    def enum_said(self, node: Mapping[str, Any], pointer: str) -> dict[str, Any]:
        """A kept string ``enum``, as the generator is given it: an enum of one value that is
        no class node is its ``const`` (a ``Literal``, the same one value: pydantic validates
        an ``Enum`` that refuses a value by calling the class in Python, each time a union
        tries it)."""
        values = node["enum"]
        if len(values) == 1 and (self.rel, pointer) not in self.skeleton.classes:
            return {"const": values[0]}
        return {"enum": values}

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

    def typed_ref(self, ref: str) -> bool:
        """Whether a ``$ref`` is a field type: it names a file of the schema folder or one of
        its ``$defs`` entries, and no reference of the tree is dynamic (whose target depends on
        the path taken, which a class validating itself cannot know). Any other target is the
        predicates' to check."""
        return self.typed_ref_from(self.schema, ref)

    def typed_ref_from(self, schema: SchemaFile, ref: str) -> bool:
        """:meth:`typed_ref` of a reference written in ``schema``."""
        if self.tree.dynamic:
            return False
        target, pointer = self.tree.resolve(schema, ref)
        tokens = pointer_tokens(pointer)
        defs = len(tokens) % 2 == 0 and all(t == "$defs" for t in tokens[::2])
        return defs and not target.external

    @staticmethod
    def untyped(stripped: Any) -> bool:
        """Whether the skeleton leaves a schema without a type (its field is ``Any``): what it
        accepts, null included, is the predicate's to decide, and an absent value must stay
        absent (``MISSING``), never be written back as null."""
        return isinstance(stripped, dict) and not set(stripped) - set(ANNOTATIONS)

    def exact_tuples(self, pointer: str, properties: dict[str, Any], required: list[str]) -> None:
        """Required properties holding exactly ``len(prefixItems)`` items become ``tuple[...]``.

        That is when ``items`` is false and ``minItems`` is the prefix's length, and each item
        is a scalar type or a class of this file (whose name is its title).
        """
        for name, sub in properties.items():
            if name not in required or not isinstance(sub, dict):
                continue
            prefix = sub.get("prefixItems")
            if not (
                sub.get("type") == "array"
                and isinstance(prefix, list)
                and prefix
                and sub.get("items") is False
                and sub.get("minItems") == len(prefix)
            ):
                continue
            types = [self.item_type(item) for item in prefix]
            if None in types:
                continue
            annotation = f"tuple[{', '.join(t for t in types if t)}]"
            self.skeleton.tuples.setdefault((self.rel, pointer), {})[name] = annotation
            here = f"{pointer}/properties/{escape_pointer(name)}"
            self.skeleton.kept[(self.rel, here)] = frozenset(
                {"type", "prefixItems", "items", "minItems", "maxItems"} & set(sub)
            )

    def item_type(self, item: Any) -> str | None:
        """The Python type of a tuple's item, when one name says it exactly."""
        if not isinstance(item, dict):
            return None
        scalars = {"string": "StrictStr", "integer": "JsonInt", "number": "JsonNumber",
                   "boolean": "StrictBool", "null": "None"}  # fmt: skip
        said = set(item) - set(ANNOTATIONS)
        if item.get("type") == "integer" and not self.schema.draft.float_integers:
            return None  # draft-04's integer: a list, its items checked by the predicates
        if said == {"type"} and item["type"] in scalars:
            return scalars[item["type"]]
        if said == {"$ref"} and isinstance(item["$ref"], str):
            target, pointer = self.tree.resolve(self.schema, item["$ref"])
            node = resolve_pointer(target.data, pointer)
            if (
                target is self.schema
                and (self.rel, pointer) in self.skeleton.classes
                and not objects_class(node)  # whose class takes its objects only
            ):
                return str(node.get("title"))
        return None

    def tag(self, branches: list[Any]) -> str | None:
        """The property whose string ``const`` tells a ``oneOf``'s branches apart, if any.

        Each branch must be a ``$ref`` the skeleton types (to a class, which validates itself;
        none is where a reference of the tree is dynamic) of an object type that requires the
        property and gives it a ``const`` of its own, which the skeleton keeps as a ``Literal``.
        """
        tags: list[dict[str, str]] = []
        for branch in branches:
            if not is_base(branch) or not self.typed_ref(branch["$ref"]):
                return None
            target, pointer = self.tree.resolve(self.schema, branch["$ref"])
            if (target.rel.as_posix(), pointer) not in self.skeleton.classes:
                return None
            data = resolve_pointer(target.data, pointer)
            if not isinstance(data, dict) or data.get("type") != "object":
                return None
            required = data.get("required") or []
            consts = {
                name: sub["const"]
                for name, sub in (data.get("properties") or {}).items()
                if isinstance(sub, dict) and literal_const(sub) and name in required
            }
            tags.append(consts)
        shared = set.intersection(*(set(t) for t in tags)) if tags else set()
        for name in sorted(shared):
            values = [t[name] for t in tags]
            if len(set(values)) == len(values):
                return name
        return None

    def refuses_null(self, stripped: Any) -> bool:
        """Whether the skeleton's type for a stripped schema refuses null (and so must not
        default to None)."""
        if not isinstance(stripped, dict):
            return False
        kinds = types(stripped)
        if kinds is not None:
            return "null" not in kinds
        if "const" in stripped or "enum" in stripped:  # kept only for strings
            return True
        for key in ("anyOf", "oneOf"):
            if key in stripped:  # a union refuses null when each of its members does
                return all(self.refuses_null(branch) for branch in stripped[key])
        if set(stripped) - {*ANNOTATIONS, "$ref"} or "$ref" not in stripped:
            return False
        ref = str(stripped["$ref"])  # between the module files the generator reads: as written
        target, pointer = self.tree.resolve(self.schema, self.originals.get(ref, ref))
        # The generator makes a class (or a root model) of every schema a kept $ref names: it
        # refuses null when the schema's type does, or, for a schema that is a kept $ref
        # itself (the skeleton keeps nothing else beside it), when the schema it names does.
        seen = set()
        while True:
            node = resolve_pointer(target.data, pointer)
            if not isinstance(node, dict) or (target.rel, pointer) in seen:
                return False
            seen.add((target.rel, pointer))
            inner = node.get("$ref")
            if inner is None:
                kinds = types(node)
                return kinds is not None and "null" not in kinds
            if not isinstance(inner, str) or not self.typed_ref_from(target, inner):
                return False
            target, pointer = self.tree.resolve(target, inner)

    def exact_bases(self, node: dict[str, Any]) -> list[dict[str, Any]]:
        """The ``allOf`` entries of an object node that become the bases of its class: every
        entry that is only a ``$ref``, when inheriting each is exact, else none (the predicates
        then check them).

        Pydantic's subclass holds its bases' fields, configuration and validators, which is
        exactly ``allOf`` when each base is an open object class (``extra="allow"``: a closed
        base would let the subclass's own properties through, and a base that is no object
        class, a root model, is no base the generator keeps), the bases do not reach each other
        in a circle, and no property is declared twice along them (the generator then merges
        the classes into one, with one of the two field types).
        """
        entries = [e for e in node.get("allOf") or [] if is_base(e)]
        if not entries or not all(isinstance(e["$ref"], str) for e in entries):
            return []
        declared = [set(node.get("properties") or {})]
        for entry in entries:
            names = self._base_properties(self.schema, entry["$ref"], ())
            if names is None:
                return []
            declared.append(names)
        every = [name for names in declared for name in names]
        return entries if len(every) == len(set(every)) else []

    def _base_properties(
        self, schema: SchemaFile, ref: str, seen: tuple[tuple[str, str], ...]
    ) -> set[str] | None:
        """The properties a base and its own bases declare, or None when it is no exact base."""
        if not self.typed_ref_from(schema, ref):
            return None
        target, pointer = self.tree.resolve(schema, ref)
        key = (target.rel.as_posix(), pointer)
        if key in seen or key not in self.skeleton.classes:
            return None  # a circle of bases, or no class
        data = resolve_pointer(target.data, pointer)
        if not isinstance(data, dict) or types(data) != ["object"]:
            return None  # a root model, or an object that may be null: no class to extend
        if data.get("additionalProperties") is False or "unevaluatedProperties" in data:
            return None  # closed (or closing): its configuration would be the subclass's
        names = [*(data.get("properties") or {})]
        for entry in (e for e in data.get("allOf") or [] if is_base(e)):
            if not isinstance(entry["$ref"], str):
                return None
            found = self._base_properties(target, entry["$ref"], (*seen, key))
            if found is None:
                return None
            names += found
        return set(names) if len(names) == len(set(names)) else None

    def closes(self, node: dict[str, Any], bases: list[dict[str, Any]]) -> bool:
        """Whether closing the subclass is exactly ``unevaluatedProperties: false``.

        It is when every property evaluated in place is declared by the class or a base: each
        base is a plain object contract, itself open, without bases of its own, and the rules
        of the class and of its bases name declared properties only.
        """
        if {"additionalProperties", "patternProperties", "$ref", "anyOf", "oneOf", "not"} & set(
            node
        ):
            return False
        declared = set(node.get("properties") or {})
        for entry in bases:
            base, pointer = self.tree.resolve(self.schema, entry["$ref"])
            data = base.data if not pointer else None
            if not isinstance(data, dict) or data.get("type") != "object":
                return False
            if {"additionalProperties", "patternProperties", "unevaluatedProperties", "$ref",
                "anyOf", "oneOf", "not"} & set(data):  # fmt: skip
                return False
            if any(is_base(e) for e in data.get("allOf") or []):
                return False  # bases of bases: not needed by any contract yet
            declared |= set(data.get("properties") or {})
            if not _rules_name_declared(data, set(data.get("properties") or {})):
                return False
        return _rules_name_declared(node, declared)


def literal_const(node: dict[str, Any]) -> bool:
    """Whether the skeleton keeps a node's string ``const`` as a ``Literal`` (a tag must be one:
    else the generator names the branch's tag value after its ``$defs`` key)."""
    if not isinstance(node.get("const"), str) or "enum" in node:
        return False
    if "type" in node:
        return bool(node["type"] == "string")  # beside null, the predicates check the const
    return not {"$ref", "anyOf", "oneOf"} & set(node)  # those come first in the skeleton


_OPEN = frozenset({"$ref", "patternProperties", "additionalProperties", "unevaluatedProperties"})


def _rules_name_declared(data: dict[str, Any], declared: set[str]) -> bool:
    """Whether the rules of ``data`` evaluate only ``declared`` properties."""
    rules = [data[k] for k in ("if", "then", "else") if k in data]
    rules += [e for e in data.get("allOf") or [] if not is_base(e)]
    rules += list((data.get("dependentSchemas") or {}).values())
    for rule in rules:
        for _, node in iter_subschemas(rule):
            if _OPEN & set(node):
                return False
            if not set(node.get("properties") or {}) <= declared:
                return False
    return True
