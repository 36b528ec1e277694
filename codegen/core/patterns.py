"""How JSON Schema's ``pattern`` is read: ECMA-262, with the ``u`` flag where that is valid,
else without it (Annex B), each exactly as ECMA-262 decides it.

JSON Schema says a pattern is an ECMA-262 regular expression and names no flags. Ajv, the
Claude CLI and this project read it with the ``u`` flag (``\\p{L}`` is a Unicode property,
a character is a code point); a pattern that is no valid ``u`` expression
(``^[^\\:]+$``: ``\\:`` is no identity escape there) is read as browsers, python-jsonschema
and most validators read it without a flag: Annex B's syntax (``\\:`` is ``:``, ``a{`` is
``a{``), on UTF-16 code units (an astral character is two of them).

``regress`` reads both syntaxes, but without the ``u`` flag it still reads ``\\u{41}`` as a
code point (ECMA-262: ``u`` repeated 41 times), accepts ``\\b*`` (a syntax error), and matches
code points rather than code units. :func:`reading` gives ``regress`` what ECMA-262 means:
``\\u`` without four hex digits written ``u``, an assertion under a quantifier refused, and
every UTF-16 surrogate code unit (an escape, an end of a class range, half of an astral
character in the pattern or in the text) one character of its own (a private-use code point,
:data:`UNITS`), so that ``.``, ``[^a]`` and ``\\S`` match half an astral character as they do
in JavaScript. :class:`Pattern` is the compiled result; a text is split into code units only
when it holds an astral character. ``tests/codegen/test_patterns.py`` decides random patterns
and texts beside Node.js.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import regress

__all__ = ["UNITS", "Pattern", "PatternError", "Reading", "annex_b_text", "compile_pattern",
           "reading"]  # fmt: skip

UNITS = 0xF0000  # where the code units 0xD800-0xDFFF are placed: Supplementary Private Use-A
_QUANTIFIER = re.compile(r"[*+?]|\{\d+(,\d*)?\}")


class PatternError(ValueError):
    """A pattern that ECMA-262 refuses with the ``u`` flag and without it (``invalid``), or
    one that is not decided here (a lone surrogate)."""

    def __init__(self, message: str, *, invalid: bool = True) -> None:
        super().__init__(message)
        self.invalid = invalid


@dataclass(frozen=True)
class Reading:
    """How a pattern is read: ``source`` is what ``regress`` is given, with ``flags``;
    ``annex_b``: read without the ``u`` flag (a text is matched as :func:`annex_b_text`
    writes it); ``reason``: why the ``u`` reading is no expression (for ``lint``)."""

    source: str
    flags: str
    annex_b: bool = False
    reason: str = ""


def _unit(value: int) -> str:
    """The character standing for a code unit (a surrogate one moved to :data:`UNITS`)."""
    return chr(UNITS + value - 0xD800) if 0xD800 <= value <= 0xDFFF else chr(value)


def _units(char: str) -> str:
    """One character of a pattern or a text as the UTF-16 code units it is made of."""
    value = ord(char)
    if value > 0xFFFF:
        value -= 0x10000
        return _unit(0xD800 + (value >> 10)) + _unit(0xDC00 + (value & 0x3FF))
    return _unit(value)


def annex_b_text(text: str) -> str:
    """``text`` as a pattern read without the ``u`` flag sees it: each UTF-16 code unit one
    character (an astral character two, each surrogate one moved to :data:`UNITS`)."""
    if text.isascii() or not any(0xD800 <= ord(c) <= 0xDFFF or ord(c) > 0xFFFF for c in text):
        return text
    return "".join(_units(c) for c in text)


def _escape(value: int) -> str:
    """A code unit written in a pattern (a surrogate one as its private-use stand-in)."""
    if 0xD800 <= value <= 0xDFFF:
        return _unit(value)
    return f"\\u{value:04X}"


class _Rewriter:
    """One pass over a pattern read without the ``u`` flag (see the module's docstring)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.at = 0
        self.out: list[str] = []

    def fail(self, why: str) -> PatternError:
        return PatternError(f"{why} at offset {self.at}")

    def run(self) -> str:
        text = self.pattern
        assertion = False  # the last atom is an assertion (no quantifier may follow)
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                atom = self.escape(in_class=False)
                assertion = atom in ("\\b", "\\B")
                self.out.append(atom)
            elif char == "[":
                self.out.append(self.klass())
                assertion = False
            elif char in "^$":
                self.out.append(char)
                self.at += 1
                assertion = True
            elif char == "(" and text.startswith(("(?<=", "(?<!"), self.at):
                self.out.append(text[self.at : self.at + 4])
                self.at += 4
                self.group()
                assertion = True
            elif char in "*+?{" and assertion and _QUANTIFIER.match(text, self.at):
                raise self.fail("a quantifier after an assertion")
            else:
                self.out.append("".join(_units(char)) if not char.isascii() else char)
                self.at += 1
                assertion = False
        return "".join(self.out)

    def group(self) -> None:
        """The rest of a lookbehind group, up to its closing parenthesis (nested groups,
        classes and escapes read as the main pass reads them)."""
        depth = 1
        text = self.pattern
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                self.out.append(self.escape(in_class=False))
                continue
            if char == "[":
                self.out.append(self.klass())
                continue
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            self.out.append("".join(_units(char)) if not char.isascii() else char)
            self.at += 1
            if depth == 0:
                return

    def escape(self, *, in_class: bool) -> str:
        """An escape as ``regress`` is given it (see :meth:`class_escape`)."""
        return self.class_escape(in_class=in_class)[0]

    def class_escape(self, *, in_class: bool) -> tuple[str, int | None]:
        """An escape as ``regress`` is given it, and the code unit it stands for (None: a set,
        ``\\d``..., or, outside a class, one whose value nothing here needs). ``\\u`` of
        four hex digits is its code unit (a surrogate's stand-in), ``\\u`` without them ``u``
        (an identity escape); every other as written."""
        text = self.pattern
        self.at += 1
        if self.at >= len(text):
            return "\\", None  # a trailing backslash: regress refuses it, as ECMA-262 does
        char = text[self.at]
        self.at += 1
        if char == "u":
            digits = text[self.at : self.at + 4]
            if len(digits) == 4 and all(c in _HEX for c in digits):
                self.at += 4
                return _escape(int(digits, 16)), int(digits, 16)
            return "u", ord("u")
        if char == "x":
            digits = text[self.at : self.at + 2]
            if len(digits) == 2 and all(c in _HEX for c in digits):
                self.at += 2
                return "\\x" + digits, int(digits, 16)
            return "\\x", ord("x")
        if not char.isascii():
            units = _units(char)
            return (units, None) if len(units) > 1 else ("\\" + units, _plain(units))
        if char in "dDsSwW":
            return "\\" + char, None
        if char == "c":
            control = text[self.at : self.at + 1]
            if control.isascii() and (
                control.isalpha() or (in_class and (control.isdigit() or control == "_"))
            ):
                self.at += 1
                return "\\c" + control, ord(control) % 32
            return "\\c", None  # a backslash, then c: regress reads it so
        if in_class and char in "01234567":
            digits = char
            limit = 3 if char in "0123" else 2
            while len(digits) < limit and text[self.at : self.at + 1] in tuple("01234567"):
                digits += text[self.at]
                self.at += 1
            return "\\" + digits, int(digits, 8)
        if in_class and char == "b":
            return "\\b", 8
        if char in _CONTROL:
            return "\\" + char, _CONTROL[char]
        return "\\" + char, ord(char)

    def klass(self) -> str:
        """A character class, each range of code units crossing the surrogates split."""
        text = self.pattern
        out = ["["]
        self.at += 1
        if text.startswith("^", self.at):
            out.append("^")
            self.at += 1
        atoms: list[tuple[str, int | None]] = []  # (as given to regress, its code unit)
        while self.at < len(text) and text[self.at] != "]":
            if text[self.at] == "\\":
                atoms.append(self.class_escape(in_class=True))
            else:
                atoms += [(unit, _plain(unit)) for unit in _units(text[self.at])]
                self.at += 1
        if self.at >= len(text):
            raise self.fail("a character class without its ]")
        self.at += 1
        index = 0
        while index < len(atoms):
            written, value = atoms[index]
            if index + 2 < len(atoms) and atoms[index + 1][0] == "-":
                last = atoms[index + 2][1]
                if value is not None and last is not None:
                    out.append(_range(value, last))
                else:  # a set at an end: no range (Annex B), as written
                    out += [written, "-", atoms[index + 2][0]]
                index += 3
                continue
            out.append(written)
            index += 1
        out.append("]")
        return "".join(out)


_HEX = frozenset("0123456789abcdefABCDEF")
_CONTROL = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}


