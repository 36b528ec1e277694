"""python-jsonschema validators that decide as JSON Schema (and the generated models) do.

Two places where python-jsonschema does not:

* JSON Schema's ``pattern`` and ``patternProperties`` are ECMA-262 expressions, which is what
  Ajv, the Claude CLI, browsers and the generated models (the ``regress`` package, ``u`` flag)
  use; python-jsonschema uses ``re``, which refuses ``\\p{L}`` and reads ``\\d`` and ``$``
  otherwise.
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
from collections.abc import Iterable, Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jsonschema
import regress
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from codegen.core.loader import SchemaFile, SchemaTree

__all__ = [
    "ECMA_VALIDATORS",
    "EcmaDraft7Validator",
    "EcmaDraft202012Validator",
    "ecma_search",
    "file_registry",
    "subschema_validator",
    "tree_registry",
    "validator_at",
]


@functools.cache
def _regex(pattern: str) -> regress.Regex:
    return regress.Regex(pattern, "u")


def ecma_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, as ECMA-262 (``u`` flag) says."""
    return _regex(pattern).find(text) is not None


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


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` and its passing in-place subschemas
    evaluated (python-jsonschema's own walk, with ECMA-262 patterns)."""
    if not isinstance(schema, dict):
        return set()
    found: set[str] = set()
    if "$ref" in schema:
        resolved = validator._resolver.lookup(schema["$ref"])
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
EcmaDraft202012Validator: Any = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    validators={**_ECMA, "unevaluatedProperties": _unevaluated_properties},
)
EcmaDraft7Validator: Any = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft7Validator, validators=_ECMA
)
# Each draft's python-jsonschema class, with ECMA-262 patterns and exact multipleOf.
ECMA_VALIDATORS: dict[str, Any] = {
    "draft-04": jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft4Validator, validators=_ECMA
    ),
    "draft-06": jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft6Validator, validators=_ECMA
    ),
    "draft-07": EcmaDraft7Validator,
    "2019-09": jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft201909Validator,
        validators={**_ECMA, "unevaluatedProperties": _unevaluated_properties},
    ),
    "2020-12": EcmaDraft202012Validator,
}


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


def _base_uri(schema: SchemaFile) -> str:
    """The file's own absolute ``$id`` (``id`` in draft-04), which the crawled registry holds and
    its relative references resolve against; else its URI."""
    document = schema.document
    declared = schema.draft.specification.id_of(document) if isinstance(document, dict) else None
    if isinstance(declared, str) and urlsplit(declared).scheme:
        return declared.split("#")[0]
    return schema.uri


def validator_at(registry: Registry[Any], schema: SchemaFile, pointer: str = "") -> Any:
    """The ECMA validator of the subschema at internal ``pointer`` of ``schema``, by the file's
    draft, reading the file as written."""
    raw = schema.file_pointer(pointer)
    ref = _base_uri(schema) + "#" + quote(raw, safe="/~$!&'()*+,;=:@")
    return ECMA_VALIDATORS[schema.draft.name]({"$ref": ref}, registry=registry)


def file_registry(files: Iterable[tuple[Path, dict[str, Any]]]) -> Registry[Any]:
    """Every ``(path, document)`` under its file URI, ``$id`` dropped: references resolve by
    file path, exactly as the generator resolves them (whatever the ``$id`` values say).
    ``$schema`` is dropped too: through a ``$ref``, python-jsonschema would otherwise switch to
    its own validator class, whose patterns are Python's ``re``, not ECMA-262."""
    resources = []
    for path, data in files:
        contents = {k: v for k, v in data.items() if k not in ("$id", "$schema")}
        resources.append((path.resolve().as_uri(), DRAFT202012.create_resource(contents)))
    return Registry().with_resources(resources)


def subschema_validator(registry: Registry[Any], path: Path, pointer: str) -> Any:
    """The ECMA validator of the subschema at ``pointer`` of the file at ``path``."""
    ref = path.resolve().as_uri() + "#" + quote(pointer, safe="/~$!&'()*+,;=:@")
    return EcmaDraft202012Validator({"$ref": ref}, registry=registry)
