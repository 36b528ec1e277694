"""python-jsonschema validators that decide as JSON Schema (and the generated models) do.

Two places where python-jsonschema does not:

* JSON Schema's ``pattern`` and ``patternProperties`` are ECMA-262 expressions, which is what
  Ajv, the Claude CLI, browsers and the generated models (the ``regress`` package, ``u`` flag,
  else Annex B: :mod:`codegen.core.patterns`) use; python-jsonschema uses ``re``, which
  refuses ``\\p{L}`` and reads ``\\d`` and ``$`` otherwise.
* ``multipleOf`` is exact on the numbers as written (``0.0003`` is a multiple of ``0.0001``,
  ``2**70`` is not one of ``1.5``); python-jsonschema divides in floating point.

The lint judges examples and defaults with these classes, the tests use them as their oracle
and ``breaking`` judges its witnesses with them. ``unevaluatedProperties`` is replaced too:
python-jsonschema finds the keys a ``patternProperties`` evaluated with ``re``.

:func:`tree_registry` and :func:`validator_at` judge a document by a schema of a loaded tree as
written, by its own draft: the files (and the documents reached through URL mappings) under their
URIs, each ``$id`` and anchor as its draft reads them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any
from urllib.parse import quote, urldefrag, urljoin

import jsonschema
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import lookup_recursive_ref

from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.patterns import compile_pattern

__all__ = [
    "ECMA_VALIDATORS",
    "EcmaDraft7Validator",
    "EcmaDraft202012Validator",
    "ecma_search",
    "tree_registry",
    "validator_at",
]


def ecma_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, as ECMA-262 says: with the ``u``
    flag where that reading is valid, else without it (:mod:`codegen.core.patterns`)."""
    return compile_pattern(pattern).search(text)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not ecma_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if ecma_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    declared = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extras = [
        key
        for key in instance
        if key not in declared and not any(ecma_search(p, key) for p in patterns)
    ]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif additional is False and extras:
        yield ValidationError(f"Additional properties are not allowed ({sorted(extras)!r})")


def _exact(number: float) -> Fraction:
    """A JSON number as written: 0.1 is one tenth, not the float nearest to it."""
    return Fraction(number) if isinstance(number, int) else Fraction(Decimal(repr(number)))


def _multiple_of(validator: Any, step: float, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "number") and _exact(instance) % _exact(step) != 0:
        yield ValidationError(f"{instance!r} is not a multiple of {step!r}")


