"""Patterns that say a plain string test, written as one (no regular expression run).

A ``pattern`` or ``patternProperties`` source made of literal characters only (a character that
is no ECMA-262 syntax character, or one escaped: ``\\.``, ``\\/``), anchored or not, or a group
of such alternatives, finds a match exactly when a string test of Python's says so:

=====================  =======================================
``^L$``                ``x == "L"``
``^L`` / ``L$``        ``x.startswith("L")`` / ``x.endswith("L")``
``L``                  ``"L" in x``
``^(A|B)$``            ``x in frozenset({"A", "B"})``
``^(A|B)`` / ``(A|B)$``  ``x.startswith(("A", "B"))`` / ``.endswith``
``""``, ``.*``, ``^.*``  always (the empty match at the start)
=====================  =======================================

ECMA-262 reads ``^`` and ``$`` without the ``m`` flag as the start and end of the input only
(Python's ``$`` also matches before a final newline: no ``re`` here). A literal holding a
character outside the Basic Multilingual Plane or a surrogate is left to the regular
expression: the pattern reads UTF-16 code units, Python's strings code points, and the two
agree on the tests above only for characters that are one code unit each.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["plain_test"]

_SYNTAX = frozenset("^$\\.*+?()[]{}|")
_ESCAPABLE = _SYNTAX | {"/"}  # an identity escape valid with the u flag
_ALWAYS = frozenset({"", ".*", "^.*"})


def _alternatives(body: str) -> list[str] | None:
    """The literals of ``body`` (alternatives split at ``|``), unescaped; None when it holds
    any other syntax."""
    found: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\":
            if index + 1 == len(body) or body[index + 1] not in _ESCAPABLE:
                return None
            current.append(body[index + 1])
            index += 2
            continue
        if char == "|":
            found.append("".join(current))
            current = []
        elif char in _SYNTAX or ord(char) > 0xFFFF or 0xD800 <= ord(char) < 0xE000:
            return None
        else:
            current.append(char)
        index += 1
    found.append("".join(current))
    return found


def _split(source: str) -> tuple[bool, str, bool]:
    """``source`` as (anchored at the start, the middle, anchored at the end)."""
    start = source.startswith("^")
    body = source[1:] if start else source
    before = body[:-1]
    escapes = len(before) - len(before.rstrip("\\"))  # a $ after an odd number is a literal
    end = body.endswith("$") and escapes % 2 == 0
    return start, before if end else body, end


def plain_test(source: str, subject: str, define: Callable[[str, str], str]) -> str | None:
    """A Python expression true exactly when the ECMA-262 pattern ``source`` (valid with the u
    flag) finds a match in the string named ``subject``, or None when it takes a regular
    expression. ``define(expression, prefix)`` names a module-level constant."""
    if source in _ALWAYS:
        return "True"
    start, body, end = _split(source)
    grouped = body.startswith(("(?:", "(")) and body.endswith(")") and not body.endswith("\\)")
    inner = body[3 if body.startswith("(?:") else 1 : -1] if grouped else body
    if grouped and inner.startswith("?"):
        return None  # a lookaround or a named group
    literals = _alternatives(inner)
    if literals is None or (len(literals) > 1 and not grouped):
        return None  # ^a|b$ is (^a)|(b$): left to the regular expression
    if len(literals) == 1:
        literal = literals[0]
        if start and end:
            return f"{subject} == {literal!r}"
        if start or end:
            return f"{subject}.{'startswith' if start else 'endswith'}({literal!r})"
        return f"{literal!r} in {subject}" if literal else "True"
    if start and end:
        return f"{subject} in {define(f'frozenset({sorted(set(literals))!r})', '_S')}"
    if start or end:
        return f"{subject}.{'startswith' if start else 'endswith'}({tuple(literals)!r})"
    return None
