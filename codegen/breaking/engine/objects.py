"""Objects for the engine: an object satisfying one conjunction of object atoms, or a proof
that none does.

Property names fall in two groups: the names some atom mentions, and the others, which differ
only by the patterns they match (a *region*: the set of patterns matched). A witness needs no
property beyond those that are required, those that realise an existence atom (a property
breaking ``additionalProperties``, a name breaking ``propertyNames``...), those their
``dependentRequired`` brings, and enough others to reach ``minProperties``: every other atom
only constrains properties that are present, so taking a property out keeps them satisfied.
The search over which key realises each existence atom (a mentioned name, or a fresh name in
some region, alone or shared with another atom) is exhaustive, so an exhausted search proves
that no object fits.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.expand import expand
from codegen.breaking.engine.facts import (
    EMPTY,
    Asker,
    Found,
    Result,
    Unknown,
    additional,
    distinct,
    holds,
    key_fits,
    string_language,
)
from codegen.breaking.engine.literals import (
    AddIf,
    Atom,
    DepReq,
    Has,
    KeyExists,
    Lit,
    NamesIn,
    PatIf,
    PropIf,
    Size,
)
from codegen.breaking.engine.nodes import Unsupported
from codegen.core.ecma import ecma_search

__all__ = ["solve_object"]

_MAX_PATTERNS = 6


@dataclass
class _Plan:
    """The object atoms of one conjunction, read once."""

    solver: Asker
    atoms: list[Atom]
    present: dict[str, list[Lit]] = field(default_factory=dict)
    absent: set[str] = field(default_factory=set)
    low: int = 0
    high: int | None = None

    def __post_init__(self) -> None:
        for atom in self.atoms:
            if isinstance(atom, Has) and atom.positive:
                self.present.setdefault(atom.name, [])
                if atom.lit is not None:
                    self.present[atom.name].append(atom.lit)
            elif isinstance(atom, Has):
                self.absent.add(atom.name)
            elif isinstance(atom, Size) and atom.lower:
                self.low = max(self.low, atom.n)
            elif isinstance(atom, Size):
                self.high = atom.n if self.high is None else min(self.high, atom.n)
        self.props = [a for a in self.atoms if isinstance(a, PropIf)]
        self.pats = [a for a in self.atoms if isinstance(a, PatIf)]
        self.adds = [a for a in self.atoms if isinstance(a, AddIf)]
        self.names = [a for a in self.atoms if isinstance(a, NamesIn)]
        self.exists = [a for a in self.atoms if isinstance(a, KeyExists)]
        self.deps = [a for a in self.atoms if isinstance(a, DepReq)]
        universe = set(self.present) | self.absent | {p.name for p in self.props}
        for dep in self.deps:
            universe |= {dep.name, *dep.needs}
        for add in self.adds:
            universe |= add.names
        for exists in self.exists:
            if exists.where[0] == "outside":
                universe |= exists.where[1]
        self.universe = sorted(universe)
        patterns = {p.pattern for p in self.pats}
        for add in self.adds:
            patterns.update(add.patterns)
        for exists in self.exists:
            if exists.where[0] == "pattern":
                patterns.add(exists.where[1])
            elif exists.where[0] == "outside":
                patterns.update(exists.where[2])
        if len(patterns) > _MAX_PATTERNS:
            raise Unsupported(f"{len(patterns)} property-name patterns meet on one object")
        self.patterns = tuple(sorted(patterns))
        self._regions: dict[frozenset[str], strings.Strings] = {}

    # -- names

    def allowed(self, key: str) -> bool:
        """Whether a property may be named ``key`` (``propertyNames``)."""
        return all(holds(n.lit, key) for n in self.names)

    def base(self, key: str) -> list[Lit]:
        """What the value of property ``key`` must satisfy."""
        lits = [Lit(p.node, True) for p in self.props if p.name == key]
        lits += [Lit(p.node, True) for p in self.pats if ecma_search(p.pattern, key)]
        return lits + [Lit(a.node, True) for a in self.adds if additional(a, key)]

    def region_base(self, region: frozenset[str]) -> list[Lit]:
        """What the value of a property named by no atom, in ``region``, must satisfy."""
        lits = [Lit(p.node, True) for p in self.pats if p.pattern in region]
        return lits + [Lit(a.node, True) for a in self.adds if not region & set(a.patterns)]

    def region(self, matched: frozenset[str]) -> strings.Strings:
        """The names no atom mentions that match exactly the patterns ``matched``."""
        if matched not in self._regions:
            language = _unnamed(self.patterns, matched, tuple(self.universe))
            for names in self.names:
                language = language & _language(self.solver, names.lit, string_language)
            self._regions[matched] = language
        return self._regions[matched]

    def regions(self) -> Iterator[frozenset[str]]:
        for size in range(len(self.patterns) + 1):
            for matched in itertools.combinations(self.patterns, size):
                yield frozenset(matched)


def _language(solver: Asker, lit: Lit, of_atoms: Any) -> strings.Strings:
    """The strings satisfying ``lit``: the union over its expansions for strings."""
    language = strings.nothing()
    for atoms in expand([lit], "string", solver.search):
        language = language | of_atoms(atoms)
    return language


@functools.lru_cache(maxsize=4096)
def _unnamed(
    patterns: tuple[str, ...], matched: frozenset[str], universe: tuple[str, ...]
) -> strings.Strings:
    """The names outside ``universe`` that match exactly the ``patterns`` in ``matched``
    (immutable sets: one automaton per object shape, however often a search meets it)."""
    language = strings.anything()
    for pattern in patterns:
        found = strings.matching(pattern)
        language = language & (found if pattern in matched else ~found)
    return language - strings.one_of(universe)


def _fits_region(exists: KeyExists, region: frozenset[str]) -> bool:
    where = exists.where
    if where[0] == "pattern":
        return where[1] in region
    if where[0] == "outside":
        return not region & set(where[2])
    return True


def solve_object(solver: Asker, atoms: list[Atom]) -> Result:
    """An object satisfying every atom, :class:`Empty`, or :class:`Unknown`."""
    try:
        plan = _Plan(solver, atoms)
    except (strings.Undecidable, strings.PatternError) as exc:
        raise Unsupported(str(exc)) from exc
    if set(plan.present) & plan.absent:
        return EMPTY
    if plan.high is not None and plan.low > plan.high:
        return EMPTY
    unknown: Unknown | None = None
    try:
        for result in _attempts(solver, plan):
            if isinstance(result, Found):
                return result
            if isinstance(result, Unknown):
                unknown = unknown or result
    except (strings.Undecidable, strings.PatternError) as exc:
        raise Unsupported(str(exc)) from exc
    return unknown or EMPTY


def _attempts(solver: Asker, plan: _Plan) -> Iterator[Result]:
    """Every choice of keys realising the existence atoms, tried in turn."""
    named = [k for k in plan.universe if k not in plan.absent and plan.allowed(k)]
    options = []
    for index, exists in enumerate(plan.exists):
        here: list[tuple[str, Any]] = [("named", k) for k in named if key_fits(exists.where, k)]
        here += [("slot", slot) for slot in range(index + 1)]
        options.append(here)
    for choice in itertools.product(*options):
        if not _canonical(choice):
            continue
        slots: dict[int, list[KeyExists]] = {}
        keys: dict[str, list[Lit]] = {k: list(v) for k, v in plan.present.items()}
        for exists, (how, where) in zip(plan.exists, choice, strict=True):
            if how == "named":
                keys.setdefault(where, []).extend([exists.lit] if exists.lit else [])
            else:
                slots.setdefault(where, []).append(exists)
        if not _close(plan, keys):
            yield _empty()
            continue
        groups = list(slots.values())
        fitting = [[r for r in plan.regions() if all(_fits_region(e, r) for e in g)]
                   for g in groups]  # fmt: skip
        for regions in itertools.product(*fitting):
            solver.search.spend()
            yield _build(solver, plan, keys, list(zip(groups, regions, strict=True)))


def _canonical(choice: tuple[tuple[str, Any], ...]) -> bool:
    """Slots are numbered in order of first use, so each grouping is tried once."""
    seen = -1
    for how, where in choice:
        if how == "slot":
            if where > seen + 1:
                return False
            seen = max(seen, where)
    return True


def _empty() -> Result:
    return EMPTY


def _close(plan: _Plan, keys: dict[str, list[Lit]]) -> bool:
    """Add what ``dependentRequired`` needs of present names; False if one must be absent."""
    changed = True
    while changed:
        changed = False
        for dep in plan.deps:
            if dep.name in keys:
                for need in dep.needs:
                    if need not in keys:
                        keys[need] = []
                        changed = True
    return not (set(keys) & plan.absent) and all(plan.allowed(k) for k in keys)


def _build(
    solver: Asker,
    plan: _Plan,
    keys: dict[str, list[Lit]],
    slots: list[tuple[list[KeyExists], frozenset[str]]],
) -> Result:
    """The object with these keys (and fillers up to ``minProperties``), or why not.

    Every property is solved even after one is :class:`Unknown`: the object needs them all, so
    one that admits no value proves this choice empty (a pattern that cannot be decided on one
    property does not hide a contradiction on another)."""
    if plan.high is not None and len(keys) + len(slots) > plan.high:
        return EMPTY
    names = _names(solver, plan, slots)
    if names is None:
        return EMPTY
    wanted = [(key, plan.base(key) + lits) for key, lits in keys.items()]
    for index, (group, region) in enumerate(slots):
        lits = plan.region_base(region) + [e.lit for e in group if e.lit is not None]
        wanted.append((names[index], lits))
    value: dict[str, Any] = {}
    unknown: Unknown | None = None
    for key, lits in wanted:
        result = solver.solve(lits)
        if isinstance(result, Found):
            value[key] = result.value
        elif isinstance(result, Unknown):
            unknown = unknown or result
        else:
            return result
    if unknown is not None:
        return unknown
    if len(value) < plan.low:
        filled = _fill(solver, plan, value)
        if filled is None:
            return Unknown("could not choose properties enough for minProperties")
        if not filled:
            return EMPTY
    return Found(value)


def _names(
    solver: Asker, plan: _Plan, slots: list[tuple[list[KeyExists], frozenset[str]]]
) -> dict[int, str] | None:
    """A different fresh name for each slot, from its region and what its atoms ask of the
    name, or None when there is none (each slot's first ``len(slots)`` names suffice)."""
    choices: dict[Any, list[Any]] = {}
    for index, (group, region) in enumerate(slots):
        language = plan.region(region)
        for exists in group:
            if exists.where[0] == "name":
                language = language & _language(solver, exists.where[1], string_language)
        choices[index] = list(language.examples(len(slots)))
    return distinct(choices)


def _fresh(language: strings.Strings, taken: dict[str, Any]) -> str | None:
    for name in taken:
        language = language - strings.literal(name)
    return language.example()


def _fill(solver: Asker, plan: _Plan, value: dict[str, Any]) -> bool | None:
    """Add properties until ``minProperties`` is met, each satisfying what applies to it.

    True when met; False when no choice of properties can meet it (every name that may be
    added was tried); None when that could not be decided.
    """
    needing = {dep.name for dep in plan.deps}
    exact = not plan.deps
    for key in plan.universe:
        if len(value) >= plan.low:
            break
        if key in value or key in plan.absent or not plan.allowed(key):
            continue
        if key in needing:
            exact = False
            continue
        result = solver.solve(plan.base(key))
        if isinstance(result, Found):
            value[key] = result.value
        elif result != EMPTY:
            exact = False
    for region in plan.regions():
        if len(value) >= plan.low:
            break
        result = solver.solve(plan.region_base(region))
        if not isinstance(result, Found):
            exact = exact and result == EMPTY
            continue
        while len(value) < plan.low:
            name = _fresh(plan.region(region), value)
            if name is None:
                break
            value[name] = result.value
    if len(value) >= plan.low and (plan.high is None or len(value) <= plan.high):
        return True
    return False if exact else None
