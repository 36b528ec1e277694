"""The kinds of JSON values the engine tells apart, and what a ``type`` keyword allows.

A value's kind decides which keywords apply to it. Numbers come in three kinds, because the
drafts disagree on one of them: ``1`` (written as an integer), ``1.0`` (a whole number written
with a fraction or an exponent: draft-04's ``integer`` refuses it, the later drafts' accept it,
``SchemaFile.draft.float_integers``) and ``0.5`` (a fractional part).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = ["NUMERIC", "Step", "exact", "json_key", "kind_of", "of_kind", "type_kinds"]

Step = tuple[Any, ...]
"""One component of a schema: a keyword, with a property name or index where it takes one."""


def exact(number: int | float) -> Fraction:
    """A JSON number as written: 0.1 is one tenth."""
    return Fraction(number) if isinstance(number, int) else Fraction(Decimal(repr(number)))


def json_key(value: Any) -> Any:
    """A hashable form of a JSON value in which values JSON Schema calls equal (``1`` and
    ``1.0``) are equal, and others (``1`` and ``true``) are not: enum membership in one
    lookup, not one comparison per value."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", exact(value))
    if isinstance(value, list):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", tuple(sorted((k, json_key(v)) for k, v in value.items())))
    return ("other", repr(value))


NUMERIC = ("integer", "integral", "fraction")
"""The kinds of numbers: written as an integer (``1``), a whole number written with a fraction
or an exponent (``1.0``: draft-04's ``integer`` refuses it, the later drafts' accept it), and
a number with a fractional part (``0.5``)."""


def kind_of(value: Any) -> str:
    """The engine's kind of a JSON value: null, boolean, integer, integral, fraction, string,
    array, object (:data:`NUMERIC` for numbers)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integral" if value.is_integer() else "fraction"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


_TYPE_KINDS = {
    "null": ("null",),
    "boolean": ("boolean",),
    "integer": ("integer", "integral"),
    "number": NUMERIC,
    "string": ("string",),
    "array": ("array",),
    "object": ("object",),
}


def type_kinds(value: Any, float_integers: bool = True) -> frozenset[str]:
    """The kinds a ``type`` keyword allows (``float_integers``: whether its draft reads 1.0
    as an integer; draft-04 does not)."""
    names = value if isinstance(value, list) else [value]
    kinds = frozenset(k for name in names for k in _TYPE_KINDS.get(name, ()))
    if not float_integers and "number" not in names:
        return kinds - {"integral"}
    return kinds


def of_kind(values: Iterable[Any], kind: str) -> tuple[Any, ...]:
    """The values that are, by JSON equality, values of ``kind``, each written in that kind
    (``1`` and ``1.0`` are equal: ``1.0`` is written ``1`` for the kind integer)."""
    found = []
    for value in values:
        have = kind_of(value)
        if have == kind:
            found.append(value)
        elif {have, kind} == {"integer", "integral"}:
            whole = int(value)
            if kind == "integer":
                found.append(whole)
            elif float(whole) == whole:
                found.append(float(whole))
    return tuple(found)
