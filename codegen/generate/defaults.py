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
of its own is not seen (the README says so).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

if TYPE_CHECKING:
    from referencing import Registry

__all__ = ["DefaultRule"]

KEEP, HOLD, SAME = "keep", "hold", "same"
_FLIP = {KEEP: HOLD, HOLD: KEEP, SAME: SAME}
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "title",
                          "description", "default", "examples", "deprecated", "readOnly",
                          "writeOnly", "format", "$defs"})  # fmt: skip
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
        self.tree = tree
        self._registry: Registry[Any] | None = None
        self._valid: dict[tuple[int, str, str], bool] = {}

    def valid(self, schema: SchemaFile, pointer: str, value: Any) -> bool:
        """Whether ``value`` is valid against the subschema at internal ``pointer``."""
        key = (id(schema), pointer, json.dumps(value, sort_keys=True))
        if key not in self._valid:
            # The ECMA-262 validator (jsonschema, regress) is imported only when asked.
            from codegen.core.ecma import tree_registry, validator_at  # noqa: PLC0415

            if self._registry is None:
                self._registry = tree_registry(self.tree)
            self._valid[key] = bool(validator_at(self._registry, schema, pointer).is_valid(value))
        return self._valid[key]

    def applies(self, schema: SchemaFile, pointer: str, name: str, default: Any) -> bool:
        """Whether the object schema at ``pointer`` may fill in ``default`` for ``name``."""
        return _Check(self, schema, pointer, name, default).holds()


