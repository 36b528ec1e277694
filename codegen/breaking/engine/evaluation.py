"""What a schema object has evaluated of an instance when its ``unevaluated*`` keyword applies.

``unevaluatedProperties`` and ``unevaluatedItems`` apply to what the schema's other keywords,
and the in-place subschemas that *passed* (``allOf``, ``$ref``, the passing branches of
``anyOf``/``oneOf``, ``if`` with ``then`` or ``else``, ``dependentSchemas`` of present names),
did not evaluate. Which subschemas pass depends on the instance: :func:`scenarios` lists the
cases (which branch passes, which names are present) with what each evaluates, so that the
engine can reason about each case exactly. When every case evaluates the same, there is one
case and no condition.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from codegen.breaking.engine.nodes import SNode, Unsupported

__all__ = ["Evaluation", "Scenario", "scenarios"]

_MAX_SCENARIOS = 64
_MAX_BRANCHES = 4  # of an anyOf whose subsets are cases


@dataclass(frozen=True)
class Evaluation:
    """Property names and patterns evaluated (``every_key``: all of them), leading items
    evaluated (``every_item``: all), and the schemas whose matching items ``contains``
    evaluated."""

    names: frozenset[str] = frozenset()
    patterns: frozenset[str] = frozenset()
    every_key: bool = False
    prefix: int = 0
    every_item: bool = False
    contains: tuple[SNode, ...] = ()

    def join(self, other: Evaluation) -> Evaluation:
        return Evaluation(
            self.names | other.names,
            self.patterns | other.patterns,
            self.every_key or other.every_key,
            max(self.prefix, other.prefix),
            self.every_item or other.every_item,
            self.contains + tuple(c for c in other.contains if c not in self.contains),
        )


@dataclass(frozen=True)
class Scenario:
    """One case: which in-place subschemas pass (or fail), which names are present (or not),
    and what is evaluated then."""

    passes: tuple[tuple[SNode, bool], ...] = ()
    present: tuple[tuple[str, bool], ...] = ()
    evaluation: Evaluation = Evaluation()

    def join(self, other: Scenario) -> Scenario:
        return Scenario(
            self.passes + other.passes,
            self.present + other.present,
            self.evaluation.join(other.evaluation),
        )


def scenarios(node: SNode, *, items: bool) -> list[Scenario]:
    """The cases of what ``node`` evaluated before its own ``unevaluated*`` keyword.

    One case without conditions when every case evaluates the same (the usual ToolResult
    pattern: a base by ``allOf`` whose cross-field rules name only declared properties).
    """
    found = _cases(node, items=items, depth=0)
    if len({_key(s.evaluation, items) for s in found}) == 1:
        return [Scenario(evaluation=found[0].evaluation)]
    return found


def _key(evaluation: Evaluation, items: bool) -> object:
    if items:
        if evaluation.every_item:
            return "every"
        return (evaluation.prefix, tuple(c.key for c in evaluation.contains))
    if evaluation.every_key:
        return "every"
    return (evaluation.names, evaluation.patterns)


def _own(node: SNode, *, items: bool, top: bool) -> Evaluation:
    """What ``node``'s own keywords evaluate (the ``unevaluated*`` being analysed aside)."""
    value = node.obj
    if items:
        every = "items" in value or (not top and "unevaluatedItems" in value)
        contains = (node.child("contains"),) if "contains" in value else ()
        prefix = len(value.get("prefixItems") or [])
        return Evaluation(prefix=prefix, every_item=every, contains=contains)
    every = "additionalProperties" in value or (not top and "unevaluatedProperties" in value)
    return Evaluation(
        names=frozenset(value.get("properties") or {}),
        patterns=frozenset(value.get("patternProperties") or {}),
        every_key=every,
    )


def _product(cases: list[Scenario], options: Iterable[Scenario]) -> list[Scenario]:
    options = list(options)
    result = [a.join(b) for a, b in itertools.product(cases, options)]
    if len(result) > _MAX_SCENARIOS:
        raise Unsupported(
            "unevaluated* beside more cases of passing branches than the check enumerates"
        )
    return result


def _cases(node: SNode, *, items: bool, depth: int) -> list[Scenario]:
    if depth > 32:
        raise Unsupported("in-place applicators nested too deeply to analyse", node)
    if isinstance(node.value, bool):
        return [Scenario()]
    value = node.obj
    found = [Scenario(evaluation=_own(node, items=items, top=depth == 0))]
    always = [node.child("allOf", i) for i in range(len(value.get("allOf") or []))]
    targets = [t for t in (node.target(), node.target("$dynamicRef")) if t is not None]
    for sub in [*always, *targets]:
        found = _product(found, _cases(sub, items=items, depth=depth + 1))
    if "oneOf" in value:
        branches = [node.child("oneOf", i) for i in range(len(value["oneOf"]))]
        found = _product(found, _exactly_one(branches, items=items, depth=depth))
    if "anyOf" in value:
        branches = [node.child("anyOf", i) for i in range(len(value["anyOf"]))]
        found = _product(found, _some(branches, items=items, depth=depth))
    if "if" in value:
        found = _product(found, _conditional(node, items=items, depth=depth))
    for name in value.get("dependentSchemas") or {}:
        sub = node.child("dependentSchemas", name)
        present = [Scenario(present=((name, True),)).join(s)
                   for s in _cases(sub, items=items, depth=depth + 1)]  # fmt: skip
        found = _product(found, [Scenario(present=((name, False),)), *present])
    return found


def _exactly_one(branches: list[SNode], *, items: bool, depth: int) -> list[Scenario]:
    options = []
    for branch in branches:
        passes = tuple((b, b is branch) for b in branches)
        options += [
            Scenario(passes=passes).join(s) for s in _cases(branch, items=items, depth=depth + 1)
        ]
    return options


def _some(branches: list[SNode], *, items: bool, depth: int) -> list[Scenario]:
    if len(branches) > _MAX_BRANCHES:
        raise Unsupported(f"unevaluated* beside an anyOf of {len(branches)} branches")
    options = []
    for size in range(1, len(branches) + 1):
        for chosen in itertools.combinations(branches, size):
            passes = tuple((b, b in chosen) for b in branches)
            cases = [Scenario(passes=passes)]
            for branch in chosen:
                cases = _product(cases, _cases(branch, items=items, depth=depth + 1))
            options += cases
    return options


def _conditional(node: SNode, *, items: bool, depth: int) -> list[Scenario]:
    value = node.obj
    condition = node.child("if")
    then = [condition, *([node.child("then")] if "then" in value else [])]
    passing = [Scenario(passes=((condition, True),))]
    for sub in then:
        passing = _product(passing, _cases(sub, items=items, depth=depth + 1))
    failing = [Scenario(passes=((condition, False),))]
    if "else" in value:
        failing = _product(failing, _cases(node.child("else"), items=items, depth=depth + 1))
    return passing + failing
