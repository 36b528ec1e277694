"""Judge one component of a schema: whether a value breaks it.

The engine locates a break by refining a negation down the components of the refusing schema
(:func:`~codegen.breaking.engine.literals.components`): a value that breaks its
``minLength``, or whose property ``a`` breaks a component of that property's schema.
:func:`violates` is the judge of such a refined negation; the ``unevaluated*`` keywords apply
to what the case of passing subschemas the value is in left unevaluated
(:func:`~codegen.breaking.engine.evaluation.scenarios`), as the engine reads them.
"""

from __future__ import annotations

from typing import Any

from codegen.breaking.engine.evaluate import additional_keys, valid
from codegen.breaking.engine.evaluation import Evaluation, scenarios
from codegen.breaking.engine.kinds import Step, kind_of
from codegen.breaking.engine.literals import child_of
from codegen.breaking.engine.nodes import SNode
from codegen.breaking.engine.unions import facts
from codegen.core.ecma import ecma_search

__all__ = ["located", "unevaluated", "unevaluated_items", "unevaluated_names", "violates"]


def violates(node: SNode, path: tuple[Step, ...], value: Any) -> bool:
    """Whether ``value`` breaks the component of ``node`` that ``path`` names.

    An empty path is the whole node (``value`` is refused); a path names one keyword, and
    for the applicators a place below it and the component there (``("properties", "a")``
    then a path in the property's schema: ``value`` has ``a``, and ``a`` breaks that).
    """
    if not path:
        return not valid(node, value)
    step, rest = path[0], path[1:]
    key, kind = step[0], kind_of(value)
    obj = node.obj
    if key in ("properties", "dependentSchemas"):
        if kind != "object" or step[1] not in value:
            return False
        inner = value[step[1]] if key == "properties" else value
        return violates(node.child(key, step[1]), rest, inner)
    if key == "patternProperties":
        return kind == "object" and any(
            ecma_search(step[1], k) and violates(node.child(key, step[1]), rest, v)
            for k, v in value.items()
        )
    if key == "additionalProperties":
        keys = additional_keys(node, value) if kind == "object" else []
        keys = [k for k in keys if k == step[1]] if len(step) > 1 else keys
        return any(violates(node.child(key), rest, value[k]) for k in keys)
    if key == "propertyNames":
        return kind == "object" and any(violates(node.child(key), rest, k) for k in value)
    if key == "prefixItems":
        index = step[1]
        return (
            kind == "array"
            and index < len(value)
            and violates(node.child(key, index), rest, value[index])
        )
    if key == "items":
        start = len(obj.get("prefixItems") or [])
        return kind == "array" and any(violates(node.child(key), rest, v) for v in value[start:])
    if key == "allOf":
        return violates(node.child(key, step[1]), rest, value)
    if key in ("anyOf", "oneOf") and len(step) > 1:  # as negative() reads the refinement
        branch = node.child(key, step[1])
        others = [node.child(key, i) for i in range(len(obj[key])) if i != step[1]]
        return (
            kind in facts(branch).kinds
            and not any(valid(o, value) for o in others)
            and violates(branch, rest, value)
        )
    if key in ("$ref", "$dynamicRef"):
        target = node.target(key)
        return target is not None and violates(target, rest, value)
    if key in ("then", "else"):
        condition = valid(node.child("if"), value)
        return condition == (key == "then") and violates(node.child(key), rest, value)
    if key == "unevaluatedProperties" and len(step) > 1:  # refined to one name
        names = unevaluated_names(node, value) if kind == "object" else []
        return step[1] in names and violates(node.child(key), rest, value[step[1]])
    if key in ("unevaluatedProperties", "unevaluatedItems"):
        return any(violates(node.child(key), rest, v) for v in unevaluated(node, key, value))
    if key in ("contains", "maxContains"):
        if kind != "array":
            return False
        count = sum(1 for v in value if valid(node.child("contains"), v))
        if key == "contains":
            return count < int(obj.get("minContains", 1))
        return count > int(obj["maxContains"])
    if key == "required":
        return kind == "object" and step[1] not in value
    if key == "dependentRequired":
        needs = obj[key][step[1]]
        return kind == "object" and step[1] in value and any(m not in value for m in needs)
    probe = SNode(node.tree, node.home, node.pointer, {key: obj[key]}, node.scope)
    return not valid(probe, value)


def unevaluated(node: SNode, key: str, value: Any) -> list[Any]:
    """The values ``node``'s ``unevaluated*`` keyword ``key`` applies to, as the engine reads
    it: in the one case of :func:`~codegen.breaking.engine.evaluation.scenarios` that ``value`` is
    in (none when it is in no case: the applicators beside the keyword refuse it)."""
    if key == "unevaluatedItems":
        return [value[i] for i in unevaluated_items(node, value)]
    return [value[k] for k in unevaluated_names(node, value)]


def _case_of(node: SNode, value: Any, *, items: bool) -> Evaluation | None:
    cases = scenarios(node, items=items)
    for case in cases:
        if all(valid(sub, value) == passes for sub, passes in case.passes) and all(
            (kind_of(value) == "object" and name in value) == present
            for name, present in case.present
        ):
            return case.evaluation
    return None


def unevaluated_names(node: SNode, value: Any) -> list[str]:
    """The names of ``value`` that ``node``'s ``unevaluatedProperties`` applies to."""
    done = _case_of(node, value, items=False) if kind_of(value) == "object" else None
    if done is None or done.every_key:
        return []
    return [
        k for k in value
        if k not in done.names and not any(ecma_search(p, k) for p in done.patterns)
    ]  # fmt: skip


def unevaluated_items(node: SNode, value: Any) -> list[int]:
    """The indexes of ``value`` that ``node``'s ``unevaluatedItems`` applies to."""
    done = _case_of(node, value, items=True) if kind_of(value) == "array" else None
    if done is None or done.every_item:
        return []
    return [
        i for i in range(done.prefix, len(value))
        if not any(valid(c, value[i]) for c in done.contains)
    ]  # fmt: skip


def located(root: SNode, path: tuple[Step, ...], document: Any) -> Any:
    """The part of ``document`` that the last component of ``path`` judged (for a witness of
    ``violates(root, path, document)``: the value, item, name or property value at fault)."""
    node, value = root, document
    for index, step in enumerate(path[:-1]):
        rest = path[index + 1 :]
        key = step[0]
        child = child_of(node, step)
        assert child is not None
        if key in ("properties", "prefixItems") or (
            key in ("additionalProperties", "unevaluatedProperties") and len(step) > 1
        ):
            value = value[step[1]]
        elif key in ("items", "unevaluatedItems", "additionalProperties", "patternProperties",
                     "unevaluatedProperties", "propertyNames"):  # fmt: skip
            candidates = _members(node, step, value)
            value = next((v for v in candidates if violates(child, rest, v)), value)
        node = child
    return value


def _members(node: SNode, step: Step, value: Any) -> list[Any]:
    key = step[0]
    if key == "propertyNames":
        return list(value)
    if isinstance(value, list):
        return value[len(node.obj.get("prefixItems") or []) :] if key == "items" else value
    if isinstance(value, dict):
        return list(value.values())
    return []
