"""Decide whether one contract accepts every document another accepts, and locate each break.

``DATA_BACKWARD`` asks whether the new contract accepts every document the old one accepted;
``DATA_FORWARD`` the converse. Both are one question for the solver: is there a document the
*accepting* schema takes and the *refusing* schema refuses? No (proved): compatible. Yes: the
question is asked again at each component that was edited (the shortest path to it), and the
breaks found there are the answer. Where none shows one (a break seen only through an
unedited ``anyOf`` of references, say), the question is refined, component by component of the
refusing schema (its ``required``, the schema of its property ``a``, there its
``maxLength``...), down to each component that some document breaks, with that document as
the witness. A question the solver cannot decide is reported at the place it was asked, never
dropped; when every refinement comes back round a cycle, the whole schema is the place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from codegen.breaking.engine.facts import Found, Result, Unknown
from codegen.breaking.engine.kinds import Step
from codegen.breaking.engine.literals import Lit, child_of, components
from codegen.breaking.engine.nodes import SNode
from codegen.breaking.engine.solver import Solver
from codegen.generate.rules import is_base

__all__ = ["Break", "breaks", "node_at"]

Edited = Callable[[SNode, Step], bool]
"""Whether a component (a node and a step) is written differently in the other version."""

Deleted = Callable[[SNode], Sequence[str]]
"""The property names the node's counterpart in the other version declares and it does not."""

UNIONS = ("anyOf", "oneOf")

CLOSERS = ("additionalProperties", "unevaluatedProperties")
"""The keywords that close a content model: a name they refuse was deleted, or never there."""


def _nothing_deleted(node: SNode) -> Sequence[str]:
    return ()


MAX_BREAKS = 24
"""Breaks reported at most per contract and direction (the first ones, outermost first)."""


@dataclass(frozen=True)
class Break:
    """A component of the refusing schema that a document of the accepting one breaks.

    ``witness`` is that document; None when the engine could not decide (``reason`` says
    why).
    """

    path: tuple[Step, ...]
    witness: Any
    decided: bool
    reason: str = ""


def node_at(root: SNode, path: tuple[Step, ...]) -> SNode:
    """The schema whose component the last step of ``path`` names."""
    node = root
    for step in path[:-1]:
        child = child_of(node, step)
        assert child is not None, step
        node = child
    return node


def breaks(
    solver: Solver,
    accepting: SNode,
    refusing: SNode,
    unchanged: Callable[[SNode], bool],
    edited: Edited,
    *,
    deleted: Deleted = _nothing_deleted,
) -> list[Break]:
    """Every component of ``refusing`` that some document of ``accepting`` breaks: those that
    were edited where one of them shows a break, else those the search finds.

    The search does not descend into a schema that ``unchanged`` says is the same in both
    versions: a break found there is shown where that schema is used. ``edited`` says whether
    a component is written differently in the other version (a reference that closes a cycle
    is reported only then); ``deleted`` names the properties a closed content model no longer
    declares, each asked on its own (one break, with its witness, per deleted property).
    """
    whole = solver.question([Lit(accepting, True), Lit(refusing, False)])  # asked once
    if not isinstance(whole, Found | Unknown):
        return []
    deletions: list[Break] = []
    if isinstance(whole, Found):
        targeted, deletions = _at_edits(solver, accepting, refusing, edited, deleted)
        if targeted is not None or deletions:  # an edit shows a break: the others follow
            return _innermost([*(targeted or []), *deletions])
    search = _Search(solver, accepting, refusing, unchanged, edited)
    found: list[Break] = []
    for item in search.explore((), whole):
        if item is not None:
            found.append(item)
        if len(found) >= MAX_BREAKS:
            break
    if found:
        # A component written the same in both versions breaks only through the references it
        # holds (an anyOf of definitions, one of which changed): where a break is shown at a
        # component that was edited, those consequences are left out.
        edited_ones = [
            b for b in found if not b.path or edited(node_at(refusing, b.path), b.path[-1])
        ]
        return [*(edited_ones or found), *deletions]
    if deletions:
        return deletions
    # Every break found came back round a cycle to a schema whose own components showed none:
    # the whole schema is the component broken.
    if isinstance(whole, Found):
        return [Break((), whole.value, decided=True)]
    return [Break((), None, decided=False, reason=whole.reason)]


