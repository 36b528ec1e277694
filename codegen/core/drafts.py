"""The drafts of JSON Schema side by side: what each keyword of each draft means.

A schema file is read by the draft its ``$schema`` names (a file without one takes
``default_draft`` from ``[tool.maverick-codegen]``), and every job reads it in one form: the
*internal form*, draft 2020-12, which :mod:`codegen.core.translate` writes from this table. So the
generator, the lint, the breaking check and the export know one draft; what differs between
drafts is said here, once:

* which keywords a draft defines, and the *role* of each: how the translator reads its value
  (a keyword a draft does not define is ignored, as the draft says, and lint reports it);
* whether ``$ref`` beside other keywords ignores them (draft-04 to draft-07);
* whether ``1.0`` is an integer (not in draft-04, whose ``integer`` is a number written
  without a fraction or exponent);
* whether ``contains`` marks the items it matches as evaluated for ``unevaluatedItems``
  (draft 2020-12 only: draft 2019-09's ``contains`` produces no annotation);
* how ``$id``, anchors and embedded resources are found (the ``referencing`` library's
  specification of the draft).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

__all__ = [
    "DEFAULT_DRAFT",
    "DRAFTS",
    "Draft",
    "Role",
    "by_name",
    "by_uri",
    "draft_of",
]


class Role:
    """How the translator reads a keyword's value (plain strings, compared by identity)."""

    VALUE = "value"  # any other keyword the draft defines: copied as it is
    SCHEMA = "schema"  # one subschema, applied to the instance or a part of it
    SCHEMA_MAP = "schema map"  # names to subschemas (properties, patternProperties...)
    SCHEMA_LIST = "schema list"  # a list of subschemas (allOf, anyOf, oneOf, prefixItems)
    DEFS = "defs"  # names to subschemas that are not applied ($defs, definitions)
    ANNOTATION_SCHEMA = "annotation schema"  # a subschema that is not applied (contentSchema)
    ITEMS_SCHEMA_OR_LIST = "items, one schema or a list"  # draft-04 to 2019-09
    ADDITIONAL_ITEMS = "additionalItems"  # applies beside a list of items only
    DEPENDENCIES = "dependencies"  # draft-04 to draft-07: names to a schema or names
    EXCLUSIVE_FLAG = "exclusive flag"  # draft-04: a boolean that makes a bound exclusive
    ID = "id"  # the resource's identifier ($id, draft-04's id)
    REF = "ref"  # $ref
    DYNAMIC_REF = "dynamic ref"  # $dynamicRef (2020-12), $recursiveRef (2019-09)
    DYNAMIC_ANCHOR = "dynamic anchor"  # $dynamicAnchor (2020-12), $recursiveAnchor (2019-09)
    CORE = "core"  # identifies, or says how to read: not carried into the internal form


# Annotations every draft keeps: they never change what a schema accepts, so the translator
# copies them whatever the draft (draft-04 has no `examples`, but a reader wants them).
ANNOTATIONS = frozenset(
    {"$schema", "$comment", "title", "description", "default", "examples", "deprecated",
     "readOnly", "writeOnly", "format", "contentEncoding", "contentMediaType"}
)  # fmt: skip

_ASSERTIONS_04 = frozenset(
    {"type", "enum", "multipleOf", "maximum", "minimum", "maxLength", "minLength", "pattern",
     "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required"}
)  # fmt: skip

R = Role
_DRAFT_04: dict[str, str] = {
    **{k: R.VALUE for k in _ASSERTIONS_04},
    "id": R.ID,
    "$ref": R.REF,
    "definitions": R.DEFS,
    "properties": R.SCHEMA_MAP,
    "patternProperties": R.SCHEMA_MAP,
    "additionalProperties": R.SCHEMA,
    "items": R.ITEMS_SCHEMA_OR_LIST,
    "additionalItems": R.ADDITIONAL_ITEMS,
    "dependencies": R.DEPENDENCIES,
    "allOf": R.SCHEMA_LIST,
    "anyOf": R.SCHEMA_LIST,
    "oneOf": R.SCHEMA_LIST,
    "not": R.SCHEMA,
    "exclusiveMaximum": R.EXCLUSIVE_FLAG,
    "exclusiveMinimum": R.EXCLUSIVE_FLAG,
}
_DRAFT_06 = {k: v for k, v in _DRAFT_04.items() if k != "id"} | {
    "$id": R.ID,
    "const": R.VALUE,
    "exclusiveMaximum": R.VALUE,
    "exclusiveMinimum": R.VALUE,
    "contains": R.SCHEMA,
    "propertyNames": R.SCHEMA,
}
_DRAFT_07 = _DRAFT_06 | {"if": R.SCHEMA, "then": R.SCHEMA, "else": R.SCHEMA}
_DRAFT_2019_09 = {k: v for k, v in _DRAFT_07.items() if k not in ("dependencies",)} | {
    "$defs": R.DEFS,
    "dependentRequired": R.VALUE,
    "dependentSchemas": R.SCHEMA_MAP,
    "minContains": R.VALUE,
    "maxContains": R.VALUE,
    "unevaluatedItems": R.SCHEMA,
    "unevaluatedProperties": R.SCHEMA,
    "contentSchema": R.ANNOTATION_SCHEMA,
    "$recursiveRef": R.DYNAMIC_REF,
    "$recursiveAnchor": R.DYNAMIC_ANCHOR,
    "$anchor": R.CORE,
    "$vocabulary": R.CORE,
}
_DRAFT_2020_12 = {
    k: v
    for k, v in _DRAFT_2019_09.items()
    if k not in ("additionalItems", "$recursiveRef", "$recursiveAnchor")
} | {
    "items": R.SCHEMA,
    "prefixItems": R.SCHEMA_LIST,
    "$dynamicRef": R.DYNAMIC_REF,
    "$dynamicAnchor": R.DYNAMIC_ANCHOR,
}
del R


