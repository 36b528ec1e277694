"""ECMA-262 patterns (``u`` flag, as JSON Schema's ``pattern`` is read) as a small syntax tree.

The tree has what a regular language is made of: sets of code points (:class:`Chars`),
sequences, alternatives, repetitions, and the four assertions ``^``, ``$``, ``\\b``, ``\\B``
whose meaning the automata of :mod:`codegen.breaking.strings.automata` keep exactly. Groups (plain,
non-capturing, named) are just their contents; a lazy quantifier has the language of the
greedy one. Whether a pattern is ECMA-262 at all is decided by ``regress`` first
(:class:`PatternError` when it refuses); what is valid but no regular language here
(backreferences, lookaround, modifier groups such as ``(?i:...)``) raises
:class:`Undecidable` with the construct and its offset.

A lookaround that only extends a match is read exactly, JSON Schema's ``pattern`` being a
search: a lookahead ending a top-level alternative (``a(?=b)`` matches somewhere exactly where
``ab`` does) and a lookbehind starting one (``(?<=a)b`` where ``ab`` does).

``parse(pattern, superset=True)`` reads every other lookaround and backreferences too, as a
tree whose language holds every string the pattern matches and maybe more: a lookaround as the
empty string (dropping a condition on the position only adds matches), a backreference as any
string (what its group captured is some string). An emptiness proved on that language holds
for the pattern; a member of it is only a candidate, to be judged by the ECMA-262 engine.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from codegen.breaking.strings import charsets as cs
from codegen.core.patterns import PatternError as ReadingError
from codegen.core.patterns import reading

__all__ = [
    "Alt",
    "Assertion",
    "Chars",
    "Node",
    "PatternError",
    "Repeat",
    "Seq",
    "Undecidable",
    "parse",
]


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

_EMPTY = Seq(())
"""The empty string."""

_SYNTAX = frozenset("^$\\.*+?()[]{}|")
_CONTROL = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SHORTHAND = {
    "d": cs.DIGIT,
    "D": cs.complement(cs.DIGIT),
    "w": cs.WORD,
    "W": cs.complement(cs.WORD),
    "s": cs.SPACE,
    "S": cs.complement(cs.SPACE),
}
_LOOKAROUND = (("(?<=", "lookbehind"), ("(?<!", "negative lookbehind"),
               ("(?=", "lookahead"), ("(?!", "negative lookahead"))  # fmt: skip


@functools.cache
def parse(pattern: str, *, superset: bool = False) -> Node:
    """The syntax tree of ``pattern``; :class:`PatternError` or :class:`Undecidable`. With
    ``superset``, of a language that holds the pattern's (see the module's docstring)."""
    try:
        read = reading(pattern)
    except ReadingError as error:
        raise PatternError(pattern, str(error)) from None
    if read.annex_b:
        why = "valid without the u flag only: its Annex B reading is not decided here"
        raise Undecidable(pattern, "a pattern read without the u flag", None, why)
    reader = _Reader(pattern, superset=superset)
    node = reader.disjunction()
    if reader.pos != len(pattern):
        raise reader.unread()
    return node


def _single(ranges: cs.Ranges) -> int | None:
    return ranges[0][0] if len(ranges) == 1 and ranges[0][0] == ranges[0][1] else None


class _Reader:
    """A recursive-descent reader of a pattern ``regress`` has accepted."""

    def __init__(self, pattern: str, *, superset: bool = False) -> None:
        self.text = pattern
        self.pos = 0
        self.superset = superset
        self.depth = 0  # groups around the position
        self.first = True  # whether the term being read starts its alternative

    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def undecidable(self, construct: str, at: int) -> Undecidable:
        return Undecidable(self.text, construct, at)

    def unread(self) -> Undecidable:
        return Undecidable(self.text, "syntax this reader does not follow", self.pos)

    def disjunction(self) -> Node:
        options = [self.alternative()]
        while self.peek() == "|":
            self.pos += 1
            options.append(self.alternative())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def alternative(self) -> Node:
        items: list[Node] = []
        while self.peek() not in ("|", ")", ""):
            self.first = not items
            items.append(self.term())
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def term(self) -> Node:
        c = self.peek()
        atom: Node
        if c in ("^", "$"):
            self.pos += 1
            atom = Assertion(c)
        elif c == "\\" and self.peek(1) in ("b", "B"):
            atom = Assertion(self.peek(1))
            self.pos += 2
        elif c == "(":
            atom = self.group()
        else:
            atom = self.atom()
        return self.quantified(atom)

    def group(self) -> Node:
        at = self.pos
        for prefix, construct in _LOOKAROUND:
            if self.text.startswith(prefix, at):
                return self.lookaround(prefix, construct)
        if self.text.startswith("(?:", at):
            self.pos += 3
        elif self.text.startswith("(?<", at):
            self.pos = self.text.index(">", at) + 1
        elif self.text.startswith("(?", at):
            raise self.undecidable("modifier group", at)
        else:
            self.pos += 1
        self.depth += 1
        node = self.disjunction()
        self.depth -= 1
        if self.peek() != ")":
            raise self.unread()
        self.pos += 1
        return node

    def lookaround(self, prefix: str, construct: str) -> Node:
        """A lookaround read as its contents where that is exact (see the module's
        docstring), else as the empty string (``superset``), else :class:`Undecidable`."""
        at, first, top = self.pos, self.first, self.depth == 0
        self.pos += len(prefix)
        self.depth += 1
        inner = self.disjunction()
        self.depth -= 1
        if self.peek() != ")":
            raise self.unread()
        self.pos += 1
        if top and prefix == "(?=" and self.peek() in ("|", ""):
            return inner
        if top and prefix == "(?<=" and first:
            return inner
        if self.superset:
            return _EMPTY
        raise self.undecidable(construct, at)

    def quantified(self, atom: Node) -> Node:
        at = self.pos
        c = self.peek()
        high: int | None
        if c in ("*", "+", "?"):
            self.pos += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        elif c == "{":
            end = self.text.index("}", at)
            low_text, comma, high_text = self.text[at + 1 : end].partition(",")
            low = int(low_text)
            high = int(high_text) if high_text else (None if comma else low)
            self.pos = end + 1
        else:
            return atom
        if self.peek() == "?":  # lazy: the same language
            self.pos += 1
        return Repeat(atom, low, high, at)

    def atom(self) -> Node:
        c = self.peek()
        if c == ".":
            self.pos += 1
            return Chars(cs.DOT)
        if c == "[":
            return Chars(cs.normalize(self.char_class()))
        if c == "\\" and self.superset and self.peek(1) and self.peek(1) in "123456789k":
            return self.backreference()
        if c == "\\":
            return Chars(cs.normalize(self.escape(in_class=False)))
        if c in _SYNTAX or not c:
            raise self.unread()
        self.pos += 1
        return Chars(cs.normalize([(ord(c), ord(c))]))

    def backreference(self) -> Node:
        """``\\N`` or ``\\k<name>``, read as any string (``superset`` only)."""
        at = self.pos
        self.pos += 2
        if self.text[at + 1] == "k":
            self.pos = self.text.index(">", self.pos) + 1
        else:
            while self.peek().isdigit():
                self.pos += 1
        return Repeat(Chars(((0, cs.LAST),)), 0, None, at)

    def char_class(self) -> cs.Ranges:
        self.pos += 1
        negated = self.peek() == "^"
        self.pos += negated
        parts: list[tuple[int, int]] = []
        while self.peek() != "]":
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                first, last = _single(low), _single(self.class_atom())
                if first is None or last is None:
                    raise self.unread()
                parts.append((first, last))
            else:
                parts.extend(low)
        self.pos += 1
        ranges = cs.normalize(parts)
        return cs.complement(ranges) if negated else ranges

    def class_atom(self) -> cs.Ranges:
        c = self.peek()
        if not c:
            raise self.unread()
        if c == "\\":
            return self.escape(in_class=True)
        self.pos += 1
        return ((ord(c), ord(c)),)

    def escape(self, in_class: bool) -> cs.Ranges:
        """The code points of the escape at ``pos`` (surrogates kept: a range may span them)."""
        at = self.pos
        c = self.peek(1)
        self.pos += 2
        if c in _SHORTHAND:
            return _SHORTHAND[c]
        if c in ("p", "P"):
            end = self.text.index("}", self.pos)
            found = cs.property_set(self.text[self.pos + 1 : end])
            self.pos = end + 1
            return found if c == "p" else cs.complement(found)
        if not in_class and c in "123456789k":
            raise self.undecidable("backreference", at)
        code = self.code_point(c, in_class)
        if code is None:
            raise self.unread()
        return ((code, code),)

    def code_point(self, c: str, in_class: bool) -> int | None:
        """The one code point of a character escape whose letter ``c`` was just read."""
        if c in _CONTROL:
            return _CONTROL[c]
        if c == "c":
            self.pos += 1
            return ord(self.text[self.pos - 1]) % 32
        if c == "0":
            return 0
        if c == "x":
            self.pos += 2
            return int(self.text[self.pos - 2 : self.pos], 16)
        if c == "u":
            return self.unicode_escape()
        if in_class and c in ("b", "-"):
            return 0x08 if c == "b" else ord("-")
        if c in _SYNTAX or c == "/":
            return ord(c)
        return None

    def unicode_escape(self) -> int:
        if self.peek() == "{":
            end = self.text.index("}", self.pos)
            code = int(self.text[self.pos + 1 : end], 16)
            self.pos = end + 1
            return code
        code = int(self.text[self.pos : self.pos + 4], 16)
        self.pos += 4
        pair = self.text.startswith("\\u", self.pos)
        trail = self.text[self.pos + 2 : self.pos + 6] if pair else ""
        if 0xD800 <= code <= 0xDBFF and len(trail) == 4 and _is_trail(trail):
            self.pos += 6
            return 0x10000 + ((code - 0xD800) << 10) + (int(trail, 16) - 0xDC00)
        return code


def _is_trail(digits: str) -> bool:
    try:
        return 0xDC00 <= int(digits, 16) <= 0xDFFF
    except ValueError:
        return False
