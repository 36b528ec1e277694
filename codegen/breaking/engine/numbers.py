"""Numbers for the engine: a number of one kind satisfying one conjunction of number atoms, or
a proof that none does.

Bounds and ``multipleOf`` are decided exactly on rationals (the numbers as written): a whole
number is a multiple of 1, a fractional one is no multiple of 1, and each refused multiple
excludes a periodic set of the multiples searched, so a window of the search proves there is
none. A whole number of the kind integral (``1.0``) is written with a fraction.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import gcd, lcm

from codegen.breaking.engine.facts import EMPTY, Found, Result, atom_holds
from codegen.breaking.engine.kinds import kind_of
from codegen.breaking.engine.literals import Atom, Bound, In, Multiple
from codegen.breaking.engine.nodes import Unsupported

__all__ = ["solve_number"]


def _rational_lcm(values: Iterable[Fraction]) -> Fraction:
    result = Fraction(1)
    first = True
    for v in values:
        if first:
            result, first = v, False
        else:
            result = Fraction(lcm(result.numerator, v.numerator), gcd(result.denominator,
                                                                      v.denominator))  # fmt: skip
    return result


def solve_number(kind: str, atoms: list[Atom]) -> Result:
    """A number of ``kind`` (integer or integral: no fractional part; fraction: one) within the
    atoms."""
    lower: tuple[Fraction, bool] | None = None
    upper: tuple[Fraction, bool] | None = None
    for atom in atoms:
        if isinstance(atom, Bound):
            bound = (atom.value, atom.exclusive)
            if atom.lower and (lower is None or bound > lower):
                lower = bound
            tighter = upper is None or (bound[0], not bound[1]) < (upper[0], not upper[1])
            if not atom.lower and tighter:
                upper = bound
    steps = [a.step for a in atoms if isinstance(a, Multiple) and a.positive]
    if kind != "fraction":
        steps.append(Fraction(1))
    if steps:
        # A number with a fractional part is one that is no multiple of 1.
        fractional = [Multiple(Fraction(1), False)] if kind == "fraction" else []
        return _multiples(kind, _rational_lcm(steps), lower, upper, [*atoms, *fractional])
    return _fraction(lower, upper, atoms)


def _multiples(
    kind: str,
    step: Fraction,
    lower: tuple[Fraction, bool] | None,
    upper: tuple[Fraction, bool] | None,
    atoms: list[Atom],
) -> Result:
    """``k * step`` for a whole ``k``: each refused multiple excludes the ``k`` divisible by
    some whole ``b``, so among ``lcm(b) * (exclusions + 1)`` consecutive ``k`` one fits."""
    low = None if lower is None else _ceil(lower[0] / step, lower[1])
    high = None if upper is None else _floor(upper[0] / step, upper[1])
    if low is not None and high is not None and low > high:
        return EMPTY
    periods = []
    for atom in atoms:
        if isinstance(atom, Multiple) and not atom.positive:
            ratio = step / atom.step
            if ratio.denominator == 1:
                return EMPTY  # every multiple of step is one of atom.step
            periods.append(ratio.denominator)
    excluded = sum(len(a.values) for a in atoms if isinstance(a, In))
    window = lcm(*periods) * (excluded + 1) + 1 if periods else excluded + 1
    if window > 100_000:
        raise Unsupported("the multipleOf constraints have too long a period to search")
    start = 0 if low is None or low <= 0 <= (high if high is not None else 0) else low
    if kind == "integral" and start == 0 and (high is None or high >= 1):
        start = 1  # 1.0 reads as what it is; 0.0 might be taken for -0.0
    if high is not None and start > high:
        start = high
    for k in _outward(start, low, high, window):
        value = _json_number(k * step, kind)
        if kind_of(value) == kind and all(atom_holds(a, value) for a in atoms):
            return Found(value)
    finite = low is not None and high is not None and high - low + 1 <= window
    if finite:
        return EMPTY
    raise Unsupported("no multiple fitted the number constraints within the search bound")


def _outward(start: int, low: int | None, high: int | None, count: int) -> Iterable[int]:
    """``start``, then alternately above and below it, within ``[low, high]``."""
    yielded, distance = 0, 0
    while yielded < count:
        candidates = [start] if distance == 0 else [start + distance, start - distance]
        inside = [
            k for k in candidates if (low is None or k >= low) and (high is None or k <= high)
        ]
        if (
            not inside
            and (low is not None and high is not None)
            and (start - distance < low and start + distance > high)
        ):
            return
        for k in inside:
            yielded += 1
            yield k
        distance += 1


def _ceil(x: Fraction, exclusive: bool) -> int:
    whole = -((-x.numerator) // x.denominator)
    return whole + 1 if exclusive and whole == x else whole


def _floor(x: Fraction, exclusive: bool) -> int:
    whole = x.numerator // x.denominator
    return whole - 1 if exclusive and whole == x else whole


def _json_number(x: Fraction, kind: str = "") -> int | float:
    """``x`` as a JSON number that reads back as exactly ``x`` (an int, or a short decimal;
    a whole ``x`` of the kind integral is written with a fraction: ``1.0``)."""
    if x.denominator == 1 and kind == "integral":
        if float(x.numerator) != x.numerator:
            raise Unsupported(f"the number {x} cannot be written exactly with a fraction")
        return float(x.numerator)
    if x.denominator == 1:
        return x.numerator
    as_float = float(x)
    if Fraction(repr(as_float)) == x:
        return as_float
    raise Unsupported(f"the number {x} has no short decimal form")


def _fraction(
    lower: tuple[Fraction, bool] | None, upper: tuple[Fraction, bool] | None, atoms: list[Atom]
) -> Result:
    """A number with a fractional part within the bounds: between two distinct bounds there
    are infinitely many, and the refused multiples and values exclude only some of them."""
    if lower is not None and upper is not None:
        if lower[0] > upper[0]:
            return EMPTY
        if lower[0] == upper[0]:
            if lower[1] or upper[1] or lower[0].denominator == 1:
                return EMPTY
            value = _json_number(lower[0])
            return Found(value) if all(atom_holds(a, value) for a in atoms) else EMPTY
    for value in _fractions_between(lower, upper):
        if all(atom_holds(a, value) for a in atoms):
            return Found(value)
    raise Unsupported("no number with a fractional part fitted within the search bound")


def _fractions_between(
    lower: tuple[Fraction, bool] | None, upper: tuple[Fraction, bool] | None
) -> Iterable[float]:
    """Short decimals with a fractional part strictly between the bounds, shortest first."""
    low = lower[0] if lower is not None else None
    high = upper[0] if upper is not None else None
    if low is None:
        low = Fraction(-1) if high is None else high - 1
    if high is None:
        high = low + 2
    for digits in range(1, 18):
        unit = Fraction(1, 10**digits)
        candidate = (low // unit) * unit + unit
        for _ in range(12):
            if candidate >= high:
                break
            value = float(candidate)
            if candidate.denominator != 1 and Fraction(repr(value)) == candidate:
                yield value
            candidate += unit
