"""The engine's one question: which JSON value satisfies a conjunction of literals, if any.

:meth:`Solver.solve` answers :class:`Found` (with the value), :class:`Empty` (there is none:
a proof) or :class:`Unknown` (with the reason it could not decide). It tries each kind of value
in turn, expands the literals into conjunctions of atoms (:mod:`codegen.breaking.engine.literals`)
and hands each to the solver of that kind: scalars here, arrays and objects in their own
modules, which ask this solver again for their items and property values.

``Empty`` is only ever concluded from an exhausted finite search or a decided arithmetic or
automaton question, so that a break is never passed silently; every ``Found`` value is judged
against the literals by :mod:`codegen.breaking.engine.evaluate` before it is returned.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.arrays import solve_array
from codegen.breaking.engine.evaluate import kind_of
from codegen.breaking.engine.expand import Search, expand
from codegen.breaking.engine.facts import (
    EMPTY,
    EngineDefect,
    Found,
    Result,
    Unknown,
    atom_holds,
    holds,
    string_language,
)
from codegen.breaking.engine.literals import KINDS, Atom, Bound, In, Lit, Multiple, Pattern
from codegen.breaking.engine.nodes import Unsupported
from codegen.breaking.engine.objects import solve_object

__all__ = ["Solver"]

_MAX_NESTING = 48


class Solver:
    """Answers satisfiability questions over the literals of two schema trees.

    One solver serves one comparison: it remembers every answer (the same item or property
    schema is asked about many times) and shares one bound on the work of each question.
    """

    def __init__(self, steps: int = 20_000) -> None:
        self.steps = steps
        self._answers: dict[Any, Result] = {}
        self._open: dict[Any, int] = {}
        self._reached = _MAX_NESTING
        self.search = Search(steps)

    def solve(self, lits: Iterable[Lit], exclude: tuple[Any, ...] = ()) -> Result:
        """A value satisfying every literal of ``lits`` and equal to none of ``exclude``.

        Documents are finite, so the values a recursive schema accepts are the least fixed
        point of its equations: a question met again while it is being answered contributes
        nothing there (it is taken as empty). An answer that relied on that is only kept when
        it is a value, or when the question it relied on is the one being closed.
        """
        lits = list(lits)
        key = (frozenset(lit.key for lit in lits), _frozen(exclude))
        if key in self._answers:
            return self._answers[key]
        if key in self._open:
            self._reached = min(self._reached, self._open[key])
            return EMPTY
        depth = len(self._open)
        if depth >= _MAX_NESTING:
            raise Unsupported("values nested too deeply to search")
        outer, self._reached = self._reached, _MAX_NESTING
        self._open[key] = depth
        try:
            result = self._solve(lits, exclude)
        finally:
            del self._open[key]
            reached, self._reached = self._reached, min(outer, self._reached)
        if isinstance(result, Found) or reached >= depth:
            self._answers[key] = result
        return result

    def question(self, lits: Iterable[Lit]) -> Result:
        """:meth:`solve` with a fresh bound on the work (one question of a comparison)."""
        self.search = Search(self.steps)
        try:
            return self.solve(lits)
        except Unsupported as exc:
            return Unknown(exc.reason)

    def _solve(self, lits: list[Lit], exclude: tuple[Any, ...]) -> Result:
        unknown: Unknown | None = None
        for kind in KINDS:
            try:
                for atoms in expand(lits, kind, self.search):
                    excluded = tuple(v for v in exclude if kind_of(v) == kind)
                    result = self._leaf(kind, [*atoms, In(excluded, positive=False)])
                    if isinstance(result, Found):
                        if not all(holds(lit, result.value) for lit in lits):
                            raise EngineDefect(result.value)
                        return result
                    if isinstance(result, Unknown):
                        unknown = unknown or result
            except Unsupported as exc:
                if exc.reason.startswith("the search bound"):
                    raise
                unknown = unknown or Unknown(exc.reason)
        return unknown or EMPTY

    def _leaf(self, kind: str, atoms: list[Atom]) -> Result:
        """A value of ``kind`` satisfying every atom of one conjunction."""
        self.search.spend()
        chosen = [a for a in atoms if isinstance(a, In) and a.positive]
        if chosen:
            return self._among(kind, chosen[0].values, atoms)
        if kind == "null":
            return self._among(kind, (None,), atoms)
        if kind == "boolean":
            return self._among(kind, (False, True), atoms)
        if kind in ("integer", "fraction"):
            return _number(kind, atoms)
        if kind == "string":
            return _string(atoms)
        if kind == "array":
            return solve_array(self, atoms)
        return solve_object(self, atoms)

    def _among(self, kind: str, values: tuple[Any, ...], atoms: list[Atom]) -> Result:
        """The first of finitely many candidates that satisfies every atom (exact)."""
        for value in values:
            if kind_of(value) == kind and all(atom_holds(a, value) for a in atoms):
                return Found(value)
        return EMPTY


def _frozen(values: tuple[Any, ...]) -> tuple[str, ...]:
    import json  # noqa: PLC0415

    return tuple(sorted(json.dumps(v, sort_keys=True) for v in values))


# ---------------------------------------------------------------------------- numbers


def _rational_lcm(values: Iterable[Fraction]) -> Fraction:
    result = Fraction(1)
    first = True
    for v in values:
        if first:
            result, first = v, False
        else:
            result = Fraction(lcm(result.numerator, v.numerator), gcd(result.denominator,
                                                                      v.denominator))  # fmt: skip
    return result


def _number(kind: str, atoms: list[Atom]) -> Result:
    """A number of ``kind`` (integer: no fractional part; fraction: one) within the atoms."""
    lower: tuple[Fraction, bool] | None = None
    upper: tuple[Fraction, bool] | None = None
    for atom in atoms:
        if isinstance(atom, Bound):
            bound = (atom.value, atom.exclusive)
            if atom.lower and (lower is None or bound > lower):
                lower = bound
            tighter = upper is None or (bound[0], not bound[1]) < (upper[0], not upper[1])
            if not atom.lower and tighter:
                upper = bound
    steps = [a.step for a in atoms if isinstance(a, Multiple) and a.positive]
    if kind == "integer":
        steps.append(Fraction(1))
    if steps:
        # A number with a fractional part is one that is no multiple of 1.
        fractional = [Multiple(Fraction(1), False)] if kind == "fraction" else []
        return _multiples(kind, _rational_lcm(steps), lower, upper, [*atoms, *fractional])
    return _fraction(lower, upper, atoms)


def _multiples(
    kind: str,
    step: Fraction,
    lower: tuple[Fraction, bool] | None,
    upper: tuple[Fraction, bool] | None,
    atoms: list[Atom],
) -> Result:
    """``k * step`` for a whole ``k``: each refused multiple excludes the ``k`` divisible by
    some whole ``b``, so among ``lcm(b) * (exclusions + 1)`` consecutive ``k`` one fits."""
    low = None if lower is None else _ceil(lower[0] / step, lower[1])
    high = None if upper is None else _floor(upper[0] / step, upper[1])
    if low is not None and high is not None and low > high:
        return EMPTY
    periods = []
    for atom in atoms:
        if isinstance(atom, Multiple) and not atom.positive:
            ratio = step / atom.step
            if ratio.denominator == 1:
                return EMPTY  # every multiple of step is one of atom.step
            periods.append(ratio.denominator)
    excluded = sum(len(a.values) for a in atoms if isinstance(a, In))
    window = lcm(*periods) * (excluded + 1) + 1 if periods else excluded + 1
    if window > 100_000:
        raise Unsupported("the multipleOf constraints have too long a period to search")
    start = 0 if low is None or low <= 0 <= (high if high is not None else 0) else low
    if high is not None and start > high:
        start = high
    for k in _outward(start, low, high, window):
        value = _json_number(k * step)
        if kind_of(value) == kind and all(atom_holds(a, value) for a in atoms):
            return Found(value)
    finite = low is not None and high is not None and high - low + 1 <= window
    if finite:
        return EMPTY
    raise Unsupported("no multiple fitted the number constraints within the search bound")


def _outward(start: int, low: int | None, high: int | None, count: int) -> Iterable[int]:
    """``start``, then alternately above and below it, within ``[low, high]``."""
    yielded, distance = 0, 0
    while yielded < count:
        candidates = [start] if distance == 0 else [start + distance, start - distance]
        inside = [
            k for k in candidates if (low is None or k >= low) and (high is None or k <= high)
        ]
        if (
            not inside
            and (low is not None and high is not None)
            and (start - distance < low and start + distance > high)
        ):
            return
        for k in inside:
            yielded += 1
            yield k
        distance += 1


def _ceil(x: Fraction, exclusive: bool) -> int:
    whole = -((-x.numerator) // x.denominator)
    return whole + 1 if exclusive and whole == x else whole


def _floor(x: Fraction, exclusive: bool) -> int:
    whole = x.numerator // x.denominator
    return whole - 1 if exclusive and whole == x else whole


def _json_number(x: Fraction) -> int | float:
    """``x`` as a JSON number that reads back as exactly ``x`` (an int, or a short decimal)."""
    if x.denominator == 1:
        return x.numerator
    as_float = float(x)
    if Fraction(repr(as_float)) == x:
        return as_float
    raise Unsupported(f"the number {x} has no short decimal form")


def _fraction(
    lower: tuple[Fraction, bool] | None, upper: tuple[Fraction, bool] | None, atoms: list[Atom]
) -> Result:
    """A number with a fractional part within the bounds: between two distinct bounds there
    are infinitely many, and the refused multiples and values exclude only some of them."""
    if lower is not None and upper is not None:
        if lower[0] > upper[0]:
            return EMPTY
        if lower[0] == upper[0]:
            if lower[1] or upper[1] or lower[0].denominator == 1:
                return EMPTY
            value = _json_number(lower[0])
            return Found(value) if all(atom_holds(a, value) for a in atoms) else EMPTY
    for value in _fractions_between(lower, upper):
        if all(atom_holds(a, value) for a in atoms):
            return Found(value)
    raise Unsupported("no number with a fractional part fitted within the search bound")


def _fractions_between(
    lower: tuple[Fraction, bool] | None, upper: tuple[Fraction, bool] | None
) -> Iterable[float]:
    """Short decimals with a fractional part strictly between the bounds, shortest first."""
    low = lower[0] if lower is not None else None
    high = upper[0] if upper is not None else None
    if low is None:
        low = Fraction(-1) if high is None else high - 1
    if high is None:
        high = low + 2
    for digits in range(1, 18):
        unit = Fraction(1, 10**digits)
        candidate = (low // unit) * unit + unit
        for _ in range(12):
            if candidate >= high:
                break
            value = float(candidate)
            if candidate.denominator != 1 and Fraction(repr(value)) == candidate:
                yield value
            candidate += unit


# ---------------------------------------------------------------------------- strings


_CANDIDATES = 256
"""Members of the decidable part tried against the patterns the automata cannot read."""


def _string(atoms: list[Atom]) -> Result:
    """A string satisfying the atoms. Patterns the automata cannot read (lookaround,
    backreferences) are set aside, a pattern that must match kept as a set that holds its
    matches (:func:`~codegen.breaking.strings.matching_superset`): when the rest admits no
    string, none is proved; else the rest's shortest members are judged against them by the
    ECMA-262 engine itself."""
    decidable, aside, supersets = [], [], []
    for atom in atoms:
        if isinstance(atom, Pattern):
            try:
                strings.matching(atom.pattern)
            except (strings.Undecidable, strings.PatternError) as exc:
                aside.append((atom, exc))
                if atom.positive and isinstance(exc, strings.Undecidable):
                    with contextlib.suppress(strings.Undecidable):
                        supersets.append(strings.matching_superset(atom.pattern))
                continue
        decidable.append(atom)
    try:
        language = string_language(decidable)
        for superset in supersets:
            language = language & superset
        candidates = language.examples(_CANDIDATES if aside else 1)
    except (strings.Undecidable, strings.PatternError) as exc:
        raise Unsupported(str(exc)) from exc
    for text in candidates:
        if all(atom_holds(atom, text) for atom, _ in aside):
            return Found(text)
    if not candidates:
        return EMPTY
    raise Unsupported(str(aside[0][1]))
