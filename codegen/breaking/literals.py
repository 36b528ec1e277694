"""Literals and atoms: a conjunction of schemas, and its expansion into kind-level facts.

The engine asks one question: is there a JSON value satisfying a conjunction of *literals*?
A literal is a schema node, either accepted (positive) or refused (negative). A negative
literal may be *refined* by a path naming one component of the schema to break (its
``minLength``; its property ``a``, then a component there...): ``¬S`` is the disjunction of its
components, which is how a break is located.

:func:`expand` turns the literals, for one kind of value (null, boolean, integer, fraction,
string, array, object), into the disjunction of conjunctions of *atoms*, lazily and depth
first: the facts a kind solver reads (a bound, a pattern, an item or property constraint
naming the literals its child values must satisfy). The applicators become branches: a
positive ``anyOf`` one per branch, a negative ``allOf`` one per member, a ``oneOf`` one per
branch (with the others refused), ``if`` two. A pair of literals that say the same thing with
opposite signs closes its branch at once, without exploring it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from codegen.breaking.evaluate import Step, exact, kind_of, type_kinds
from codegen.breaking.evaluation import Scenario, scenarios
from codegen.breaking.nodes import SNode, Unsupported, same

__all__ = [
    "KINDS",
    "AddIf",
    "Atom",
    "Bound",
    "Count",
    "DepReq",
    "Has",
    "In",
    "ItemExists",
    "Items",
    "KeyExists",
    "Length",
    "Lit",
    "Multiple",
    "NamesIn",
    "PatIf",
    "Pattern",
    "PropIf",
    "Search",
    "Size",
    "Unique",
    "child_of",
    "components",
    "expand",
]

KINDS = ("null", "boolean", "integer", "fraction", "string", "array", "object")
_NUMERIC = ("integer", "fraction")


@dataclass(frozen=True)
class Lit:
    """A schema node the value must satisfy (positive) or break (negative, on ``path``)."""

    node: SNode
    positive: bool
    path: tuple[Step, ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.node.key, self.positive, self.path)


# ---------------------------------------------------------------------------- atoms


@dataclass(frozen=True)
class In:
    """The value is (``positive``) or is not one of ``values`` (JSON equality)."""

    values: tuple[Any, ...]
    positive: bool


@dataclass(frozen=True)
class Bound:
    """A number bound: ``value`` is a lower (or upper) bound, ``exclusive`` or not."""

    lower: bool
    value: Fraction
    exclusive: bool


@dataclass(frozen=True)
class Multiple:
    """The number is (or is not) a multiple of ``step``."""

    step: Fraction
    positive: bool


@dataclass(frozen=True)
class Length:
    """The string has at least (``lower``) or at most ``n`` characters."""

    lower: bool
    n: int


@dataclass(frozen=True)
class Pattern:
    """The string matches (or does not match) the ECMA-262 ``pattern`` somewhere."""

    pattern: str
    positive: bool


@dataclass(frozen=True)
class Size:
    """The array has at least (``lower``) or at most ``n`` items; for objects, properties."""

    lower: bool
    n: int


@dataclass(frozen=True)
class Items:
    """Item ``i`` satisfies ``prefix[i]``; items from ``start`` on satisfy ``rest``."""

    prefix: tuple[SNode, ...]
    rest: SNode | None
    start: int


@dataclass(frozen=True)
class ItemExists:
    """Item ``index`` exists and satisfies ``lits`` (``index`` None: some item from
    ``start``)."""

    index: int | None
    start: int
    lits: tuple[Lit, ...]


@dataclass(frozen=True)
class Unique:
    """The items are pairwise different (``positive``) or two of them are equal."""

    positive: bool


@dataclass(frozen=True)
class Count:
    """Between ``low`` and ``high`` (None: no limit) items satisfy ``node``."""

    node: SNode
    low: int
    high: int | None


@dataclass(frozen=True)
class Has:
    """Property ``name`` is present (``positive``) or absent; when present, and ``lit`` is
    given, its value satisfies ``lit``."""

    name: str
    positive: bool
    lit: Lit | None = None


@dataclass(frozen=True)
class PropIf:
    """When property ``name`` is present, its value satisfies ``node``."""

    name: str
    node: SNode


@dataclass(frozen=True)
class PatIf:
    """Every property whose name matches ``pattern`` has a value satisfying ``node``."""

    pattern: str
    node: SNode


@dataclass(frozen=True)
class AddIf:
    """Every property not named in ``names`` nor matching ``patterns`` satisfies ``node``."""

    names: frozenset[str]
    patterns: tuple[str, ...]
    node: SNode


@dataclass(frozen=True)
class NamesIn:
    """Every property name satisfies ``lit`` (a string literal)."""

    lit: Lit


@dataclass(frozen=True)
class KeyExists:
    """Some property exists whose name is as ``where`` says and whose value satisfies ``lit``.

    ``where`` is ``("pattern", p)`` (the name matches ``p``), ``("outside", names, patterns)``
    (no name nor pattern of an ``additionalProperties`` covers it) or ``("name", lit)`` (the
    name, a string, satisfies ``lit``).
    """

    where: tuple[Any, ...]
    lit: Lit | None


@dataclass(frozen=True)
class DepReq:
    """When ``name`` is present, every name of ``needs`` is present."""

    name: str
    needs: tuple[str, ...]


Atom = (
    In | Bound | Multiple | Length | Pattern | Size | Items | ItemExists | Unique | Count | Has
    | PropIf | PatIf | AddIf | NamesIn | KeyExists | DepReq
)  # fmt: skip


@dataclass
class Alt:
    """One alternative of a disjunction: literals still to expand, atoms already known."""

    lits: list[Lit] = field(default_factory=list)
    atoms: list[Atom] = field(default_factory=list)
    ors: list[list[Alt]] = field(default_factory=list)


_IMPOSSIBLE: list[Alt] = []


# ---------------------------------------------------------------------------- components


def components(node: SNode) -> list[Step]:
    """The components of ``node`` whose disjunction is its negation, in keyword order."""
    if isinstance(node.value, bool):
        return []
    steps: list[Step] = []
    obj = node.obj
    for key in node.keywords():
        if key in ("properties", "patternProperties", "dependentRequired", "dependentSchemas"):
            steps += [(key, name) for name in obj[key]]
        elif key == "required":
            steps += [(key, name) for name in dict.fromkeys(obj[key])]
        elif key in ("prefixItems", "allOf"):
            steps += [(key, index) for index in range(len(obj[key]))]
        elif key == "if":
            steps += [(branch,) for branch in ("then", "else") if branch in obj]
        elif key == "contains":
            steps.append(("contains",))
            if "maxContains" in obj:
                steps.append(("maxContains",))
        elif key not in ("then", "else", "minContains", "maxContains"):
            steps.append((key,))
    return steps


def child_of(node: SNode, step: Step) -> SNode | None:
    """The schema a refinable component leads to (None for a component that is a leaf)."""
    key = step[0]
    if key in ("properties", "patternProperties", "dependentSchemas", "prefixItems", "allOf"):
        return node.child(key, step[1])
    if key in ("items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
               "propertyNames", "then", "else"):  # fmt: skip
        return node.child(key)
    if key == "$ref":
        return node.target()
    return None


# ---------------------------------------------------------------------------- positive


def _number(value: Any, node: SNode) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Unsupported("a numeric keyword whose value is not a number", node)
    return exact(value)


def _positive(node: SNode, kind: str) -> Alt | None:
    """What accepting ``node`` means for a value of ``kind`` (None: no such value)."""
    if node.value is True:
        return Alt()
    if node.value is False:
        return None
    alt, obj = Alt(), node.obj
    for key in node.keywords():
        spec = obj[key]
        handler = _POSITIVE.get(key)
        if handler is not None and not handler(node, spec, kind, alt):
            return None
    return alt


def _type(node: SNode, spec: Any, kind: str, alt: Alt) -> bool:
    return kind in type_kinds(spec)


def _values(node: SNode, spec: Any, kind: str, alt: Alt) -> bool:
    values = tuple(v for v in (spec if isinstance(spec, list) else []) if kind_of(v) == kind)
    alt.atoms.append(In(values, positive=True))
    return bool(values)


def _const(node: SNode, spec: Any, kind: str, alt: Alt) -> bool:
    return _values(node, [spec], kind, alt)


_NUMBER_ATOMS: dict[str, Callable[[Fraction], Atom]] = {
    "minimum": lambda v: Bound(True, v, False),
    "exclusiveMinimum": lambda v: Bound(True, v, True),
    "maximum": lambda v: Bound(False, v, False),
    "exclusiveMaximum": lambda v: Bound(False, v, True),
    "multipleOf": lambda v: Multiple(v, True),
}
_NOT_NUMBER: dict[str, Callable[[Fraction], Atom]] = {
    "minimum": lambda v: Bound(False, v, True),
    "exclusiveMinimum": lambda v: Bound(False, v, False),
    "maximum": lambda v: Bound(True, v, True),
    "exclusiveMaximum": lambda v: Bound(True, v, False),
    "multipleOf": lambda v: Multiple(v, False),
}


def _keyed(key: str, handler: Callable[[SNode, Any, str, Alt, str], bool]) -> Any:
    return lambda node, spec, kind, alt: handler(node, spec, kind, alt, key)


def _number_key(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    if kind in _NUMERIC:
        alt.atoms.append(_NUMBER_ATOMS[key](_number(spec, node)))
    return True


def _string_key(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    if kind == "string":
        if key == "pattern":
            alt.atoms.append(Pattern(spec, True))
        else:
            alt.atoms.append(Length(key == "minLength", int(spec)))
    return True


def _array_key(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    if kind != "array":
        return True
    obj = node.obj
    if key in ("minItems", "maxItems"):
        alt.atoms.append(Size(key == "minItems", int(spec)))
    elif key == "uniqueItems":
        if spec is True:
            alt.atoms.append(Unique(True))
    elif key == "prefixItems" or (key == "items" and "prefixItems" not in obj):
        prefix = tuple(
            node.child("prefixItems", i) for i in range(len(obj.get("prefixItems") or []))
        )
        rest = node.child("items") if "items" in obj else None
        alt.atoms.append(Items(prefix, rest, len(prefix)))
    elif key == "contains":
        low, high = obj.get("minContains", 1), obj.get("maxContains")
        if low > 0 or high is not None:
            alt.atoms.append(Count(node.child("contains"), int(low), high))
    elif key == "unevaluatedItems":
        cases = []
        for case in scenarios(node, items=True):
            done = case.evaluation
            rest = _or_matched(node, done.contains)
            cases.append(_case(case, [] if done.every_item else [Items((), rest, done.prefix)]))
        _add_cases(alt, cases)
    return True


def _or_matched(node: SNode, contains: tuple[SNode, ...]) -> SNode:
    """``unevaluatedItems`` as it applies beside ``contains``: an item it matched was
    evaluated, so an item satisfies the keyword or one of ``contains``."""
    rest = node.child("unevaluatedItems")
    if not contains:
        return rest
    if any(c.home.rel != node.home.rel for c in contains):
        raise Unsupported("unevaluatedItems beside a contains of another file", node)
    value = {"anyOf": [c.value for c in contains] + [rest.value]}
    return SNode(node.tree, node.home, f"{rest.pointer}#or-matched", value)


def _case(case: Scenario, atoms: list[Atom]) -> Alt:
    """An alternative holding in one case of what passed (see
    :func:`~codegen.breaking.evaluation.scenarios`)."""
    lits = [Lit(sub, passes) for sub, passes in case.passes]
    present = [Has(name, is_present) for name, is_present in case.present]
    return Alt(lits, present + atoms)


def _add_cases(alt: Alt, cases: list[Alt]) -> None:
    """Add one alternative per case to ``alt`` (just its atoms when there is one case, which
    has no conditions)."""
    if len(cases) == 1:
        alt.lits += cases[0].lits
        alt.atoms += cases[0].atoms
    else:
        alt.ors.append(cases)


def _object_key(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    if kind != "object":
        return True
    obj = node.obj
    if key == "properties":
        alt.atoms += [PropIf(name, node.child(key, name)) for name in spec]
    elif key == "patternProperties":
        alt.atoms += [PatIf(p, node.child(key, p)) for p in spec]
    elif key == "additionalProperties":
        names = frozenset(obj.get("properties") or {})
        alt.atoms.append(AddIf(names, tuple(obj.get("patternProperties") or {}), node.child(key)))
    elif key == "unevaluatedProperties":
        cases = []
        for case in scenarios(node, items=False):
            done = case.evaluation
            closed = AddIf(done.names, tuple(sorted(done.patterns)), node.child(key))
            cases.append(_case(case, [] if done.every_key else [closed]))
        _add_cases(alt, cases)
    elif key == "propertyNames":
        alt.atoms.append(NamesIn(Lit(node.child(key), True)))
    elif key == "required":
        alt.atoms += [Has(name, True) for name in spec]
    elif key == "dependentRequired":
        alt.atoms += [DepReq(name, tuple(needs)) for name, needs in spec.items()]
    elif key in ("minProperties", "maxProperties"):
        alt.atoms.append(Size(key == "minProperties", int(spec)))
    elif key == "dependentSchemas":
        for name in spec:
            sub = Lit(node.child(key, name), True)
            alt.ors.append([Alt(atoms=[Has(name, False)]), Alt([sub], [Has(name, True)])])
    return True


def _applicator(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    obj = node.obj
    if key == "allOf":
        alt.lits += [Lit(node.child(key, i), True) for i in range(len(spec))]
    elif key == "$ref":
        target = node.target()
        assert target is not None
        alt.lits.append(Lit(target, True))
    elif key == "not":
        alt.lits.append(Lit(node.child(key), False))
    elif key == "anyOf":
        alt.ors.append([Alt([Lit(node.child(key, i), True)]) for i in range(len(spec))])
    elif key == "oneOf":
        branches = [node.child(key, i) for i in range(len(spec))]
        alt.ors.append([
            Alt([Lit(b, True)] + [Lit(o, False) for o in branches if o is not b])
            for b in branches
        ])  # fmt: skip
    elif key == "if":
        condition = node.child("if")
        then = [Lit(node.child("then"), True)] if "then" in obj else []
        other = [Lit(node.child("else"), True)] if "else" in obj else []
        alt.ors.append([Alt([Lit(condition, True), *then]), Alt([Lit(condition, False), *other])])
    return True


_POSITIVE: dict[str, Callable[[SNode, Any, str, Alt], bool]] = {
    "type": _type,
    "enum": _values,
    "const": _const,
    **{k: _keyed(k, _number_key) for k in _NUMBER_ATOMS},
    **{k: _keyed(k, _string_key) for k in ("minLength", "maxLength", "pattern")},
    **{
        k: _keyed(k, _array_key)
        for k in (
            "minItems",
            "maxItems",
            "uniqueItems",
            "prefixItems",
            "items",
            "contains",
            "unevaluatedItems",
        )
    },
    **{
        k: _keyed(k, _object_key)
        for k in (
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
            "propertyNames",
            "required",
            "dependentRequired",
            "minProperties",
            "maxProperties",
            "dependentSchemas",
        )
    },
    **{k: _keyed(k, _applicator) for k in ("allOf", "$ref", "not", "anyOf", "oneOf", "if")},
}


# ---------------------------------------------------------------------------- negative


def _negative(lit: Lit, kind: str) -> list[Alt]:
    """The alternatives of breaking ``lit.node`` (on ``lit.path``) for a value of ``kind``."""
    node = lit.node
    if node.value is False:
        return [Alt()] if not lit.path else _IMPOSSIBLE
    if node.value is True:
        return _IMPOSSIBLE
    if lit.path:
        return _broken(node, lit.path[0], lit.path[1:], kind)
    found: list[Alt] = []
    for step in components(node):
        found += _broken(node, step, (), kind)
    return found


def _broken(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    """The alternatives of breaking one component ``step`` of ``node``."""
    key, obj = step[0], node.obj
    if key in _NEGATIVE_ANY:
        return _NEGATIVE_ANY[key](node, step, rest, kind)
    if key in _NOT_NUMBER:
        if kind not in _NUMERIC:
            return _IMPOSSIBLE
        return [Alt(atoms=[_NOT_NUMBER[key](_number(obj[key], node))])]
    handler = _NEGATIVE_KIND.get(key)
    if handler is None:
        raise Unsupported(f"no negation for the keyword {key!r}", node)
    wanted, make = handler
    if kind != wanted:
        return _IMPOSSIBLE
    return make(node, step, rest)


def _sub(node: SNode, step: Step, rest: tuple[Step, ...]) -> Lit:
    child = child_of(node, step)
    assert child is not None
    return Lit(child, False, rest)


def _not_type(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    return _IMPOSSIBLE if kind in type_kinds(node.obj["type"]) else [Alt()]


def _not_values(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    spec = node.obj[step[0]]
    values = tuple(v for v in ([spec] if step[0] == "const" else spec) if kind_of(v) == kind)
    return [Alt(atoms=[In(values, positive=False)] if values else [])]


def _not_in_place(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    key, obj = step[0], node.obj
    if key in ("allOf", "$ref"):
        return [Alt([_sub(node, step, rest)])]
    if key == "anyOf":
        return [Alt([Lit(node.child(key, i), False) for i in range(len(obj[key]))])]
    if key == "oneOf":
        branches = [node.child(key, i) for i in range(len(obj[key]))]
        pairs = [Alt([Lit(a, True), Lit(b, True)]) for i, a in enumerate(branches)
                 for b in branches[i + 1 :]]  # fmt: skip
        return [Alt([Lit(b, False) for b in branches]), *pairs]
    if key == "not":
        return [Alt([Lit(node.child(key), True)])]
    if key in ("then", "else"):
        condition = Lit(node.child("if"), key == "then")
        return [Alt([condition, _sub(node, step, rest)])]
    if key == "dependentSchemas":
        if kind != "object":
            return _IMPOSSIBLE
        return [Alt([_sub(node, step, rest)], [Has(step[1], True)])]
    raise AssertionError(key)


_NEGATIVE_ANY: dict[str, Callable[[SNode, Step, tuple[Step, ...], str], list[Alt]]] = {
    "type": _not_type,
    "enum": _not_values,
    "const": _not_values,
    **{
        k: _not_in_place
        for k in ("allOf", "$ref", "anyOf", "oneOf", "not", "then", "else", "dependentSchemas")
    },
}


def _below(n: int, make: Callable[[int], Atom]) -> list[Alt]:
    return [Alt(atoms=[make(n - 1)])] if n > 0 else _IMPOSSIBLE


def _not_string(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    key, spec = step[0], node.obj[step[0]]
    if key == "minLength":
        return _below(int(spec), lambda n: Length(False, n))
    if key == "maxLength":
        return [Alt(atoms=[Length(True, int(spec) + 1)])]
    return [Alt(atoms=[Pattern(spec, False)])]


def _not_array(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    key, obj = step[0], node.obj
    if key == "minItems":
        return _below(int(obj[key]), lambda n: Size(False, n))
    if key == "maxItems":
        return [Alt(atoms=[Size(True, int(obj[key]) + 1)])]
    if key == "uniqueItems":
        return [Alt(atoms=[Unique(False)])] if obj[key] is True else _IMPOSSIBLE
    if key == "prefixItems":
        return [Alt(atoms=[ItemExists(step[1], step[1], (_sub(node, step, rest),))])]
    if key == "items":
        start = len(obj.get("prefixItems") or [])
        return [Alt(atoms=[ItemExists(None, start, (_sub(node, step, rest),))])]
    if key == "unevaluatedItems":
        found = []
        for case in scenarios(node, items=True):
            done = case.evaluation
            if not done.every_item:
                unmatched = tuple(Lit(c, False) for c in done.contains)
                exists = ItemExists(None, done.prefix, (_sub(node, step, rest), *unmatched))
                found.append(_case(case, [exists]))
        return found
    contains = node.child("contains")
    if key == "contains":
        return _below(int(obj.get("minContains", 1)), lambda n: Count(contains, 0, n))
    return [Alt(atoms=[Count(contains, int(obj["maxContains"]) + 1, None)])]


def _not_object(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    key, obj = step[0], node.obj
    if key == "minProperties":
        return _below(int(obj[key]), lambda n: Size(False, n))
    if key == "maxProperties":
        return [Alt(atoms=[Size(True, int(obj[key]) + 1)])]
    if key == "required":
        return [Alt(atoms=[Has(step[1], False)])]
    if key == "dependentRequired":
        needs = obj[key][step[1]]
        return [Alt(atoms=[Has(step[1], True), Has(m, False)]) for m in needs]
    if key == "properties":
        return [Alt(atoms=[Has(step[1], True, _sub(node, step, rest))])]
    if key == "patternProperties":
        return [Alt(atoms=[KeyExists(("pattern", step[1]), _sub(node, step, rest))])]
    if key == "additionalProperties":
        names = frozenset(obj.get("properties") or {})
        where = ("outside", names, tuple(obj.get("patternProperties") or {}))
        return [Alt(atoms=[KeyExists(where, _sub(node, step, rest))])]
    if key == "unevaluatedProperties":
        found = []
        for case in scenarios(node, items=False):
            done = case.evaluation
            if not done.every_key:
                where = ("outside", done.names, tuple(sorted(done.patterns)))
                found.append(_case(case, [KeyExists(where, _sub(node, step, rest))]))
        return found
    # propertyNames: some name breaks it
    return [Alt(atoms=[KeyExists(("name", _sub(node, step, rest)), None)])]


_NEGATIVE_KIND: dict[str, tuple[str, Callable[[SNode, Step, tuple[Step, ...]], list[Alt]]]] = {
    **{k: ("string", _not_string) for k in ("minLength", "maxLength", "pattern")},
    **{
        k: ("array", _not_array)
        for k in (
            "minItems",
            "maxItems",
            "uniqueItems",
            "prefixItems",
            "items",
            "unevaluatedItems",
            "contains",
            "maxContains",
        )
    },
    **{
        k: ("object", _not_object)
        for k in (
            "minProperties",
            "maxProperties",
            "required",
            "dependentRequired",
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
            "propertyNames",
        )
    },
}


# ---------------------------------------------------------------------------- expansion


class Search:
    """The work of one question: a bound on it (past it the engine says it cannot decide),
    and what it learnt of which nodes say the same thing."""

    def __init__(self, steps: int) -> None:
        self.left = steps
        self._same: dict[tuple[Any, Any], bool] = {}

    def spend(self, node: SNode | None = None) -> None:
        self.left -= 1
        if self.left < 0:
            raise Unsupported("the search bound was reached before a decision", node)

    def same(self, a: SNode, b: SNode) -> bool:
        key = (a.key, b.key)
        if key not in self._same:
            self._same[key] = same(a, b)
        return self._same[key]


def expand(lits: list[Lit], kind: str, budget: Search) -> Iterator[list[Atom]]:
    """Every conjunction of atoms that satisfying ``lits`` with a value of ``kind`` may take."""
    yield from _expand(Alt(list(lits)), [], [], [], kind=kind, budget=budget)


def _expand(
    alt: Alt,
    atoms: list[Atom],
    positives: list[SNode],
    negatives: list[Lit],
    *,
    kind: str,
    budget: Search,
) -> Iterator[list[Atom]]:
    budget.spend()
    atoms, positives, negatives = list(atoms) + list(alt.atoms), list(positives), list(negatives)
    pending, ors = list(alt.lits), list(alt.ors)
    seen = {p.key for p in positives} | {(n.node.key, n.path) for n in negatives}
    while pending:
        lit = pending.pop()
        if lit.positive:
            if lit.node.key in seen:
                continue
            seen.add(lit.node.key)
            if any(budget.same(lit.node, n.node) for n in negatives):
                return
            expanded = _positive(lit.node, kind)
            if expanded is None:
                return
            positives.append(lit.node)
            pending += expanded.lits
            atoms += expanded.atoms
            ors += expanded.ors
            continue
        if (lit.node.key, lit.path) in seen:
            continue
        seen.add((lit.node.key, lit.path))
        if any(budget.same(p, lit.node) for p in positives):
            return
        negatives.append(lit)
        options = _negative(lit, kind)
        if not options:
            return
        if len(options) == 1:
            pending += options[0].lits
            atoms += options[0].atoms
            ors += options[0].ors
        else:
            ors.append(options)
    if not ors:
        yield atoms
        return
    ors.sort(key=len)
    first, others = ors[0], ors[1:]
    for option in first:
        branch = Alt(option.lits, option.atoms, option.ors + others)
        yield from _expand(branch, atoms, positives, negatives, kind=kind, budget=budget)
