"""What one schema's keywords imply of another's: the rules an inclusion proof goes by.

Each keyword of the including schema ``b`` (grouped where keywords depend on each other) is
implied by a conjunct of ``a`` that says the same thing at least as strictly, or by a keyword
of a kind no value of ``a`` has. :class:`Implications` holds these rules, one per keyword or
group, and asks its ``_incl`` (the recursion of
:class:`~codegen.breaking.engine.subsets.Subsets`) for the subschemas they compare.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.kinds import NUMERIC, exact, json_key, type_kinds
from codegen.breaking.engine.nodes import IGNORED, SNode, same
from codegen.breaking.engine.unions import disjoint, facts
from codegen.core.ecma import ecma_search

__all__ = ["GROUPS", "KIND_OF_KEYWORD", "Implications", "as_object", "keywords"]

_ALL_KINDS = ("null", "boolean", *NUMERIC, "string", "array", "object")

_STRING = ("minLength", "maxLength", "pattern", "format")  # format: where asserted
_NUMBER = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_ARRAY = ("minItems", "maxItems", "uniqueItems", "items", "prefixItems", "contains",
          "minContains", "maxContains")  # fmt: skip
_OBJECT = ("minProperties", "maxProperties", "required", "dependentRequired", "properties",
           "patternProperties", "additionalProperties", "propertyNames",
           "dependentSchemas")  # fmt: skip
KIND_OF_KEYWORD = {
    **dict.fromkeys(_STRING, "string"),
    **dict.fromkeys(_NUMBER, "number"),
    **dict.fromkeys(_ARRAY, "array"),
    **dict.fromkeys(_OBJECT, "object"),
}


GROUPS = {
    **dict.fromkeys(("properties", "patternProperties", "additionalProperties"), "object"),
    **dict.fromkeys(("items", "prefixItems"), "items"),
    **dict.fromkeys(("if", "then", "else"), "rule"),
}


def as_object(node: SNode) -> dict[str, Any]:
    return node.value if isinstance(node.value, dict) else {}


def keywords(node: SNode) -> set[str]:
    """The keywords of ``node`` that constrain instances (``format`` too where the tree
    asserts formats)."""
    asserted = node.tree.asserts_formats
    return {k for k in as_object(node) if k not in IGNORED or (asserted and k == "format")}


class Implications(ABC):
    """The keyword rules of an inclusion proof; ``_incl`` is the proof's recursion."""

    @abstractmethod
    def _incl(self, a: SNode, b: SNode, descent: int) -> bool:
        """Whether every value ``a`` accepts is proved to be accepted by ``b``."""

    def _check_of(
        self,
        key: str,
        a: SNode,
        b: SNode,
        *,
        conjuncts: list[SNode],
        kinds: frozenset[str],
        descent: int,
    ) -> Callable[[], bool]:
        spec = as_object(b)[key]

        def some(test: Callable[[SNode, dict[str, Any]], bool]) -> bool:
            return any(test(c, as_object(c)) for c in conjuncts)

        if key == "type":
            allowed = type_kinds(spec, b.float_integers)
            return lambda: kinds <= allowed
        if key == "enum":
            return lambda: self._values_in(a, spec)
        if key == "const":
            return lambda: self._values_in(a, [spec])
        if key in _NUMBER[:4]:
            return lambda: some(lambda c, o: _bound_implies(o, key, spec))
        if key == "multipleOf":
            return lambda: some(lambda c, o: _multiple_implies(o.get("multipleOf"), spec))
        if key in ("minLength", "minItems", "minProperties", "minContains"):
            return lambda: some(lambda c, o: isinstance(o.get(key), int) and o[key] >= spec)
        if key in ("maxLength", "maxItems", "maxProperties", "maxContains"):
            return lambda: some(lambda c, o: isinstance(o.get(key), int) and o[key] <= spec)
        if key == "pattern":
            return lambda: some(lambda c, o: _pattern_implies(o, spec))
        if key == "format":  # asserted: only the same format (where the tree asserts) proves it
            return lambda: some(lambda c, o: c.tree.asserts_formats and o.get("format") == spec)
        if key == "uniqueItems":
            return lambda: (
                spec is not True
                or some(
                    lambda c, o: (
                        o.get("uniqueItems") is True
                        or (isinstance(o.get("maxItems"), int) and o["maxItems"] <= 1)
                    )
                )
            )
        if key == "required":
            return lambda: (
                set(spec) <= {n for c in conjuncts for n in as_object(c).get("required", [])}
            )
        if key == "dependentRequired":

            def needs_met() -> bool:
                have = [as_object(c).get(key) or {} for c in conjuncts]
                return all(any(set(needs) <= set(h.get(name, ["\0"])) for h in have)
                           for name, needs in spec.items())  # fmt: skip

            return needs_met
        if key in ("properties", "patternProperties", "additionalProperties"):
            return lambda: some(lambda c, o: self._object_implies(c, b, descent))
        if key in ("items", "prefixItems"):
            return lambda: some(lambda c, o: self._array_implies(c, b, descent))
        if key == "contains":
            return lambda: some(
                lambda c, o: "contains" in o and same(c.child("contains"), b.child("contains"))
            )
        if key == "propertyNames":
            return lambda: some(
                lambda c, o: (
                    "propertyNames" in o
                    and self._incl(c.child("propertyNames"), b.child("propertyNames"), descent + 1)
                )
            )
        if key == "dependentSchemas":

            def schemas_met() -> bool:
                return all(
                    any(name in (as_object(c).get(key) or {})
                        and self._incl(c.child(key, name), b.child(key, name), descent)
                        for c in conjuncts)
                    for name in spec
                )  # fmt: skip

            return schemas_met
        if key == "not":
            return lambda: (
                self._disjoint_from(kinds, b.child("not"))
                or some(
                    lambda c, o: "not" in o and self._incl(b.child("not"), c.child("not"), descent)
                )
            )
        if key in ("if", "then", "else"):
            return lambda: (
                "if" not in as_object(b) or some(lambda c, o: self._rule_implies(c, b, descent))
            )
        if key == "$ref":
            target = b.target()
            return lambda: target is not None and self._incl(a, target, descent)
        if key == "allOf":
            return lambda: all(self._incl(a, b.child("allOf", i), descent)
                               for i in range(len(spec)))  # fmt: skip
        if key in ("anyOf", "oneOf"):
            return lambda: self._union_implies(a, b, key, conjuncts, descent)
        # unevaluated*, $dynamicRef: only a conjunct saying the same thing proves them
        return lambda: some(lambda c, o: same(c, b))

    # ------------------------------------------------------------------ keyword groups

    def _values_in(self, a: SNode, allowed: list[Any]) -> bool:
        """Whether every value ``a`` may take is one of ``allowed``."""
        values = facts(a).values
        if values is None:
            return False
        return set(values) <= {json_key(w) for w in allowed}

    def _disjoint_from(self, kinds: frozenset[str], other: SNode) -> bool:
        return not (kinds & facts(other).kinds)

    def _object_implies(self, c: SNode, b: SNode, descent: int) -> bool:
        """The object keywords of conjunct ``c`` imply those of ``b`` (properties,
        patternProperties, additionalProperties, read together)."""
        cobj, bobj = as_object(c), as_object(b)
        c_props, b_props = cobj.get("properties") or {}, bobj.get("properties") or {}
        c_pats, b_pats = cobj.get("patternProperties") or {}, bobj.get("patternProperties") or {}
        if set(c_pats) != set(b_pats):
            return False
        inner = descent + 1
        for pattern in b_pats:
            if not self._incl(c.child("patternProperties", pattern),
                              b.child("patternProperties", pattern), inner):  # fmt: skip
                return False
        c_add = c.child("additionalProperties") if "additionalProperties" in cobj else None
        b_add = b.child("additionalProperties") if "additionalProperties" in bobj else None
        for name in b_props:
            target = b.child("properties", name)
            if name in c_props:
                if not self._incl(c.child("properties", name), target, inner):
                    return False
            elif any(ecma_search(p, name) for p in c_pats):
                return False  # the pattern's schema and the name's: not read together here
            elif c_add is None:
                if not self._incl_true(target):
                    return False
            elif not self._incl(c_add, target, inner):
                return False
        if b_add is None:
            return True
        for name in c_props:
            if name in b_props or any(ecma_search(p, name) for p in b_pats):
                continue
            if not self._incl(c.child("properties", name), b_add, inner):
                return False
        if c_add is None:
            return self._incl_true(b_add)
        return self._incl(c_add, b_add, inner)

    @staticmethod
    def _incl_true(b: SNode) -> bool:
        """Whether ``b`` accepts every value."""
        return b.value is True or (isinstance(b.value, dict) and not keywords(b))

    def _array_implies(self, c: SNode, b: SNode, descent: int) -> bool:
        cobj, bobj = as_object(c), as_object(b)
        c_prefix = len(cobj.get("prefixItems") or [])
        b_prefix = len(bobj.get("prefixItems") or [])
        inner = descent + 1
        for i in range(max(c_prefix, b_prefix)):
            mine = c.child("prefixItems", i) if i < c_prefix else (
                c.child("items") if "items" in cobj else None)  # fmt: skip
            theirs = b.child("prefixItems", i) if i < b_prefix else (
                b.child("items") if "items" in bobj else None)  # fmt: skip
            if theirs is None:
                continue
            if mine is None or not self._incl(mine, theirs, inner):
                return False
        if "items" not in bobj:
            return True
        if "items" not in cobj:
            return self._incl_true(b.child("items"))
        return self._incl(c.child("items"), b.child("items"), inner)

    def _rule_implies(self, c: SNode, b: SNode, descent: int) -> bool:
        cobj, bobj = as_object(c), as_object(b)
        if "if" not in cobj or not same(c.child("if"), b.child("if")):
            return False
        for branch in ("then", "else"):
            if branch in bobj:
                mine = c.child(branch) if branch in cobj else None
                if mine is None:
                    if not self._incl_true(b.child(branch)):
                        return False
                elif not self._incl(mine, b.child(branch), descent):
                    return False
        return True

    def _union_implies(
        self, a: SNode, b: SNode, key: str, conjuncts: list[SNode], descent: int
    ) -> bool:
        """``a`` satisfies ``b``'s ``anyOf`` (or ``oneOf``, told apart)."""
        count = len(as_object(b)[key])
        branches = [b.child(key, i) for i in range(count)]
        if key == "oneOf" and not all(disjoint(b, key, k) for k in _ALL_KINDS):
            return any(key in as_object(c) and _same_list(c, b, key) for c in conjuncts)
        for c in conjuncts:  # a union of a's, branch by branch
            for own in ("anyOf", "oneOf"):
                if own in as_object(c):
                    mine = [c.child(own, i) for i in range(len(as_object(c)[own]))]
                    if all(any(self._incl(m, t, descent) for t in branches) for m in mine):
                        return True
        return any(self._incl(a, t, descent) for t in branches)


