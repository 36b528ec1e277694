"""An object typed ``dict[str, T]`` by the one schema that says its values: the predicates check
of each value only what T leaves out, and decide the same.

The skeleton marks such an object (``MAP_VALUES``): its values hold their schema's type (a class
validates itself), so the predicates no longer walk every value in full. Where two schemas say
the values (two patterns, a pattern beside an ``additionalProperties`` schema), T is their union
and the values are checked in full; one schema said several times, written alike, is one. Each
generated model is judged against python-jsonschema.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis_jsonschema import from_schema

from codegen.generate.models.types.skeleton import build_skeleton
from codegen.generate.models.types.skeleton_shapes import MAP_VALUES
from tests._model_exact import draw, json_values
from tests.codegen.test_model_shapes import _Project

_ITEM = {
    "title": "Item",
    "type": "object",
    "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}, "n": {"type": "integer"}},
    "required": ["name"],
    "additionalProperties": False,
    "minProperties": 1,
}
SCHEMAS: dict[str, dict[str, Any]] = {
    # Keys by a pattern, values of a class.
    "named.json": {
        "title": "Named",
        "type": "object",
        "patternProperties": {"^[A-Z][a-z]*$": {"$ref": "#/$defs/item"}},
        "additionalProperties": False,
        "$defs": {"item": _ITEM},
    },
    # Every value by one schema that says more than its type.
    "counts.json": {
        "title": "Counts",
        "type": "object",
        "additionalProperties": {"type": "string", "pattern": "^[a-z]*$", "maxLength": 3},
    },
    # Maps where the generator types no value: nullable (dict | None), beside other places.
    "places.json": {
        "title": "Places",
        "type": "object",
        "properties": {
            "nullable": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
            "member": {
                "anyOf": [
                    {"type": "object", "additionalProperties": {"type": "string"}},
                    {"type": "string"},
                ]
            },
            "items": {
                "type": "array",
                "items": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "named": {
                "type": "object",
                "propertyNames": {"pattern": "^[a-z]+$"},
                "additionalProperties": {"type": "string", "minLength": 2},
            },
        },
    },
    # Two schemas: the union of their types, the values checked in full.
    "mixed.json": {
        "title": "Mixed",
        "type": "object",
        "patternProperties": {"^a": {"type": "string", "minLength": 2}, "^b": {"type": "string"}},
        "additionalProperties": False,
    },
    # One schema said three times, written alike (chrome-manifest's commands): one type.
    "repeated.json": {
        "title": "Repeated",
        "type": "object",
        "patternProperties": {".*": {"$ref": "#/$defs/item"}, "^x$": {"$ref": "#/$defs/item"}},
        "additionalProperties": {"$ref": "#/$defs/item"},
        "$defs": {"item": _ITEM},
    },
    # Equal in Python ({"const": 1} == {"const": True}), not in JSON: two schemas.
    "alike.json": {
        "title": "Alike",
        "type": "object",
        "patternProperties": {"^a": {"const": True}, ".*": {"const": 1}},
    },
}
MARKED = {"named.json": True, "counts.json": True, "mixed.json": False, "repeated.json": True,
          "alike.json": False}  # fmt: skip
MARKED_AT = {"/properties/nullable": False, "/properties/items/items": True}
EDGES = [{}, {"A": {"name": "x"}}, {"A": {"name": "X"}}, {"a": {"name": "x"}}, {"A": {}},
         {"Ab": {"name": "x", "n": 1.0}}, {"A": {"name": "x", "m": 1}}, {"c": "ab"}, {"c": "A"},
         {"c": "abcd"}, {"c": 4.0}, {"c": "4"}, {"a": "x"}, {"a": "xy"}, {"b": "x"}, {"ba": "x"},
         {"c": "xy"}, {"A": None}, {"c": True}, {"nullable": {"a": 1}}, {"nullable": None},
         {"nullable": {"a": "x"}}, {"member": {"a": 1}}, {"member": {"a": "x"}}, {"member": 1},
         {"items": [{"a": "x"}, {"a": 1}]}, {"items": [{}]}, {"named": {"a": "x"}},
         {"named": {"a": "xy"}}, {"named": {"A": "xy"}}, {"named": {"a": 1}}, {"x": {"name": "x"}},
         {"x": {}}, {"xy": {"name": "1"}}, {"a": True}, {"a": 1}, {"b": 1}, {"b": True},
         {"b": 1.0}]  # fmt: skip


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[_Project]:
    made = _Project(tmp_path / "maps", SCHEMAS)
    yield made
    made.close()


def test_one_schema_s_values_are_checked_past_their_type_only(generated: _Project) -> None:
    skeleton = build_skeleton(generated.tree)
    for rel, marked in MARKED.items():
        assert (MAP_VALUES in skeleton.kept_at(rel, "")) is marked, rel
    for pointer, marked in MARKED_AT.items():
        assert (MAP_VALUES in skeleton.kept_at("places.json", pointer)) is marked, pointer
    for schema in SCHEMAS.values():
        documents = [*draw(from_schema(schema), 30), *EDGES, *json_values()]
        generated.judge_all(schema["title"], documents)
    assert generated.judge.findings == [], generated.judge.report()
    assert generated.judge.counts["accepted"] >= 30
