"""The helpers that compiled predicates call, as source text held once by a generated package.

They implement JSON's own notions, which Python's differ from: equality (``1 == 1.0`` but
``true != 1``, deep for arrays and objects), numbers (``integer`` is a number with a zero
fraction; ``multipleOf`` exact for decimals) and ECMA-262 regular expressions (``regress``).
"""

from __future__ import annotations

__all__ = ["ANNEX_B", "RUNTIME", "RUNTIME_IMPORTS", "RUNTIME_NAMES"]

RUNTIME_NAMES = (
    "_canonical", "_dispatch", "_dispatch_table", "_exactly_one", "_format", "_is_integer",
    "_is_number", "_multiple_of", "_regex", "_true", "_unique",
)  # fmt: skip

RUNTIME = '''\
def _is_number(x: Any) -> bool:
    """A JSON number: an int or a float, never a bool."""
    return type(x) is int or type(x) is float


def _is_integer(x: Any) -> bool:
    """A JSON integer: any number whose fraction is zero (1.0 is one)."""
    return type(x) is int or (type(x) is float and x.is_integer())


_TRUE, _FALSE = object(), object()  # JSON's booleans, which no number equals (True == 1)


def _canonical(x: Any) -> Any:
    """A hashable form under which two JSON values are equal exactly when JSON says so: a
    string, a number (1.0 equals 1, exactly, however large) or null as it is, a boolean as a
    mark of its own, an array as a tuple, an object as a frozenset of its (key, value) pairs."""
    kind = type(x)
    if kind is str or kind is int or kind is float or x is None:
        return x
    if kind is dict:
        return frozenset(zip(x, map(_canonical, x.values()), strict=True))
    if kind is list:
        return tuple(map(_canonical, x))
    if kind is bool:
        return _TRUE if x else _FALSE
    return (kind, x)


def _unique(x: list[Any]) -> bool:
    return len(x) < 2 or len({_canonical(v) for v in x}) == len(x)


def _exact(n: int | float) -> Fraction:
    """The exact value of a JSON number as written (0.1 is one tenth, not the nearest float)."""
    return Fraction(n) if type(n) is int else Fraction(Decimal(repr(n)))


def _multiple_of(x: int | float, m: int | float) -> bool:
    return bool(_exact(x) % _exact(m) == 0)


def _exactly_one(x: Any, checks: tuple[Callable[[Any], Any], ...]) -> bool:
    found = 0
    for check in checks:
        if check(x):
            found += 1
            if found > 1:
                return False
    return found == 1


def _true(x: Any) -> bool:
    return True


_Table = tuple[dict[Any, tuple[Any, ...]], tuple[Any, ...]]


def _dispatch_table(entries: tuple[Any, ...], values: Any, other: tuple[int, ...]) -> _Table:
    """The table of ``_dispatch``: the ``entries`` (by index) that apply to an object by the
    JSON value of one of its properties (``values``: each value with its indexes, as a dict or
    as pairs), and those that apply to any other value."""

    def pick(indexes: tuple[int, ...]) -> tuple[Any, ...]:
        return tuple(entries[i] for i in indexes)

    pairs = values.items() if type(values) is dict else values
    return {_canonical(value): pick(indexes) for value, indexes in pairs}, pick(other)


def _dispatch(value: Any, table: _Table) -> tuple[Any, ...]:
    """The entries of ``table`` that apply to ``value`` as JSON compares it (a string as it
    is, any other value by its JSON form): one lookup."""
    return table[0].get(value if type(value) is str else _canonical(value), table[1])


@functools.cache
def _regex(source: str) -> regress.Regex:
    """An ECMA-262 regular expression in unicode mode, as Ajv and browsers read it."""
    return regress.Regex(source, "u")
'''

RUNTIME_IMPORTS = (
    "import functools",
    "from collections.abc import Callable",
    "from decimal import Decimal",
    "from fractions import Fraction",
    "from typing import Any",
    "import regress",
)

# A pattern valid only without the u flag (codegen.core.patterns): written into the module of
# a class whose schema has one (the package's _types module stays as it is), with
# ``import regress``. ``find`` sees a text as ECMA-262 does without the flag: each UTF-16 code
# unit one character, a surrogate one moved to U+F0000 + (unit - 0xD800), as the pattern is.
ANNEX_B = '''\
def _units(c: str) -> str:
    """One character as the UTF-16 code units it is made of, a surrogate one at U+F0000 +
    (unit - 0xD800)."""
    n = ord(c)
    if n > 0xFFFF:
        return chr(0xF0000 + ((n - 0x10000) >> 10)) + chr(0xF0400 + ((n - 0x10000) & 0x3FF))
    return chr(0xF0000 + n - 0xD800) if 0xD800 <= n < 0xE000 else c


class _AnnexB:
    """A pattern ECMA-262 reads without the u flag only (Annex B), on UTF-16 code units."""

    def __init__(self, source: str) -> None:
        self._regex = regress.Regex(source, "")

    def find(self, text: str) -> regress.Match | None:
        if not text.isascii() and any(ord(c) > 0xFFFF or 0xD800 <= ord(c) < 0xE000 for c in text):
            text = "".join(_units(c) for c in text)
        return self._regex.find(text)
'''
