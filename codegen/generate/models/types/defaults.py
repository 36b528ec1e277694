"""Whether a generated model may fill in a property's default.

A field with a default writes it into every dump that keeps unset fields (``model_dump_json()``):
a document that left the property out comes back with it. So the model fills in the ``default``
``d`` of an optional property ``p`` of an object schema ``O`` only when adding ``p: d`` where
``O`` applies never turns a document the schema accepts into one it refuses (and ``d`` is valid
by ``p``'s own schema). Otherwise the field is ``MISSING`` when absent; the default stays
documented.

It is decided over the schema, keyword by keyword, from every schema a model can be validated by
(each file of ``O``'s closure and each of their ``$defs`` entries, ``O`` itself) down to every
instance where ``O`` can apply. The *group* of an instance is every schema that applies there
(in place: ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``,
``dependentSchemas``, ``$ref``, ``$dynamicRef`` to any anchor it may find), each with what its
verdict may do when ``p: d`` is added: *keep* (valid stays valid: the root's), *hold* (invalid
stays invalid: under ``not``, and the ``if`` of a rule with a ``then`` only) or stay the *same*
(``oneOf``; an ``if`` with both branches; ``contains`` beside ``maxContains``; wherever
``unevaluated*`` reads what passed). Where ``O`` is in the group, each schema must allow it:

* to keep: ``d`` valid against each ``properties``/``patternProperties`` entry for ``p``,
  ``additionalProperties`` and ``unevaluatedProperties`` where they judge ``p`` (not where the
  schema, its ``allOf`` entries or ``$ref`` target declare it), ``p`` valid against
  ``propertyNames``; no ``maxProperties``; a ``dependentRequired`` entry for ``p`` only naming
  required names, a ``dependentSchemas`` entry for ``p`` only if it is the true schema; no
  ``const``/``enum`` holding an object;
* to hold: no ``required`` or ``dependentRequired`` list naming ``p``, no ``minProperties``,
  no ``const``/``enum`` holding an object with ``p``;
* a schema that refuses every object without ``p`` (it requires ``p``, is no object type) need
  not keep, nor the schemas below it there (a ``then`` requiring ``p``: its ``if`` was never
  true on a valid document without ``p``); one that refuses every object with ``p: d`` need not
  hold.

Above such an instance, ``uniqueItems`` and a ``const``/``enum`` holding an array or object
compare whole values, and refuse. The decision reads only ``O``'s closure, as the contract's
module does: a contract in another file that references ``O`` and observes ``p`` through rules
of its own is not seen (docs/schemas.md says so).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.models.types.schema_graph import (
    FLIP,
    HOLD,
    KEEP,
    SAME,
    SchemaGraph,
    search,
    trivial,
)

if TYPE_CHECKING:
    from referencing import Registry

__all__ = ["DefaultRule"]

_UNEVALUATED = ("unevaluatedProperties", "unevaluatedItems")


class _Member(NamedTuple):
    """A schema applying at an instance, what its verdict may do, and whether a schema of the
    group it is part of decides the instance anyway (exempt)."""

    file: SchemaFile
    pointer: str
    way: str  # KEEP, HOLD or SAME
    exempt: bool


class DefaultRule:
    """The rule of the module's docstring for the defaults of one tree (values judged by the
    ECMA-262 oracle, built on first use)."""

    def __init__(self, tree: SchemaTree) -> None:
        self.tree, self.graph = tree, SchemaGraph(tree)
        self._registry: Registry[Any] | None = None
        self._validators: dict[Any, Any] = {}
        self._valid: dict[tuple[Any, str], bool] = {}

    def valid(self, schema: SchemaFile, pointer: str, value: Any) -> bool:
        """Whether ``value`` is valid against the subschema at internal ``pointer`` (as written:
        alone when it refers to nothing, else through the tree's registry)."""
        # The ECMA-262 validator (jsonschema, regress) is imported only when asked.
        from codegen.core.ecma import (  # noqa: PLC0415
            ECMA_VALIDATORS,
            format_checker,
            tree_registry,
            validator_at,
        )

        written = resolve_pointer(schema.document, schema.file_pointer(pointer))
        if isinstance(written, bool):  # draft-04 too, where additional* may be a boolean
            return written
        alone = not _refers(written)
        key = (schema.draft.name, json.dumps(written)) if alone else (id(schema), pointer)
        if key not in self._validators:
            # formats = "assert": a default not of its format is no valid default.
            formats = self.tree.asserts_formats
            if alone:
                checker = format_checker() if formats else None
                validator = ECMA_VALIDATORS[schema.draft.name](written, format_checker=checker)
                self._validators[key] = validator
            else:
                if self._registry is None:
                    self._registry = tree_registry(self.tree)
                self._validators[key] = validator_at(
                    self._registry, schema, pointer, formats=formats
                )
        verdict = (key, json.dumps(value, sort_keys=True))
        if verdict not in self._valid:
            self._valid[verdict] = bool(self._validators[key].is_valid(value))
        return self._valid[verdict]

    def applies(self, schema: SchemaFile, pointer: str, name: str, default: Any) -> bool:
        """Whether the object schema at ``pointer`` may fill in ``default`` for ``name``."""
        return _Check(self, schema, pointer, name, default).holds()


class _Check:
    def __init__(self, rule: DefaultRule, schema: SchemaFile, pointer: str, p: str, d: Any):
        self.rule, self.tree, self.graph, self.p, self.d = rule, rule.tree, rule.graph, p, d
        self.target, self.escaped = (schema, pointer), escape_pointer(p)
        roots: list[tuple[SchemaFile, str]] = []
        for file in self.tree.closure(schema):
            defs = file.data.get("$defs")
            roots += [(file, ""), *((file, f"/$defs/{escape_pointer(n)}") for n in defs or {})]
        self.roots = [*roots, self.target]
        # The schemas from which O can be reached.
        self.above = self.graph.reaching(tuple(roots), self.target)
        self.above |= self.graph.reaching((self.target,), self.target)
        self._deaths: dict[tuple[int, str, bool], bool] = {}
        self._groups: dict[tuple[frozenset[_Member], bool], frozenset[_Member]] = {}

    def holds(self) -> bool:
        schema, pointer = self.target
        # The generator validates the default of a field that holds a class.
        if not self.rule.valid(schema, f"{pointer}/properties/{self.escaped}", self.d):
            return False
        above = self.above
        pending = [[_Member(f, ptr, KEEP, False)] for f, ptr in self.roots if (f, ptr) in above]
        seen: set[frozenset[_Member]] = set()
        while pending:
            group = self._group(pending.pop())
            if group in seen:
                continue
            seen.add(group)
            keys = {(m.file, m.pointer) for m in group}
            if self.target in keys and not all(self._allows(m) for m in group):
                return False
            if not any(e in above and e not in keys for k in keys for e in self.graph.edges(k)):
                continue  # O is not below this instance
            children = [
                [_Member(f, ptr, way, False) for f, ptr, way in found]
                for found in self.graph.children((m.file, m.pointer, m.way) for m in group)
                if any((f, ptr) in above for f, ptr, _ in found)
            ]
            if children and any(self._compares(m) for m in group):
                return False
            pending += children
        return True

    def node(self, file: SchemaFile, pointer: str) -> Any:
        return self.graph.node(file, pointer)

    def _group(self, members: list[_Member], strict: bool = False) -> frozenset[_Member]:
        """The members and every schema applying in place beside them, each with what its
        verdict may do and whether it is exempt (under a member whose verdict is bound)."""
        key = (frozenset(members), strict)
        if key not in self._groups:
            self._groups[key] = self._group_of(members, strict)
        return self._groups[key]

    def _group_of(self, members: list[_Member], strict: bool) -> frozenset[_Member]:
        found: set[_Member] = set()
        pending = list(members)
        while pending:
            m = pending.pop()
            if m in found:
                continue
            found.add(m)
            exempt = m.exempt or self._vacuous(m)
            for file, pointer, how in self.graph.in_place(m.file, m.pointer, strict):
                way = m.way if how == KEEP else FLIP[m.way] if how == HOLD else SAME
                pending.append(_Member(file, pointer, way, exempt))
        nodes = [n for m in found if isinstance(n := self.node(m.file, m.pointer), dict)]
        if not strict and any(k in n for n in nodes for k in _UNEVALUATED):
            return self._group(members, strict=True)
        return frozenset(found)

    # ------------------------------------------------------------------ the judgements
    def _dead(self, file: SchemaFile, pointer: str, with_d: bool) -> bool:
        """Whether the schema refuses every object without ``p`` (``with_d``: with ``p: d``):
        it does, or one of its conjuncts does (:meth:`_conjuncts`, followed once each)."""
        return self._dead_from(file, pointer, with_d, set())[0]

    def _dead_from(
        self, file: SchemaFile, pointer: str, with_d: bool, path: set[tuple[Any, str]]
    ) -> tuple[bool, bool]:
        """:meth:`_dead`, and whether the answer met a schema on ``path`` (the conjuncts being
        followed: their own keywords are judged where they were entered, so it answers False
        there, and the answer is kept only when it met none)."""
        key = (id(file), pointer, with_d)
        known = self._deaths.get(key)
        if known is not None:
            return known, False
        if (id(file), pointer) in path:
            return False, True
        path.add((id(file), pointer))
        try:
            found, met = self._dead_here(file, pointer, with_d), False
            if not found:
                for f, p in self._conjuncts(file, pointer):
                    dead, touched = self._dead_from(f, p, with_d, path)
                    met |= touched
                    if dead:
                        found = True
                        break
        finally:
            path.discard((id(file), pointer))
        if found or not met:
            self._deaths[key] = found
        return found, met

    def _dead_here(self, file: SchemaFile, pointer: str, with_d: bool) -> bool:
        """Whether the schema's own keywords refuse every object without ``p`` (with it)."""
        node = self.node(file, pointer)
        if node is False:
            return True
        if not isinstance(node, dict):
            return False
        kinds = node.get("type")
        if kinds is not None and "object" not in (kinds if isinstance(kinds, list) else [kinds]):
            return True
        values = _values(node)
        if values is not None and not any(isinstance(v, dict) for v in values):
            return True
        if with_d and not self._admits(file, pointer, node, surely=True):
            return True
        return not with_d and self.p in (node.get("required") or [])

    def _conjuncts(self, file: SchemaFile, pointer: str) -> list[tuple[SchemaFile, str]]:
        """The schemas that hold wherever this one does: its ``allOf`` entries and the target
        of its ``$ref`` (a ``$dynamicRef``'s target depends on the path: not one of them)."""
        node = self.node(file, pointer)
        if not isinstance(node, dict):
            return []
        found = [(file, f"{pointer}/allOf/{i}") for i, _ in enumerate(node.get("allOf") or [])]
        if isinstance(node.get("$ref"), str):
            found.append(self.tree.resolve(file, node["$ref"]))
        return found

    def _vacuous(self, m: _Member) -> bool:
        """Whether the member's verdict is bound anyway where ``p`` is added: it refused the
        object before (need not keep), it refuses it after (need not hold)."""
        before = m.way == HOLD or self._dead(m.file, m.pointer, False)
        return before and (m.way == KEEP or self._dead(m.file, m.pointer, True))

    def _admits(
        self, file: SchemaFile, pointer: str, node: dict[str, Any], *, surely: bool = False
    ) -> bool:
        """Whether the keywords that judge ``p``'s value and name accept ``p: d`` (``surely``:
        false only when one refuses it whatever else holds: ``unevaluatedProperties`` does not
        judge ``p`` when a passing ``anyOf`` branch declares it)."""
        props, patterns = node.get("properties") or {}, node.get("patternProperties") or {}
        matched = [p for p in patterns if search(p, self.p)]
        judges = [f"patternProperties/{escape_pointer(p)}" for p in matched]
        if self.p in props:
            judges.append(f"properties/{self.escaped}")
        elif "additionalProperties" in node and not matched:
            judges.append("additionalProperties")
        if "unevaluatedProperties" in node and not surely and not self._declares(file, pointer):
            judges.append("unevaluatedProperties")
        if not all(self.rule.valid(file, f"{pointer}/{judge}", self.d) for judge in judges):
            return False
        return "propertyNames" not in node or self.rule.valid(
            file, f"{pointer}/propertyNames", self.p
        )

    def _declares(self, file: SchemaFile, pointer: str, depth: int = 0) -> bool:
        """Whether ``p`` is evaluated by the schema or its ``allOf`` entries and references."""
        node = self.node(file, pointer)
        if not isinstance(node, dict) or depth > 50:
            return False
        if self.p in (node.get("properties") or {}) or "additionalProperties" in node:
            return True
        if any(search(p, self.p) for p in node.get("patternProperties") or {}):
            return True
        return any(self._declares(f, p, depth + 1) for f, p in self._conjuncts(file, pointer))

    def _allows(self, m: _Member) -> bool:
        """Whether a member of a group where ``O`` applies allows ``p: d`` to be added."""
        node = self.node(m.file, m.pointer)
        if m.exempt or self._vacuous(m) or not isinstance(node, dict):
            return True
        required, values = node.get("required") or [], _values(node) or []
        dependent = node.get("dependentRequired") or {}
        if m.way != HOLD:  # valid must stay valid
            needs, entry = dependent.get(self.p, []), (node.get("dependentSchemas") or {})
            if not self._admits(m.file, m.pointer, node) or "maxProperties" in node:
                return False
            if not set(needs) <= set(required) or any(isinstance(v, dict) for v in values):
                return False
            if self.p in entry and not trivial(entry[self.p]):
                return False
        if m.way != KEEP:  # invalid must stay invalid
            named = self.p in required or any(self.p in names for names in dependent.values())
            if named or "minProperties" in node:
                return False
            if any(isinstance(v, dict) and self.p in v for v in values):
                return False
        return True

    def _compares(self, m: _Member) -> bool:
        """Whether a member compares whole values that an added ``p`` below would change."""
        node = self.node(m.file, m.pointer)
        if not isinstance(node, dict):
            return False
        values = _values(node) or []
        return node.get("uniqueItems") is True or any(isinstance(v, dict | list) for v in values)


def _values(node: dict[str, Any]) -> list[Any] | None:
    """The values ``const`` and ``enum`` allow (None: any)."""
    if "const" in node:
        return [node["const"]]
    enum = node.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _refers(node: Any) -> bool:
    """Whether a schema as written may refer elsewhere, or declare its own draft."""
    if isinstance(node, dict):
        if {"$ref", "$dynamicRef", "$recursiveRef", "$schema"} & set(node):
            return True
        return any(_refers(v) for v in node.values())
    return isinstance(node, list) and any(_refers(v) for v in node)
