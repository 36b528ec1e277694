"""Expand a conjunction of literals, for one kind of value, into conjunctions of atoms.

:func:`expand` yields, lazily and depth first, every conjunction of atoms that a value of the
kind satisfying the literals may satisfy (the disjunctive normal form, one branch at a time):
positive literals through :func:`~codegen.breaking.engine.positive.positive`, negative ones
through :func:`~codegen.breaking.engine.negative.negative`. Literals without branches are
expanded first, and the disjunction with the fewest alternatives is split first. A literal and
its negation close a branch at once, without exploring it, and so do a schema and the
refusal of one proved to include it (:mod:`~codegen.breaking.engine.subsets`): the two
versions of an unchanged part of a contract cancel, and so do those of a part that was only
widened.

Soundness rests on one property: each literal's expansion covers every value the literal
accepts (it may cover more, never less). An empty expansion then proves that no value
exists; a value the solvers build is judged against the literals before it is returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from codegen.breaking.engine.literals import Alt, Atom, Lit
from codegen.breaking.engine.negative import negative
from codegen.breaking.engine.nodes import SNode, Unsupported, same
from codegen.breaking.engine.positive import positive
from codegen.breaking.engine.subsets import Subsets

__all__ = ["Search", "expand"]


class Search:
    """The work of one question: a bound on it (past it the engine says it cannot decide),
    what it learnt of which nodes say the same thing, and the inclusion proofs of the
    comparison (:class:`~codegen.breaking.engine.subsets.Subsets`, shared by its questions)."""

    def __init__(self, steps: int, subsets: Subsets | None = None) -> None:
        self.left = steps
        self._same: dict[tuple[Any, Any], bool] = {}
        self._subsets = subsets if subsets is not None else Subsets()

    def spend(self, node: SNode | None = None) -> None:
        self.left -= 1
        if self.left < 0:
            raise Unsupported("the search bound was reached before a decision", node)

    def same(self, a: SNode, b: SNode) -> bool:
        key = (a.key, b.key)
        if key not in self._same:
            self._same[key] = same(a, b)
        return self._same[key]

    def included(self, a: SNode, b: SNode) -> bool:
        """Whether every value ``a`` accepts is proved accepted by ``b`` (so that a value
        accepting ``a`` and refusing ``b``, on any component, does not exist)."""
        key = (a.key, b.key)
        if key not in self._same:
            self._same[key] = self._subsets.included(a, b)
        return self._same[key]


def expand(lits: list[Lit], kind: str, budget: Search) -> Iterator[list[Atom]]:
    """Every conjunction of atoms that satisfying ``lits`` with a value of ``kind`` may take."""
    yield from _expand(Alt(list(lits)), [], [], [], kind=kind, budget=budget)


def _expand(
    alt: Alt,
    atoms: list[Atom],
    positives: list[SNode],
    negatives: list[Lit],
    *,
    kind: str,
    budget: Search,
) -> Iterator[list[Atom]]:
    budget.spend()
    atoms, positives, negatives = list(atoms) + list(alt.atoms), list(positives), list(negatives)
    pending, ors = list(alt.lits), list(alt.ors)
    seen = {p.key for p in positives} | {(n.node.key, n.path) for n in negatives}
    while pending:
        lit = pending.pop()
        if lit.positive:
            if lit.node.key in seen:
                continue
            seen.add(lit.node.key)
            if any(budget.included(lit.node, n.node) for n in negatives):
                return
            expanded = positive(lit.node, kind)
            if expanded is None:
                return
            positives.append(lit.node)
            pending += expanded.lits
            atoms += expanded.atoms
            ors += expanded.ors
            continue
        if (lit.node.key, lit.path) in seen:
            continue
        seen.add((lit.node.key, lit.path))
        if any(budget.included(p, lit.node) for p in positives):
            return
        negatives.append(lit)
        options = negative(lit, kind)
        if not options:
            return
        if len(options) == 1:
            pending += options[0].lits
            atoms += options[0].atoms
            ors += options[0].ors
        else:
            ors.append(options)
    if not ors:
        yield atoms
        return
    ors.sort(key=len)
    first, others = ors[0], ors[1:]
    for option in first:
        branch = Alt(option.lits, option.atoms, option.ors + others)
        yield from _expand(branch, atoms, positives, negatives, kind=kind, budget=budget)
