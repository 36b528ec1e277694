"""Support of the schema/model conformance proof (``tests/test_conformance.py``).

* :func:`generation_schema`: one self-contained schema per contract for hypothesis-jsonschema,
  which resolves no file references: every ``$ref`` is inlined (no contract is recursive).
  The ToolResult subclasses close with ``unevaluatedProperties: false`` beside an ``allOf``
  base, which hypothesis-jsonschema does not support; they are generated from an equivalent
  closed schema: the base's properties, required names and rules merged into the subclass,
  and ``additionalProperties: false``. It is equivalent because the base is open (lint rule
  CONTENT_MODEL_EXPLICIT): the only properties the base evaluates are its declared ones.
  The verdicts are always those of jsonschema on the canonical schema, never on this copy,
  and every generated instance is checked against the canonical schema too.
* :data:`MUTATIONS`: small edits of a valid instance (drop a key, add an unknown key, change
  a value's type, push a value past a bound, flip a rule's property to a rule constant).
* :func:`judge`: the model's verdict from JSON text and from Python data, and its round trip.
* :func:`ecma_validator_for`: the oracle for the keyword fixtures (tests/fixtures/keywords/):
  jsonschema's draft 2020-12 validator with ``pattern``, ``patternProperties`` and
  ``additionalProperties`` read as ECMA-262 (the ``regress`` package, as the generated models
  and Ajv read them) instead of Python's ``re``.
* :func:`draft7_generation_schema`: what hypothesis-jsonschema (draft 4 to 7 only) generates
  the keyword fixtures from: a simplified schema whose instances are judged, valid or not, by
  that oracle; nothing generated is dropped.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import hypothesis.strategies as st
import jsonschema
import pydantic
from hypothesis import HealthCheck, given, settings
from hypothesis.internal.conjecture import utils as conjecture_utils
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from codegen.core.ecma import EcmaDraft202012Validator
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.generate.rules import find_rules

_ANNOTATIONS = ("$schema", "$id", "$comment", "title", "description", "examples", "default",
                "deprecated")  # fmt: skip


# ------------------------------------------------------------------ hypothesis-jsonschema shim
class _Many:
    """hypothesis-jsonschema 0.23.1 (the latest release) drives Hypothesis's private
    ``many(...).more()``, which recent Hypothesis replaced by a context manager and iterator.
    This adapter offers the old calls on top of the new ones; nothing else is changed."""

    def __init__(self, data: Any, **sizes: Any) -> None:
        self._many = conjecture_utils.many(data, **sizes)
        self._many.__enter__()
        self._elements = iter(self._many)

    def more(self) -> bool:
        for _ in self._elements:
            return True
        self._many.__exit__(None, None, None)
        return False

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


def install_hypothesis_jsonschema_shim() -> None:
    import hypothesis_jsonschema._from_schema as from_schema_module

    if not hasattr(conjecture_utils.many, "more"):
        from_schema_module.cu = SimpleNamespace(many=_Many)  # type: ignore[attr-defined]


# ------------------------------------------------------------------ schemas for generation
def _inline(
    tree: SchemaTree, schema: SchemaFile, node: Any, depth: int = 0, cut_at: int | None = None
) -> Any:
    """``node`` (written in ``schema``) with every ``$ref`` replaced by its target.

    A recursive contract cannot be inlined: with ``cut_at``, a ``$ref`` met below that many
    references becomes ``false`` (a tree of bounded depth, for generation only).
    """
    if depth > 50:
        raise RecursionError("recursive contract: cannot inline")
    if isinstance(node, list):
        return [_inline(tree, schema, item, depth, cut_at) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in _ANNOTATIONS or key == "$defs":
            continue
        if key in ("properties", "patternProperties", "dependentSchemas"):
            result[key] = {k: _inline(tree, schema, v, depth, cut_at) for k, v in value.items()}
        elif key in ("enum", "const", "required", "dependentRequired"):
            result[key] = value
        elif key == "$ref" and cut_at is not None and depth >= cut_at:
            result.setdefault("allOf", []).append(False)
        elif key == "$ref":
            target, pointer = tree.resolve(schema, value)
            content = resolve_pointer(target.data, pointer)
            inlined = _inline(tree, target, content, depth + 1, cut_at)
            result.setdefault("allOf", []).append(inlined)
        else:
            result[key] = _inline(tree, schema, value, depth, cut_at)
    return result


def _closed_equivalent(tree: SchemaTree, schema: SchemaFile) -> dict[str, Any]:
    """A contract's root with its ``allOf`` bases merged in and closed by additionalProperties."""
    data = copy.deepcopy(schema.data)
    bases = [  # other files: a local $ref is no base of the ToolResult pattern
        e
        for e in data.get("allOf", [])
        if isinstance(e, dict) and isinstance(e.get("$ref"), str) and not e["$ref"].startswith("#")
    ]
    if data.get("unevaluatedProperties") is not False or not bases:
        return data
    properties: dict[str, Any] = {}
    required: list[str] = []
    rules: list[Any] = []
    for entry in bases:
        base = _closed_equivalent(tree, tree.resolve(schema, entry["$ref"])[0])
        properties.update(base.get("properties", {}))
        required += base.get("required", [])
        rules += [rule for _, rule in find_rules(base)]
    properties.update(data.get("properties", {}))
    data["properties"] = properties
    data["required"] = sorted(set(required) | set(data.get("required", [])))
    data["allOf"] = rules + [e for e in data["allOf"] if e not in bases]
    if not data["allOf"]:
        del data["allOf"]
    del data["unevaluatedProperties"]
    data["additionalProperties"] = False
    return data


