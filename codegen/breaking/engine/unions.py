"""Unions whose branches are told apart: decided branch by branch, never as a product.

A ``oneOf`` or ``anyOf`` whose branches accept disjoint sets of values (for the kind of value
asked about) is read as what it is:

* its branches are told apart by their JSON types, by their ``const``/``enum`` values, or, for
  objects, by a *tag*: a property every branch requires and gives ``const``/``enum`` values
  that no other branch gives (``{"using": {"enum": ["node20"]}}`` beside
  ``{"using": {"const": "docker"}}``);
* a ``oneOf`` of disjoint branches accepts what the ``anyOf`` of them accepts (no value
  satisfies two), and refusing it is refusing every branch: the pairs of branches that might
  both pass need not be searched;
* refusing a tagged union, for an object, is one case per tag: the tag is absent, its value is
  no branch's, or it is branch ``i``'s and the value breaks branch ``i`` (the other branches
  are broken by the tag already). One branch is broken per case, never every branch at once,
  so an edit of one branch (a value added to its tag's ``enum``) costs that branch.

Each fact is read from what the branch says of itself, following ``$ref`` and ``allOf``: a
branch's types, values and tags may only over-approximate what it accepts, so two branches
are said disjoint only when they are. Facts are read once per schema tree.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from codegen.breaking.engine.kinds import NUMERIC, json_key, kind_of, type_kinds
from codegen.breaking.engine.nodes import SNode
from codegen.core.ecma import ecma_search
from codegen.core.loader import SchemaTree

__all__ = ["Facts", "disjoint", "facts", "presence", "tag", "told_apart", "untold", "values_node"]

_DEPTH = 16


@dataclass
class Facts:
    """What a schema says of the values it accepts, over-approximated: the kinds it may accept,
    the values it may take (None: not a closed set), and its tags (a required property's
    possible values, by their canonical keys, with the values as written)."""

    kinds: frozenset[str]
    values: dict[Any, Any] | None = None
    tags: dict[str, dict[Any, Any]] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    # Each closed content model among its conjuncts: the names and patterns it declares.
    closures: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = ()

    def forbids(self, name: str) -> bool:
        """Whether no object it accepts has a property ``name`` (a closed content model that
        neither declares it nor matches it by a pattern)."""
        return any(
            name not in names and not any(ecma_search(p, name) for p in patterns)
            for names, patterns in self.closures
        )

    def meet(self, other: Facts) -> Facts:
        values = self.values
        if other.values is not None:
            values = (
                dict(other.values)
                if values is None
                else {k: v for k, v in values.items() if k in other.values}
            )
        tags = dict(self.tags)
        for name, allowed in other.tags.items():
            tags[name] = (
                {k: v for k, v in tags[name].items() if k in allowed} if name in tags else allowed
            )
        return Facts(
            self.kinds & other.kinds,
            values,
            tags,
            self.required | other.required,
            self.closures + other.closures,
        )


_ANY = frozenset({"null", "boolean", *NUMERIC, "string", "array", "object"})
_CACHE: weakref.WeakKeyDictionary[SchemaTree, dict[Any, Any]] = weakref.WeakKeyDictionary()


def _cache(node: SNode) -> dict[Any, Any]:
    found = _CACHE.get(node.tree)
    if found is None:
        found = _CACHE[node.tree] = {}
    return found


def facts(node: SNode, depth: int = 0) -> Facts:
    """The facts of ``node`` (see :class:`Facts`), read once per tree."""
    cache = _cache(node)
    key = ("facts", node.key)
    if key not in cache:
        cache[key] = Facts(_ANY)  # a reference back to itself says nothing more
        cache[key] = _read(node, depth)
    result: Facts = cache[key]
    return result


def _read(node: SNode, depth: int) -> Facts:
    value = node.value
    if value is False:
        return Facts(frozenset(), {})
    if not isinstance(value, dict) or depth > _DEPTH:
        return Facts(_ANY)
    kinds = _ANY
    if "type" in value:
        kinds = type_kinds(value["type"], node.float_integers)
    values: dict[str, Any] | None = None
    if "const" in value:
        values = {json_key(value["const"]): value["const"]}
    if isinstance(value.get("enum"), list):
        listed = {json_key(v): v for v in value["enum"]}
        values = listed if values is None else {k: v for k, v in values.items() if k in listed}
    if values is not None:
        kinds = kinds & _kinds_of(values.values())
        values = {k: v for k, v in values.items() if _kinds_of([v]) & kinds}
    required = value.get("required")
    properties = value.get("properties")
    names = (
        frozenset(n for n in required if isinstance(n, str))
        if isinstance(required, list)
        else frozenset()
    )
    closures: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = ()
    if value.get("additionalProperties") is False:
        patterns = value.get("patternProperties")
        closures = ((frozenset(properties or {}), tuple(patterns or {})),)
    result = Facts(kinds, values, {}, names, closures)
    if isinstance(required, list) and isinstance(properties, dict):
        for name in required:
            if isinstance(name, str) and name in properties:
                allowed = facts(node.child("properties", name), depth + 1).values
                if allowed is not None:
                    result.tags[name] = allowed
    for key in ("$ref", "$dynamicRef"):
        if isinstance(value.get(key), str):
            try:
                target = node.target(key)
            except (KeyError, ValueError, LookupError):
                continue
            if target is not None and key == "$ref":  # a dynamic one depends on the path
                result = result.meet(facts(target, depth + 1))
    for index, member in enumerate(value.get("allOf") or []):
        if isinstance(member, dict | bool):
            result = result.meet(facts(node.child("allOf", index), depth + 1))
    for key in ("anyOf", "oneOf"):  # a value satisfies some branch: what they may take
        if isinstance(value.get(key), list):
            branches = [facts(node.child(key, i), depth + 1) for i in range(len(value[key]))]
            either = Facts(frozenset().union(*(b.kinds for b in branches)))
            if all(b.values is not None for b in branches):
                either.values = {k: v for b in branches for k, v in (b.values or {}).items()}
            result = result.meet(either)
    return result


def _kinds_of(values: Any) -> frozenset[str]:
    found: set[str] = set()
    for v in values:
        kind = kind_of(v)
        found.add(kind)
        if kind in ("integer", "integral"):
            found |= {"integer", "integral"}  # 1 and 1.0 are the same number
    return frozenset(found)


def _apart(a: Facts, b: Facts, kind: str) -> bool:
    """Whether no value of ``kind`` satisfies both."""
    if kind not in a.kinds or kind not in b.kinds:
        return True
    if a.values is not None and b.values is not None and not (a.values.keys() & b.values.keys()):
        return True
    if kind == "object":
        shared = a.tags.keys() & b.tags.keys()
        if any(not (a.tags[n].keys() & b.tags[n].keys()) for n in shared):
            return True
        return any(b.forbids(n) for n in a.required) or any(a.forbids(n) for n in b.required)
    return False


def disjoint(node: SNode, key: str, kind: str) -> bool:
    """Whether no value of ``kind`` satisfies two branches of ``node``'s ``key`` (a union)."""
    cache = _cache(node)
    memo = ("disjoint", node.key, key, kind)
    if memo not in cache:
        branches = [facts(node.child(key, i)) for i in range(len(node.obj[key]))]
        cache[memo] = all(
            _apart(a, b, kind) for i, a in enumerate(branches) for b in branches[i + 1 :]
        )
    result: bool = cache[memo]
    return result