def _plain(char: str) -> int:
    """The code unit a class atom given to regress stands for (a stand-in: its surrogate)."""
    value = ord(char)
    return 0xD800 + value - UNITS if value >= UNITS else value


def _range(first: int, last: int) -> str:
    """A class range of code units, its surrogate part moved to :data:`UNITS`."""
    if first > last:
        return f"{_escape(first)}-{_escape(last)}"  # reversed: regress refuses, as ECMA-262
    parts = []
    if first < 0xD800:
        parts.append(f"\\u{first:04X}-\\u{min(last, 0xD7FF):04X}")
    low, high = max(first, 0xD800), min(last, 0xDFFF)
    if low <= high:
        parts.append(f"{_unit(low)}-{_unit(high)}")
    if last > 0xDFFF:
        parts.append(f"\\u{max(first, 0xE000):04X}-\\u{last:04X}")
    return "".join(parts)


_LONE = re.compile(
    r"\\u(?:\{0*)?[dD][89abAB][0-9a-fA-F]{2}\}?(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u(?:\{0*)?[dD][c-fC-F][0-9a-fA-F]{2}\}?"
    r"|[\ud800-\udfff]"
)


def _quantified_assertion(pattern: str) -> bool:
    """Whether ``\\b`` or ``\\B`` takes a quantifier (a syntax error in either reading, which
    ``regress`` accepts); classes and other escapes are skipped."""
    at, in_class = 0, False
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            bound = not in_class and pattern[at + 1 : at + 2] in ("b", "B")
            if bound and _QUANTIFIER.match(pattern, at + 2):
                return True
            at += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        at += 1
    return False


