"""The skeleton's widest exact types of nodes whose exact form is no type (:class:`WiderShapes`,
part of :mod:`codegen.generate.models.types.skeleton`'s stripper): each accepts a superset of what
the node accepts, and nothing is kept there (the predicates check the node in full).

* a reference to a node of the file that is no definition (so no class): the target's type,
  copied in place (:meth:`WiderShapes.copied`);
* ``allOf`` of several entries: the type of the entry that says most (:meth:`best_entry`);
* a property that says no type, of an object whose ``anyOf`` or ``oneOf`` branches each type it
  (or refuse objects): the union of their types; else its type in an ``allOf`` entry of the
  object, or in another entry of the ``allOf`` the object is an entry of
  (:meth:`branch_property`);
* an object without properties whose branches each declare theirs and require one: the union
  of their classes (:meth:`branch_objects`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.generate.models.types.skeleton_shapes import ANNOTATIONS, Shapes, types
from codegen.generate.rules import is_base

__all__ = ["WiderShapes", "one_value_schema"]

# What a branch that declares its objects' properties may say besides, to be typed as a class.
_CLASS_BRANCH = frozenset({*ANNOTATIONS, "type", "properties", "required", "additionalProperties",
                           "patternProperties", "minProperties", "maxProperties", "propertyNames",
                           "dependentRequired", "not", "if", "then", "else", "allOf"})  # fmt: skip

_JSON_TYPES = {bool: "boolean", int: "number", float: "number", str: "string",
               type(None): "null", list: "array", dict: "object"}  # fmt: skip


def one_value_schema(node: Mapping[str, Any]) -> bool:
    """Whether ``patternProperties`` and ``additionalProperties`` say one schema (however many
    times, written alike) for the values of an object they type (:meth:`WiderShapes.map_values`):
    every value then holds that one schema, whichever say it of its key."""
    patterns = node.get("patternProperties")
    said = list(patterns.values()) if isinstance(patterns, dict) else []
    if isinstance(node.get("additionalProperties"), dict):
        said.append(node["additionalProperties"])
    return bool(said) and _alike(said)


def _alike(values: list[Any]) -> bool:
    """Whether the JSON values are all written alike (not ``==``: ``{"const": 1} ==
    {"const": True}``; key order aside)."""
    return len({json.dumps(v, sort_keys=True) for v in values}) == 1


class WiderShapes(Shapes):
    """The superset types of the module's docstring."""

    inlining: set[str]  # the targets of references being copied in place (copied)
    copies: dict[str, dict[str, Any]]  # each target's copy (copied)
    # allOf entry -> property -> (schema, pointer) of where another entry declares it
    beside: dict[str, dict[str, tuple[Any, str]]]

    def node(self, node: Any, pointer: str) -> Any:
        raise NotImplementedError  # the stripper's: every kind of node, by its keywords

    def reference(self, ref: str, out: dict[str, Any], kept: set[str]) -> None:
        raise NotImplementedError  # TypedShapes': a kept reference

    def copied(self, ref: str) -> dict[str, Any]:
        """The skeleton of the target of a reference that names no class (a node of this file
        that is no definition), copied where the reference is: a superset of what it accepts,
        the target's annotations aside. Nothing, any value, where the target is in another
        file, a reference of the tree is dynamic, or the target holds this reference."""
        if self.tree.dynamic:
            return {}
        target, pointer = self.tree.resolve(self.schema, ref)
        if target is not self.schema or pointer in self.inlining:
            return {}
        found = self.copies.get(pointer)
        if found is None:
            self.inlining.add(pointer)
            # An allOf entry referenced alone applies alone: no property from the other entries.
            aside = self.beside.pop(pointer, None)
            try:
                stripped = self.node(resolve_pointer(target.data, pointer), pointer)
            finally:
                self.inlining.discard(pointer)
                if aside is not None:
                    self.beside[pointer] = aside
            found = {k: v for k, v in stripped.items() if k not in (*ANNOTATIONS, "$defs")}
            self.copies[pointer] = found
        return copy.deepcopy(found)  # the caller marks its optional properties

    @staticmethod
    def several_entries(node: Mapping[str, Any]) -> bool:
        """Whether a node is typed by its ``allOf`` entries alone: nothing else says its type."""
        entries = node.get("allOf")
        return (
            isinstance(entries, list)
            and bool(entries)
            and not {"type", "$ref", "$dynamicRef", "$recursiveRef", "anyOf", "oneOf", "const",
                     "enum", "properties"} & set(node)
        )  # fmt: skip

    def best_entry(self, node: dict[str, Any], pointer: str, out: dict[str, Any]) -> None:
        """The type of the ``allOf`` entry that says most (the most properties, a class before
        a union with other JSON types): every value the node accepts, its entries all accept.
        A reference chosen is kept at its entry (its class validates itself); nothing else is
        kept (the predicates check the other entries)."""
        best: tuple[tuple[int, int, int], dict[str, Any], str, set[str]] | None = None
        self.declared_beside(node, pointer)
        for index, entry in enumerate(node["allOf"]):
            at = f"{pointer}/allOf/{index}"
            said: dict[str, Any] = {}
            entry_kept: set[str] = set()
            if is_base(entry) and isinstance(entry["$ref"], str) and self.typed_ref(entry["$ref"]):
                self.reference(entry["$ref"], said, entry_kept)
                target, target_pointer = self.tree.resolve(self.schema, entry["$ref"])
                data = resolve_pointer(target.data, target_pointer)
                count = len(data.get("properties") or {}) if isinstance(data, dict) else 0
            elif isinstance(entry, dict) and not is_base(entry):
                found = self.node(entry, at)
                said = {k: v for k, v in found.items() if k not in ANNOTATIONS}
                count = len(said.get("properties") or {})
            if not said:
                continue
            rank = (count, "anyOf" not in said, -index)
            if best is None or rank > best[0]:
                best = (rank, said, at, entry_kept)
        if best is not None:
            out.update(best[1])
            if best[3]:
                self.skeleton.kept[(self.rel, best[2])] = frozenset(best[3])

    def declared_beside(self, node: dict[str, Any], pointer: str) -> None:
        """For each ``allOf`` entry of ``node`` declaring properties, where the other entries
        (those written here, and the targets of references into this file) declare each
        property (:attr:`beside`): an entry that leaves one untyped (``{}``, beside
        ``additionalProperties: false``) types it from there (:meth:`branch_property`)."""
        declared: list[tuple[int, str, str, Any]] = []  # entry, name, pointer, schema
        for index, entry in enumerate(node["allOf"]):
            at, data = f"{pointer}/allOf/{index}", entry
            if is_base(entry) and isinstance(entry["$ref"], str) and not self.tree.dynamic:
                target, at = self.tree.resolve(self.schema, entry["$ref"])
                data = resolve_pointer(target.data, at) if target is self.schema else None
            properties = data.get("properties") if isinstance(data, dict) else None
            for name, sub in (properties if isinstance(properties, dict) else {}).items():
                declared.append((index, name, f"{at}/properties/{escape_pointer(name)}", sub))
        for index, _ in enumerate(node["allOf"]):
            others = {name: (sub, at) for i, name, at, sub in reversed(declared) if i != index}
            if others:
                self.beside[f"{pointer}/allOf/{index}"] = others

    def branch_property(self, node: dict[str, Any], pointer: str, name: str) -> dict[str, Any]:
        """The type of property ``name`` of an object node that declares it without one, read
        from the node's ``anyOf`` or ``oneOf`` (each branch that takes objects declares it with
        a type: the union of them) or from an ``allOf`` entry that types it; else nothing."""
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            found: list[dict[str, Any]] = []
            for index, branch in enumerate(branches if isinstance(branches, list) else []):
                kinds = types(branch)
                if branch is False or (kinds is not None and "object" not in kinds):
                    continue  # refuses every object
                declared = branch.get("properties") if isinstance(branch, dict) else None
                sub = declared.get(name) if isinstance(declared, dict) else None
                at = f"{pointer}/{key}/{index}/properties/{escape_pointer(name)}"
                said = self._said(self.node(sub, at)) if sub is not None else {}
                if not said:
                    break
                if said not in found:
                    found.append(said)
            else:
                if found:
                    return found[0] if len(found) == 1 else {"anyOf": found}
        for index, entry in enumerate(node.get("allOf") or []):
            declared = entry.get("properties") if isinstance(entry, dict) else None
            sub = declared.get(name) if isinstance(declared, dict) else None
            if sub is not None:
                at = f"{pointer}/allOf/{index}/properties/{escape_pointer(name)}"
                said = self._said(self.node(sub, at))
                if said:
                    return said
        elsewhere = self.beside.get(pointer, {}).get(name)
        if elsewhere is not None:  # declared by another entry of the allOf this node is one of
            return self._said(self.node(*elsewhere))
        return {}

    def branch_objects(
        self, node: dict[str, Any], pointer: str, nullable: bool
    ) -> list[dict[str, Any]] | None:
        """The classes of an object node (no class of its own, never null) without properties
        whose ``anyOf`` or ``oneOf`` branches each declare theirs and require one (or refuse
        objects): a superset of its objects."""
        if nullable or (self.rel, pointer) in self.skeleton.classes:
            return None
        if {"patternProperties", "additionalProperties", "allOf"} & set(node):
            return None
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            members: list[dict[str, Any]] = []
            for index, branch in enumerate(branches if isinstance(branches, list) else []):
                kinds = types(branch)
                if branch is False or (kinds is not None and "object" not in kinds):
                    continue  # refuses every object
                # A branch that requires no property takes every object: a union of such
                # classes says no more than a map, and pydantic's smart mode would validate each
                # object against every one (metricshub-connector's 25: 28 times slower).
                if not (
                    isinstance(branch, dict)
                    and isinstance(branch.get("properties"), dict)
                    and not set(branch) - _CLASS_BRANCH
                    and branch.get("required")
                ):
                    break
                whole = {**branch, "type": "object"}
                members.append(self._said(self.node(whole, f"{pointer}/{key}/{index}")))
            else:
                if members:
                    return members
        return None

    @staticmethod
    def _said(stripped: Any) -> dict[str, Any]:
        """A stripped node's type, its annotations aside (nothing when it says none)."""
        if not isinstance(stripped, dict):
            return {}
        return {k: v for k, v in stripped.items() if k not in ANNOTATIONS}

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

    def prefix_values(self, node: dict[str, Any], pointer: str) -> dict[str, Any] | None:
        """The type of every item of an array with ``prefixItems``, when ``items`` says one for
        the items past them (or refuses them, or ``maxItems`` leaves none): the union of their
        schemas' types (a superset: the predicates check which applies where), else None."""
        rest = node.get("items", True)
        values = [
            self.node(sub, f"{pointer}/prefixItems/{index}")
            for index, sub in enumerate(node["prefixItems"])
        ]
        most = node.get("maxItems")
        if isinstance(most, int) and not isinstance(most, bool) and most <= len(values):
            values = values[: max(most, 0)]  # no item past the prefix: items says nothing
        elif isinstance(rest, dict):
            values.append(self.node(rest, f"{pointer}/items"))
        elif rest is not False:
            return None
        if not values or any(self.untyped(v) for v in values):
            return None
        return values[0] if len(values) == 1 else {"anyOf": values}

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
        return dict(values[0]) if _alike(values) else {"anyOf": values}  # one type said of all
