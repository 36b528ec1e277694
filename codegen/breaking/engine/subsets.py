"""Prove, from what two schemas say, that every value one accepts the other accepts too.

:class:`Subsets` answers ``included(a, b)``: True is a proof that ``b`` accepts every value
``a`` accepts; False means "not shown", never "not included". The expansion closes a branch
holding a schema and the refusal of a schema including it (:mod:`~codegen.breaking.engine.expand`),
so that an edit that only widens (a property added to a closed object, a value added to an
enum, a branch added to a union) is settled without a search, however much of the contract
reaches it; what no rule here proves is left to the search, exactly as before.

``b`` is read as a conjunction of constraints (its keywords, grouped where they depend on each
other: ``properties`` with ``patternProperties`` and ``additionalProperties``, ``items`` with
``prefixItems``, ``if`` with ``then`` and ``else``...; its ``$ref`` target and ``allOf``
members), and ``a`` as the conjunction of its own keywords, its ``$ref`` target and its
``allOf`` members (its *conjuncts*). Each constraint of ``b`` must follow from one conjunct of
``a`` (or from all of them, for ``required`` and the kinds a value may be): the same keyword
at least as strict (a higher minimum, fewer enum values, a pattern whose strings the other
matches, a property schema included in the other's...), or a keyword of a kind no value of
``a`` has. A union on the left is proved branch by branch; on the right, by one branch, or
branch by branch when both sides are unions (a ``oneOf`` on the right only when its branches
are disjoint, :mod:`~codegen.breaking.engine.unions`). ``unevaluated*`` and ``$dynamicRef``
are only proved by sameness (:func:`~codegen.breaking.engine.nodes.same`).

References make the relation recursive: a pair met again while it is being proved is assumed
to hold (coinduction) only when the proof has entered a value since (a property, an item...):
documents are finite, so such a cycle cannot hold a counterexample that the rest of the proof
does not; an assumption met without entering a value proves nothing. Answers are remembered
per comparison; one that relied on an assumption is dropped if that assumption fails, and one
that was not shown is never asked again (in another context it might be shown: only a proof
is lost, never a break).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.kinds import NUMERIC, exact, json_key, type_kinds
from codegen.breaking.engine.nodes import IGNORED, SNode, Unsupported, same
from codegen.breaking.engine.unions import disjoint, facts
from codegen.core.ecma import ecma_search

__all__ = ["Subsets"]

_MAX_VISITS = 20_000
_INF = 1 << 30
_ALL_KINDS = ("null", "boolean", *NUMERIC, "string", "array", "object")

_STRING = ("minLength", "maxLength", "pattern")
_NUMBER = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_ARRAY = ("minItems", "maxItems", "uniqueItems", "items", "prefixItems", "contains",
          "minContains", "maxContains")  # fmt: skip
_OBJECT = ("minProperties", "maxProperties", "required", "dependentRequired", "properties",
           "patternProperties", "additionalProperties", "propertyNames",
           "dependentSchemas")  # fmt: skip
_KIND_OF_KEYWORD = {
    **dict.fromkeys(_STRING, "string"),
    **dict.fromkeys(_NUMBER, "number"),
    **dict.fromkeys(_ARRAY, "array"),
    **dict.fromkeys(_OBJECT, "object"),
}


_GROUPS = {
    **dict.fromkeys(("properties", "patternProperties", "additionalProperties"), "object"),
    **dict.fromkeys(("items", "prefixItems"), "items"),
    **dict.fromkeys(("if", "then", "else"), "rule"),
}


class _GiveUp(Exception):
    """The proof took more steps than it may: not shown."""


def _obj(node: SNode) -> dict[str, Any]:
    return node.value if isinstance(node.value, dict) else {}


def _keys(node: SNode) -> set[str]:
    return {k for k in _obj(node) if k not in IGNORED}


class Subsets:
    """The inclusion proofs of one comparison, remembered across its questions."""

    def __init__(self) -> None:
        self._memo: dict[tuple[Any, Any], tuple[bool, int]] = {}
        self._log: list[tuple[Any, Any]] = []
        self._open: dict[tuple[Any, Any], tuple[int, int]] = {}  # pair -> (index, descent)
        self._lowest: list[int] = []  # per open frame: the outermost assumption relied on
        self._visits = 0

    def included(self, a: SNode, b: SNode) -> bool:
        """Whether every value ``a`` accepts is proved to be accepted by ``b``."""
        if a.key == b.key:
            return True
        self._visits = 0
        try:
            return self._incl(a, b, 0)
        except (_GiveUp, Unsupported, strings.Undecidable, strings.PatternError, RecursionError,
                LookupError, ValueError, TypeError):  # fmt: skip
            self._open.clear()
            self._lowest.clear()
            for pair in [p for p, (_, lowest) in self._memo.items() if lowest < _INF]:
                del self._memo[pair]  # relied on a proof that did not end
            return False

    # ------------------------------------------------------------------ the recursion

    def _incl(self, a: SNode, b: SNode, descent: int) -> bool:
        pair = (a.key, b.key)
        if a.key == b.key:
            return True
        known = self._memo.get(pair)
        if known is not None:
            result, lowest = known
            if lowest < _INF:
                self._rely(lowest)
            return result
        if pair in self._open:
            index, entered = self._open[pair]
            if descent > entered:  # guarded: a value was entered since
                self._rely(index)
                return True
            return False
        self._visits += 1
        if self._visits > _MAX_VISITS:
            raise _GiveUp
        index = len(self._lowest)
        self._open[pair] = (index, descent)
        self._lowest.append(_INF)
        mark = len(self._log)
        result = False
        try:
            result = self._decide(a, b, descent)
        finally:
            del self._open[pair]
            lowest = self._lowest.pop()
        if lowest >= index:
            lowest = _INF  # relied on itself only (or nothing open): final
        if result:
            for earlier in self._log[mark:]:  # what relied on this frame relies on its own
                entry = self._memo.get(earlier)
                if entry is not None and index <= entry[1] < _INF:
                    self._memo[earlier] = (True, lowest)
            self._memo[pair] = (True, lowest)
            self._log.append(pair)
            if lowest < _INF:
                self._rely(lowest)
        else:
            # What was proved inside this frame may have relied on it: forget it.
            for earlier in self._log[mark:]:
                entry = self._memo.get(earlier)
                if entry is not None and entry[1] < _INF:
                    del self._memo[earlier]
            del self._log[mark:]
            # Not shown even with the assumptions open now: not shown with fewer either
            # (assumptions only ever help), and "not shown" is always a safe answer.
            self._memo[pair] = (False, _INF)
        return result

    def _rely(self, index: int) -> None:
        if self._lowest:
            self._lowest[-1] = min(self._lowest[-1], index)

    # ------------------------------------------------------------------ one pair

    def _decide(self, a: SNode, b: SNode, descent: int) -> bool:
        if a.value is False or b.value is True or (isinstance(b.value, dict) and not _keys(b)):
            return True
        if b.value is False or a.value is True or not isinstance(a.value, dict):
            return False
        kinds = self._kinds(a)
        if not kinds:
            return True  # a accepts nothing
        if self._constraints(a, b, kinds, descent):
            return True
        return self._by_branches(a, b, descent)

    def _by_branches(self, a: SNode, b: SNode, descent: int) -> bool:
        """A union of ``a`` (its own or a conjunct's), proved branch by branch."""
        for conjunct in self._conjuncts(a):
            for key in ("anyOf", "oneOf"):
                if key in _obj(conjunct):
                    count = len(_obj(conjunct)[key])
                    return all(self._incl(conjunct.child(key, i), b, descent) for i in range(count))
        return False

    def _conjuncts(self, a: SNode) -> Iterator[SNode]:
        """``a``, its ``$ref`` target and ``allOf`` members, recursively (each once)."""
        seen = {a.key}
        pending = [a]
        while pending:
            node = pending.pop(0)
            yield node
            obj = _obj(node)
            more = []
            if isinstance(obj.get("$ref"), str):
                target = node.target()
                if target is not None:
                    more.append(target)
            more += [node.child("allOf", i) for i in range(len(obj.get("allOf") or []))]
            for item in more:
                if item.key not in seen:
                    seen.add(item.key)
                    pending.append(item)

    def _kinds(self, a: SNode) -> frozenset[str]:
        """The kinds of value ``a`` may accept (an over-approximation)."""
        return facts(a).kinds

    # ------------------------------------------------------------------ b's constraints

    def _constraints(self, a: SNode, b: SNode, kinds: frozenset[str], descent: int) -> bool:
        conjuncts = list(self._conjuncts(a))
        checks: list[Callable[[], bool]] = []
        groups: set[str] = set()
        for key in sorted(_keys(b)):
            kind = _KIND_OF_KEYWORD.get(key)
            if kind is not None and not self._applies(kind, kinds):
                continue  # no value of a is of the kind this keyword constrains
            group = _GROUPS.get(key, key)
            if group in groups:
                continue  # read with the others of its group
            groups.add(group)
            checks.append(
                self._check_of(key, a, b, conjuncts=conjuncts, kinds=kinds, descent=descent)
            )
        return all(check() for check in checks)

    @staticmethod
    def _applies(kind: str, kinds: frozenset[str]) -> bool:
        if kind == "number":
            return bool(kinds & set(NUMERIC))
        return kind in kinds

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
        spec = _obj(b)[key]

        def some(test: Callable[[SNode, dict[str, Any]], bool]) -> bool:
            return any(test(c, _obj(c)) for c in conjuncts)

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
            return lambda: set(spec) <= {n for c in conjuncts for n in _obj(c).get("required", [])}
        if key == "dependentRequired":

            def needs_met() -> bool:
                have = [_obj(c).get(key) or {} for c in conjuncts]
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
                    any(name in (_obj(c).get(key) or {})
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
                "if" not in _obj(b) or some(lambda c, o: self._rule_implies(c, b, descent))
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
        cobj, bobj = _obj(c), _obj(b)
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
        return b.value is True or (isinstance(b.value, dict) and not _keys(b))

    def _array_implies(self, c: SNode, b: SNode, descent: int) -> bool:
        cobj, bobj = _obj(c), _obj(b)
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
        cobj, bobj = _obj(c), _obj(b)
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
        count = len(_obj(b)[key])
        branches = [b.child(key, i) for i in range(count)]
        if key == "oneOf" and not all(disjoint(b, key, k) for k in _ALL_KINDS):
            return any(key in _obj(c) and _same_list(c, b, key) for c in conjuncts)
        for c in conjuncts:  # a union of a's, branch by branch
            for own in ("anyOf", "oneOf"):
                if own in _obj(c):
                    mine = [c.child(own, i) for i in range(len(_obj(c)[own]))]
                    if all(any(self._incl(m, t, descent) for t in branches) for m in mine):
                        return True
        return any(self._incl(a, t, descent) for t in branches)


def _same_list(c: SNode, b: SNode, key: str) -> bool:
    mine, theirs = _obj(c)[key], _obj(b)[key]
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