def _same_list(c: SNode, b: SNode, key: str) -> bool:
    mine, theirs = as_object(c)[key], as_object(b)[key]
    return len(mine) == len(theirs) and all(
        same(c.child(key, i), b.child(key, i)) for i in range(len(mine))
    )


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return exact(value)


def _bound_implies(obj: dict[str, Any], key: str, spec: Any) -> bool:
    """Whether ``obj``'s bounds imply ``key: spec`` (a minimum, maximum or an exclusive one)."""
    limit = _number(spec)
    if limit is None:
        return False
    lower = key in ("minimum", "exclusiveMinimum")
    strict = key.startswith("exclusive")
    for own in ("minimum", "exclusiveMinimum") if lower else ("maximum", "exclusiveMaximum"):
        value = _number(obj.get(own))
        if value is None:
            continue
        own_strict = own.startswith("exclusive")
        if lower and (value > limit or (value == limit and (own_strict or not strict))):
            return True
        if not lower and (value < limit or (value == limit and (own_strict or not strict))):
            return True
    return False


def _multiple_implies(mine: Any, spec: Any) -> bool:
    a, b = _number(mine), _number(spec)
    return a is not None and b is not None and b != 0 and (a / b).denominator == 1


def _pattern_implies(obj: dict[str, Any], spec: str) -> bool:
    own = obj.get("pattern")
    if own == spec:
        return True
    values = obj.get("enum") if isinstance(obj.get("enum"), list) else (
        [obj["const"]] if "const" in obj else None)  # fmt: skip
    if values is not None:
        return all(not isinstance(v, str) or ecma_search(spec, v) for v in values)
    if isinstance(own, str):
        return strings.matching(own) <= strings.matching(spec)
    return False
