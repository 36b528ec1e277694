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


def _fitting(prop: dict[str, Any], r: random.Random) -> Any:
    """A value of a property's plain type (the class fields ClassDraw writes), else any."""
    kind = prop.get("type")
    if kind == "string":
        return r.choice(["s", ""])
    if kind == ["integer", "null"]:
        return r.choice([1, None])
    if kind == "array":
        return [1, 2]
    return r.choice(VALUES)


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


class ClassDraw(Draw):
    """Contracts shaped as agent contracts are: an object of properties that are classes
    (titled ``$defs`` told apart by a string ``kind``), optional or nullable references,
    arrays of classes, exact tuples, tagged unions and inline objects, with random schemas
    inside. These take the skeleton's typed paths (classes, ``MISSING``, ``tuple``,
    discriminated unions), which bare random schemas rarely reach."""

    TAGS = ("x", "y", "z")
    FIT = False  # whether a class's fields mostly get values of their plain type
    PLAIN: tuple[dict[str, Any], ...] = (  # the fields a class has when not a random schema
        {"type": "string"},
        {"type": ["integer", "null"]},
        {"type": "array", "items": {"type": "integer"}},
    )

    def contract(self, index: int) -> dict[str, Any]:
        r = self.r
        classes = r.randint(1, 3)
        defs = {
            f"K{k}": self.class_schema(f"K{index:03d}{k}", self.TAGS[k]) for k in range(classes)
        }
        properties = {}
        for name in r.sample(["p", "q", "s", "t", "u"], r.randint(1, 4)):
            shape = r.choice(["ref", "nullable", "array", "tuple", "tagged", "inline", "random"])
            properties[name] = self.property_schema(shape, classes)
            if shape not in ("tuple", "ref") and r.random() < 0.2:
                properties[name] = {**properties[name], "default": None}
        document = {
            "$schema": DRAFT,
            "$id": f"https://fuzz.example/c{index:03d}.json",
            "title": f"C{index:03d}",
            "description": "A random contract.",
            "type": "object",
            "properties": properties,
            "required": [n for n in properties if r.random() < 0.5],
            "additionalProperties": r.choice([False, True]),
            "$defs": defs,
        }
        if r.random() < 0.3:  # a rule or constraint beside the typed fields
            extra = self.schema(1)
            document.update({k: v for k, v in extra.items() if k not in document and k != "$ref"})
        return document

    def fitting(self, prop: dict[str, Any]) -> Any:
        return _fitting(prop, self.r)

    def property_schema(self, shape: str, classes: int) -> dict[str, Any]:
        r = self.r
        ref = {"$ref": f"#/$defs/K{r.randrange(classes)}"}
        if shape == "ref":
            return ref
        if shape == "nullable":
            return {"anyOf": [ref, {"type": "null"}]}
        if shape == "array":
            return {"type": "array", "items": ref, "maxItems": r.randint(1, 3)}
        if shape == "tuple":
            scalars = [{"type": t} for t in ("string", "integer", "number", "boolean", "null")]
            items = [r.choice([*scalars, {"$ref": "#/$defs/K0"}]) for _ in range(r.randint(1, 3))]
            return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}
        if shape == "tagged":
            return {"oneOf": [{"$ref": f"#/$defs/K{k}"} for k in range(classes)]}
        if shape == "inline":
            return {
                "type": r.choice(["object", ["object", "null"]]),
                "properties": {"a": self.schema(2), "b": {"type": "string", "minLength": 1}},
                "required": r.sample(["a", "b"], r.randint(0, 1)),
                "additionalProperties": r.choice([False, True]),
            }
        return self.schema(1)

    def class_schema(self, title: str, tag: str) -> dict[str, Any]:
        r = self.r
        properties: dict[str, Any] = {"kind": {"type": "string", "const": tag}}
        for name in r.sample(NAMES, r.randint(0, 2)):
            properties[name] = self.schema(2) if r.random() < 0.5 else dict(r.choice(self.PLAIN))
            if r.random() < 0.3:
                properties[name]["default"] = r.choice([None, 0, "", []])
        required = ["kind", *(n for n in properties if n != "kind" and r.random() < 0.3)]
        return {
            "title": title,
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": r.choice([False, True]),
        }

    def documents(self, schema: dict[str, Any], count: int) -> list[Any]:
        r = self.r
        classes = list(schema["$defs"].values())

        def instance(cls: dict[str, Any]) -> dict[str, Any]:
            tag = cls["properties"]["kind"]["const"]
            found = {"kind": tag if r.random() < 0.9 else r.choice(["x", "y", "q"])}
            for name, prop in cls["properties"].items():
                if name != "kind" and r.random() < 0.6:
                    if self.FIT and r.random() < 0.85:
                        found[name] = self.fitting(prop)
                    else:
                        found[name] = r.choice([self.value(), None, 1, "s", [1, 2]])
            return found

        def value_for(prop: dict[str, Any]) -> Any:
            if r.random() >= (0.9 if self.FIT else 0.6):
                return r.choice([None, self.value(), {"a": "x", "b": "y"}, {"a": 1}, {"b": ""}])
            if self.FIT and prop.get("items") is False and r.random() < 0.7:  # a tuple
                scalars = {"string": "s", "integer": 1, "number": 1.5, "boolean": True}
                return [
                    instance(classes[0]) if "$ref" in item else scalars.get(str(item.get("type")))
                    for item in prop["prefixItems"]
                ]
            if self.FIT and "b" in prop.get("properties", {}) and r.random() < 0.7:
                return {"b": r.choice(["x", "y"])}  # an inline object
            if "prefixItems" in prop:
                size = len(prop["prefixItems"]) + r.randint(-1, 1)
                pool = ["s", 1, 1.5, True, None, instance(classes[0])]
                return [r.choice(pool) for _ in range(max(size, 0))]
            if prop.get("type") == "array":
                return [instance(r.choice(classes)) for _ in range(r.randint(0, 3))]
            return instance(r.choice(classes))

        found: dict[str, Any] = {}
        for _ in range(count * 4):
            document = {
                name: value_for(prop)
                for name, prop in schema["properties"].items()
                if name in schema["required"] or r.random() >= 0.25
            }
            if r.random() < 0.1:
                document["extra"] = 1
            found.setdefault(json.dumps(document, sort_keys=True), document)
            if len(found) == count:
                break
        return list(found.values())


