"""Automata of ECMA-262 syntax trees (:class:`~codegen.breaking.strings.dfa.Dfa`), built exactly.

:func:`compile_tree` builds a Thompson automaton whose epsilon moves may carry an assertion
(``^``, ``$``, ``\\b``, ``\\B``), then determinizes it with the context an assertion looks at:
the kind of the code point before the position (start, word, other) is part of the state, the
kind of the code point after it is the one being read (or the end). So anchors and word
boundaries are exact wherever they stand. In ``search`` mode the language is the one of JSON
Schema's ``pattern``: the strings in which the pattern matches somewhere. (ECMA-262's
backtracking finds a match exactly when some path through the pattern fits, for patterns
without backreferences or lookaround; its rule that a ``*`` iteration must not be empty
removes no match.) Once a match has been seen the rest of the string does not matter, so those
states collapse into one. Lone surrogates lead nowhere (see
:mod:`codegen.breaking.strings.charsets`).

greenery's own construction is far slower on these (``[a-z]{1,300}`` takes 30 s, a product
with ``\\p{L}`` tens of milliseconds), so the automata are built here and minimized by
:mod:`codegen.breaking.strings.dfa`, whose :meth:`~codegen.breaking.strings.dfa.Dfa.to_fsm`
hands one to greenery.
"""

from __future__ import annotations

import bisect
from typing import NoReturn

from codegen.breaking.strings import charsets as cs
from codegen.breaking.strings.dfa import Dfa, canonical
from codegen.breaking.strings.syntax import (
    Alt,
    Assertion,
    Chars,
    Node,
    Repeat,
    Seq,
    Undecidable,
)

__all__ = ["DFA_LIMIT", "NFA_LIMIT", "WORK_LIMIT", "compile_tree"]

NFA_LIMIT = 10_000  # code point positions after bounded repetitions are spelled out
DFA_LIMIT = 20_000  # states while determinizing
WORK_LIMIT = 2_000_000  # NFA states visited while determinizing (about a second)

_START, _WORD, _OTHER, _END = range(4)


def compile_tree(node: Node, pattern: str, search: bool) -> Dfa:
    """The :class:`Dfa` of the strings the tree matches whole (``search=False``) or in which
    it matches somewhere (``search=True``); ``pattern`` names the tree in errors."""
    if search:
        node = _trim(_trim(node, 0), -1)
    _weigh(node, pattern)
    return _Determinizer(_Nfa(node, search), pattern).run()


def _trim(node: Node, end: int) -> Node:
    """The same search language with fewer states: at the very start (``end`` 0) or end (-1)
    of a match, a repetition counts only by its minimum, since a match with more copies holds
    one with fewer at the same positions (``[a-z]{1,1000}x`` finds what ``[a-z]x`` finds)."""
    if isinstance(node, Repeat):
        if node.low > 1:
            return Repeat(node.item, node.low, node.low, node.offset)
        return _trim(node.item, end) if node.low == 1 else Seq(())
    if isinstance(node, Alt):
        return Alt(tuple(_trim(option, end) for option in node.options))
    if isinstance(node, Seq):
        items = list(node.items)
        order = range(len(items)) if end == 0 else range(len(items) - 1, -1, -1)
        for i in order:  # past the parts that shrink to nothing
            items[i] = _trim(items[i], end)
            if items[i] != Seq(()):
                break
        return Seq(tuple(items))
    return node


def _weigh(node: Node, pattern: str) -> int:
    """How many code point positions the tree spells out; refuses it past :data:`NFA_LIMIT`."""
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Assertion):
        return 0
    if isinstance(node, Seq | Alt):
        parts = node.items if isinstance(node, Seq) else node.options
        return sum(_weigh(part, pattern) for part in parts)
    copies = node.low + 1 if node.high is None else node.high
    weight = _weigh(node.item, pattern) * copies
    if weight > NFA_LIMIT:
        why = f"spelling it out needs more than {NFA_LIMIT} positions"
        raise Undecidable(pattern, "bounded repetition", node.offset, why)
    return weight


