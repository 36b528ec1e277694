"""One large draft-07 schema file, as the configuration schemas of CI systems and editors are.

Thousands of ``definitions`` (about 2.2 KB each at the default size: 2,300 make 5 MB), each an
object of eight properties: strings with patterns and lengths, bounded integers, ``$ref`` to
another definition (``i -> 7i + 3 mod n``: chains hundreds of references deep), arrays of
references, ``enum`` of 40 values (every tenth), ``oneOf`` of three references (every
twentieth), a closed inline object, ``anyOf`` of a ``format`` string and a reference. The root
references two of them. Deterministic: the same bytes for the same count.

``bench/bench_large.py`` times it; ``tests/codegen/test_large.py`` runs every job on a smaller
one of the same shape.
"""

from __future__ import annotations

import json
from typing import Any

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
LOREM = "lorem ipsum dolor sit amet " * 3


def _property(i: int, j: int, n: int) -> dict[str, Any]:
    described = {"description": f"Property {j} of definition {i}: {LOREM}"}
    kind = (i + j) % 8
    if kind == 0:
        return {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[a-z0-9_-]+$",
                **described}  # fmt: skip
    if kind == 1:
        return {"type": "integer", "minimum": 0, "maximum": 10**6, **described}
    if kind == 2:
        return {"$ref": f"#/definitions/d{(i * 7 + 3) % n}", **described}
    if kind == 3:
        return {"type": "array", "items": {"$ref": f"#/definitions/d{(i + 1) % n}"}, **described}
    if kind == 4:
        return {"enum": [f"value_{i}_{k}" for k in range(40 if i % 10 == 0 else 5)], **described}
    if kind == 5:
        branches = (
            [{"$ref": f"#/definitions/d{(i + k * 13) % n}"} for k in range(1, 4)]
            if i % 20 == 0
            else [{"type": "string"}, {"type": "null"}]
        )
        return {"oneOf": branches, **described}
    if kind == 6:
        inline = {"a": {"type": "boolean"}, "b": {"type": "number", "exclusiveMinimum": 0}}
        return {"type": "object", "properties": inline, "additionalProperties": False,
                **described}  # fmt: skip
    return {"anyOf": [{"type": "string", "format": "uri"},
                      {"$ref": f"#/definitions/d{(i * 3) % n}"}], **described}  # fmt: skip


def large_schema(definitions: int) -> dict[str, Any]:
    """The schema with ``definitions`` definitions."""
    defs = {
        f"d{i}": {
            "type": "object",
            "description": f"Definition {i}.",
            "properties": {f"field_{j}": _property(i, j, definitions) for j in range(8)},
            "required": ["field_0"],
            "additionalProperties": i % 2 == 0,
        }
        for i in range(definitions)
    }
    return {
        "$schema": DRAFT_07,
        "title": "Large configuration",
        "type": "object",
        "properties": {
            "root": {"$ref": "#/definitions/d0"},
            "items": {"type": "array", "items": {"$ref": "#/definitions/d1"}},
        },
        "definitions": defs,
    }


def large_text(definitions: int) -> str:
    return json.dumps(large_schema(definitions), indent=2) + "\n"
