"""Refuse every schema construct the generated model cannot reproduce faithfully.

The generated model enforces the whole of draft 2020-12's validation vocabulary
(:mod:`codegen.generate.skeleton` and :mod:`codegen.generate.predicates`), so what is refused
here is what a model cannot decide by itself: references resolved by anything but a JSON
pointer or a relative file path (``$anchor``, ``$dynamicRef``, a nested ``$id``...), and
keywords JSON Schema does not define, which would otherwise be silently ignored (a typo,
``x-*`` extensions, OpenAPI's ``discriminator``). Each refusal names the file, the JSON pointer
and the keyword, with the rule ``SUPPORTED_CONSTRUCT``.
"""

from __future__ import annotations

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, iter_subschemas
from codegen.generate.predicates import ANNOTATIONS, KEYWORDS

__all__ = ["check_supported"]

WHY = {
    "$id": "a nested $id moves the base URI: reference the file or a $defs entry instead",
    "$anchor": "anchors are not supported: reference $defs by JSON pointer",
    "$dynamicRef": "dynamic references are not supported",
    "$dynamicAnchor": "dynamic references are not supported",
    "$recursiveRef": "a draft 2019-09 keyword: use $ref",
    "$recursiveAnchor": "a draft 2019-09 keyword: use $ref",
    "$vocabulary": "vocabularies belong in meta-schemas, not in contracts",
    "discriminator": "an OpenAPI keyword the Claude CLI rejects: a tagged anyOf or oneOf says it",
    "definitions": "a draft-07 keyword: use $defs",
    "dependencies": "a draft-07 keyword: use dependentRequired or dependentSchemas",
    "additionalItems": "a draft-07 keyword: use items beside prefixItems",
}


def check_supported(schema: SchemaFile) -> None:
    """Raise :class:`SchemaError` at the first keyword the generated model cannot reproduce."""
    for pointer, node in iter_subschemas(schema.data):
        for key in node:
            if key == "$id" and pointer == "":
                continue
            if key in KEYWORDS or (key in ANNOTATIONS and key != "$id"):
                continue
            why = WHY.get(key) or (
                "extension keywords are not passed to every consumer"
                if key.startswith("x-")
                else "unknown keyword (a typo?)"
            )
            raise SchemaError(
                f"{key!r} cannot be reproduced by the generated model: {why}",
                schema.loc(f"{pointer}/{escape_pointer(key)}"),
                "SUPPORTED_CONSTRUCT",
            )