def _references(validator: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """The schemas a schema's references lead to: ``$ref``, and the dynamic reference of the
    validator's draft (``$dynamicRef``, 2019-09's ``$recursiveRef``), in the dynamic scope."""
    if "$ref" in schema:
        yield validator._resolver.lookup(schema["$ref"])
    if "$dynamicRef" in schema and "$dynamicRef" in validator.VALIDATORS:
        yield validator._resolver.lookup(schema["$dynamicRef"])
    if "$recursiveRef" in schema and "$recursiveRef" in validator.VALIDATORS:
        yield lookup_recursive_ref(validator._resolver)


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` and its passing in-place subschemas
    evaluated (python-jsonschema's own walk, with ECMA-262 patterns)."""
    if not isinstance(schema, dict):
        return set()
    found: set[str] = set()
    for resolved in _references(validator, schema):
        inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
        found |= _evaluated_keys(inner, instance, resolved.contents)
    found |= set(schema.get("properties") or {}) & set(instance)
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            found |= {k for k, v in instance.items() if validator.evolve(
                schema=schema[keyword]).is_valid(v)}  # fmt: skip
    for pattern in schema.get("patternProperties") or {}:
        found |= {k for k in instance if ecma_search(pattern, k)}
    for name, sub in (schema.get("dependentSchemas") or {}).items():
        if name in instance:
            found |= _evaluated_keys(validator, instance, sub)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(keyword) or []:
            if validator.evolve(schema=sub).is_valid(instance):
                found |= _evaluated_keys(validator, instance, sub)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            found |= _evaluated_keys(validator, instance, schema["if"])
            found |= _evaluated_keys(validator, instance, schema.get("then", True))
        else:
            found |= _evaluated_keys(validator, instance, schema.get("else", True))
    return found


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    for key in instance:
        if key not in evaluated and not validator.evolve(schema=unevaluated).is_valid(
            instance[key]
        ):
            yield ValidationError(f"unevaluated property {key!r} is not allowed here")


_ECMA = {
    "multipleOf": _multiple_of,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
}


def _ecma_class(standard: Any, validators: dict[str, Any]) -> Any:
    """``standard`` with the ECMA-262 keywords, which stays an ECMA class across ``$ref``.

    python-jsonschema picks the class of a referenced schema that declares ``$schema`` by that
    ``$schema`` (``validator_for``), which names the standard class: a file's own
    ``$schema`` would turn its patterns back into Python ``re`` past the first reference. This
    class's ``evolve`` picks the ECMA class of the draft instead."""
    cls: Any = jsonschema.validators.extend(standard, validators=validators)  # type: ignore[no-untyped-call]
    fields = [(f.name, f.alias) for f in cls.__attrs_attrs__ if f.init]  # as jsonschema's own

    def evolve(self: Any, **changes: Any) -> Any:
        schema = changes.setdefault("schema", self.schema)
        found = jsonschema.validators.validator_for(schema, default=type(self))
        for name, alias in fields:
            if alias not in changes:
                changes[alias] = getattr(self, name)
        return _BY_STANDARD.get(found, found)(**changes)

    cls.evolve = evolve
    return cls


_UNEVALUATED = {**_ECMA, "unevaluatedProperties": _unevaluated_properties}
# Each draft's python-jsonschema class, with ECMA-262 patterns and exact multipleOf.
ECMA_VALIDATORS: dict[str, Any] = {
    "draft-04": _ecma_class(jsonschema.Draft4Validator, _ECMA),
    "draft-06": _ecma_class(jsonschema.Draft6Validator, _ECMA),
    "draft-07": _ecma_class(jsonschema.Draft7Validator, _ECMA),
    "2019-09": _ecma_class(jsonschema.Draft201909Validator, _UNEVALUATED),
    "2020-12": _ecma_class(jsonschema.Draft202012Validator, _UNEVALUATED),
}
_BY_STANDARD: dict[Any, Any] = {
    jsonschema.validators.validator_for({"$schema": cls.META_SCHEMA["$schema"]}): cls
    for cls in ECMA_VALIDATORS.values()
}
EcmaDraft7Validator: Any = ECMA_VALIDATORS["draft-07"]
EcmaDraft202012Validator: Any = ECMA_VALIDATORS["2020-12"]


def tree_registry(tree: SchemaTree) -> Registry[Any]:
    """Every document of ``tree`` as written (external ones too), under its URI, crawled."""
    return (
        Registry()
        .with_resources(
            (f.uri, f.draft.specification.create_resource(f.document))
            for f in (*tree.files, *tree.external)
        )
        .crawl()
    )


def validator_at(
    registry: Registry[Any], schema: SchemaFile, pointer: str = "", *, formats: bool = False
) -> Any:
    """The ECMA validator of the subschema at internal ``pointer`` of ``schema``, by the file's
    draft, reading the file as written; ``formats``: asserting ``format`` as the generated
    models do (:mod:`codegen.core.formats`)."""
    raw = schema.file_pointer(pointer)
    # Under the URI its root's identifier gives it (as the crawl registered it): a reference
    # looked up by the file's own URI would resolve the root's relative references against it.
    own = schema.draft.specification.create_resource(schema.document).id()
    base = urldefrag(urljoin(schema.uri, own)).url if own else schema.uri
    ref = base + "#" + quote(raw, safe="/~$!&'()*+,;=:@")
    checker = format_checker() if formats else None
    return ECMA_VALIDATORS[schema.draft.name]({"$ref": ref}, registry=registry,
                                              format_checker=checker)  # fmt: skip


@functools.cache
def format_checker() -> Any:
    """A jsonschema FormatChecker deciding every asserted format as the generated models do."""
    from jsonschema import FormatChecker  # noqa: PLC0415

    from codegen.core.formats import ASSERTED, format_check  # noqa: PLC0415

    checker = FormatChecker(formats=())
    check = format_check()
    for name in ASSERTED:
        checker.checks(name)(functools.partial(_of_format, check, name))
    return checker


def _of_format(check: Any, name: str, instance: Any) -> bool:
    return not isinstance(instance, str) or bool(check(name, instance))
