"""Decide whether one contract accepts every document another accepts, and locate each break.

``DATA_BACKWARD`` asks whether the new contract accepts every document the old one accepted;
``DATA_FORWARD`` the converse. Both are one question for the solver: is there a document the
*accepting* schema takes and the *refusing* schema refuses? No (proved): compatible. Yes: the
question is refined, component by component of the refusing schema (its ``required``, the
schema of its property ``a``, there its ``maxLength``...), down to each component that some
document breaks, with that document as the witness. A question the solver cannot decide is
reported at the place it was asked, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from codegen.breaking.engine.facts import Found, Unknown
from codegen.breaking.engine.kinds import Step
from codegen.breaking.engine.literals import Lit, child_of, components
from codegen.breaking.engine.nodes import SNode
from codegen.breaking.engine.solver import Solver
from codegen.generate.rules import is_base

__all__ = ["Break", "breaks", "node_at"]

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
    solver: Solver, accepting: SNode, refusing: SNode, unchanged: Callable[[SNode], bool]
) -> list[Break]:
    """Every component of ``refusing`` that some document of ``accepting`` breaks.

    The search does not descend into a schema that ``unchanged`` says is the same in both
    versions: a break found there is shown where that schema is used.
    """
    found: list[Break] = []
    for item in _explore(solver, accepting, refusing, (), unchanged):
        found.append(item)
        if len(found) >= MAX_BREAKS:
            break
    return found


def _explore(
    solver: Solver,
    accepting: SNode,
    refusing: SNode,
    path: tuple[Step, ...],
    unchanged: Callable[[SNode], bool],
) -> Iterator[Break]:
    result = solver.question([Lit(accepting, True), Lit(refusing, False, path)])
    if not isinstance(result, Found | Unknown):
        return
    below = _refinements(refusing, path, unchanged)
    reported = False
    for sub in below:
        for item in _explore(solver, accepting, refusing, sub, unchanged):
            reported = True
            yield item
    if reported or (
        below and isinstance(result, Unknown) and _all_empty(solver, accepting, refusing, below)
    ):
        return  # the components' breaks were reported, or each component is proved unbroken
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
    root: SNode, path: tuple[Step, ...], unchanged: Callable[[SNode], bool]
) -> list[tuple[Step, ...]]:
    """The paths one component deeper than ``path`` (none below a leaf component, nor where
    a recursive schema comes back to a node already on the path)."""
    if not path:
        return [(step,) for step in components(root)]
    if len(path) >= _MAX_DEPTH or _is_rule(root, path):
        return []
    node, seen = root, {root.key}
    for step in path:
        child = child_of(node, step)
        if child is None or child.key in seen or unchanged(child):
            return []
        seen.add(child.key)
        node = child
    return [(*path, step) for step in components(node)]
