"""Random schemas and documents for the differential test (tests/test_differential.py).

A schema is drawn from every keyword the generator models (types, numbers, strings, arrays,
objects, the applicators, ``$ref`` to ``$defs``), nested up to four levels, so that keywords
meet in combinations the official suite never writes. Documents are drawn from a pool of
values chosen to sit on the keywords' edges (``1`` and ``1.0``, ``True`` and ``1``, ``2**70``,
``""`` and an astral character, repeated items, the property names the schemas use), plus the
``const`` and ``enum`` values and the objects a schema's own properties suggest.

Patterns are ones that ECMA-262 and Python's ``re`` read alike on the keys drawn here: the
oracle's ``unevaluatedProperties`` finds ``patternProperties`` keys with ``re``
(:mod:`codegen.core.ecma` says why).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
NAMES = ("a", "b", "c")
KEY_PATTERNS = ("^a", "b", "^[a-c]*$")
PATTERNS = (*KEY_PATTERNS, "^\\d+$", "\\p{L}")
VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, 1.0, 2, -1, 1.5, 0.5, 2**70, "", "a", "ab", "abc", "1", "😀x",
    [], [1], [1, 1], ["a", 2], [1.0, 1], {}, {"a": 1}, {"a": "x", "b": None}, {"c": [1]},
    {"a": 1, "b": 2, "c": 3}, {"d": 1}, {"ab": "a"},
)  # fmt: skip


class Draw:
    """Schemas and documents from one seeded source: the same seed, the same cases."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.keywords: dict[str, Any] = {
            "minimum": lambda d: self.r.choice([0, 1, 1.5, -2]),
            "maximum": lambda d: self.r.choice([0, 2, 2.5, 10]),
            "exclusiveMinimum": lambda d: self.r.choice([0, 1, 0.5]),
            "exclusiveMaximum": lambda d: self.r.choice([2, 3, 1.5]),
            "multipleOf": lambda d: self.r.choice([2, 0.5, 1.5, 0.0001]),
            "minLength": lambda d: self.r.randint(0, 3),
            "maxLength": lambda d: self.r.randint(0, 3),
            "pattern": lambda d: self.r.choice(PATTERNS),
            "format": lambda d: self.r.choice(["email", "date-time", "uri"]),
            "const": lambda d: self.value(1),
            "enum": lambda d: [self.value(1) for _ in range(self.r.randint(1, 3))],
            "items": self.subschema,
            "prefixItems": lambda d: [self.schema(d + 1) for _ in range(self.r.randint(1, 2))],
            "minItems": lambda d: self.r.randint(0, 2),
            "maxItems": lambda d: self.r.randint(0, 3),
            "uniqueItems": lambda d: self.r.choice([True, False]),
            "contains": self.subschema,
            "minContains": lambda d: self.r.randint(0, 2),
            "maxContains": lambda d: self.r.randint(1, 2),
            "unevaluatedItems": lambda d: self.r.choice([False, True, {"type": "integer"}]),
            "properties": lambda d: {
                n: self.schema(d + 1) for n in self.r.sample(NAMES, self.r.randint(1, 2))
            },
            "required": lambda d: self.r.sample(NAMES, self.r.randint(1, 2)),
            "additionalProperties": lambda d: self.r.choice(
                [False, True, {"type": "integer"}, {"type": "string"}]
            ),
            "patternProperties": lambda d: {self.r.choice(KEY_PATTERNS): self.schema(d + 1)},
            "propertyNames": lambda d: self.r.choice(
                [{"maxLength": 1}, {"pattern": "^[ab]"}, {"enum": ["a", "c"]}]
            ),
            "minProperties": lambda d: self.r.randint(0, 2),
            "maxProperties": lambda d: self.r.randint(0, 2),
            "dependentRequired": lambda d: {self.r.choice(NAMES): self.r.sample(NAMES, 1)},
            "dependentSchemas": lambda d: {self.r.choice(NAMES): self.schema(d + 1)},
            "unevaluatedProperties": lambda d: self.r.choice([False, {"type": "integer"}]),
            "allOf": lambda d: [self.schema(d + 1) for _ in range(self.r.randint(1, 2))],
            "anyOf": lambda d: [self.schema(d + 1) for _ in range(self.r.randint(1, 3))],
            "oneOf": lambda d: [self.schema(d + 1) for _ in range(self.r.randint(1, 3))],
            "not": self.subschema,
            "if": self.subschema,
            "then": self.subschema,
            "else": self.subschema,
        }

    def subschema(self, depth: int) -> dict[str, Any]:
        return self.schema(depth + 1)

    def value(self, depth: int = 0) -> Any:
        roll = self.r.random()
        if depth > 2 or roll < 0.6:
            return self.r.choice(VALUES)
        if roll < 0.8:
            return [self.value(depth + 1) for _ in range(self.r.randint(0, 3))]
        keys = (*NAMES, "ab", "x1")
        return {self.r.choice(keys): self.value(depth + 1) for _ in range(self.r.randint(0, 3))}

    def schema(self, depth: int = 0) -> dict[str, Any]:
        if depth > 3 or self.r.random() < 0.12:
            leaves = [{}, {"type": self.r.choice(TYPES)}, {"not": {}}, {"const": self.value(1)}]
            return dict(self.r.choice(leaves))
        node: dict[str, Any] = {}
        if self.r.random() < 0.7:
            types = self.r.sample(TYPES, self.r.randint(1, 3))
            node["type"] = types[0] if len(types) == 1 else types
        for keyword in self.r.sample(sorted(self.keywords), self.r.randint(1, 6)):
            node[keyword] = self.keywords[keyword](depth)
        if depth == 0 and self.r.random() < 0.4:
            node["$defs"] = {"D": self.schema(depth + 1)}
            node["$ref"] = "#/$defs/D"
        return node

    def contract(self, index: int) -> dict[str, Any]:
        return {
            "$schema": DRAFT,
            "$id": f"https://fuzz.example/c{index:03d}.json",
            "title": f"C{index:03d}",
            "description": "A random contract.",
            **self.schema(),
        }

    def documents(self, schema: dict[str, Any], count: int) -> list[Any]:
        """``count`` distinct documents: drawn values, the schema's own constants, and objects
        built from the property names it declares."""
        constants = list(_constants(schema))
        found: dict[str, Any] = {}
        for _ in range(count * 4):
            roll = self.r.random()
            if roll < 0.2 and constants:
                document = self.r.choice(constants)
            elif roll < 0.45:
                names = self.r.sample((*NAMES, "ab"), self.r.randint(0, 3))
                pool = [*constants, *VALUES[:17]]
                document = {n: self.r.choice(pool) for n in names}
            else:
                document = self.value()
            found.setdefault(json.dumps(document, sort_keys=True), document)
            if len(found) == count:
                break
        return list(found.values())


def _constants(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        if "const" in node:
            yield node["const"]
        if isinstance(node.get("enum"), list):
            yield from node["enum"]
        for value in node.values():
            yield from _constants(value)
    elif isinstance(node, list):
        for value in node:
            yield from _constants(value)