class BaseDraw(ClassDraw):
    """The ToolResult pattern across files: ``c000.json`` is an open base contract, and most
    other contracts extend it (``allOf`` of its ``$ref``, closed by ``unevaluatedProperties:
    false``) or hold it in a property: subclasses, closing and cross-file references."""

    FIT = True

    def contract(self, index: int) -> dict[str, Any]:
        r = self.r
        if index == 0:
            properties = {
                "ok": {"type": "boolean"},
                "note": r.choice([{"type": ["string", "null"], "default": None},
                                  {"type": "string", "minLength": 1}, self.schema(2)]),
            }  # fmt: skip
            return {
                "$schema": DRAFT,
                "$id": "https://fuzz.example/c000.json",
                "title": "C000",
                "description": "The base contract.",
                "type": "object",
                "properties": properties,
                "required": ["ok"],
            }
        document = super().contract(index)
        roll = r.random()
        if roll < 0.6:  # a subclass: the base's fields too, closed against all others
            document.pop("additionalProperties")
            document["allOf"] = [{"$ref": "c000.json"}, *document.get("allOf", [])]
            document["unevaluatedProperties"] = False
        elif roll < 0.8:  # the base held in a property
            document["properties"]["base"] = r.choice(
                [{"$ref": "c000.json"}, {"anyOf": [{"$ref": "c000.json"}, {"type": "null"}]}]
            )
        return document

    def documents(self, schema: dict[str, Any], count: int) -> list[Any]:
        if schema["title"] == "C000":
            return [*Draw.documents(self, schema, count), {"ok": True}, {"ok": False, "note": "n"}]
        found = super().documents(schema, count)
        for document in found:
            if isinstance(document, dict) and self.r.random() < 0.8:
                document["ok"] = self.r.choice([True, False, True, None])
                if self.r.random() < 0.4:
                    document["note"] = self.r.choice(["n", "", None, 1])
            if "base" in schema["properties"] and self.r.random() < 0.7:
                document["base"] = self.r.choice([{"ok": True}, {"ok": 1}, {"note": "x"}, None])
        return found


class FieldDraw(BaseDraw):
    """BaseDraw with the fields agent contracts write most: string enums and consts (also beside
    null), bounded numbers, patterned and bounded strings, arrays of enums."""

    PLAIN = (
        *BaseDraw.PLAIN,
        {"type": "string", "enum": ["low", "high"]},
        {"type": ["string", "null"], "enum": ["low", "high"]},
        {"type": ["string", "null"], "const": "done"},
        {"enum": ["low", "high", None]},
        {"type": "integer", "minimum": 0, "maximum": 10},
        {"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": 1},
        {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-z]+$"},
        {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "uniqueItems": True},
        {"type": ["array", "null"], "items": {"type": "string"}, "maxItems": 2},
    )

    def fitting(self, prop: dict[str, Any]) -> Any:
        if "enum" in prop or "const" in prop:
            return self.r.choice([*prop.get("enum", [prop.get("const")]), None, "other"])
        if prop.get("type") in ("integer", ["number", "null"]):
            return self.r.choice([0, 1, 0.5, 11, None])
        return super().fitting(prop)
