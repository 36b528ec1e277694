"""Sets of strings, as JSON Schema's string keywords accept them, decided exactly.

:class:`Strings` is a value: a regular language over Unicode scalar values (what a JSON
document in UTF-8 carries) with the set operations, emptiness, inclusion and equality, and
members to show (the shortest first, readable ASCII preferred). It is made by
:func:`matching` (``pattern``: an ECMA-262 expression with the ``u`` flag, matched anywhere in
the string, as :func:`codegen.core.ecma.ecma_search` reads it), :func:`length_between`
(``minLength``/``maxLength``, in code points), :func:`literal` and :func:`one_of`
(``const``/``enum``), :func:`anything` and :func:`nothing`.

A pattern that ECMA-262 refuses raises :class:`PatternError`; one that is valid but not decided
exactly here (a backreference, lookaround, a modifier group, a repetition or automaton past the
limits) raises :class:`Undecidable`, naming the construct and its offset: the caller reports the
question as undecided, it never guesses. Length bounds never build long automata: a language is
kept as one automaton per stretch of lengths, so ``maxLength: 10000`` costs what
``maxLength: 10`` costs.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING

from codegen.breaking.strings import dfa_ops
from codegen.breaking.strings.automata import NFA_LIMIT, compile_tree
from codegen.breaking.strings.dfa import Dfa
from codegen.breaking.strings.ecma_pattern import (
    Assertion,
    Chars,
    Node,
    PatternError,
    Repeat,
    Seq,
    Undecidable,
    parse,
)

if TYPE_CHECKING:  # greenery checks the automata in the tests: imported when asked for
    from greenery import Fsm

__all__ = [
    "PatternError",
    "Strings",
    "Undecidable",
    "anything",
    "length_between",
    "literal",
    "matching",
    "matching_superset",
    "nothing",
    "one_of",
]


class Strings:
    """A set of strings. Immutable; ``&``, ``|``, ``-``, ``^``, ``~`` and ``<=`` are the set
    operations, ``==`` is equality of the sets, ``text in strings`` is membership.

    Inside: lengths ``cuts[i]`` to ``cuts[i + 1] - 1`` (the last stretch unbounded) are
    decided by the automaton ``dfas[i]``.
    """

    __slots__ = ("_cuts", "_dfas", "_label")
    __hash__ = None  # type: ignore[assignment]  # equal sets may be built differently

    def __init__(self, cuts: tuple[int, ...], dfas: tuple[Dfa, ...], label: str) -> None:
        merged_cuts: list[int] = []
        merged: list[Dfa] = []
        for cut, dfa in zip(cuts, dfas, strict=True):
            if not merged or merged[-1] != dfa:
                merged_cuts.append(cut)
                merged.append(dfa)
        self._cuts = tuple(merged_cuts)
        self._dfas = tuple(merged)
        self._label = label if len(label) <= 200 else label[:199] + "…"

    def __repr__(self) -> str:
        return f"Strings({self._label})"

    def _stretches(self) -> Iterator[tuple[int, int | None, Dfa]]:
        ends = [cut - 1 for cut in self._cuts[1:]]
        yield from zip(self._cuts, [*ends, None], self._dfas, strict=True)

    def _dfa_at(self, length: int) -> Dfa:
        return next(d for low, high, d in self._stretches() if high is None or length <= high)

    def _combine(self, other: Strings, op: str, symbol: str) -> Strings:
        cuts = tuple(sorted(set(self._cuts) | set(other._cuts)))
        label = f"{_wrap(self._label)} {symbol} {_wrap(other._label)}"
        with _naming(label):
            dfas = tuple(dfa_ops.product(self._dfa_at(c), other._dfa_at(c), op) for c in cuts)
        return Strings(cuts, dfas, label)

    def intersection(self, other: Strings) -> Strings:
        return self._combine(other, "and", "&")

    def union(self, other: Strings) -> Strings:
        return self._combine(other, "or", "|")

    def difference(self, other: Strings) -> Strings:
        return self._combine(other, "sub", "-")

    def symmetric_difference(self, other: Strings) -> Strings:
        return self._combine(other, "xor", "^")

    def complement(self) -> Strings:
        """Every string (of scalar values) not in this set."""
        return Strings(
            self._cuts,
            tuple(dfa_ops.product(dfa_ops.ANYTHING, d, "sub") for d in self._dfas),
            f"~{_wrap(self._label)}",
        )

    __and__ = intersection
    __or__ = union
    __sub__ = difference
    __xor__ = symmetric_difference
    __invert__ = complement

    def is_empty(self) -> bool:
        with _naming(self._label):
            return all(dfa_ops.first_length(d, lo, hi) is None for lo, hi, d in self._stretches())

    def issubset(self, other: Strings) -> bool:
        return (self - other).is_empty()

    def isdisjoint(self, other: Strings) -> bool:
        return (self & other).is_empty()

    def __le__(self, other: Strings) -> bool:
        return self.issubset(other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Strings):
            return NotImplemented
        same = self._cuts == other._cuts and self._dfas == other._dfas
        return same or (self ^ other).is_empty()

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and self._dfa_at(len(text)).accepts(text)

    def __iter__(self) -> Iterator[str]:
        """The members, shortest first, then position by position the most readable code
        point first (letters, digits, printable ASCII, other printable, controls); deterministic.
        Possibly endless."""
        with _naming(self._label):
            for low, high, d in self._stretches():
                length: int | None = low
                while length is not None:
                    length = dfa_ops.first_length(d, length, high)
                    if length is not None:
                        yield from dfa_ops.strings_of_length(d, length)
                        length += 1

    def example(self, excluding: Collection[str] = ()) -> str | None:
        """The first member (see ``__iter__``) not in ``excluding``, or None when there is none.
        :class:`Undecidable` when that member would be longer than 100,000 code points."""
        return next((text for text in self if text not in excluding), None)

    def examples(self, count: int) -> list[str]:
        """The first ``count`` members (fewer when the set is smaller), all distinct."""
        return list(itertools.islice(self, count))

    def to_fsm(self) -> Fsm:
        """The set as one greenery ``Fsm`` (length bounds unrolled: they must stay under
        ``NFA_LIMIT``, else :class:`Undecidable`)."""
        if self._cuts[-1] > NFA_LIMIT:
            why = f"unrolling lengths past {NFA_LIMIT} into one automaton"
            raise Undecidable(self._label, "length bound", None, why)
        whole = dfa_ops.NOTHING
        for low, high, d in self._stretches():
            part = dfa_ops.product(d, dfa_ops.length_window(low, high), "and")
            whole = dfa_ops.product(whole, part, "or")
        return whole.to_fsm()


@contextlib.contextmanager
def _naming(label: str) -> Iterator[None]:
    """An :class:`Undecidable` raised by the automata names this set instead."""
    try:
        yield
    except Undecidable as error:
        if error.pattern != dfa_ops.SUBJECT:
            raise
        raise Undecidable(label, error.construct, error.offset, error.why) from None


def _wrap(label: str) -> str:
    return f"({label})" if " " in label else label


@functools.lru_cache(maxsize=1024)
def matching(pattern: str) -> Strings:
    """The strings in which ECMA-262 ``pattern`` (``u`` flag) finds a match, anywhere."""
    tree = parse(pattern)
    whole = _whole_repetition(tree)
    if whole is None:
        return Strings((0,), (compile_tree(tree, pattern, search=True),), repr(pattern))
    # ^[set]{low,high}$ is a length bound: kept as one, never spelled out.
    star = Seq((Assertion("^"), Repeat(whole.item, 0, None, whole.offset), Assertion("$")))
    bounded = Strings((0,), (compile_tree(star, pattern, search=True),), "")
    bounded &= length_between(whole.low, whole.high)
    return Strings(bounded._cuts, bounded._dfas, repr(pattern))


@functools.lru_cache(maxsize=1024)
def matching_superset(pattern: str) -> Strings:
    """A set holding every string in which ``pattern`` finds a match: exactly
    :func:`matching` when the automata read the whole pattern; else lookaround read as the
    empty string and backreferences as any string (:func:`~.ecma_pattern.parse`). Empty
    only when the pattern matches nothing; :class:`Undecidable` for what even this reading
    cannot follow (modifier groups)."""
    try:
        return matching(pattern)
    except Undecidable:
        tree = parse(pattern, superset=True)
    return Strings((0,), (compile_tree(tree, pattern, search=True),), f"{pattern!r} at most")


def _whole_repetition(tree: Node) -> Repeat | None:
    """The repetition of ``^[set]{low,high}$``, or None for any other tree."""
    if isinstance(tree, Seq) and len(tree.items) == 3:
        first, middle, last = tree.items
        if (first, last) == (Assertion("^"), Assertion("$")) and isinstance(middle, Repeat):
            return middle if isinstance(middle.item, Chars) else None
    return None


@functools.lru_cache(maxsize=1024)
def length_between(low: int = 0, high: int | None = None) -> Strings:
    """The strings of ``low`` to ``high`` code points (``high`` None: no upper bound)."""
    low = max(low, 0)
    if high is not None and high < low:
        return nothing()
    cuts = [0, low] if low else [0]
    dfas = [dfa_ops.NOTHING, dfa_ops.ANYTHING] if low else [dfa_ops.ANYTHING]
    if high is not None:
        cuts.append(high + 1)
        dfas.append(dfa_ops.NOTHING)
    return Strings(tuple(cuts), tuple(dfas), f"length {low}..{'' if high is None else high}")


def literal(text: str) -> Strings:
    """The one string ``text``."""
    return one_of((text,))


def one_of(texts: Iterable[str]) -> Strings:
    """Exactly these strings (``enum``)."""
    found = tuple(dict.fromkeys(texts))
    return Strings((0,), (dfa_ops.exactly(found),), " | ".join(map(repr, found)) or "nothing")


def anything() -> Strings:
    """Every string."""
    return Strings((0,), (dfa_ops.ANYTHING,), "anything")


def nothing() -> Strings:
    """No string at all."""
    return Strings((0,), (dfa_ops.NOTHING,), "nothing")
