"""The large schema's shape (``bench/large_schema.py``), small: generate decides every
document as python-jsonschema does (references hundreds deep in the 5 MB one, oneOf branches
that are classes), also where ``unevaluatedProperties`` needs the annotations of branches that
are classes.

``bench/bench_large.py`` times the same shape at 5 MB against datamodel-code-generator.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import jsonschema

from tests.codegen.test_drafts import D07, Project, accepts

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from large_schema import large_schema

DEFINITIONS = 24


def _value(rng: random.Random, schema: dict[str, Any], index: int, depth: int) -> Any:
    """A document for definition ``index``: mostly valid, sometimes not, to a small depth."""
    node = schema["definitions"][f"d{index}"]
    document: dict[str, Any] = {}
    for name, sub in node["properties"].items():
        if name != "field_0" and rng.random() < 0.4:
            continue
        document[name] = _field(rng, schema, sub, depth)
    if rng.random() < 0.3:
        document["extra"] = rng.choice([1, "x", None])
    if rng.random() < 0.1:
        document.pop("field_0", None)
    return document


def _field(rng: random.Random, schema: dict[str, Any], sub: dict[str, Any], depth: int) -> Any:
    def ref(pointer: str) -> Any:
        index = int(pointer.rsplit("/d", 1)[1])
        return _value(rng, schema, index, depth + 1) if depth < 2 else rng.choice([{}, "s"])

    if "$ref" in sub:
        return ref(sub["$ref"])
    if "oneOf" in sub or "anyOf" in sub:
        branches = sub.get("oneOf") or sub["anyOf"]
        branch = rng.choice(branches)
        return ref(branch["$ref"]) if "$ref" in branch else rng.choice(["a", None, 3])
    if "enum" in sub:
        return rng.choice([*sub["enum"][:2], "other"])
    kind = sub.get("type")
    if kind == "string":
        return rng.choice(["ok_1", "Not-OK", "", "a" * 201])
    if kind == "integer":
        return rng.choice([0, 5, -1, 10**6 + 1, 2.0, 2.5, True])
    if kind == "array":
        return [ref(sub["items"]["$ref"]) for _ in range(rng.randint(0, 2))]
    return rng.choice([{"a": True}, {"b": 0}, {"b": 1.5, "a": False}, {"c": 1}, []])


def test_the_large_shape_decides_as_jsonschema(tmp_path: Path) -> None:
    schema = large_schema(DEFINITIONS)
    project = Project(tmp_path, {"large-config.json": schema})
    validator = jsonschema.Draft7Validator(schema)
    rng = random.Random(24)
    with project.models() as package:
        model = package.LargeConfiguration
        documents = [{"root": _value(rng, schema, 0, 0)} for _ in range(150)]
        documents += [{"items": [_value(rng, schema, 1, 0)]} for _ in range(50)]
        for document in documents:
            expected = validator.is_valid(document)
            assert accepts(model, document) == expected, json.dumps(document)[:400]


def test_unevaluated_properties_see_branches_that_are_classes(tmp_path: Path) -> None:
    a = {"title": "A", "type": "object", "properties": {"a": {"type": "string"}},
         "required": ["a"]}  # fmt: skip
    b = {"title": "B", "type": "object", "properties": {"b": {"type": "integer"}},
         "required": ["b"]}  # fmt: skip
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Either",
        "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
        "unevaluatedProperties": False,
        "not": {"$ref": "#/$defs/b"},
        "$defs": {"a": a, "b": b},
    }
    project = Project(tmp_path, {"either.json": schema})
    validator = jsonschema.Draft202012Validator(schema)
    documents = [{"a": "x"}, {"a": "x", "c": 1}, {"b": 1}, {"a": 1}, {"a": "x", "b": 1}, {}]
    with project.models() as package:
        for document in documents:
            assert accepts(package.Either, document) == validator.is_valid(document), document
    assert D07  # the large shape is draft-07 (the first test)
