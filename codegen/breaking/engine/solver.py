"""The engine's one question: which JSON value satisfies a conjunction of literals, if any.

:meth:`Solver.solve` answers :class:`Found` (with the value), :class:`Empty` (there is none:
a proof) or :class:`Unknown` (with the reason it could not decide). It tries each kind of value
in turn, expands the literals into conjunctions of atoms (:mod:`codegen.breaking.engine.literals`)
and hands each to the solver of that kind: null, booleans and strings here, numbers, arrays
and objects in their own modules, which ask this solver again for their items and property values.

``Empty`` is only ever concluded from an exhausted finite search or a decided arithmetic or
automaton question, so that a break is never passed silently; every ``Found`` value is judged
against the literals by :mod:`codegen.breaking.engine.evaluate` before it is returned.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.arrays import solve_array
from codegen.breaking.engine.expand import Search, expand
from codegen.breaking.engine.facts import (
    EMPTY,
    Empty,
    EngineDefect,
    Found,
    Result,
    Unknown,
    atom_holds,
    holds,
    string_language,
)
from codegen.breaking.engine.kinds import NUMERIC, kind_of, of_kind
from codegen.breaking.engine.literals import KINDS, Atom, In, Lit, Pattern
from codegen.breaking.engine.nodes import Unsupported
from codegen.breaking.engine.numbers import solve_number
from codegen.breaking.engine.objects import solve_object
from codegen.breaking.engine.subsets import Subsets

__all__ = ["Solver"]

_MAX_NESTING = 48


class Solver:
    """Answers satisfiability questions over the literals of two schema trees.

    One solver serves one comparison: it remembers every answer (the same item or property
    schema is asked about many times) and shares one bound on the work of each question.
    ``integral``: whether a number such as ``1.0`` may be read apart from ``1`` (a draft-04
    file takes part: its ``integer`` refuses ``1.0``); else such a number is judged as the
    integer it equals by every schema, and is not searched for on its own.
    """

    def __init__(self, steps: int = 20_000, *, integral: bool = False) -> None:
        self.steps = steps
        self.kinds = tuple(k for k in KINDS if integral or k != "integral")
        self._answers: dict[Any, Result] = {}
        self._open: dict[Any, int] = {}
        self._reached = _MAX_NESTING
        # Questions answered EMPTY while relying on open ones (key -> the outermost depth
        # relied on), and, per open question, those settled below it: see :meth:`solve`.
        self._provisional: dict[Any, int] = {}
        self._settled: list[list[Any]] = []
        self.subsets = Subsets()
        self.search = Search(steps, self.subsets)

    def solve(self, lits: Iterable[Lit], exclude: tuple[Any, ...] = ()) -> Result:
        """A value satisfying every literal of ``lits`` and equal to none of ``exclude``.

        Documents are finite, so the values a recursive schema accepts are the least fixed
        point of its equations: a question met again while it is being answered contributes
        nothing there (it is taken as empty). A value is always kept. An EMPTY that relied on
        an open question is *provisional*: it is reused, as long as every question it relied
        on is still open (the same assumptions; more open questions only assume more), and
        becomes final when the outermost question it relied on closes EMPTY (the provisional
        answers then make a fixed point of empty sets: the least one). Any other outcome of
        a question (a value, unknown, an interruption) drops the provisional answers settled
        below it, which are asked again when met. Without this, a recursive graph of
        references re-explores every question below each open one: exponential.
        """
        lits = list(lits)
        key = (frozenset(lit.key for lit in lits), _frozen(exclude))
        if key in self._answers:
            return self._answers[key]
        if key in self._open:
            self._reached = min(self._reached, self._open[key])
            return EMPTY
        assumed = self._provisional.get(key)
        if assumed is not None:
            self._reached = min(self._reached, assumed)
            return EMPTY
        depth = len(self._open)
        if depth >= _MAX_NESTING:
            raise Unsupported("values nested too deeply to search")
        outer, self._reached = self._reached, _MAX_NESTING
        self._open[key] = depth
        self._settled.append([])
        result: Result | None = None
        try:
            result = self._solve(lits, exclude)
        finally:
            del self._open[key]
            reached, self._reached = self._reached, min(outer, self._reached)
            self._settle(key, result, depth, reached, self._settled.pop())
        return result

    def _settle(
        self, key: Any, result: Result | None, depth: int, reached: int, settled: list[Any]
    ) -> None:
        """Keep (finally or provisionally) or drop the answer to the question at ``depth``
        that relied on open questions down to ``reached``, and the provisional answers
        ``settled`` below it."""
        if isinstance(result, Empty) and reached < depth:
            for below in settled:
                self._provisional[below] = min(self._provisional[below], reached)
            self._provisional[key] = reached
            self._settled[-1] += [*settled, key]
            return
        final = isinstance(result, Empty)
        for below in settled:
            del self._provisional[below]
            if final:
                self._answers[below] = EMPTY
        if result is not None and (isinstance(result, Found) or reached >= depth):
            self._answers[key] = result

    def question(self, lits: Iterable[Lit]) -> Result:
        """:meth:`solve` with a fresh bound on the work (one question of a comparison)."""
        self.search = Search(self.steps, self.subsets)
        try:
            return self.solve(lits)
        except Unsupported as exc:
            return Unknown(exc.reason)

    def _solve(self, lits: list[Lit], exclude: tuple[Any, ...]) -> Result:
        unknown: Unknown | None = None
        for kind in self.kinds:
            try:
                for atoms in expand(lits, kind, self.search):
                    excluded = of_kind(exclude, kind)
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
        if kind in NUMERIC:
            return solve_number(kind, atoms)
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