def _at_edits(
    solver: Solver, accepting: SNode, refusing: SNode, edited: Edited, deleted: Deleted
) -> tuple[list[Break] | None, list[Break]]:
    """The breaks at the components that were edited (the whole schema is broken), each asked
    along the shortest path to it, None when no such question shows a break (the search
    component by component decides then); and the break of each deleted property of a closed
    content model (never capped: each is a finding of its own).

    A document can only break what it met differently, and where one edited component shows a
    break, the breaks the search would show elsewhere are that edit seen through references
    (left out, as in :func:`breaks`). Asking at the edits directly asks a question per edit,
    where the search asks one per reference path (exponentially many in a graph of definitions
    that all reach each other).
    """
    found: list[Break] = []
    edits, deletions = _edits(refusing, edited, deleted)
    for path in edits:
        result = solver.question([Lit(accepting, True), Lit(refusing, False, path)])
        if isinstance(result, Found):
            found.append(Break(path, result.value, decided=True))
        elif isinstance(result, Unknown):
            found.append(Break(path, None, decided=False, reason=result.reason))
        if len(found) >= MAX_BREAKS:
            break
    removed = []
    for path in deletions:
        result = solver.question([Lit(accepting, True), Lit(refusing, False, path)])
        if isinstance(result, Found):
            removed.append(Break(path, result.value, decided=True))
    return (found if any(b.decided for b in found) else None), removed


def _edits(
    refusing: SNode, edited: Edited, deleted: Deleted
) -> tuple[list[tuple[Step, ...]], list[tuple[Step, ...]]]:
    """The path to each edited component the refusing schema reaches, outermost first: the
    shortest (breadth first); and the path to each property a closed content model no longer
    declares (its closing keyword, refined to the name). Every schema reached is read once;
    none is compared whole with the other version (that comparison walks what it reaches:
    quadratic in a graph of definitions that all reach each other)."""
    queue: deque[tuple[SNode, tuple[Step, ...]]] = deque([(refusing, ())])
    seen = {refusing.key}
    paths: list[tuple[Step, ...]] = []
    deletions: list[tuple[Step, ...]] = []
    while queue:
        node, path = queue.popleft()
        if isinstance(node.value, bool):
            continue
        closers = [k for k in CLOSERS if node.obj.get(k) is False]
        for name in deleted(node) if closers else ():
            deletions += [(*path, (closer, name)) for closer in closers]
        for step in components(node):
            sub = (*path, step)
            child = child_of(node, step)
            change = edited(node, step)
            if change and (child is None or step[0] in ("$ref", "$dynamicRef")):
                paths.append(sub)  # a keyword, or where a reference leads, edited
                continue
            if _is_rule(refusing, sub):
                if change:
                    paths.append(sub)  # a rule is reported as a whole
                continue
            if child is None or child.key in seen:
                continue
            seen.add(child.key)
            queue.append((child, sub))
        for key in UNIONS:  # an edit inside one branch is asked there (see child_of)
            for index in range(len(node.obj.get(key) or [])):
                child = node.child(key, index)
                if child.key not in seen:
                    seen.add(child.key)
                    queue.append((child, (*path, (key, index))))
    return paths, deletions


def _innermost(found: list[Break]) -> list[Break]:
    """The breaks without those at a union that a break inside one of its branches shows."""
    inside = {b.path[:i] for b in found if b.decided for i, s in enumerate(b.path)
              if s[0] in UNIONS and len(s) > 1}  # fmt: skip
    return [
        b
        for b in found
        if not (
            b.path and b.path[-1][0] in UNIONS and len(b.path[-1]) == 1 and b.path[:-1] in inside
        )
    ]


