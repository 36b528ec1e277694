"""Literals and atoms: the words of the engine's one question.

The engine asks: is there a JSON value satisfying a conjunction of *literals*? A literal is a
schema node, either accepted (positive) or refused (negative). A negative literal may be
*refined* by a path naming one component of the schema to break (its ``minLength``; its
property ``a``, then a component there...): ``¬S`` is the disjunction of its
:func:`components`, which is how a break is located.

*Atoms* are the facts a kind solver reads once the literals are expanded for one kind of value
(:mod:`~codegen.breaking.engine.expand`): a bound, a pattern, an item or property constraint
naming the literals its child values must satisfy. An :class:`Alt` is one alternative of a
disjunction met while expanding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from codegen.breaking.engine.evaluation import Scenario
from codegen.breaking.engine.kinds import NUMERIC, Step, exact, json_key
from codegen.breaking.engine.nodes import SNode, Unsupported

__all__ = [
    "ARRAY_KEYWORDS",
    "IMPOSSIBLE",
    "KINDS",
    "NUMERIC",
    "OBJECT_KEYWORDS",
    "STRING_KEYWORDS",
    "AddIf",
    "Alt",
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
    "Size",
    "Unique",
    "case_alt",
    "child_of",
    "components",
    "number_of",
]

KINDS = ("null", "boolean", *NUMERIC, "string", "array", "object")
STRING_KEYWORDS = ("minLength", "maxLength", "pattern")
ARRAY_KEYWORDS = ("minItems", "maxItems", "uniqueItems", "prefixItems", "items", "contains",
                  "unevaluatedItems")  # fmt: skip
OBJECT_KEYWORDS = ("minProperties", "maxProperties", "required", "dependentRequired",
                   "properties", "patternProperties", "additionalProperties",
                   "unevaluatedProperties", "propertyNames")  # fmt: skip
"""The assertions and applicators that constrain strings, arrays and objects only (besides
``maxContains``, with ``contains``, and ``dependentSchemas``, an in-place applicator)."""


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

    @cached_property
    def keys(self) -> frozenset[Any]:
        """The values' :func:`~codegen.breaking.engine.kinds.json_key`: membership in one
        lookup."""
        return frozenset(json_key(v) for v in self.values)


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


IMPOSSIBLE: list[Alt] = []
"""A disjunction without alternatives: no value of the kind satisfies it."""


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
    """The schema a refinable component leads to (None for a component that is a leaf).

    ``("anyOf", i)`` and ``("oneOf", i)`` lead to branch ``i``: a value breaks the union *there*
    when it is of a kind branch ``i`` may accept and breaks every branch, branch ``i`` on the
    rest of the path (a part of the union's negation, never all of it: used to ask about an
    edit inside one branch, never to split a negation into cases)."""
    key = step[0]
    if key in ("properties", "patternProperties", "dependentSchemas", "prefixItems", "allOf"):
        return node.child(key, step[1])
    if key in ("anyOf", "oneOf"):
        return node.child(key, step[1]) if len(step) > 1 else None
    if key in ("items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
               "propertyNames", "then", "else"):  # fmt: skip
        return node.child(key)
    if key in ("$ref", "$dynamicRef"):
        return node.target(key)
    return None


def number_of(value: Any, node: SNode) -> Fraction:
    """The number a numeric keyword of ``node`` holds, exactly as written."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Unsupported("a numeric keyword whose value is not a number", node)
    return exact(value)


def case_alt(case: Scenario, atoms: list[Atom]) -> Alt:
    """An alternative holding in one case of what passed (see
    :func:`~codegen.breaking.engine.evaluation.scenarios`)."""
    lits = [Lit(sub, passes) for sub, passes in case.passes]
    present = [Has(name, is_present) for name, is_present in case.present]
    return Alt(lits, present + atoms)
