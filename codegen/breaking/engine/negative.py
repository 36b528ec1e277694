"""What refusing a schema means for a value of one kind: the alternatives of breaking it.

:func:`negative` lists, for one kind of value, the ways a value breaks a schema: one per
component (:func:`~codegen.breaking.engine.literals.components`), or only the one a refined
literal names. A component of another kind cannot be broken by the value (no alternative); a
``type`` that excludes the kind is broken already (one empty alternative).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from codegen.breaking.engine.evaluation import scenarios
from codegen.breaking.engine.kinds import Step, of_kind, type_kinds
from codegen.breaking.engine.literals import (
    ARRAY_KEYWORDS,
    IMPOSSIBLE,
    NUMERIC,
    OBJECT_KEYWORDS,
    STRING_KEYWORDS,
    Alt,
    Atom,
    Count,
    Has,
    In,
    ItemExists,
    KeyExists,
    Length,
    Lit,
    Pattern,
    Size,
    Unique,
    case_alt,
    child_of,
    components,
    number_of,
)
from codegen.breaking.engine.nodes import SNode, Unsupported, unsearched
from codegen.breaking.engine.positive import NOT_NUMBER
from codegen.breaking.engine.unions import disjoint, facts, presence, tag, values_node
from codegen.core.ecma import ecma_search
from codegen.core.formats import format_examples

__all__ = ["negative"]


def negative(lit: Lit, kind: str) -> list[Alt]:
    """The alternatives of breaking ``lit.node`` (on ``lit.path``) for a value of ``kind``."""
    node = lit.node
    if node.value is False:
        return [Alt()] if not lit.path else IMPOSSIBLE
    if node.value is True:
        return IMPOSSIBLE
    if lit.path:
        found = _broken(node, lit.path[0], lit.path[1:], kind)
    else:
        found = [alt for step in components(node) for alt in _broken(node, step, (), kind)]
    if any(not (alt.lits or alt.atoms or alt.ors) for alt in found):
        return [Alt()]  # broken already (a type that excludes the kind): nothing to choose
    return found


def _broken(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    """The alternatives of breaking one component ``step`` of ``node``."""
    key, obj = step[0], node.obj
    if key in _NEGATIVE_ANY:
        return _NEGATIVE_ANY[key](node, step, rest, kind)
    if key in NOT_NUMBER:
        if kind not in NUMERIC:
            return IMPOSSIBLE
        return [Alt(atoms=[NOT_NUMBER[key](number_of(obj[key], node))])]
    handler = _NEGATIVE_KIND.get(key)
    if handler is None:
        raise Unsupported(f"no negation for the keyword {key!r}", node)
    wanted, make = handler
    if kind != wanted:
        return IMPOSSIBLE
    return make(node, step, rest)


def _sub(node: SNode, step: Step, rest: tuple[Step, ...]) -> Lit:
    child = child_of(node, step)
    assert child is not None
    return Lit(child, False, rest)


def _not_type(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    return IMPOSSIBLE if kind in type_kinds(node.obj["type"], node.float_integers) else [Alt()]


def _not_values(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    spec = node.obj[step[0]]
    values = of_kind([spec] if step[0] == "const" else spec, kind)
    return [Alt(atoms=[In(values, positive=False)] if values else [])]


def _not_in_place(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    key = step[0]
    if key in ("allOf", "$ref", "$dynamicRef"):
        return [Alt([_sub(node, step, rest)])]
    if key in ("anyOf", "oneOf"):
        return _union_refused(node, step, rest, kind)
    if key == "not":
        return [Alt([Lit(node.child(key), True)])]
    if key in ("then", "else"):
        condition = Lit(node.child("if"), key == "then")
        return [Alt([condition, _sub(node, step, rest)])]
    if key == "dependentSchemas":
        if kind != "object":
            return IMPOSSIBLE
        return [Alt([_sub(node, step, rest)], [Has(step[1], True)])]
    raise AssertionError(key)


def _union_refused(node: SNode, step: Step, rest: tuple[Step, ...], kind: str) -> list[Alt]:
    """Refusing a union: every branch broken. ``step`` is ``(key,)``, or ``(key, i)`` refined
    to branch ``i`` (of a kind it may accept) broken on ``rest``
    (:func:`~codegen.breaking.engine.literals.child_of`).

    Branches told apart (:mod:`~codegen.breaking.engine.unions`) are refused case by case, for
    an object: by its tag (absent, none of theirs, or branch ``i``'s with branch ``i``
    broken) or by the property each requires and the others forbid (none present, or branch
    ``i``'s with branch ``i`` broken, and any other that allows it); for any value, a
    ``oneOf`` of disjoint branches as an ``anyOf``. Else a ``oneOf`` is also refused by two
    branches passing."""
    key, count = step[0], len(node.obj[step[0]])
    refined = step[1] if len(step) > 1 else None
    if refined is not None and kind not in facts(node.child(key, refined)).kinds:
        return IMPOSSIBLE  # a value of another kind breaks the branch by its type only

    def broken(indexes: Iterable[int]) -> list[Lit]:
        chosen = set(indexes) | ({refined} if refined is not None else set())
        return [_sub(node, step, rest) if i == refined else Lit(node.child(key, i), False)
                for i in sorted(chosen)]  # fmt: skip

    cases = _cases(node, key) if kind == "object" else None
    if cases is not None:
        return [Alt(broken(indexes), atoms) for indexes, atoms in cases]
    every = broken(range(count))
    if key == "anyOf" or refined is not None or disjoint(node, key, kind):
        return [Alt(every)]
    branches = [node.child(key, i) for i in range(count)]
    pairs = [Alt([Lit(a, True), Lit(b, True)]) for i, a in enumerate(branches)
             for b in branches[i + 1 :]]  # fmt: skip
    return [Alt(every), *pairs]


def _cases(node: SNode, key: str) -> list[tuple[list[int], list[Atom]]] | None:
    """The cases of an object refusing a union whose object branches are told apart: for each,
    the branches still to break and what holds of the object; None when they are not told
    apart (by a tag, or by a property each requires and the others forbid)."""
    count = len(node.obj[key])
    found = tag(node, key)
    if found is not None:
        name, indexes, sets = found
        others = [i for i in range(count) if i not in indexes]  # taking no object: broken
        every = [v for s in sets for v in s.values()]
        outside = Lit(values_node(node, key, f"tag-{name}-none", every), False)
        cases: list[tuple[list[int], list[Atom]]] = [
            (others, [Has(name, False)]),
            (others, [Has(name, True, outside)]),
        ]
        for index, values in zip(indexes, sets, strict=True):
            tagged = Lit(values_node(node, key, f"tag-{name}-{index}", list(values.values())), True)
            cases.append(([*others, index], [Has(name, True, tagged)]))
        return cases
    present = presence(node, key)
    if present is None:
        return None
    told = {i for i, _, _ in present}
    others = [i for i in range(count) if i not in told]
    absent: list[Atom] = [Has(name, False) for _, name, _ in present]
    found_cases: list[tuple[list[int], list[Atom]]] = [(others, absent)]
    for index, name, allow in present:
        found_cases.append(([*others, index, *allow], [Has(name, True)]))
    return found_cases


_IN_PLACE = ("allOf", "$ref", "$dynamicRef", "anyOf", "oneOf", "not", "then", "else",
             "dependentSchemas")  # fmt: skip
_NEGATIVE_ANY: dict[str, Callable[[SNode, Step, tuple[Step, ...], str], list[Alt]]] = {
    "type": _not_type,
    "enum": _not_values,
    "const": _not_values,
    **dict.fromkeys(_IN_PLACE, _not_in_place),
}


def _below(n: int, make: Callable[[int], Atom]) -> list[Alt]:
    return [Alt(atoms=[make(n - 1)])] if n > 0 else IMPOSSIBLE


def _not_string(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    key, spec = step[0], node.obj[step[0]]
    if key == "minLength":
        return _below(int(spec), lambda n: Length(False, n))
    if key == "maxLength":
        return [Alt(atoms=[Length(True, int(spec) + 1)])]
    return [Alt(atoms=[Pattern(spec, False)])]


def _not_format(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    """A string outside an asserted format: its counter-example, or else one the engine does
    not search for (undecided, never "none")."""
    outside = format_examples(node.obj["format"], inside=False)
    return [
        Alt(atoms=[In(outside, positive=True)]),
        Alt(lits=[Lit(unsearched(node), True)]),
    ]


def _not_array(node: SNode, step: Step, rest: tuple[Step, ...]) -> list[Alt]:
    key, obj = step[0], node.obj
    if key == "minItems":
        return _below(int(obj[key]), lambda n: Size(False, n))
    if key == "maxItems":
        return [Alt(atoms=[Size(True, int(obj[key]) + 1)])]
    if key == "uniqueItems":
        return [Alt(atoms=[Unique(False)])] if obj[key] is True else IMPOSSIBLE
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
                found.append(case_alt(case, [exists]))
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
        patterns = tuple(obj.get("patternProperties") or {})
        if len(step) > 1:  # refined to one name: that property is present and breaks it
            if not _outside(step[1], names, patterns):
                return IMPOSSIBLE
            return [Alt(atoms=[Has(step[1], True, _sub(node, step, rest))])]
        return [Alt(atoms=[KeyExists(("outside", names, patterns), _sub(node, step, rest))])]
    if key == "unevaluatedProperties":
        found = []
        for case in scenarios(node, items=False):
            done = case.evaluation
            if done.every_key:
                continue
            patterns = tuple(sorted(done.patterns))
            if len(step) > 1:  # refined to one name, as for additionalProperties
                if _outside(step[1], done.names, patterns):
                    found.append(case_alt(case, [Has(step[1], True, _sub(node, step, rest))]))
                continue
            where = ("outside", done.names, patterns)
            found.append(case_alt(case, [KeyExists(where, _sub(node, step, rest))]))
        return found
    # propertyNames: some name breaks it
    return [Alt(atoms=[KeyExists(("name", _sub(node, step, rest)), None)])]


def _outside(name: str, names: frozenset[str], patterns: tuple[str, ...]) -> bool:
    """Whether a closing keyword applies to property ``name``: no name nor pattern beside it
    covers it."""
    return name not in names and not any(ecma_search(p, name) for p in patterns)


_NEGATIVE_KIND: dict[str, tuple[str, Callable[[SNode, Step, tuple[Step, ...]], list[Alt]]]] = {
    **{k: ("string", _not_string) for k in STRING_KEYWORDS},
    "format": ("string", _not_format),
    **{k: ("array", _not_array) for k in (*ARRAY_KEYWORDS, "maxContains")},
    **{k: ("object", _not_object) for k in OBJECT_KEYWORDS},
}