def tag(node: SNode, key: str) -> tuple[str, list[int], list[dict[str, Any]]] | None:
    """The tag telling apart the branches of ``node``'s union ``key`` that accept objects: a
    property each of them requires, with pairwise disjoint values. Returns the tag's name, the
    indexes of those branches and each one's values (by canonical key); None when there is no
    such property (or fewer than two such branches: nothing to tell apart)."""
    cache = _cache(node)
    memo = ("tag", node.key, key)
    if memo in cache:
        found: tuple[str, list[int], list[dict[str, Any]]] | None = cache[memo]
        return found
    branches = [(i, facts(node.child(key, i))) for i in range(len(node.obj[key]))]
    objects = [(i, f) for i, f in branches if "object" in f.kinds]
    result = None
    if len(objects) >= 2:
        names = set.intersection(*(set(f.tags) for _, f in objects))
        for name in sorted(names):
            sets = [f.tags[name] for _, f in objects]
            if sum(len(s) for s in sets) == len(set().union(*sets)):  # pairwise disjoint
                result = (name, [i for i, _ in objects], sets)
                break
    cache[memo] = result
    return result


def presence(node: SNode, key: str) -> list[tuple[int, str, list[int]]] | None:
    """The branches of ``node``'s union ``key`` that accept objects told apart by the presence
    of a property: for each, a name it requires and the other such branches that do not forbid
    that name (:meth:`Facts.forbids`). None when a branch requires no name, or when telling
    them apart this way leaves more than one other branch to refute for some name."""
    cache = _cache(node)
    memo = ("presence", node.key, key)
    if memo in cache:
        found: list[tuple[int, str, list[int]]] | None = cache[memo]
        return found
    branches = [(i, facts(node.child(key, i))) for i in range(len(node.obj[key]))]
    objects = [(i, f) for i, f in branches if "object" in f.kinds]
    result: list[tuple[int, str, list[int]]] | None = []
    for i, mine in objects:
        best: tuple[str, list[int]] | None = None
        for name in sorted(mine.required):
            allow = [j for j, other in objects if j != i and not other.forbids(name)]
            if best is None or len(allow) < len(best[1]):
                best = (name, allow)
        if best is None or len(best[1]) > 1 or result is None:
            result = None
            break
        result.append((i, best[0], best[1]))
    if result is not None and len(result) < 2:
        result = None
    cache[memo] = result
    return result


