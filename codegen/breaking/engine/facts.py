"""What the engine's answers are, and what holds of a value: the judges of literals and atoms.

Shared by the solver and the solvers of arrays and objects, which ask the solver again (through
:class:`Asker`) for their items and property values.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from codegen.breaking import strings
from codegen.breaking.engine.components import violates
from codegen.breaking.engine.evaluate import valid
from codegen.breaking.engine.expand import Search
from codegen.breaking.engine.kinds import NUMERIC, exact, json_key, kind_of
from codegen.breaking.engine.literals import (
    AddIf,
    Atom,
    Bound,
    Count,
    DepReq,
    Has,
    In,
    ItemExists,
    Items,
    KeyExists,
    Length,
    Lit,
    Multiple,
    NamesIn,
    PatIf,
    Pattern,
    PropIf,
    Size,
    Unique,
)
from codegen.breaking.engine.nodes import Unsupported, json_equal
from codegen.core.ecma import ecma_search

__all__ = [
    "EMPTY",
    "Asker",
    "Empty",
    "EngineDefect",
    "Found",
    "Result",
    "Unknown",
    "additional",
    "atom_holds",
    "distinct",
    "holds",
    "key_fits",
    "string_language",
]


@dataclass(frozen=True)
class Found:
    """A value that satisfies every literal."""

    value: Any


@dataclass(frozen=True)
class Empty:
    """No value satisfies the literals (proved)."""


@dataclass(frozen=True)
class Unknown:
    """The engine could not decide, and why."""

    reason: str


Result = Found | Empty | Unknown
EMPTY = Empty()


class EngineDefect(Unsupported):
    """A value the engine built breaks the literals it was built for: a defect, reported as
    a change the engine could not decide rather than as a break it cannot show."""

    def __init__(self, value: Any) -> None:
        super().__init__(f"internal defect: the engine built {value!r}, which does not fit")


def holds(lit: Lit, value: Any) -> bool:
    """Whether ``value`` satisfies ``lit``."""
    if lit.positive:
        return valid(lit.node, value)
    return violates(lit.node, lit.path, value)


class Asker(Protocol):
    """What the solvers of arrays and objects need of the solver."""

    search: Search

    def solve(self, lits: list[Lit], exclude: tuple[Any, ...] = ()) -> Result: ...


# ---------------------------------------------------------------------------- atoms


def atom_holds(atom: Atom, value: Any) -> bool:
    """Whether ``value`` satisfies ``atom`` (atoms of another kind hold vacuously)."""
    kind = kind_of(value)
    if isinstance(atom, In):
        return (json_key(value) in atom.keys) == atom.positive
    if kind in NUMERIC and isinstance(atom, Bound | Multiple):
        return _number_holds(atom, exact(value))
    if kind == "string" and isinstance(atom, Length | Pattern):
        if isinstance(atom, Length):
            return len(value) >= atom.n if atom.lower else len(value) <= atom.n
        return ecma_search(atom.pattern, value) == atom.positive
    if kind == "array" and isinstance(atom, Size | Items | ItemExists | Unique | Count):
        return _array_holds(atom, value)
    if kind == "object" and isinstance(
        atom, Size | Has | PropIf | PatIf | AddIf | NamesIn | KeyExists | DepReq
    ):
        return _object_holds(atom, value)
    return True


def _number_holds(atom: Bound | Multiple, x: Fraction) -> bool:
    if isinstance(atom, Multiple):
        return (x % atom.step == 0) == atom.positive
    if atom.lower:
        return x > atom.value if atom.exclusive else x >= atom.value
    return x < atom.value if atom.exclusive else x <= atom.value


def _array_holds(atom: Atom, value: list[Any]) -> bool:
    if isinstance(atom, Size):
        return len(value) >= atom.n if atom.lower else len(value) <= atom.n
    if isinstance(atom, Items):
        prefix = all(valid(n, v) for n, v in zip(atom.prefix, value, strict=False))
        rest = atom.rest is None or all(valid(atom.rest, v) for v in value[atom.start :])
        return prefix and rest
    if isinstance(atom, ItemExists):
        if atom.index is not None:
            return atom.index < len(value) and all(holds(t, value[atom.index]) for t in atom.lits)
        return any(all(holds(t, v) for t in atom.lits) for v in value[atom.start :])
    if isinstance(atom, Unique):
        pairs = any(json_equal(value[i], value[j]) for j in range(len(value)) for i in range(j))
        return pairs != atom.positive
    assert isinstance(atom, Count)
    count = sum(1 for v in value if valid(atom.node, v))
    return count >= atom.low and (atom.high is None or count <= atom.high)


def additional(atom: AddIf, key: str) -> bool:
    """Whether ``key`` is one ``atom``'s ``additionalProperties`` applies to."""
    return key not in atom.names and not any(ecma_search(p, key) for p in atom.patterns)


