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
from typing import Any

from codegen.breaking import strings
from codegen.breaking.engine.implications import (
    GROUPS,
    KIND_OF_KEYWORD,
    Implications,
    as_object,
    keywords,
)
from codegen.breaking.engine.kinds import NUMERIC
from codegen.breaking.engine.nodes import SNode, Unsupported
from codegen.breaking.engine.unions import facts

__all__ = ["Subsets"]

_MAX_VISITS = 20_000
_INF = 1 << 30


class _GiveUp(Exception):
    """The proof took more steps than it may: not shown."""


class Subsets(Implications):
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
        if a.value is False or b.value is True or (isinstance(b.value, dict) and not keywords(b)):
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
                if key in as_object(conjunct):
                    count = len(as_object(conjunct)[key])
                    return all(self._incl(conjunct.child(key, i), b, descent) for i in range(count))
        return False

    def _conjuncts(self, a: SNode) -> Iterator[SNode]:
        """``a``, its ``$ref`` target and ``allOf`` members, recursively (each once)."""
        seen = {a.key}
        pending = [a]
        while pending:
            node = pending.pop(0)
            yield node
            obj = as_object(node)
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
        for key in sorted(keywords(b)):
            kind = KIND_OF_KEYWORD.get(key)
            if kind is not None and not self._applies(kind, kinds):
                continue  # no value of a is of the kind this keyword constrains
            group = GROUPS.get(key, key)
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