class _Check:
    def __init__(self, rule: DefaultRule, schema: SchemaFile, pointer: str, p: str, d: Any):
        self.rule, self.tree, self.p, self.d = rule, rule.tree, p, d
        self.target, self.escaped = (schema, pointer), escape_pointer(p)
        self.roots = [(schema, pointer)]
        for file in self.tree.closure(schema):
            defs = file.data.get("$defs")
            self.roots += [(file, ""), *((file, f"/$defs/{escape_pointer(n)}") for n in defs or {})]
        self.above = self._reaching()  # the schemas from which O can be reached

    def holds(self) -> bool:
        schema, pointer = self.target
        # The generator validates the default of a field that holds a class.
        if not self.rule.valid(schema, f"{pointer}/properties/{self.escaped}", self.d):
            return False
        pending = [[_Member(f, ptr, KEEP, False)] for f, ptr in self.roots]
        seen: set[frozenset[_Member]] = set()
        while pending:
            group = self._group(pending.pop())
            if group in seen:
                continue
            seen.add(group)
            here = any((m.file, m.pointer) == self.target for m in group)
            if here and not all(self._allows(m) for m in group):
                return False
            children = [c for c in self._children(group) if any(self._above(m) for m in c)]
            if children and any(self._compares(m) for m in group):
                return False
            pending += children
        return True

    # ------------------------------------------------------------------ the schema graph
    def node(self, file: SchemaFile, pointer: str) -> Any:
        return resolve_pointer(file.data, pointer)

    def _above(self, m: _Member) -> bool:
        return (m.file, m.pointer) in self.above

    def _in_place(self, file: SchemaFile, pointer: str, strict: bool) -> Iterator[Any]:
        """The schemas applying in place beside one: file, pointer and how their verdict is
        bound to this one's (the same way, flipped or the same; ``strict``: ``unevaluated*``
        reads which ``if`` passed)."""
        node = self.node(file, pointer)
        if not isinstance(node, dict):
            return
        for key, how in (("allOf", KEEP), ("anyOf", KEEP), ("oneOf", SAME)):
            for i, _ in enumerate(node.get(key) or []):
                yield file, f"{pointer}/{key}/{i}", how
        branches = [k for k in ("then", "else") if k in node and not _trivial(node[k])]
        for key in branches:
            yield file, f"{pointer}/{key}", KEEP
        if "if" in node and (strict or branches):  # with no branch, its verdict binds nothing
            how = SAME if strict or len(branches) == 2 else HOLD if branches == ["then"] else KEEP
            yield file, f"{pointer}/if", how
        if "not" in node:
            yield file, f"{pointer}/not", HOLD
        for q in node.get("dependentSchemas") or {}:
            yield file, f"{pointer}/dependentSchemas/{escape_pointer(q)}", KEEP
        for target, at in self._targets(file, pointer, node):
            yield target, at, KEEP

    def _targets(self, file: SchemaFile, pointer: str, node: dict[str, Any]) -> Iterator[Any]:
        """Where ``$ref`` and ``$dynamicRef`` lead (a dynamic one: every anchor it may find)."""
        for key in ("$ref", "$dynamicRef"):
            if isinstance(node.get(key), str):
                yield self.tree.resolve(file, node[key])
        anchor = file.dynamic.get(pointer) if "$dynamicRef" in node else None
        if anchor is not None:
            for other in (*self.tree.files, *self.tree.external):
                yield from ((other, at[anchor]) for at in other.resources.values() if anchor in at)

    def _group(self, members: list[_Member], strict: bool = False) -> frozenset[_Member]:
        found: set[_Member] = set()
        pending = list(members)
        while pending:
            m = pending.pop()
            if m in found:
                continue
            found.add(m)
            exempt = m.exempt or self._vacuous(m)
            for file, pointer, how in self._in_place(m.file, m.pointer, strict):
                way = m.way if how == KEEP else _FLIP[m.way] if how == HOLD else SAME
                pending.append(_Member(file, pointer, way, exempt))
        if not strict and any(k in self.node(m.file, m.pointer) for m in found
                              if isinstance(self.node(m.file, m.pointer), dict)
                              for k in _UNEVALUATED):  # fmt: skip
            return self._group(members, strict=True)
        return frozenset(found)

    def _children(self, group: frozenset[_Member]) -> Iterator[list[_Member]]:
        """The schemas of the instance's members, by name (names no schema declares: one list,
        which every pattern's and additional schema joins), and of its items."""
        nodes = [(m, n) for m in group if isinstance(n := self.node(m.file, m.pointer), dict)]
        for name in [*sorted({k for _, n in nodes for k in n.get("properties") or {}}), None]:
            found = []
            for m, node in nodes:
                props, patterns = node.get("properties") or {}, node.get("patternProperties") or {}
                matched = [p for p in patterns if name is None or _search(p, name)]
                keys = [f"properties/{escape_pointer(name)}"] if name in props else []
                keys += [f"patternProperties/{escape_pointer(p)}" for p in matched]
                if "additionalProperties" in node and (
                    name is None or not (name in props or matched)
                ):
                    keys.append("additionalProperties")
                if "unevaluatedProperties" in node and name not in props:
                    keys.append("unevaluatedProperties")
                found += [_Member(m.file, f"{m.pointer}/{k}", m.way, False) for k in keys]
            yield found
        counted = any("maxContains" in n or "unevaluatedItems" in n for _, n in nodes)
        items = []
        for m, node in nodes:
            keys = [f"prefixItems/{i}" for i, _ in enumerate(node.get("prefixItems") or [])]
            keys += [key for key in ("items", "unevaluatedItems") if key in node]
            items += [_Member(m.file, f"{m.pointer}/{k}", m.way, False) for k in keys]
            if "contains" in node:
                way = SAME if counted else m.way
                items.append(_Member(m.file, f"{m.pointer}/contains", way, False))
        yield items

    def _reaching(self) -> set[tuple[SchemaFile, str]]:
        """The schemas below the roots from which the target can be reached (in place, in a
        member or in an item), the target included."""
        edges: dict[tuple[SchemaFile, str], set[tuple[SchemaFile, str]]] = {}
        pending = list(self.roots)
        while pending:
            key = pending.pop()
            if key not in edges:
                alone = frozenset([_Member(key[0], key[1], KEEP, True)])
                below = {(c.file, c.pointer) for found in self._children(alone) for c in found}
                edges[key] = {(f, p) for f, p, _ in self._in_place(*key, strict=True)} | below
                pending += edges[key]
        reached, grew = {self.target}, True
        while grew:
            grown = {k for k, targets in edges.items() if targets & reached} | reached
            grew, reached = len(grown) > len(reached), grown
        return reached

    # ------------------------------------------------------------------ the judgements
    def _dead(self, file: SchemaFile, pointer: str, with_d: bool, depth: int = 0) -> bool:
        """Whether the schema refuses every object without ``p`` (``with_d``: with ``p: d``)."""
        node = self.node(file, pointer)
        if node is False:
            return True
        if not isinstance(node, dict) or depth > 50:
            return False
        kinds = node.get("type")
        if kinds is not None and "object" not in (kinds if isinstance(kinds, list) else [kinds]):
            return True
        values = _values(node)
        if values is not None and not any(isinstance(v, dict) for v in values):
            return True
        if with_d and not self._admits(file, pointer, node, surely=True):
            return True
        if not with_d and self.p in (node.get("required") or []):
            return True
        return any(self._dead(f, p, with_d, depth + 1) for f, p in self._conjuncts(file, pointer))

    def _conjuncts(self, file: SchemaFile, pointer: str) -> list[tuple[SchemaFile, str]]:
        """The schemas that hold wherever this one does: its ``allOf`` entries and the target
        of its ``$ref`` (a ``$dynamicRef``'s target depends on the path: not one of them)."""
        node = self.node(file, pointer)
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
        matched = [p for p in patterns if _search(p, self.p)]
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
        if any(_search(p, self.p) for p in node.get("patternProperties") or {}):
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
            if self.p in entry and not _trivial(entry[self.p]):
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


def _trivial(node: Any) -> bool:
    """Whether a schema accepts everything (true, or annotations only)."""
    return node is True or (isinstance(node, dict) and not set(node) - _ANNOTATIONS)


def _search(pattern: str, text: str) -> bool:
    from codegen.core.ecma import ecma_search  # noqa: PLC0415 (regress, when a pattern is met)

    return ecma_search(pattern, text)
