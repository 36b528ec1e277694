"""The syntax tree of an ECMA-262 pattern, and the two ways reading one can fail.

A tree (:data:`Node`) has what a regular language is made of: sets of code points
(:class:`Chars`), sequences (:class:`Seq`), alternatives (:class:`Alt`), repetitions
(:class:`Repeat`) and the assertions ``^``, ``$``, ``\\b``, ``\\B`` (:class:`Assertion`).
:mod:`codegen.breaking.strings.ecma_pattern` reads a pattern into one (:class:`PatternError`
when ECMA-262 refuses it, :class:`Undecidable` when it is no regular language here), and
:mod:`codegen.breaking.strings.automata` compiles it.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.breaking.strings import charsets as cs

__all__ = ["Alt", "Assertion", "Chars", "Node", "PatternError", "Repeat", "Seq", "Undecidable"]


class PatternError(ValueError):
    """ECMA-262 (``u`` flag) refuses the pattern: it is no regular expression at all."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"{pattern!r} is not an ECMA-262 regular expression: {reason}")
        self.pattern = pattern
        self.reason = reason


class Undecidable(Exception):
    """The question is valid but not decided exactly here: the caller reports it as such."""

    def __init__(self, pattern: str, construct: str, offset: int | None, why: str = "") -> None:
        where = f" at offset {offset}" if offset is not None else ""
        why = why or "not a regular-language construct"
        super().__init__(f"cannot decide {pattern!r}: {construct}{where} ({why})")
        self.pattern = pattern
        self.construct = construct
        self.offset = offset
        self.why = why


@dataclass(frozen=True)
class Chars:
    """One code point out of a set."""

    ranges: cs.Ranges


@dataclass(frozen=True)
class Assertion:
    """``^``, ``$``, ``b`` (``\\b``) or ``B`` (``\\B``): a condition on the position."""

    kind: str


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True)
class Repeat:
    """``item`` from ``low`` to ``high`` times (None: unbounded); ``offset`` of the quantifier."""

    item: Node
    low: int
    high: int | None
    offset: int


Node = Chars | Assertion | Seq | Alt | Repeat