def generation_schema(tree: SchemaTree, title: str) -> dict[str, Any]:
    """The self-contained schema whose instances hypothesis-jsonschema generates."""
    schema = tree.by_title[title]
    inlined = _inline(tree, schema, _closed_equivalent(tree, schema))
    for _, node in iter_subschemas(inlined):
        assert "$ref" not in node
        assert "unevaluatedProperties" not in node
    return inlined


# ECMA-262 escapes of the keyword fixtures, and a Python ``re`` form that generates a subset of
# what they match (Python's \d also matches digits of other scripts; \p{Lu} is not Python).
_PYTHON_SUBSET = {r"\p{Lu}": "[A-Z]", r"\d": "[0-9]"}


def _python_subset(pattern: str) -> str:
    for ecma, python in _PYTHON_SUBSET.items():
        pattern = pattern.replace(ecma, python)
    return pattern


def _evaluated_by(node: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Property names and patterns that ``node`` or its in-place subschemas declare."""
    names: dict[str, Any] = {}
    patterns: dict[str, Any] = {}
    if not isinstance(node, dict):
        return names, patterns
    names.update({key: {} for key in node.get("properties", {})})
    patterns.update({key: {} for key in node.get("patternProperties", {})})
    subschemas = [node[k] for k in ("if", "then", "else") if k in node]
    subschemas += [s for k in ("allOf", "anyOf", "oneOf") for s in node.get(k, [])]
    subschemas += list(node.get("dependentSchemas", {}).values())
    for subschema in subschemas:
        more_names, more_patterns = _evaluated_by(subschema)
        names.update(more_names)
        patterns.update(more_patterns)
    return names, patterns


def _to_draft7(node: Any) -> Any:
    """The draft 2020-12 keywords hypothesis-jsonschema does not know, in draft-7 form.

    ``prefixItems``/``items`` become ``items``/``additionalItems``, ``dependent*`` become
    ``dependencies``, ECMA escapes a Python subset; ``minContains``/``maxContains`` are
    dropped (``contains`` stays) and ``unevaluatedProperties`` becomes ``additionalProperties``
    beside every name and pattern its in-place subschemas declare. The result generates a
    superset or a subset of the valid instances: the oracle judges every one.
    """
    if isinstance(node, list):
        return [_to_draft7(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    if "unevaluatedProperties" in node:
        names, patterns = _evaluated_by(node)
        node["properties"] = {**names, **node.get("properties", {})}
        if patterns:
            node["patternProperties"] = {**patterns, **node.get("patternProperties", {})}
        unevaluated = node.pop("unevaluatedProperties")
        node.setdefault("additionalProperties", unevaluated)
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key == "prefixItems":
            result["items"] = _to_draft7(value)
            if "items" in node:
                result["additionalItems"] = _to_draft7(node["items"])
        elif key == "items" and "prefixItems" in node:
            continue
        elif key in ("dependentRequired", "dependentSchemas"):
            dependencies = result.setdefault("dependencies", {})
            dependencies.update({k: _to_draft7(v) for k, v in value.items()})
        elif key in ("minContains", "maxContains"):
            continue
        elif key == "pattern":
            result[key] = _python_subset(value)
        elif key in ("properties", "patternProperties"):
            rename = _python_subset if key == "patternProperties" else str
            result[key] = {rename(k): _to_draft7(v) for k, v in value.items()}
        elif key in ("enum", "const", "required"):
            result[key] = value
        else:
            result[key] = _to_draft7(value)
    return result


def draft7_generation_schema(
    tree: SchemaTree, title: str, depth: int = 3, *, merge_bases: bool = False
) -> dict[str, Any]:
    """A draft-7 schema hypothesis-jsonschema generates candidate instances of ``title`` from.

    References are inlined (a recursive one is cut ``depth`` references down) and the draft
    2020-12 keywords rewritten by :func:`_to_draft7`; with ``merge_bases``, a subclass closed
    by ``unevaluatedProperties: false`` first gets its ``allOf`` bases merged in (as
    :func:`generation_schema` does), which hypothesis-jsonschema can satisfy. Not equivalent to
    the contract: its instances are candidates, each judged by :func:`ecma_validator_for`.
    """
    schema = tree.by_title[title]
    data = _closed_equivalent(tree, schema) if merge_bases else schema.data
    simplified = _to_draft7(_inline(tree, schema, data, cut_at=depth))
    assert isinstance(simplified, dict)
    return simplified


# ------------------------------------------------------------------ the ECMA-262 oracle
EcmaValidator = EcmaDraft202012Validator

# unevaluatedProperties finds the keys a patternProperties evaluates with Python's re, inside
# jsonschema (jsonschema._utils.find_evaluated_property_keys_by_schema), which no extension
# reaches: such a pattern must mean the same in both dialects, e.g. a literal prefix.
_SAME_IN_RE_AND_ECMA = re.compile(r"\^?[A-Za-z0-9_-]*")


def ecma_validator_for(tree: SchemaTree, title: str) -> jsonschema.protocols.Validator:
    """The draft 2020-12 oracle of contract ``title``, patterns read as ECMA-262."""
    for schema in tree.files:
        if not any("unevaluatedProperties" in n for _, n in iter_subschemas(schema.data)):
            continue
        for pointer, node in iter_subschemas(schema.data):
            for pattern in node.get("patternProperties", {}):
                assert _SAME_IN_RE_AND_ECMA.fullmatch(pattern), (
                    f"{schema.rel}#{pointer}: patternProperties {pattern!r} beside "
                    "unevaluatedProperties: jsonschema would read it as Python re"
                )
    # jsonschema picks the validator class of a referenced resource by its $schema (the
    # standard draft 2020-12 one): the resources leave $schema out, so the class stays this one.
    resources = [
        (
            s.path.resolve().as_uri(),
            Resource.from_contents(
                {k: v for k, v in s.data.items() if k != "$schema"},
                default_specification=DRAFT202012,
            ),
        )
        for s in tree.files
    ]
    document = {"$ref": tree.by_title[title].path.resolve().as_uri()}
    validator: jsonschema.protocols.Validator = EcmaValidator(
        document, registry=Registry().with_resources(resources)
    )
    return validator


def is_open(tree: SchemaTree, title: str) -> bool:
    """Whether a contract's root accepts unknown keys (its model then ignores them)."""
    data = tree.by_title[title].data
    closed = data.get("additionalProperties") is False or data.get("unevaluatedProperties") is False
    return data.get("type") == "object" and not closed


# ------------------------------------------------------------------ mutations
def positions(document: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON document, the root included, parents first."""
    yield path
    if isinstance(document, dict):
        for key, value in document.items():
            yield from positions(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from positions(value, (*path, index))


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(document, path[:-1])[path[-1]] = value
    return document


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", type(None): "null", list: "array", dict: "object"}[type(value)]


OTHER_VALUES: list[Any] = [None, True, 0, 1.5, "", "x", [], {}]


def _retyped(old: Any) -> list[Any]:
    """Values of other JSON types than ``old``, the likeliest confusions first."""
    if isinstance(old, bool):
        return [int(old), str(old).lower(), None]
    if isinstance(old, int):
        return [float(old), str(old), None, True]  # 45.0 is the same JSON number as 45
    if isinstance(old, float):
        return [str(old), None, False]
    if isinstance(old, str):
        return [int(old) if old.isdigit() else 1, None, False, [old]]
    if old is None:
        return ["None", "", 0, False, {}]
    return [v for v in OTHER_VALUES if _type_of(v) != _type_of(old)]


def _pick(
    data: st.DataObject, document: Any, keep: Callable[[Any], bool]
) -> tuple[Any, ...] | None:
    """A place whose value ``keep`` accepts, drawn by Hypothesis; None when there is none."""
    places = [p for p in positions(document) if keep(_get(document, p))]
    return places[data.draw(st.integers(0, len(places) - 1))] if places else None


def drop_key(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    path = _pick(data, document, lambda v: isinstance(v, dict) and bool(v))
    if path is not None:
        target = _get(document, path)
        del target[data.draw(st.sampled_from(sorted(target)))]
    return document


def add_unknown_key(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    path = _pick(data, document, lambda v: isinstance(v, dict))
    if path is not None:
        _get(document, path)["zz_unknown"] = data.draw(st.sampled_from(OTHER_VALUES))
    return document


def change_type(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    path = _pick(data, document, lambda v: not isinstance(v, dict | list) or not v) or ()
    new = data.draw(st.sampled_from(_retyped(_get(document, path))))
    return _set(document, path, copy.deepcopy(new))


def integer_as_float(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    """An integer written as a float with no fraction (45 -> 45.0): the same JSON number."""
    path = _pick(data, document, lambda v: isinstance(v, int) and not isinstance(v, bool))
    return document if path is None else _set(document, path, float(_get(document, path)))


def past_a_bound(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    path = _pick(data, document, lambda v: isinstance(v, int | float | str | list))
    if path is None:
        return document
    old = _get(document, path)
    if isinstance(old, bool):
        return document
    if isinstance(old, int | float):
        new: Any = data.draw(st.sampled_from([-1, 0, -0.5, 100.5, 10**20, math.floor(old) + 0.5]))
    elif isinstance(old, str):
        new = data.draw(st.sampled_from(["", "x" * 9, "x" * 10]))
    else:
        new = data.draw(st.sampled_from([[], old + old[:1]]))
    return _set(document, path, new)


def flip_rule_value(data: st.DataObject, document: Any, rules: list[Any]) -> Any:
    """Set a property a cross-field rule names to one of the rule's constants (or remove it)."""
    if not isinstance(document, dict) or not rules:
        return document
    names: set[str] = set()
    constants: list[Any] = [None, "", True, False, [], 0]
    for _, node in iter_subschemas({"allOf": rules}):
        names.update(node.get("properties") or {})
        names.update(node.get("required") or [])
        if "const" in node:
            constants.append(node["const"])
    name = data.draw(st.sampled_from(sorted(names)))
    value = data.draw(st.sampled_from([*constants, "__remove__"]))
    if value == "__remove__":
        document.pop(name, None)
    else:
        document[name] = copy.deepcopy(value)
    return document


MUTATIONS = (
    drop_key,
    add_unknown_key,
    change_type,
    integer_as_float,
    past_a_bound,
    flip_rule_value,
)


def _simpler(document: Any, path: tuple[Any, ...]) -> Iterator[Any]:
    """Smaller variants of ``document`` at ``path``: the entry removed, or emptied."""
    removed = copy.deepcopy(document)
    del _get(removed, path[:-1])[path[-1]]
    yield removed
    value = _get(document, path)
    if isinstance(value, str | list | dict) and value:
        yield _set(copy.deepcopy(document), path, type(value)())
    elif isinstance(value, int | float) and not isinstance(value, bool) and value not in (0, 1):
        yield _set(copy.deepcopy(document), path, type(value)(1))


def shrink(document: Any, disagrees: Callable[[Any], bool], budget: int = 400) -> Any:
    """A small document that still disagrees, found greedily, largest entries first."""
    progress = True
    while progress and budget > 0:
        progress = False
        for path in sorted((p for p in positions(document) if p), key=len):
            for candidate in _simpler(document, path):
                budget -= 1
                if disagrees(candidate):
                    document, progress = candidate, True
                    break
            if progress or budget <= 0:
                break
    return document


# ------------------------------------------------------------------ verdicts
def _decimal(number: float) -> Decimal:
    return Decimal(repr(number)) if isinstance(number, float) else Decimal(number)


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (1 == 1.0), booleans never equal to numbers. A float is
    the decimal number its shortest repr writes (the JSON text ``4.707164912319661e+20`` is
    470716491231966100000, as the models read it, not the float's binary value)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return _decimal(a) == _decimal(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class Verdict:
    """What the generated model made of a document."""

    from_json: bool
    from_python: bool
    dumped: Any = None  # model_dump(mode="json", exclude_unset=True): the round trip
    written: Any = None  # model_dump(mode="json"): what the runtime writes


def judge(adapter: pydantic.TypeAdapter[Any], document: Any) -> Verdict:
    """Validate ``document`` from JSON text and from Python data; dump it back when accepted."""
    try:
        value = adapter.validate_json(json.dumps(document))
    except pydantic.ValidationError:
        from_json, dumped, written = False, None, None
    else:
        from_json = True
        dumped = adapter.dump_python(value, mode="json", exclude_unset=True)
        written = adapter.dump_python(value, mode="json")
    try:
        adapter.validate_python(copy.deepcopy(document))
    except pydantic.ValidationError:
        from_python = False
    else:
        from_python = True
    return Verdict(from_json, from_python, dumped, written)


@dataclass
class Tally:
    """Cases and disagreements of one contract."""

    valid: int = 0
    mutated: int = 0
    mutated_invalid: int = 0
    edge: int = 0
    unknown_keys_dropped: int = 0
    disagreements: list[tuple[str, Any, str]] = field(default_factory=list)

    def disagree(self, kind: str, document: Any, detail: str) -> None:
        self.disagreements.append((kind, document, detail))

    def smallest(self, count: int = 3) -> list[tuple[str, Any, str]]:
        return sorted(self.disagreements, key=lambda d: len(json.dumps(d[1])))[:count]


# ------------------------------------------------------------------ drawing documents
def draw_with_mutations(
    strategy: st.SearchStrategy[Any], rules: list[Any], examples: int, kind: str
) -> list[tuple[str, Any]]:
    """Documents drawn from ``strategy`` (``kind``), each followed by one of :data:`MUTATIONS`
    of it (``mutated by <mutation>``); derandomized, so every run draws the same ones. A draw
    whose mutation Hypothesis abandons leaves its document alone."""
    drawn: list[tuple[str, Any]] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def draw(data: st.DataObject) -> None:
        document = data.draw(strategy, label=kind)
        drawn.append((kind, document))
        mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        mutated = mutation(data, json.loads(json.dumps(document)), rules)
        drawn.append((f"mutated by {mutation.__name__}", mutated))

    draw()
    return drawn