def key_fits(where: tuple[Any, ...], key: str) -> bool:
    """Whether ``key`` is a name a :class:`KeyExists` of ``where`` may use."""
    if where[0] == "pattern":
        return ecma_search(where[1], key)
    if where[0] == "outside":
        return key not in where[1] and not any(ecma_search(p, key) for p in where[2])
    return holds(where[1], key)


def _object_holds(atom: Atom, value: dict[str, Any]) -> bool:
    if isinstance(atom, Size):
        return len(value) >= atom.n if atom.lower else len(value) <= atom.n
    if isinstance(atom, Has):
        if atom.name not in value:
            return not atom.positive
        return atom.positive and (atom.lit is None or holds(atom.lit, value[atom.name]))
    if isinstance(atom, PropIf):
        return atom.name not in value or valid(atom.node, value[atom.name])
    if isinstance(atom, PatIf):
        return all(valid(atom.node, v) for k, v in value.items() if ecma_search(atom.pattern, k))
    if isinstance(atom, AddIf):
        return all(valid(atom.node, v) for k, v in value.items() if additional(atom, k))
    if isinstance(atom, NamesIn):
        return all(holds(atom.lit, k) for k in value)
    if isinstance(atom, KeyExists):
        return any(
            key_fits(atom.where, k) and (atom.lit is None or holds(atom.lit, v))
            for k, v in value.items()
        )
    assert isinstance(atom, DepReq)
    return atom.name not in value or all(m in value for m in atom.needs)


def distinct(choices: dict[Any, list[Any]]) -> dict[Any, Any] | None:
    """One of its choices for each place, all different (JSON equality), or None when there
    is no such choice (Kuhn's augmenting paths: exact)."""
    owner: dict[Any, Any] = {}
    keys = {p: [json_key(v) for v in values] for p, values in choices.items()}

    def place(position: Any, seen: set[Any]) -> bool:
        for key in keys[position]:
            if key in seen:
                continue
            seen.add(key)
            if key not in owner or place(owner[key], seen):
                owner[key] = position
                return True
        return False

    for position in choices:
        if not place(position, set()):
            return None
    chosen = {p: k for k, p in owner.items()}
    return {p: choices[p][keys[p].index(chosen[p])] for p in choices}


# ---------------------------------------------------------------------------- strings


def string_language(atoms: list[Atom]) -> strings.Strings:
    """The strings that satisfy every string atom of one conjunction."""
    language = strings.anything()
    low, high = 0, None
    for atom in atoms:
        if isinstance(atom, Length):
            if atom.lower:
                low = max(low, atom.n)
            else:
                high = atom.n if high is None else min(high, atom.n)
        elif isinstance(atom, Pattern):
            matched = strings.matching(atom.pattern)
            language = language & (matched if atom.positive else ~matched)
        elif isinstance(atom, In):
            listed = strings.one_of(v for v in atom.values if isinstance(v, str))  # one trie
            language = language & (listed if atom.positive else ~listed)
    if high is not None and high < low:
        return strings.nothing()
    return language & strings.length_between(low, high)
