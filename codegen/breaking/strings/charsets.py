"""Sets of code points, as the character classes of ECMA-262 patterns (``u`` flag) denote them.

A set is a tuple of sorted, disjoint, non-adjacent ``(first, last)`` ranges of code points.
Every set here holds Unicode scalar values only: a lone surrogate (U+D800 to U+DFFF) cannot be
carried by a JSON document in UTF-8, nor matched by ``regress`` (it refuses such strings), so the
languages of :mod:`codegen.breaking.strings` leave them out, and a complement is taken within
the scalar values.

``\\d``, ``\\w``, ``\\s`` and ``.`` are spelled out from ECMA-262. A property escape
(``\\p{L}``, ``\\p{Script=Greek}``, ...) is read from ``regress`` itself: it matches the
property against a string of every scalar value and the runs it finds are the set. So the set
is the one of the Unicode version ``regress`` was built with (newer than the ``unicodedata``
of Python 3.11), which is the version every pattern of a contract is judged by.
"""

from __future__ import annotations

import array
import bisect
import functools
import sys
from collections.abc import Iterable, Iterator

import regress

__all__ = [
    "DIGIT",
    "DOT",
    "LAST",
    "SCALARS",
    "SPACE",
    "WORD",
    "Ranges",
    "complement",
    "normalize",
    "property_set",
    "ranked",
]

Ranges = tuple[tuple[int, int], ...]

LAST = 0x10FFFF
SCALARS: Ranges = ((0, 0xD7FF), (0xE000, LAST))
DIGIT: Ranges = ((0x30, 0x39),)
WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))


def normalize(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """The ranges sorted and merged, surrogates left out."""
    merged: list[list[int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    out: list[tuple[int, int]] = []
    for first, last in merged:
        for low, high in SCALARS:
            if first <= high and low <= last:
                out.append((max(first, low), min(last, high)))
    return tuple(out)


def complement(ranges: Ranges) -> Ranges:
    """The scalar values not in ``ranges``."""
    out: list[tuple[int, int]] = []
    nxt = 0
    for first, last in ranges:
        if nxt < first:
            out.append((nxt, first - 1))
        nxt = last + 1
    if nxt <= LAST:
        out.append((nxt, LAST))
    return normalize(out)


# ECMA-262 WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP and every Zs) plus LineTerminator.
_ZS = ((0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x202F, 0x202F),
       (0x205F, 0x205F), (0x3000, 0x3000))  # fmt: skip
_LINE_TERMINATORS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
SPACE: Ranges = normalize([(0x09, 0x0D), (0xFEFF, 0xFEFF), *_ZS, *_LINE_TERMINATORS])
DOT: Ranges = complement(normalize(_LINE_TERMINATORS))

# The string of every scalar value in order, and where each stretch of it starts in UTF-8
# (regress reports matches as UTF-8 byte offsets): (first code point, byte offset, width).
_STRETCHES = ((0, 0, 1), (0x80, 0x80, 2), (0x800, 0xF80, 3), (0xE000, 0x27F80, 3),
              (0x10000, 0x2DF80, 4))  # fmt: skip
_OFFSETS = [offset for _, offset, _ in _STRETCHES]


@functools.cache
def _every_scalar() -> str:
    codec = f"utf-32-{sys.byteorder[0]}e"  # 4-byte native code units, decoded at C speed
    parts = (range(0xD800), range(0xE000, LAST + 1))
    return "".join(array.array("I", part).tobytes().decode(codec) for part in parts)


def _code_point(offset: int) -> int:
    first, start, width = _STRETCHES[bisect.bisect_right(_OFFSETS, offset) - 1]
    return first + (offset - start) // width


@functools.cache
def property_set(body: str) -> Ranges:
    """The scalar values ``\\p{body}`` matches, as ``regress`` (``u`` flag) reads it."""
    runs = regress.Regex("\\p{" + body + "}+", "u").find_iter(_every_scalar())
    found = []
    for match in runs or ():
        span = match.group(0)
        assert span is not None  # group 0 is the whole match
        found.append((_code_point(span.start), _code_point(span.stop) - 1))
    return normalize(found)


# Readable first: letters, digits, space, then the rest of printable ASCII.
_ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/@"
_PREFERRED = [ord(c) for c in _ASCII] + [c for c in range(0x21, 0x7F) if chr(c) not in _ASCII]


def ranked(ranges: Ranges) -> Iterator[int]:
    """The code points of ``ranges``, the most readable first: printable ASCII (letters and
    digits before the rest), then other printable code points upwards, then controls."""
    starts = [first for first, _ in ranges]

    def member(c: int) -> bool:
        i = bisect.bisect_right(starts, c) - 1
        return i >= 0 and c <= ranges[i][1]

    yield from (c for c in _PREFERRED if member(c))
    for first, last in ranges:
        yield from range(max(first, 0xA0), last + 1)
    for first, last in ranges:
        yield from (c for c in range(first, min(last, 0x9F) + 1) if not 0x20 <= c < 0x7F)
