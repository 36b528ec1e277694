"""What accepting a schema means for a value of one kind: its atoms and alternatives.

:func:`positive` reads the keywords of one schema object for one kind of value: the keywords
of another kind hold vacuously, a ``type`` or ``enum`` that excludes the kind makes the
literal impossible, the assertions become atoms, and the applicators become literals to expand
(``allOf``, ``$ref``, ``not``) or disjunctions (``anyOf``, ``oneOf``, ``if``,
``dependentSchemas``, and the cases of what passed beside ``unevaluated*``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from codegen.breaking.engine.evaluation import scenarios
from codegen.breaking.engine.kinds import of_kind, type_kinds
from codegen.breaking.engine.literals import (
    ARRAY_KEYWORDS,
    NUMERIC,
    OBJECT_KEYWORDS,
    STRING_KEYWORDS,
    AddIf,
    Alt,
    Atom,
    Bound,
    Count,
    DepReq,
    Has,
    In,
    Items,
    Length,
    Lit,
    Multiple,
    NamesIn,
    PatIf,
    Pattern,
    PropIf,
    Size,
    Unique,
    case_alt,
    number_of,
)
from codegen.breaking.engine.nodes import SNode, Unsupported, unsearched
from codegen.breaking.engine.unions import disjoint
from codegen.core.formats import format_examples

__all__ = ["NOT_NUMBER", "positive"]


def positive(node: SNode, kind: str) -> Alt | None:
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
    return kind in type_kinds(spec, node.float_integers)


def _values(node: SNode, spec: Any, kind: str, alt: Alt) -> bool:
    values = of_kind(spec if isinstance(spec, list) else [], kind)
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
NOT_NUMBER: dict[str, Callable[[Fraction], Atom]] = {
    "minimum": lambda v: Bound(False, v, True),
    "exclusiveMinimum": lambda v: Bound(False, v, False),
    "maximum": lambda v: Bound(True, v, True),
    "exclusiveMaximum": lambda v: Bound(True, v, False),
    "multipleOf": lambda v: Multiple(v, False),
}


def _keyed(key: str, handler: Callable[[SNode, Any, str, Alt, str], bool]) -> Any:
    return lambda node, spec, kind, alt: handler(node, spec, kind, alt, key)


def _number_key(node: SNode, spec: Any, kind: str, alt: Alt, key: str) -> bool:
    if kind in NUMERIC:
        alt.atoms.append(_NUMBER_ATOMS[key](number_of(spec, node)))
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
            cases.append(case_alt(case, [] if done.every_item else [Items((), rest, done.prefix)]))
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
    return SNode(node.tree, node.home, f"{rest.pointer}#or-matched", value, rest.scope)


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
            cases.append(case_alt(case, [] if done.every_key else [closed]))
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
    elif key in ("$ref", "$dynamicRef"):
        target = node.target(key)
        assert target is not None
        alt.lits.append(Lit(target, True))
    elif key == "not":
        alt.lits.append(Lit(node.child(key), False))
    elif key == "anyOf" or (key == "oneOf" and disjoint(node, key, kind)):
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


def _format(node: SNode, spec: Any, kind: str, alt: Alt) -> bool:
    """An asserted format applies to strings only. A string of it is its example (a witness
    the engine can build), or else one it does not search for (undecided, never "none")."""
    if kind == "string":
        alt.ors.append([
            Alt(atoms=[In(format_examples(spec, inside=True), positive=True)]),
            Alt(lits=[Lit(unsearched(node), True)]),
        ])  # fmt: skip
    return True


_POSITIVE: dict[str, Callable[[SNode, Any, str, Alt], bool]] = {
    "type": _type,
    "format": _format,
    "enum": _values,
    "const": _const,
    **{k: _keyed(k, _number_key) for k in _NUMBER_ATOMS},
    **{k: _keyed(k, _string_key) for k in STRING_KEYWORDS},
    **{k: _keyed(k, _array_key) for k in ARRAY_KEYWORDS},
    **{k: _keyed(k, _object_key) for k in (*OBJECT_KEYWORDS, "dependentSchemas")},
    **{
        k: _keyed(k, _applicator)
        for k in ("allOf", "$ref", "$dynamicRef", "not", "anyOf", "oneOf", "if")
    },
}
