"""The applicators of a loaded tree as a graph, as :mod:`codegen.generate.models.types.defaults`
walks it.

A schema (a file and an internal pointer) applies to an instance; beside it, *in place*, apply
its ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else`` and ``dependentSchemas``
entries and the targets of its ``$ref`` and ``$dynamicRef`` (every anchor a dynamic one may
find), each with how its verdict is bound to the schema's: the same way (``KEEP``: it must keep
what the schema must keep), flipped (``HOLD``, under ``not``: valid and invalid trade places) or
both ways (``SAME``). Below, its member and item schemas apply to the instance's members and
items. The structure is read once per schema (:meth:`SchemaGraph.edges`), the schemas from
which a target can be reached once per set of roots.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["HOLD", "KEEP", "SAME", "SchemaGraph", "trivial"]

KEEP, HOLD, SAME = "keep", "hold", "same"
FLIP = {KEEP: HOLD, HOLD: KEEP, SAME: SAME}
ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "title",
                         "description", "default", "examples", "deprecated", "readOnly",
                         "writeOnly", "format", "$defs"})  # fmt: skip
Key = tuple[SchemaFile, str]
Way = tuple[SchemaFile, str, str]  # a schema and what its verdict may do


def trivial(node: Any) -> bool:
    """Whether a schema accepts everything (true, or annotations only)."""
    return node is True or (isinstance(node, dict) and not set(node) - ANNOTATIONS)


def search(pattern: str, text: str) -> bool:
    from codegen.core.ecma import ecma_search  # noqa: PLC0415 (regress, when a pattern is met)

    return ecma_search(pattern, text)


class SchemaGraph:
    """The applicator graph of one tree."""

    def __init__(self, tree: SchemaTree) -> None:
        self.tree = tree
        self._edges: dict[Key, frozenset[Key]] = {}
        self._reverse: dict[tuple[Key, ...], dict[Key, set[Key]]] = {}
        self._nodes: dict[tuple[int, str], Any] = {}
        self._in_place: dict[tuple[int, str, bool], tuple[Way, ...]] = {}

    def node(self, file: SchemaFile, pointer: str) -> Any:
        key = (id(file), pointer)
        if key not in self._nodes:
            self._nodes[key] = resolve_pointer(file.data, pointer)
        return self._nodes[key]

    def in_place(self, file: SchemaFile, pointer: str, strict: bool) -> tuple[Way, ...]:
        """The schemas applying in place beside one, with how their verdict is bound to its
        (``strict``: ``unevaluated*`` reads which ``if`` passed, so its verdict must stay)."""
        key = (id(file), pointer, strict)
        if key not in self._in_place:
            self._in_place[key] = tuple(self._in_place_of(file, pointer, strict))
        return self._in_place[key]

    def _in_place_of(self, file: SchemaFile, pointer: str, strict: bool) -> Iterator[Way]:
        node = self.node(file, pointer)
        if not isinstance(node, dict):
            return
        for key, how in (("allOf", KEEP), ("anyOf", KEEP), ("oneOf", SAME)):
            for i, _ in enumerate(node.get(key) or []):
                yield file, f"{pointer}/{key}/{i}", how
        branches = [k for k in ("then", "else") if k in node and not trivial(node[k])]
        for key in branches:
            yield file, f"{pointer}/{key}", KEEP
        if "if" in node and (strict or branches):  # with no branch, its verdict binds nothing
            # A then alone: the if must not turn true; an else alone: it must not turn false.
            how = SAME if strict or len(branches) == 2 else HOLD if branches == ["then"] else KEEP
            yield file, f"{pointer}/if", how
        if "not" in node:
            yield file, f"{pointer}/not", HOLD
        for q in node.get("dependentSchemas") or {}:
            yield file, f"{pointer}/dependentSchemas/{escape_pointer(q)}", KEEP
        for target, at in self.targets(file, pointer, node):
            yield target, at, KEEP

    def targets(self, file: SchemaFile, pointer: str, node: dict[str, Any]) -> Iterator[Key]:
        """Where ``$ref`` and ``$dynamicRef`` lead (a dynamic one: every anchor it may find)."""
        for key in ("$ref", "$dynamicRef"):
            if isinstance(node.get(key), str):
                yield self.tree.resolve(file, node[key])
        anchor = file.dynamic.get(pointer) if "$dynamicRef" in node else None
        if anchor is not None:
            for other in (*self.tree.files, *self.tree.external):
                yield from ((other, at[anchor]) for at in other.resources.values() if anchor in at)

    def children(self, group: Iterable[Way]) -> Iterator[list[Way]]:
        """The schemas of an instance's members, by name (names no schema declares: one list,
        which every pattern's and additional schema joins), then of its items."""
        nodes = [(w, n) for w in group if isinstance(n := self.node(w[0], w[1]), dict)]
        for name in [*sorted({k for _, n in nodes for k in n.get("properties") or {}}), None]:
            found = []
            for (file, pointer, way), node in nodes:
                props, patterns = node.get("properties") or {}, node.get("patternProperties") or {}
                matched = [p for p in patterns if name is None or search(p, name)]
                keys = [f"properties/{escape_pointer(name)}"] if name in props else []
                keys += [f"patternProperties/{escape_pointer(p)}" for p in matched]
                if "additionalProperties" in node and (
                    name is None or not (name in props or matched)
                ):
                    keys.append("additionalProperties")
                if "unevaluatedProperties" in node and name not in props:
                    keys.append("unevaluatedProperties")
                found += [(file, f"{pointer}/{k}", way) for k in keys]
            yield found
        # contains counts its matches: they must stay beside maxContains or unevaluatedItems.
        counted = any("maxContains" in n or "unevaluatedItems" in n for _, n in nodes)
        items = []
        for (file, pointer, way), node in nodes:
            keys = [f"prefixItems/{i}" for i, _ in enumerate(node.get("prefixItems") or [])]
            keys += [key for key in ("items", "unevaluatedItems") if key in node]
            items += [(file, f"{pointer}/{k}", way) for k in keys]
            if "contains" in node:
                items.append((file, f"{pointer}/contains", SAME if counted else way))
        yield items

    def edges(self, key: Key) -> frozenset[Key]:
        """The schemas applying in place beside one, or to its instance's members and items."""
        if key not in self._edges:
            below = {(f, p) for found in self.children([(*key, KEEP)]) for f, p, _ in found}
            beside = {(f, p) for f, p, _ in self.in_place(*key, strict=True)}
            self._edges[key] = frozenset(beside | below)
        return self._edges[key]

    def reaching(self, roots: tuple[Key, ...], target: Key) -> set[Key]:
        """The schemas below ``roots`` from which ``target`` can be reached, ``target`` too."""
        if roots not in self._reverse:
            reverse: dict[Key, set[Key]] = {}
            seen, pending = set(roots), list(roots)
            while pending:
                key = pending.pop()
                for edge in self.edges(key):
                    reverse.setdefault(edge, set()).add(key)
                    if edge not in seen:
                        seen.add(edge)
                        pending.append(edge)
            self._reverse[roots] = reverse
        reverse = self._reverse[roots]
        reached, pending = {target}, [target]
        while pending:
            for key in reverse.get(pending.pop(), ()):
                if key not in reached:
                    reached.add(key)
                    pending.append(key)
        return reached
