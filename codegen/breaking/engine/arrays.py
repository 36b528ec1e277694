"""Arrays for the engine: an array satisfying one conjunction of array atoms, or a proof that
none does.

Lengths are tried from the shortest allowed. A longest length worth trying exists: items at or
beyond the last prefix position all satisfy the same schemas, so from a witness longer than
``K + E + 2 + sum(minimum counts)`` (``K`` the positions with their own schemas, ``E`` the items
that must break something) an item can be taken out that no count, existence or duplicate
needs, and what is left is a shorter witness. Within that bound the search is exhaustive, so
an exhausted search proves that no array fits.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from codegen.breaking.engine.facts import EMPTY, Asker, Found, Result, Unknown, distinct
from codegen.breaking.engine.literals import Atom, Count, ItemExists, Items, Lit, Size, Unique
from codegen.breaking.engine.nodes import Unsupported

__all__ = ["solve_array"]

_MAX_LENGTH = 64


def solve_array(solver: Asker, atoms: list[Atom]) -> Result:
    """An array satisfying every atom, :class:`Empty`, or :class:`Unknown`."""
    plan = _Plan(atoms)
    if plan.high is not None and plan.low > plan.high:
        return EMPTY
    longest = max(plan.low, plan.fixed + len(plan.exists) + 2 * plan.duplicate + plan.counted)
    if plan.high is not None:
        longest = min(longest, plan.high)
    if longest > _MAX_LENGTH:
        raise Unsupported(f"arrays of up to {longest} items would have to be searched")
    unknown: Unknown | None = None
    for length in range(plan.low, longest + 1):
        for result in _of_length(solver, plan, length):
            if isinstance(result, Found):
                return result
            if isinstance(result, Unknown):
                unknown = unknown or result
    return unknown or EMPTY


class _Plan:
    """The array atoms of one conjunction, read once."""

    def __init__(self, atoms: list[Atom]) -> None:
        sizes = [a for a in atoms if isinstance(a, Size)]
        self.items = [a for a in atoms if isinstance(a, Items)]
        self.exists = [a for a in atoms if isinstance(a, ItemExists)]
        self.counts = [a for a in atoms if isinstance(a, Count)]
        uniques = {a.positive for a in atoms if isinstance(a, Unique)}
        self.unique, self.duplicate = True in uniques, False in uniques
        self.low = max([a.n for a in sizes if a.lower] + [c.low for c in self.counts] + [0])
        self.low = max([self.low, 2 * self.duplicate]
                       + [e.index + 1 for e in self.exists if e.index is not None])  # fmt: skip
        highs = [a.n for a in sizes if not a.lower]
        self.high = min(highs) if highs else None
        if self.unique and self.duplicate:
            self.high = -1
        self.fixed = max(
            [max(len(a.prefix), a.start) for a in self.items]
            + [e.index + 1 if e.index is not None else e.start for e in self.exists]
            + [0]
        )
        self.counted = sum(c.low for c in self.counts)

    def base(self, position: int) -> list[Lit]:
        """What every item at ``position`` must satisfy."""
        lits = []
        for atom in self.items:
            if position < len(atom.prefix):
                lits.append(Lit(atom.prefix[position], True))
            elif atom.rest is not None and position >= atom.start:
                lits.append(Lit(atom.rest, True))
        return lits


def _of_length(solver: Asker, plan: _Plan, length: int) -> Iterator[Result]:
    """Every way an array of ``length`` items may satisfy the plan, tried in turn."""
    placements = [
        [e.index] if e.index is not None else list(range(e.start, length)) for e in plan.exists
    ]
    pairs: list[tuple[int, int] | None] = (
        list(itertools.combinations(range(length), 2)) if plan.duplicate else [None]
    )
    for placed in itertools.product(*placements):
        extra: dict[int, list[Lit]] = {}
        for exists, position in zip(plan.exists, placed, strict=True):
            extra.setdefault(position, []).extend(exists.lits)
        for pair in pairs:
            free = [p for p in range(plan.fixed, length) if p not in extra
                    and (pair is None or p not in pair)]  # fmt: skip
            for members in _memberships(plan, length, free):
                solver.search.spend()
                yield _build(solver, plan, length, extra=extra, pair=pair, members=members)


def _memberships(plan: _Plan, length: int, free: list[int]) -> Iterator[list[tuple[bool, ...]]]:
    """Which items satisfy each counted schema, with the counts within their bounds.

    Free positions are interchangeable: their choices are taken in non-decreasing order.
    """
    vectors = list(itertools.product((False, True), repeat=len(plan.counts)))
    chosen: list[tuple[bool, ...]] = []

    def fits(final: bool) -> bool:
        for index, count in enumerate(plan.counts):
            have = sum(1 for v in chosen if v[index])
            left = length - len(chosen)
            if (count.high is not None and have > count.high) or have + left < count.low:
                return False
            if final and have < count.low:
                return False
        return True

    def walk(position: int) -> Iterator[list[tuple[bool, ...]]]:
        if position == length:
            if fits(final=True):
                yield list(chosen)
            return
        previous = chosen[-1] if position - 1 in free and position in free else None
        for vector in vectors:
            if previous is not None and vector < previous:
                continue
            chosen.append(vector)
            if fits(final=False):
                yield from walk(position + 1)
            chosen.pop()

    yield from walk(0)


def _build(
    solver: Asker,
    plan: _Plan,
    length: int,
    *,
    extra: dict[int, list[Lit]],
    pair: tuple[int, int] | None,
    members: list[tuple[bool, ...]],
) -> Result:
    """The array whose items satisfy what each position needs, or why there is none."""

    def needs(position: int) -> list[Lit]:
        counted = [
            Lit(c.node, member) for c, member in zip(plan.counts, members[position], strict=True)
        ]
        return plan.base(position) + extra.get(position, []) + counted

    wanted: dict[int, list[Lit]] = {}
    for position in range(length):
        if pair is not None and position == pair[1]:
            continue
        wanted[position] = needs(position) + (needs(pair[1]) if pair and position == pair[0]
                                              else [])  # fmt: skip
    if plan.unique:
        return _distinct(solver, wanted, length)
    values: dict[int, Any] = {}
    for position, lits in wanted.items():
        result = solver.solve(lits)
        if not isinstance(result, Found):
            return result
        values[position] = result.value
    if pair is not None:
        values[pair[1]] = values[pair[0]]
    return Found([values[p] for p in range(length)])


def _distinct(solver: Asker, wanted: dict[int, list[Lit]], length: int) -> Result:
    """Pairwise different items: each position's values are listed (all of them, or
    ``length`` of them, which is always enough), then matched to positions, exactly."""
    choices: dict[int, list[Any]] = {}
    for position, lits in wanted.items():
        found: list[Any] = []
        while len(found) < length:
            result = solver.solve(lits, tuple(found))
            if isinstance(result, Found):
                found.append(result.value)
            elif found and isinstance(result, type(EMPTY)):
                break
            else:
                return result
        choices[position] = found
    matched = distinct(choices)
    if matched is None:
        return EMPTY
    return Found([matched[p] for p in range(length)])