class _Nfa:
    """A Thompson automaton; an epsilon move carries an assertion kind or None."""

    def __init__(self, node: Node, search: bool) -> None:
        self.moves: list[list[tuple[int, int]]] = []  # (set number, target)
        self.epsilons: list[list[tuple[str | None, int]]] = []
        self.sets: dict[cs.Ranges, int] = {cs.SCALARS: 0}
        self.kinds: set[str] = set()
        self.search = search
        start = self.new()
        self.initial = start
        if search:  # any prefix, then the pattern, then (collapsed) any suffix
            self.moves[start].append((0, start))
            start = self.epsilon(start)
        self.final = self.build(node, start)
        if search:
            self.moves[self.final].append((0, self.final))

    def new(self) -> int:
        self.moves.append([])
        self.epsilons.append([])
        return len(self.moves) - 1

    def epsilon(self, source: int, kind: str | None = None) -> int:
        target = self.new()
        self.epsilons[source].append((kind, target))
        return target

    def build(self, node: Node, start: int) -> int:
        if isinstance(node, Chars):
            end = self.new()
            number = self.sets.setdefault(node.ranges, len(self.sets))
            self.moves[start].append((number, end))
            return end
        if isinstance(node, Assertion):
            self.kinds.add(node.kind)
            return self.epsilon(start, node.kind)
        if isinstance(node, Seq):
            for item in node.items:
                start = self.build(item, start)
            return start
        if isinstance(node, Alt):
            end = self.new()
            for option in node.options:
                self.epsilons[self.build(option, self.epsilon(start))].append((None, end))
            return end
        return self.repeat(node, start)

    def repeat(self, node: Repeat, start: int) -> int:
        for _ in range(node.low):
            start = self.build(node.item, start)
        if node.high is None:
            loop = self.epsilon(start)
            self.epsilons[self.build(node.item, loop)].append((None, loop))
            return loop
        end = self.new()  # every optional copy may skip straight to the end: small closures
        for _ in range(node.high - node.low):
            self.epsilons[start].append((None, end))
            start = self.build(node.item, start)
        self.epsilons[start].append((None, end))
        return end


class _Determinizer:
    """Subset construction; a state is (NFA states before the epsilon closure, previous kind)."""

    def __init__(self, nfa: _Nfa, pattern: str) -> None:
        self.nfa = nfa
        self.pattern = pattern
        word = bool(nfa.kinds & {"b", "B"})
        self.track = word or "^" in nfa.kinds
        sets = list(nfa.sets)
        if word:
            sets.append(cs.WORD)
        bounds = sorted({0} | {b for ranges in sets for r in ranges for b in (r[0], r[1] + 1)})
        self.starts = [b for b in bounds if b <= cs.LAST]
        masks = [0] * len(self.starts)
        for number, ranges in enumerate(sets):
            for first, last in ranges:
                i = bisect.bisect_left(self.starts, first)
                while i < len(self.starts) and self.starts[i] <= last:
                    masks[i] |= 1 << number
                    i += 1
        block_of_mask: dict[int, int] = {}
        self.blocks = [block_of_mask.setdefault(m, len(block_of_mask)) for m in masks]
        word_bit = 1 << (len(sets) - 1) if word else 0
        self.alphabet = [(mask, _WORD if mask & word_bit else _OTHER) for mask in block_of_mask]
        self.closures: dict[tuple[frozenset[int], int, int], frozenset[int]] = {}
        self.work = 0

    def holds(self, kind: str, before: int, after: int) -> bool:
        if kind == "^":
            return before == _START
        if kind == "$":
            return after == _END
        return ((before == _WORD) != (after == _WORD)) == (kind == "b")

    def closure(self, states: frozenset[int], before: int, after: int) -> frozenset[int]:
        key = (states, before, after)
        if key not in self.closures:
            seen = set(states)
            stack = list(states)
            while stack:
                for kind, target in self.nfa.epsilons[stack.pop()]:
                    if target not in seen and (kind is None or self.holds(kind, before, after)):
                        seen.add(target)
                        stack.append(target)
            self.closures[key] = frozenset(seen)
        return self.closures[key]

    def run(self) -> Dfa:
        first = (frozenset({self.nfa.initial}), _START if self.track else _OTHER)
        number = {first: 0}
        order = [first]
        delta: list[list[int]] = []
        finals = set()
        for states, before in order:
            if self.nfa.final in self.closure(states, before, _END):
                finals.add(len(delta))
            row = []
            for mask, kind in self.alphabet:
                nxt = self.step(states, before, mask, kind)
                if nxt not in number:
                    if len(order) >= DFA_LIMIT:
                        self.refuse(f"its automaton grows past {DFA_LIMIT} states")
                    number[nxt] = len(order)
                    order.append(nxt)
                row.append(number[nxt])
            delta.append(row)
        return canonical(self.starts, self.blocks, delta, finals)

    def step(
        self, states: frozenset[int], before: int, mask: int, kind: int
    ) -> tuple[frozenset[int], int]:
        """The state after reading a code point of the block ``mask`` (its kind ``kind``)."""
        closed = self.closure(states, before, kind)
        self.work += len(closed)
        if self.work > WORK_LIMIT:
            self.refuse(f"determinizing it takes more than {WORK_LIMIT} steps")
        moved = frozenset(t for q in closed for s, t in self.nfa.moves[q] if mask >> s & 1)
        if self.nfa.search and self.nfa.final in moved:  # matched: the rest does not matter
            return frozenset({self.nfa.final}), _OTHER
        return moved, kind if self.track else _OTHER

    def refuse(self, why: str) -> NoReturn:
        raise Undecidable(self.pattern, "the pattern", None, why)