def told_apart(node: SNode, key: str) -> bool:
    """Whether the branches of ``node``'s union ``key`` are decided one by one: told apart by
    a tag or a required property (objects), or disjoint for every kind."""
    return (
        tag(node, key) is not None
        or presence(node, key) is not None
        or all(disjoint(node, key, kind) for kind in _ANY)
    )


def untold(start: SNode, limit: int = 3, reach: int = 2000) -> list[SNode]:
    """Up to ``limit`` unions (``anyOf``/``oneOf`` of several branches) that ``start`` reaches
    whose branches are not told apart (:func:`told_apart`): where the search combines
    branches. Schemas are read breadth first, ``reach`` of them at most."""
    found: list[SNode] = []
    seen = {start.key}
    queue = [start]
    while queue and len(seen) < reach and len(found) < limit:
        node = queue.pop(0)
        if not isinstance(node.value, dict):
            continue
        children: list[SNode] = []
        for key, spec in node.value.items():
            if key in ("anyOf", "oneOf") and isinstance(spec, list):
                if len(spec) > 1 and not told_apart(node, key) and len(found) < limit:
                    found.append(node)
                children += [node.child(key, i) for i in range(len(spec))]
            elif key in ("allOf", "prefixItems") and isinstance(spec, list):
                children += [node.child(key, i) for i in range(len(spec))]
            elif key in ("properties", "patternProperties", "dependentSchemas") and isinstance(
                spec, dict
            ):
                children += [node.child(key, name) for name in spec]
            elif key in ("items", "additionalProperties", "not", "if", "then", "else",
                         "contains", "propertyNames", "unevaluatedProperties",
                         "unevaluatedItems") and isinstance(spec, dict):  # fmt: skip
                children.append(node.child(key))
            elif key == "$ref" and isinstance(spec, str):
                target = node.target()
                if target is not None:
                    children.append(target)
        for child in children:
            if child.key not in seen:
                seen.add(child.key)
                queue.append(child)
    return found


def values_node(node: SNode, key: str, label: str, values: list[Any]) -> SNode:
    """A schema of its own, ``{"enum": values}``, standing for a tag's values in ``node``'s
    union ``key`` (a place no file has: never compared with another version)."""
    pointer = f"{node.pointer}/{key}#{label}"
    return SNode(node.tree, node.home, pointer, {"enum": values}, node.scope)
