"""Refuse every schema construct the generated model cannot reproduce faithfully.

The generated model enforces the whole of draft 2020-12's validation vocabulary
(:mod:`codegen.generate.models.types.skeleton` and
:mod:`codegen.generate.models.checks.predicates`), so what is refused here is what a model cannot
decide by itself: references resolved by anything but a JSON pointer or a relative file path
(``$anchor``, ``$dynamicRef``, a nested ``$id``...), and keywords JSON Schema does not define,
which would otherwise be silently ignored (a typo, ``x-*`` extensions, OpenAPI's
``discriminator``). Each refusal names the file, the JSON pointer and the keyword, with the rule
``SUPPORTED_CONSTRUCT``.
"""

from __future__ import annotations

from codegen.core.loader import SchemaFile, iter_subschemas
from codegen.generate.models.checks.guards import WHY, check_keywords

__all__ = ["WHY", "check_supported"]


def check_supported(schema: SchemaFile) -> None:
    """Raise :class:`SchemaError` at the first keyword the generated model cannot reproduce."""
    for pointer, node in iter_subschemas(schema.data):
        check_keywords(schema, pointer, node)
