"""Dynamic scopes for the engine: where a ``$dynamicRef`` leads on the path that reached it.

A ``$dynamicRef`` (2019-09's ``$recursiveRef``) looking for an anchor leads to the outermost
resource of the dynamic scope that declares that anchor, else to its static target
(``SchemaFile.dynamic`` names the anchor it looks for, None for one that is a plain ``$ref``;
``SchemaFile.resources`` the anchors each resource declares). The engine follows the scope
statically, as the generator compiles it (:mod:`codegen.generate.models.checks.predicates`): a
schema node carries the scope of the path that reached it, each resource entered binds the anchors
that no resource entered before declares, and two nodes at the same place with different scopes are
different nodes. Scopes only grow, and there are finitely many, so recursion through dynamic
references is followed like any other.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["Scope", "bound", "entered"]

Scope = tuple[tuple[str, str, str], ...]
"""The dynamic anchors bound so far: (anchor, file, internal pointer), sorted by anchor."""


def entered(tree: SchemaTree, schema: SchemaFile, pointer: str, scope: Scope) -> Scope:
    """``scope`` once the resource holding ``pointer`` of ``schema`` is entered: its dynamic
    anchors that the tree's dynamic references look for and that no resource entered before
    declares are bound to it (the outermost declaration wins)."""
    names = tree.dynamic_names
    if not names or not schema.resources:
        return scope
    resource = pointer
    while resource not in schema.resources:
        if not resource:
            return scope
        resource = resource.rsplit("/", 1)[0]
    declared = schema.resources[resource]
    bound_names = {name for name, _, _ in scope}
    new = [(n, schema.rel.as_posix(), at) for n, at in declared.items()
           if n in names and n not in bound_names]  # fmt: skip
    return tuple(sorted((*scope, *new))) if new else scope


def bound(
    tree: SchemaTree, scope: Scope, name: str, static: tuple[SchemaFile, str]
) -> tuple[SchemaFile, str]:
    """Where a dynamic reference looking for ``name`` leads in ``scope``: the declaration
    bound to ``name``, else its static target."""
    for anchor, rel, at in scope:
        if anchor == name:
            return tree.by_rel[PurePosixPath(rel)], at
    return static