@functools.cache
def reading(pattern: str) -> Reading:
    """How ``pattern`` is read (see the module's docstring); :class:`PatternError` when
    ECMA-262 refuses it both with the ``u`` flag and without, or when its ``u`` reading holds
    a lone surrogate (an escape of one, not of a pair), which ``regress`` does not decide as
    ECMA-262 does."""
    if _quantified_assertion(pattern):
        raise PatternError("a quantifier after the assertion \\b or \\B")
    if _LONE.search(pattern):
        raise PatternError(
            "it names a lone surrogate (a UTF-16 code unit, half of a character), which "
            "regress does not read as ECMA-262 does with the u flag: name the character, or "
            "the pair of code units",
            invalid=False,
        )
    try:
        regress.Regex(pattern, "u")
    except regress.RegressError as exc:
        reason = str(exc)
    else:
        return Reading(pattern, "u")
    try:
        source = _Rewriter(pattern).run()
        regress.Regex(source, "")
    except (PatternError, regress.RegressError) as exc:
        raise PatternError(f"{reason} (with the u flag); {exc} (without)") from None
    return Reading(source, "", annex_b=True, reason=reason)


class Pattern:
    """A compiled pattern: :meth:`search` is JSON Schema's ``pattern`` test."""

    def __init__(self, pattern: str) -> None:
        self.reading = reading(pattern)
        self.regex = regress.Regex(self.reading.source, self.reading.flags)

    def search(self, text: str) -> bool:
        if self.reading.annex_b:
            text = annex_b_text(text)
        return self.regex.find(text) is not None


@functools.cache
def compile_pattern(pattern: str) -> Pattern:
    """The compiled ``pattern`` (cached); :class:`PatternError` when it is none."""
    return Pattern(pattern)
