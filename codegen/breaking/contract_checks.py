"""The contract checks of the breaking-change rules: small functions of one contract pair.

Each sees a :class:`~codegen.breaking.walk.ContractPair` and yields hits naming their rule:
a changed title, a moved file, a deleted class, a changed base, changed cross-field rules.
Messages are past tense and name the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from codegen.breaking.node_checks import Hit, members
from codegen.breaking.walk import ContractPair, Node
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.rules import find_rules

__all__ = ["CONTRACT_CHECKS"]


def _root(pair: ContractPair, *, previous: bool = False, pointer: str = "") -> Node:
    side, schema = (pair.prev_side, pair.prev) if previous else (pair.cur_side, pair.cur)
    return Node(side, schema, pointer, schema.data, schema, pointer)


def title_changed(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.title != pair.cur.title:
        message = (
            f'Contract "{pair.prev.title}" was renamed to "{pair.cur.title}": '
            "its generated class changed name."
        )
        yield Hit("CONTRACT_TITLE_CHANGED", _root(pair, pointer="/title"), message)


def file_moved(pair: ContractPair) -> Iterator[Hit]:
    if pair.prev.rel != pair.cur.rel:
        message = (
            f'Contract "{pair.name}" was moved from {pair.prev.rel} to {pair.cur.rel}: '
            "its generated module changed."
        )
        yield Hit("CONTRACT_FILE_MOVED", _root(pair), message)


def _classes(schema: SchemaFile) -> dict[str, str]:
    defs = schema.data.get("$defs") or {}
    return {
        entry["title"]: f"/$defs/{escape_pointer(name)}/title"
        for name, entry in defs.items()
        if isinstance(entry, dict) and isinstance(entry.get("title"), str)
    }


def class_deleted(pair: ContractPair) -> Iterator[Hit]:
    now = {pair.cur.title, *_classes(pair.cur)}
    for title, pointer in sorted(_classes(pair.prev).items()):
        if title not in now:
            message = (
                f'Previously generated class "{title}" of {pair.prev.title} ({pointer}) '
                "was deleted or renamed."
            )
            yield Hit("CLASS_DELETED", _root(pair, previous=True, pointer=pointer), message)


def _bases(tree: SchemaTree, schema: SchemaFile) -> dict[str, str]:
    """The contracts ``schema`` extends by ``allOf`` ``$ref``: ``$id`` to title."""
    found = {}
    for entry in schema.data.get("allOf") or []:
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
            target, fragment = tree.resolve(schema, entry["$ref"])
            found[f"{target.schema_id}#{fragment}"] = target.title + (
                f"#{fragment}" * bool(fragment)
            )
    return found


def base_changed(pair: ContractPair) -> Iterator[Hit]:
    before = _bases(pair.prev_side.tree, pair.prev)
    after = _bases(pair.cur_side.tree, pair.cur)
    if set(before) != set(after):
        pointer = "/allOf" if "allOf" in pair.cur.data else ""
        message = (
            f"The bases of {pair.name} ({pointer or '/'}) were changed from "
            f"[{', '.join(sorted(before.values()))}] to [{', '.join(sorted(after.values()))}]."
        )
        yield Hit("BASE_CHANGED", _root(pair, pointer=pointer), message)


def _types(value: Any) -> set[str]:
    kinds = value.get("type") if isinstance(value, dict) else None
    return set(kinds if isinstance(kinds, list) else [kinds]) if kinds else set()


def _implied(node: Any, declaration: Any) -> Any:
    """``node`` without a ``type`` that the property's own declaration already implies."""
    declared, stated = _types(declaration), _types(node)
    if declared and stated and all(t in stated or (t == "integer" and "number" in stated)
                                   for t in declared):  # fmt: skip
        return {k: v for k, v in node.items() if k != "type"}
    return node


def _normal(value: Any, declared: Mapping[str, Any]) -> Any:
    """A rule as compared: annotations dropped, and ``type``s its properties imply.

    ``declared`` maps the contract's properties to their schemas at the rule's own level;
    a rule's ``properties`` only apply to a present property, which always satisfies its
    declaration, so a ``type`` it implies changes nothing.
    """
    if isinstance(value, list):
        return [_normal(item, declared) for item in value]
    if not isinstance(value, dict):
        return value
    result = {}
    for key, sub in value.items():
        if key in ("description", "$comment"):
            continue
        if key == "properties" and isinstance(sub, dict):
            result[key] = {n: _implied(_normal(s, {}), declared.get(n)) for n, s in sub.items()}
        else:
            result[key] = _normal(sub, declared)
    return result


def _label(rule: Any) -> str:
    text = rule.get("description") if isinstance(rule, dict) else None
    return f'"{text}"' if isinstance(text, str) and text else "(no description)"


def _declared(pair: ContractPair, *, previous: bool) -> dict[str, Any]:
    return {name: node.value for name, node in members(_root(pair, previous=previous))[0].items()}


def rules_changed(pair: ContractPair) -> Iterator[Hit]:
    before = {pointer: rule for pointer, rule in find_rules(pair.prev.data)}
    after = {pointer: rule for pointer, rule in find_rules(pair.cur.data)}
    old_props, new_props = _declared(pair, previous=True), _declared(pair, previous=False)
    for pointer, rule in list(after.items()):
        normal = _normal(rule, new_props)
        match = next((p for p, r in before.items() if _normal(r, old_props) == normal), None)
        if match is not None:
            del before[match], after[pointer]
    for pointer, rule in sorted(after.items()):
        where = _root(pair, pointer=pointer)
        if pointer in before:
            message = (
                f"Cross-field rule {_label(rule)} of {pair.name} ({pointer or '/'}) was changed."
            )
            yield Hit("RULE_CHANGED", where, message)
        else:
            message = (
                f"Cross-field rule {_label(rule)} was added to {pair.name} ({pointer or '/'})."
            )
            yield Hit("RULE_ADDED", where, message)
    for pointer, rule in sorted(before.items()):
        if pointer not in after:
            message = (
                f"Previously present cross-field rule {_label(rule)} of {pair.prev.title} "
                f"({pointer or '/'}) was deleted."
            )
            yield Hit("RULE_REMOVED", _root(pair, previous=True, pointer=pointer), message)


CONTRACT_CHECKS: tuple[Callable[[ContractPair], Iterator[Hit]], ...] = (
    title_changed,
    file_moved,
    class_deleted,
    base_changed,
    rules_changed,
)
