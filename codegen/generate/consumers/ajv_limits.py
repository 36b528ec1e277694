"""Where Ajv would judge an exported schema otherwise than JSON Schema and the models.

The npm package's ``validate`` is Ajv 2020 on the exported documents
(:mod:`codegen.generate.consumers.export_docs`, which already writes around what Ajv gets wrong
where an exact rewrite exists). What is left:

* a property name that every JavaScript object inherits (``toString``, ``constructor``...):
  Ajv reads inherited properties unless ``ownProperties`` is on (:func:`own_properties`);
* ``unevaluatedProperties`` and ``unevaluatedItems`` seeing ``if``, ``contains`` or a
  conditional ``items``: Ajv counts what an ``if`` evaluates even when the ``if`` fails, and
  nothing of an ``if`` without ``then`` (``then`` and ``else`` it reads right); it never counts
  the items ``contains`` matches; and it loses the items an ``items`` evaluates inside
  ``anyOf``. :func:`check_ajv_decides` refuses such a contract for the package, naming the
  keyword (rule ``AJV_UNEVALUATED``), unless what those keywords may evaluate is evaluated
  anyway (the properties declared beside the ``unevaluatedProperties`` or in its ``allOf``
  bases; an ``items`` beside the ``unevaluatedItems``), so that Ajv's reading cannot change
  the verdict.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.core.patterns import PatternError, reading

__all__ = ["check_ajv_decides", "own_properties"]

# The properties of Object.prototype: a schema naming one needs Ajv's ownProperties.
PROTOTYPE = frozenset(
    {"__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
     "__lookupSetter__", "constructor", "hasOwnProperty", "isPrototypeOf",
     "propertyIsEnumerable", "toLocaleString", "toString", "valueOf"}
)  # fmt: skip
RULE = "AJV_UNEVALUATED"
_OPEN = ("patternProperties", "additionalProperties", "unevaluatedProperties")
_ITEMS = ("prefixItems", "items", "contains", "unevaluatedItems")


def _names(node: dict[str, Any]) -> set[str]:
    """The property names ``node`` mentions (properties, required, dependencies)."""
    found: set[str] = set()
    for key in ("properties", "dependentSchemas", "dependentRequired"):
        value = node.get(key)
        if isinstance(value, dict):
            found |= set(value)
            if key == "dependentRequired":
                found |= {n for v in value.values() if isinstance(v, list) for n in v}
    required = node.get("required")
    found |= set(required) if isinstance(required, list) else set()
    return {n for n in found if isinstance(n, str)}


def annex_b_patterns(tree: SchemaTree) -> bool:
    """Whether a pattern of the tree is valid only without the u flag (read so, Annex B:
    :mod:`codegen.core.patterns`), which Ajv with ``unicodeRegExp`` refuses to compile."""
    for schema in (*tree.files, *tree.external):
        for _, node in iter_subschemas(schema.data):
            patterns = [node.get("pattern"), *(node.get("patternProperties") or {})]
            for pattern in patterns:
                if isinstance(pattern, str):
                    with contextlib.suppress(PatternError):
                        if reading(pattern).annex_b:
                            return True
    return False


def own_properties(tree: SchemaTree) -> bool:
    """Whether a schema of the tree names a property every JavaScript object inherits."""
    return any(
        _names(node) & PROTOTYPE
        for schema in (*tree.files, *tree.external)
        for _, node in iter_subschemas(schema.data)
    )


@dataclass(frozen=True)
class _Place:
    schema: SchemaFile
    pointer: str
    node: dict[str, Any]
    conditional: bool  # evaluated in place only when a branch or a condition holds


def _in_place(tree: SchemaTree, schema: SchemaFile, pointer: str) -> Iterator[_Place]:
    """The schema at ``pointer`` and every schema evaluated in place of it."""
    pending = [(schema, pointer, False)]
    seen: set[tuple[str, str, bool]] = set()
    while pending:
        current, at, conditional = pending.pop()
        key = (current.rel.as_posix(), at, conditional)
        node = resolve_pointer(current.data, at)
        if key in seen or not isinstance(node, dict):
            continue
        seen.add(key)
        yield _Place(current, at, node, conditional)
        for keyword in ("allOf", "anyOf", "oneOf"):
            entries = node.get(keyword)
            for index in range(len(entries) if isinstance(entries, list) else 0):
                pending.append(
                    (current, f"{at}/{keyword}/{index}", conditional or keyword != "allOf")
                )
        for keyword in ("if", "then", "else"):
            if keyword in node:
                pending.append((current, f"{at}/{keyword}", True))
        for name in node.get("dependentSchemas") or {}:
            pending.append((current, f"{at}/dependentSchemas/{escape_pointer(name)}", True))
        if isinstance(node.get("$ref"), str):
            pending.append((*tree.resolve(current, node["$ref"]), conditional))
        if isinstance(node.get("$dynamicRef"), str):  # any place the reference may lead
            pending.append((*tree.resolve(current, node["$dynamicRef"]), True))
            name = current.dynamic.get(at)
            for other in (*tree.files, *tree.external):
                for anchors in other.resources.values():
                    if name is not None and name in anchors:
                        pending.append((other, anchors[name], True))


def _refuse(place: _Place, keyword: str, what: str) -> SchemaError:
    return SchemaError(
        f"{what}: Ajv, which the npm package's validate runs, would judge documents otherwise "
        "than the generated models here; declare what it evaluates beside the "
        "unevaluated keyword (or leave [tool.maverick-codegen.export] out)",
        place.schema.loc(f"{place.pointer}/{keyword}"),
        RULE,
    )


def _condition(tree: SchemaTree, place: _Place) -> list[_Place]:
    """Every schema evaluated in place of the ``if`` of ``place`` (Ajv reads the annotations
    of ``then`` and ``else`` right: only when they hold)."""
    return list(_in_place(tree, place.schema, f"{place.pointer}/if"))


# Formats the package's Ajv cannot assert as the models do (IDNA2008: its contextual and bidi
# rules, which the models read with the idna package, have no JavaScript counterpart here).
NOT_IN_AJV = frozenset({"hostname", "idn-hostname", "email", "idn-email"})


def check_ajv_decides(tree: SchemaTree) -> None:
    """Refuse a tree where Ajv would decide an ``unevaluated*`` keyword otherwise than the
    models (:class:`SchemaError`, rule ``AJV_UNEVALUATED``, at the keyword Ajv misreads), or,
    where formats are asserted, a format it cannot assert as they do (``AJV_FORMAT``)."""
    for schema in (*tree.files, *tree.external):
        for pointer, node in iter_subschemas(schema.data):
            if tree.asserts_formats and node.get("format") in NOT_IN_AJV:
                raise SchemaError(
                    f"the npm package cannot assert format {node['format']!r} as the models do "
                    "(IDNA2008 hostnames): leave the npm package out ([tool.maverick-codegen."
                    'export] npm_dir), or use formats = "annotate", or a pattern',
                    schema.loc(f"{pointer}/format"),
                    "AJV_FORMAT",
                )
            if "unevaluatedProperties" in node:
                _check_properties(tree, list(_in_place(tree, schema, pointer)))
            if "unevaluatedItems" in node:
                _check_items(tree, list(_in_place(tree, schema, pointer)))


def _check_properties(tree: SchemaTree, context: list[_Place]) -> None:
    always = [p for p in context if not p.conditional]
    if any("additionalProperties" in p.node for p in always):
        return  # every property is evaluated: unevaluatedProperties never applies
    declared = {n for p in always for n in p.node.get("properties") or {}}
    for place in context:
        if "if" not in place.node:
            continue
        condition = _condition(tree, place)
        named = {n for p in condition for n in p.node.get("properties") or {}}
        if any(k in p.node for p in condition for k in _OPEN) or not named <= declared:
            raise _refuse(place, "if", "unevaluatedProperties sees what this if evaluates")


def _check_items(tree: SchemaTree, context: list[_Place]) -> None:
    if any("items" in p.node for p in context if not p.conditional):
        return  # every item is evaluated: unevaluatedItems never applies
    for place in context:
        if "contains" in place.node:
            raise _refuse(place, "contains", "unevaluatedItems sees the items contains matches")
        if place.conditional and "items" in place.node:
            raise _refuse(place, "items", "unevaluatedItems sees the items a branch evaluates")
        if "if" in place.node and any(k in p.node for p in _condition(tree, place) for k in _ITEMS):
            raise _refuse(place, "if", "unevaluatedItems sees what this if evaluates")