@dataclass(frozen=True)
class Draft:
    """One draft of JSON Schema, as every job reads it."""

    name: str  # as the configuration spells it: "draft-07", "2020-12"
    uri: str  # the $schema URI of its metaschema
    keywords: Mapping[str, str]  # keyword -> Role
    spec_name: str  # the name of referencing's Specification in referencing.jsonschema
    booleans: bool  # true and false are schemas anywhere (draft-06 on)
    ref_alone: bool  # $ref beside other keywords ignores them (draft-04 to draft-07)
    float_integers: bool  # 1.0 is an integer (draft-06 on)
    contains_evaluates: bool  # contains marks what it matches as evaluated (2020-12)

    @cached_property
    def specification(self) -> Any:
        """``referencing``'s Specification of the draft ($id, anchors, embedded resources), read
        tolerantly; imported on first use (a drift check by records never needs it)."""
        import referencing.jsonschema  # noqa: PLC0415

        return _tolerant(getattr(referencing.jsonschema, self.spec_name))

    @property
    def metaschema_uri(self) -> str:
        return self.uri.rstrip("#")

    def __repr__(self) -> str:
        return f"Draft({self.name})"


def _tolerant(specification: Any) -> Any:
    """``referencing``'s reading of a draft that takes a malformed schema (an ``$id`` that is not
    a string, ``properties`` that is not an object) as declaring nothing there, where the library
    itself raises: the loader and the lint's metaschema check say what is wrong, with its place."""

    def id_of(contents: Any) -> str | None:
        try:
            found = specification.id_of(contents)
        except (AttributeError, TypeError):
            return None
        return found if isinstance(found, str) else None

    def subresources_of(contents: Any) -> list[Any]:
        try:
            return list(specification.subresources_of(contents))
        except (AttributeError, TypeError):
            return []

    def anchors_in(own: Any, contents: Any) -> list[Any]:
        try:
            return list(specification._anchors_in(own, contents))
        except (AttributeError, TypeError):
            return []

    def maybe_in_subresource(segments: Any, resolver: Any, subresource: Any) -> Any:
        try:
            return specification.maybe_in_subresource(segments, resolver, subresource)
        except (AttributeError, TypeError):
            return resolver

    import attrs  # noqa: PLC0415

    return attrs.evolve(
        specification,
        id_of=id_of,
        subresources_of=subresources_of,
        anchors_in=anchors_in,
        maybe_in_subresource=maybe_in_subresource,
    )


DRAFTS: tuple[Draft, ...] = (
    Draft("draft-04", "http://json-schema.org/draft-04/schema#", MappingProxyType(_DRAFT_04),
          "DRAFT4", booleans=False, ref_alone=True, float_integers=False,
          contains_evaluates=False),
    Draft("draft-06", "http://json-schema.org/draft-06/schema#", MappingProxyType(_DRAFT_06),
          "DRAFT6", booleans=True, ref_alone=True, float_integers=True,
          contains_evaluates=False),
    Draft("draft-07", "http://json-schema.org/draft-07/schema#", MappingProxyType(_DRAFT_07),
          "DRAFT7", booleans=True, ref_alone=True, float_integers=True,
          contains_evaluates=False),
    Draft("2019-09", "https://json-schema.org/draft/2019-09/schema",
          MappingProxyType(_DRAFT_2019_09), "DRAFT201909", booleans=True,
          ref_alone=False, float_integers=True, contains_evaluates=False),
    Draft("2020-12", "https://json-schema.org/draft/2020-12/schema",
          MappingProxyType(_DRAFT_2020_12), "DRAFT202012", booleans=True,
          ref_alone=False, float_integers=True, contains_evaluates=True),
)  # fmt: skip

DEFAULT_DRAFT = DRAFTS[-1]
_BY_NAME = {d.name: d for d in DRAFTS}
# A $schema URI names its draft with or without the empty fragment ("...schema#").
_BY_URI = {u: d for d in DRAFTS for u in (d.uri, d.metaschema_uri, d.metaschema_uri + "#")}


def by_name(name: str) -> Draft | None:
    """The draft the configuration calls ``name`` ("draft-04" ... "2020-12"), or None."""
    return _BY_NAME.get(name)


def by_uri(uri: object) -> Draft | None:
    """The draft whose metaschema ``uri`` names, or None."""
    return _BY_URI.get(uri) if isinstance(uri, str) else None


def names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


def draft_of(raw: Any, default: Draft) -> Draft:
    """The draft a document's ``$schema`` names (``default`` without one); ValueError for an
    unknown one."""
    if not isinstance(raw, dict) or "$schema" not in raw:
        return default
    draft = by_uri(raw["$schema"])
    if draft is None:
        raise ValueError(f"unknown $schema {raw['$schema']!r}")
    return draft
