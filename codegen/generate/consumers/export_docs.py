"""Each document of a tree as the export writes it: draft 2020-12, exact, identified.

The export is one draft: every document is the internal form (``SchemaFile.data``, an exact
reading of the file's own draft in draft 2020-12's keywords, :mod:`codegen.core.translate`)
written as a valid draft 2020-12 document, so that one validator of that draft (Ajv2020,
python-jsonschema's ``Draft202012Validator``) judges every file, whatever draft it was written
in, as the generated models do:

* ``$schema`` is draft 2020-12 (a subschema's own ``$schema`` is left out); ``$id`` is the
  document's exported id (:mod:`codegen.generate.consumers.export_ids`);
* every ``$ref`` names its target by the exported ids (kept as written when it resolves so);
* a dynamic reference (``$dynamicRef``, 2019-09's ``$recursiveRef``) is written as the static
  ``$ref`` it is in each dynamic scope, as the models compile it (one predicate per scope,
  :mod:`codegen.generate.models.checks.predicates`): the canonical place of a schema is its own
  document, written in the scope its own resources bind (the outermost declaration of an anchor
  wins); where a reference reaches a schema in a scope that binds an anchor it can meet otherwise,
  the document gets a copy of that schema for that scope, under ``$defs``
  (``dynamic-scope-<n>``, with a ``$comment`` naming the schema and the scope). No
  ``$dynamicRef``/``$dynamicAnchor`` is left: Ajv's ``$dynamicRef`` resolves only ``#anchor``
  within one document and binds an anchor when it evaluates the node declaring it, not when it
  enters its resource, so it would decide some documents otherwise than the models;
* a ``$dynamicRef`` beside a ``$ref`` becomes an ``allOf`` entry (an in-place applicator
  either way: ``unevaluated*`` see the same annotations); so does a document's root ``$ref``
  to its own document when no other keyword beside it validates (Ajv recurses without end on
  such a root embedded in a compound document); ``enum: []`` is ``not: {}`` (Ajv refuses an
  empty ``enum``; both accept nothing), and a property named ``__proto__`` is the
  ``patternProperties`` entry ``^__proto__$`` (Ajv reads ``data.__proto__``, the prototype,
  where the document has no such key; both apply the schema to the key alone).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from codegen.core.drafts import ANNOTATIONS, DEFAULT_DRAFT, Role
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import DRAFT_2020_12, SchemaFile, SchemaTree
from codegen.core.walk import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, iter_subschemas
from codegen.generate.consumers.export_ids import ExportIds, fragment

__all__ = ["ExportDocuments"]

_ONE = (*SCHEMA_ONE, "contentSchema")
# The keywords that validate (a document's root holding none but $ref is wrapped in allOf).
_VALIDATING = frozenset(
    k
    for k, role in DEFAULT_DRAFT.keywords.items()
    if k not in ANNOTATIONS and role not in (Role.DEFS, Role.ID, Role.CORE, Role.REF)
)
_COPY = "dynamic-scope-"
Scope = tuple[tuple[str, str, str], ...]  # (dynamic anchor, file, pointer), by anchor


class ExportDocuments:
    """The exported document of every file of a tree (and of its external documents)."""

    def __init__(self, tree: SchemaTree, package: str) -> None:
        self.tree = tree
        self.ids = ExportIds(tree, package)
        self._documents: dict[PurePosixPath, dict[str, Any]] = {}

    def document(self, schema: SchemaFile) -> dict[str, Any]:
        """The exported document of ``schema`` (built on first use)."""
        if schema.rel not in self._documents:
            self._documents[schema.rel] = _Writer(self.tree, self.ids, schema).document()
        return self._documents[schema.rel]


_IN_PLACE = frozenset({"$defs"})  # what is evaluated in place of a node: not its $defs


def _within(pointer: str, root: str) -> bool:
    return not root or pointer == root or pointer.startswith(root + "/")


class _Writer:
    """The exported document of ``home``, and the copies its dynamic scopes need."""

    def __init__(self, tree: SchemaTree, ids: ExportIds, home: SchemaFile) -> None:
        self.tree, self.ids, self.home = tree, ids, home
        self.names = tree.dynamic_names
        self.copies: dict[tuple[PurePosixPath, str, Scope], str] = {}
        self.pending: list[tuple[str, SchemaFile, str, Scope]] = []
        self.relevance: dict[tuple[PurePosixPath, str], frozenset[str]] = {}
        self.anchors: dict[str, list[tuple[SchemaFile, str]]] | None = None
        self.taken: set[str] = set()

    def document(self) -> dict[str, Any]:
        home = self.home
        self.taken = set(home.data.get("$defs") or {})
        root = self.node(home, "", home.data, self.canonical(home, ""), copy=False)
        assert isinstance(root, dict)
        root["$schema"] = DRAFT_2020_12
        root["$id"] = self.ids[home.rel]
        written: dict[str, Any] = {}
        while self.pending:
            key, schema, pointer, scope = self.pending.pop(0)
            node = self.node(schema, pointer, resolve_pointer(schema.data, pointer), scope,
                             copy=True)  # fmt: skip
            bindings = ", ".join(f"{name} -> {rel}#{at}" for name, rel, at in scope)
            node["$comment"] = f"{schema.rel}#{pointer} in the dynamic scope {bindings}"
            written[key] = node
        if written:
            root["$defs"] = {**(root.get("$defs") or {}), **written}
        return root

    # -- writing ---------------------------------------------------------------------------

    def node(self, schema: SchemaFile, pointer: str, node: Any, scope: Scope, *, copy: bool) -> Any:
        """``node`` (at ``pointer`` of ``schema``) written in ``scope``; a copy leaves out
        ``$defs`` (its references lead to their own places) and identifiers."""
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            here = f"{pointer}/{escape_pointer(key)}"
            dropped = key in ("$schema", "$id") and (pointer or copy)
            if dropped or (key == "$defs" and copy):
                continue
            if key in _ONE:
                out[key] = self.child(schema, here, value, scope, copy)
            elif key in SCHEMA_MAP and isinstance(value, dict):
                out[key] = {
                    name: self.child(schema, f"{here}/{escape_pointer(name)}", sub, scope, copy)
                    for name, sub in value.items()
                }
            elif key in SCHEMA_LIST and isinstance(value, list):
                out[key] = [
                    self.child(schema, f"{here}/{i}", sub, scope, copy)
                    for i, sub in enumerate(value)
                ]
            elif key == "$ref" and isinstance(value, str):
                target, at = self.tree.resolve(schema, value)
                out[key] = self.place(target, at, self.enter(scope, target, at), value)
            elif key != "$dynamicRef":
                out[key] = value
        extra: list[Any] = []
        dynamic = node.get("$dynamicRef")
        if isinstance(dynamic, str):
            ref = self.dynamic_ref(schema, pointer, dynamic, scope)
            if "$ref" in out:
                extra.append({"$ref": ref})
            else:
                out["$ref"] = ref
        properties = out.get("properties")
        if isinstance(properties, dict) and "__proto__" in properties:
            properties = out["properties"] = dict(properties)
            patterns = out["patternProperties"] = dict(out.get("patternProperties") or {})
            moved = properties.pop("__proto__")
            known = patterns.get("^__proto__$")
            patterns["^__proto__$"] = moved if known is None else {"allOf": [known, moved]}
            if not properties:
                del out["properties"]
        if out.get("enum") == []:
            del out["enum"]
            extra.append({"not": {}})
        own_root = not pointer and not copy and str(out.get("$ref")).startswith("#")
        if own_root and not _VALIDATING & set(out):
            extra.insert(0, {"$ref": out.pop("$ref")})
        if extra:
            out["allOf"] = [*out.get("allOf", []), *extra]
        return out

    def child(self, schema: SchemaFile, pointer: str, node: Any, scope: Scope, copy: bool) -> Any:
        if pointer in schema.resources:  # an embedded resource: entered in place
            scope = self.bind(scope, schema, pointer)
        return self.node(schema, pointer, node, scope, copy=copy)

    def dynamic_ref(self, schema: SchemaFile, pointer: str, written: str, scope: Scope) -> str:
        """The static ``$ref`` a dynamic reference is in ``scope``."""
        target, at = self.tree.resolve(schema, written)
        name = schema.dynamic.get(pointer)
        for bound, rel, bound_at in scope:
            if bound == name:
                target, at = self.tree.by_rel[PurePosixPath(rel)], bound_at
                written = ""  # no longer the written target
                break
        return self.place(target, at, self.enter(scope, target, at), written or None)

    def place(self, target: SchemaFile, pointer: str, scope: Scope, written: str | None) -> str:
        """The reference to ``pointer`` of ``target`` evaluated in ``scope``: its own place when
        the scope binds what it can meet as there, else its copy for that scope."""
        relevant = self.relevant(target, pointer)
        mine = tuple(b for b in scope if b[0] in relevant)
        if mine == tuple(b for b in self.canonical(target, pointer) if b[0] in relevant):
            return self.ids.link(self.home, written, target, pointer)
        key = self.copies.get((target.rel, pointer, mine))
        if key is None:
            number = len(self.copies) + 1
            key = f"{_COPY}{number}"
            while key in self.taken:
                key += "-"
            self.taken.add(key)
            self.copies[(target.rel, pointer, mine)] = key
            self.pending.append((key, target, pointer, mine))
        return fragment(f"/$defs/{escape_pointer(key)}")

    # -- dynamic scopes (as codegen.generate.models.checks.predicates.PredicateCompiler.enter) --

    def bind(self, scope: Scope, schema: SchemaFile, root: str) -> Scope:
        """``scope`` once the resource at ``root`` is entered: its dynamic anchors that no
        resource entered before declares are bound to it."""
        bound = {name: (rel, at) for name, rel, at in scope}
        for name, at in schema.resources.get(root, {}).items():
            if name in self.names and name not in bound:
                bound[name] = (schema.rel.as_posix(), at)
        return tuple((name, *bound[name]) for name in sorted(bound))

    def enter(self, scope: Scope, schema: SchemaFile, pointer: str) -> Scope:
        """``scope`` once a reference reaches ``pointer``: the resource holding it entered."""
        if not self.names:
            return scope
        roots = [r for r in schema.resources if _within(pointer, r)]
        return self.bind(scope, schema, max(roots, key=len)) if roots else scope

    def canonical(self, schema: SchemaFile, pointer: str) -> Scope:
        """The scope ``pointer`` is written in at its own place: every resource holding it
        entered, outermost first."""
        scope: Scope = ()
        if self.names:
            for root in sorted((r for r in schema.resources if _within(pointer, r)), key=len):
                scope = self.bind(scope, schema, root)
        return scope

    def relevant(self, schema: SchemaFile, pointer: str) -> frozenset[str]:
        """The dynamic anchors a dynamic reference met evaluating ``pointer`` may look for."""
        if not self.names:
            return frozenset()
        key = (schema.rel, pointer)
        if key not in self.relevance:
            found: set[str] = set()
            seen: set[tuple[PurePosixPath, str]] = set()
            pending = [(schema, pointer)]
            while pending:
                current, at = pending.pop()
                if (current.rel, at) in seen:
                    continue
                seen.add((current.rel, at))
                for here, sub in iter_subschemas(
                    resolve_pointer(current.data, at), at, skip=_IN_PLACE
                ):
                    for keyword in ("$ref", "$dynamicRef"):
                        if isinstance(sub.get(keyword), str):
                            pending.append(self.tree.resolve(current, sub[keyword]))
                    name = current.dynamic.get(here) if "$dynamicRef" in sub else None
                    if name is not None:
                        found.add(name)
                        pending += self.anchored(name)
            self.relevance[key] = frozenset(found)
        return self.relevance[key]

    def anchored(self, name: str) -> list[tuple[SchemaFile, str]]:
        """Every schema of the home document's closure that declares dynamic anchor ``name``."""
        if self.anchors is None:
            self.anchors = {}
            for schema in self.tree.closure(self.home):
                for anchors in schema.resources.values():
                    for anchor, at in anchors.items():
                        self.anchors.setdefault(anchor, []).append((schema, at))
        return self.anchors.get(name, [])
