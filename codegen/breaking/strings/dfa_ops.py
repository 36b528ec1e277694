"""Boolean operations on :class:`~codegen.breaking.strings.automata.Dfa`, and what is asked of them:
which lengths their strings have, and their strings, the shortest and most readable first.

Lengths are answered without unrolling: the set of states reachable in exactly ``n`` steps is
eventually periodic in ``n``, so "is there a member of length between 10 and 10000?" takes as
many steps as the automaton needs to settle, not 10000.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence

from codegen.breaking.strings import charsets as cs
from codegen.breaking.strings.dfa import Dfa, canonical
from codegen.breaking.strings.syntax import Undecidable

__all__ = [
    "ANYTHING",
    "NOTHING",
    "SUBJECT",
    "exactly",
    "first_length",
    "length_window",
    "product",
    "strings_of_length",
]

SUBJECT = "a set of strings"  # codegen.breaking.strings names the set instead
PRODUCT_LIMIT = 100_000  # states of one product automaton
STEP_LIMIT = 1_000_000  # layers walked to find the lengths of an automaton
WITNESS_LIMIT = 100_000  # code points of a member shown

NOTHING = canonical([0], [0], [[0]], set())
ANYTHING = canonical([0, 0xD800, 0xE000], [0, 1, 0], [[0, 1], [1, 1]], {0})

_OPS: dict[str, Callable[[bool, bool], bool]] = {
    "and": lambda a, b: a and b,
    "or": lambda a, b: a or b,
    "sub": lambda a, b: a and not b,
    "xor": lambda a, b: a != b,
}


def _shortcut(left: Dfa, right: Dfa, op: str) -> Dfa | None:
    if left == right:
        return left if op in ("and", "or") else NOTHING
    if op == "and" and ANYTHING in (left, right):
        return right if left == ANYTHING else left
    if op == "and" and NOTHING in (left, right):
        return NOTHING
    if op in ("or", "xor", "sub") and right == NOTHING:
        return left
    if op in ("or", "xor") and left == NOTHING:
        return right
    if op == "sub" and (left == NOTHING or right == ANYTHING):
        return NOTHING
    return None


@functools.lru_cache(maxsize=4096)
def product(left: Dfa, right: Dfa, op: str) -> Dfa:
    """The automaton of ``left op right``; ``op`` is ``and``, ``or``, ``sub`` or ``xor``."""
    quick = _shortcut(left, right, op)
    if quick is not None:
        return quick
    starts = sorted(set(left.starts) | set(right.starts))
    pair_block: dict[tuple[int, int], int] = {}
    blocks = [pair_block.setdefault((left.symbol_of(c), right.symbol_of(c)), len(pair_block))
              for c in starts]  # fmt: skip
    test = _OPS[op]
    number = {(0, 0): 0}
    order = [(0, 0)]
    delta: list[list[int]] = []
    finals = set()
    for p, q in order:
        if test(p in left.finals, q in right.finals):
            finals.add(len(delta))
        row = []
        for a, b in pair_block:
            nxt = (left.delta[p][a], right.delta[q][b])
            if nxt not in number:
                if len(order) >= PRODUCT_LIMIT:
                    why = f"the product automaton grows past {PRODUCT_LIMIT} states"
                    raise Undecidable(SUBJECT, "set operation", None, why)
                number[nxt] = len(order)
                order.append(nxt)
            row.append(number[nxt])
        delta.append(row)
    return canonical(starts, blocks, delta, finals)


def exactly(texts: Sequence[str]) -> Dfa:
    """The automaton of exactly these strings (a trie, minimized)."""
    codes = sorted({ord(c) for text in texts for c in text} - {c for c in range(0xD800, 0xE000)})
    starts = sorted({0, *codes, *(c + 1 for c in codes if c < cs.LAST)})
    symbol = {c: i + 1 for i, c in enumerate(codes)}  # symbol 0: every other code point
    blocks = [symbol.get(s, 0) for s in starts]
    delta: list[list[int]] = [[1] * (len(codes) + 1), [1] * (len(codes) + 1)]  # 1: dead
    finals = set()
    for text in texts:
        state = 0
        for char in text:
            if ord(char) not in symbol:  # a lone surrogate: no such string
                break
            column = symbol[ord(char)]
            if delta[state][column] == 1:
                delta.append([1] * (len(codes) + 1))
                delta[state][column] = len(delta) - 1
            state = delta[state][column]
        else:
            finals.add(state)
    return canonical(starts, blocks, delta, finals)


def length_window(low: int, high: int | None) -> Dfa:
    """The automaton of every string whose length is between ``low`` and ``high``."""
    last = low if high is None else high
    dead = last + 1
    delta = [[min(q + 1, last if high is None else dead), dead] for q in range(last + 1)]
    delta.append([dead, dead])
    finals = set(range(low, last + 1))
    return canonical([0, 0xD800, 0xE000], [0, 1, 0], delta, finals)


@functools.lru_cache(maxsize=1024)
def _graph(d: Dfa) -> tuple[tuple[frozenset[int], ...], tuple[frozenset[int], ...]]:
    """Successors among the live states (those that reach a final state), and predecessors."""
    preds: list[set[int]] = [set() for _ in d.delta]
    for q, row in enumerate(d.delta):
        for t in row:
            preds[t].add(q)
    live = set(d.finals)
    stack = list(d.finals)
    while stack:
        for p in preds[stack.pop()]:
            if p not in live:
                live.add(p)
                stack.append(p)
    succ = tuple(frozenset(t for t in row if t in live) for row in d.delta)
    return succ, tuple(frozenset(p) for p in preds)


def first_length(d: Dfa, low: int, high: int | None) -> int | None:
    """The smallest ``n`` in ``[low, high]`` such that ``d`` accepts a string of length ``n``."""
    succ, _ = _graph(d)
    seen: dict[frozenset[int], int] = {}
    history: list[frozenset[int]] = []
    layer = frozenset({0}) if succ[0] or 0 in d.finals else frozenset()
    n = 0
    while layer and (high is None or n <= high):
        if n >= low and layer & d.finals:
            return n
        if layer in seen:  # from here on the layers repeat with this period
            start = seen[layer]
            period = n - start
            base = max(n, low)
            hits = [base + (start + r - base) % period
                    for r in range(period) if history[start + r] & d.finals]  # fmt: skip
            best = min(hits, default=None)
            return best if best is not None and (high is None or best <= high) else None
        if n >= STEP_LIMIT:
            raise Undecidable(SUBJECT, "length analysis", None, f"past {STEP_LIMIT} steps")
        seen[layer] = n
        history.append(layer)
        layer = frozenset().union(*(succ[q] for q in layer))
        n += 1
    return None


def _backward(d: Dfa, n: int) -> list[frozenset[int]]:
    """Per ``t`` up to ``n``: the states from which exactly ``t`` more steps reach a final."""
    _, preds = _graph(d)
    layers = [d.finals]
    for _ in range(n):
        layers.append(frozenset().union(*(preds[q] for q in layers[-1])))
    return layers


@functools.lru_cache(maxsize=4096)
def _union(d: Dfa, symbols: tuple[int, ...]) -> cs.Ranges:
    ranges = d.symbol_ranges()
    return cs.normalize(r for s in symbols for r in ranges[s])


def strings_of_length(d: Dfa, n: int) -> Iterator[str]:
    """Every string of length ``n`` that ``d`` accepts, in the order of readability of
    :func:`codegen.breaking.strings.charsets.ranked`, position by position (lazily). Past
    ``WITNESS_LIMIT`` code points: :class:`Undecidable` (no such member is shown)."""
    if n > WITNESS_LIMIT:
        why = f"its shortest members have {n} code points, past {WITNESS_LIMIT}"
        raise Undecidable(SUBJECT, "witness", None, why)
    need = _backward(d, n)
    if 0 not in need[n]:
        return
    if n == 0:
        yield ""
        return

    def choices(state: int, remaining: int) -> Iterator[tuple[str, int]]:
        row = d.delta[state]
        feasible = tuple(s for s, t in enumerate(row) if t in need[remaining - 1])
        for code in cs.ranked(_union(d, feasible)):
            yield chr(code), row[d.symbol_of(code)]

    stack = [choices(0, n)]
    prefix: list[str] = []
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            if prefix:
                prefix.pop()
        elif len(prefix) + 1 == n:
            yield "".join(prefix) + item[0]
        else:
            prefix.append(item[0])
            stack.append(choices(item[1], n - len(prefix)))
