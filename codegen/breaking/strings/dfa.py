"""Minimal deterministic automata over code points, in a canonical form.

A :class:`Dfa` reads a string code point by code point; its alphabet is a partition of all code
points into intervals, each interval labelled with a symbol. :func:`canonical` minimizes an
automaton (Hopcroft's refinement), merges the symbols no state tells apart and numbers states
and symbols in a fixed order, so two ``Dfa`` are equal exactly when their languages are.
:meth:`Dfa.to_fsm` hands one to greenery.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from codegen.breaking.strings import charsets as cs

if TYPE_CHECKING:  # greenery checks the automata in the tests: imported when asked for
    from greenery import Fsm

__all__ = ["Dfa", "canonical"]


class Dfa:
    """A minimal, complete, canonically numbered automaton; state 0 is the initial one.

    ``starts[i]`` is the first code point of interval ``i`` (the last one ends at U+10FFFF),
    ``symbols[i]`` its symbol, ``delta[state][symbol]`` the next state.
    """

    __slots__ = ("_hash", "delta", "finals", "starts", "symbols")

    def __init__(
        self,
        starts: tuple[int, ...],
        symbols: tuple[int, ...],
        delta: tuple[tuple[int, ...], ...],
        finals: frozenset[int],
    ) -> None:
        self.starts = starts
        self.symbols = symbols
        self.delta = delta
        self.finals = finals
        self._hash = hash((starts, symbols, delta, finals))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dfa):
            return NotImplemented
        return self is other or (
            self._hash == other._hash
            and (self.starts, self.symbols, self.delta, self.finals)
            == (other.starts, other.symbols, other.delta, other.finals)
        )

    def __repr__(self) -> str:
        return f"<Dfa {len(self.delta)} states, {len(self.delta[0])} symbols>"

    def symbol_of(self, code: int) -> int:
        return self.symbols[bisect.bisect_right(self.starts, code) - 1]

    def accepts(self, text: str) -> bool:
        state = 0
        for char in text:
            state = self.delta[state][self.symbol_of(ord(char))]
        return state in self.finals

    def symbol_ranges(self) -> list[cs.Ranges]:
        """The code points of each symbol."""
        found: list[list[tuple[int, int]]] = [[] for _ in self.delta[0]]
        ends = [*self.starts[1:], cs.LAST + 1]
        for first, end, symbol in zip(self.starts, ends, self.symbols, strict=True):
            found[symbol].append((first, end - 1))
        return [tuple(ranges) for ranges in found]

    def to_fsm(self) -> Fsm:
        """The same automaton as a greenery ``Fsm`` (whose symbols are ``Charclass`` values)."""
        from greenery import Charclass, Fsm  # noqa: PLC0415 - the tests' cross-check only

        # greenery's partition holds exactly one negated class: here the one with U+10FFFF.
        ranges = self.symbol_ranges()
        classes = [Charclass(tuple((chr(a), chr(b)) for a, b in r)) for r in ranges]
        last = self.symbols[-1]
        others = sorted(r for s, rs in enumerate(ranges) if s != last for r in rs)
        classes[last] = ~Charclass(tuple((chr(a), chr(b)) for a, b in others))
        return Fsm(
            alphabet=classes,
            states=range(len(self.delta)),
            initial=0,
            finals=self.finals,
            map={q: dict(zip(classes, row, strict=True)) for q, row in enumerate(self.delta)},
        )


def canonical(
    starts: Sequence[int],
    blocks: Sequence[int],
    delta: Sequence[Sequence[int]],
    finals: set[int] | frozenset[int],
) -> Dfa:
    """The minimal canonical :class:`Dfa` of a complete automaton whose states are all
    reachable from state 0; interval ``i`` starts at ``starts[i]`` and is read as symbol
    ``blocks[i]``."""
    part = _hopcroft(delta, finals)
    rows = {part[q]: [part[t] for t in row] for q, row in enumerate(delta)}
    # Symbols that no state tells apart become one; symbols are numbered by first code point.
    column_symbol: dict[tuple[int, ...], int] = {}
    block_symbol: dict[int, int] = {}
    examples: list[int] = []
    for block in blocks:
        if block not in block_symbol:
            column = tuple(rows[c][block] for c in sorted(rows))
            if column not in column_symbol:
                column_symbol[column] = len(examples)
                examples.append(block)
            block_symbol[block] = column_symbol[column]
    order = [part[0]]
    number = {part[0]: 0}
    for state in order:
        for block in examples:
            target = rows[state][block]
            if target not in number:
                number[target] = len(order)
                order.append(target)
    new_delta = tuple(tuple(number[rows[s][b]] for b in examples) for s in order)
    new_starts: list[int] = []
    new_symbols: list[int] = []
    for first, block in zip(starts, blocks, strict=True):
        if not new_symbols or new_symbols[-1] != block_symbol[block]:
            new_starts.append(first)
            new_symbols.append(block_symbol[block])
    new_finals = frozenset(number[part[q]] for q in finals)
    return Dfa(tuple(new_starts), tuple(new_symbols), new_delta, new_finals)


def _hopcroft(delta: Sequence[Sequence[int]], finals: set[int] | frozenset[int]) -> list[int]:
    """The class of each state under language equivalence (Hopcroft's refinement)."""
    n = len(delta)
    inverse: list[dict[int, list[int]]] = [defaultdict(list) for _ in delta[0]]
    for q, row in enumerate(delta):
        for symbol, target in enumerate(row):
            inverse[symbol][target].append(q)
    blocks = [b for b in (set(finals), set(range(n)) - set(finals)) if b]
    block_of = [0] * n
    for i, block in enumerate(blocks):
        for q in block:
            block_of[q] = i
    work = set(range(len(blocks)))
    while work:
        splitter = list(blocks[work.pop()])
        for back in inverse:
            touched: dict[int, set[int]] = defaultdict(set)
            for q in splitter:
                for p in back.get(q, ()):
                    touched[block_of[p]].add(p)
            for i, inside in touched.items():
                if len(inside) == len(blocks[i]):
                    continue
                rest = blocks[i] - inside
                small, large = (inside, rest) if len(inside) <= len(rest) else (rest, inside)
                blocks[i] = large
                blocks.append(small)
                for q in small:
                    block_of[q] = len(blocks) - 1
                work.add(len(blocks) - 1)
    return block_of