@dataclass
class _Search:
    """The refinement of one question, component by component of the refusing schema."""

    solver: Solver
    accepting: SNode
    refusing: SNode
    unchanged: Callable[[SNode], bool]
    edited: Edited
    # Components whose breaks are reported (True), or shown unbroken below (False).
    reported: dict[tuple[Any, Step], bool] = field(default_factory=dict)

    def explore(
        self, path: tuple[Step, ...], result: Result | None = None
    ) -> Iterator[Break | None]:
        """The breaks at and below ``path``; None for a component whose breaks were reported
        where another path met it.

        A component met again (a schema that references reach by many paths: exponentially
        many in a graph of definitions that reference each other) is reported once: where the
        first path to it showed a break, with that path's witness. It is asked again only where
        the first path showed none, since what the accepting schema lets through may differ by
        path. ``result``: the question at ``path``, when asked already.
        """
        solver, accepting, refusing = self.solver, self.accepting, self.refusing
        component = (node_at(refusing, path).key, path[-1]) if path else None
        if component is not None and self.reported.get(component):
            yield None  # shown already: the break at this component is reported once
            return
        if result is None:
            result = solver.question([Lit(accepting, True), Lit(refusing, False, path)])
        if not isinstance(result, Found | Unknown):
            return
        below = _refinements(refusing, path, self.unchanged, self.edited)
        if below is None:  # back at a schema on the path, whose breaks are located there
            yield None
            return
        found_below = False
        for sub in below:
            for item in self.explore(sub):
                found_below = True
                yield item
        if component is not None:
            self.reported[component] = True  # yielded below, or at this component just after
        if found_below or (
            below and isinstance(result, Unknown) and _all_empty(solver, accepting, refusing, below)
        ):
            if not found_below and component is not None:
                self.reported[component] = False  # unbroken below: another path asks again
            return  # the components' breaks were reported, or each is proved unbroken
        if isinstance(result, Found):
            yield Break(path, result.value, decided=True)
        else:
            yield Break(path, None, decided=False, reason=result.reason)


def _all_empty(
    solver: Solver, accepting: SNode, refusing: SNode, paths: list[tuple[Step, ...]]
) -> bool:
    """Whether no document of ``accepting`` breaks any of these components (all proved)."""
    return all(
        not isinstance(solver.question([Lit(accepting, True), Lit(refusing, False, p)]),
                       Found | Unknown)
        for p in paths
    )  # fmt: skip


_MAX_DEPTH = 32


def _is_rule(root: SNode, path: tuple[Step, ...]) -> bool:
    """Whether the last step of ``path`` enters a cross-field rule (an ``allOf`` member that
    is no base, ``then``/``else``, ``dependentSchemas``): a rule is reported as a whole."""
    key = path[-1][0]
    if key in ("then", "else", "dependentSchemas"):
        return True
    return key == "allOf" and not is_base(node_at(root, path).obj["allOf"][path[-1][1]])


def _refinements(
    root: SNode, path: tuple[Step, ...], unchanged: Callable[[SNode], bool], edited: Edited
) -> list[tuple[Step, ...]] | None:
    """The paths one component deeper than ``path`` (none below a leaf component); None where
    a recursive schema comes back to a node already on the path."""
    if not path:
        return [(step,) for step in components(root)]
    if len(path) >= _MAX_DEPTH or _is_rule(root, path):
        return []
    node, seen = root, {root.key}
    for step in path:
        child = child_of(node, step)
        if child is not None and child.key in seen:
            # Back round a cycle: a break past here is one of that schema's, located where
            # the path first met it, unless this very reference was edited.
            return [] if edited(node, step) else None
        if child is None or unchanged(child):
            return []
        seen.add(child.key)
        node = child
    return [(*path, step) for step in components(node)]
