"""A ``oneOf`` whose branches exclude each other is checked as an ``anyOf``, and decides the same.

:mod:`codegen.generate.models.types.exclusive` says when no value satisfies two branches: the
skeleton then keeps the ``oneOf`` as its union (no predicate counts the matches) and the
predicates try the branches until one holds. Here: which ``oneOf`` s exclude, then each generated
model judged against python-jsonschema on drawn documents and on the ones at the edges (a value
of two branches' kinds, both keys, one and 1.0, true beside 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis_jsonschema import from_schema

from codegen.generate.models.types.exclusive import exclusive_branches
from tests._model_exact import draw, json_values
from tests.codegen.test_model_shapes import _Project

_CLOSED = {"type": "object", "additionalProperties": False}
# fmt: off
SCHEMAS: dict[str, dict[str, Any]] = {
    # JSON kinds apart: an object class, a string, a number, a boolean, an array.
    "kinds.json": {
        "title": "Kinds",
        "oneOf": [{"$ref": "#/$defs/item"}, {"type": "string", "minLength": 2},
                  {"type": "number"}, {"type": "boolean"}, {"type": "array"}],
        "$defs": {
            "item": {**_CLOSED, "title": "Item", "properties": {"a": {"type": "string"}}},
        },
    },
    # Closed objects, each requiring a property the other does not declare.
    "keys.json": {
        "title": "Keys",
        "oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}],
        "$defs": {
            "left": {**_CLOSED, "title": "Left", "required": ["l"],
                     "properties": {"l": {"type": "string"}, "n": {"type": "integer"}}},
            "right": {**_CLOSED, "title": "Right", "required": ["r"],
                      "properties": {"r": {"type": "string"}, "n": {"type": "integer"}}},
        },
    },
    # Open objects told apart by the const of a property both require.
    "tags.json": {
        "title": "Tags",
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "oneOf": [
            {"required": ["kind"], "properties": {"kind": {"const": "a"}}},
            {"required": ["kind", "b"], "properties": {"kind": {"const": "b"}}},
        ],
    },
    # Not exclusive: open objects (both keys), an integer and a number, any value.
    "open.json": {
        "title": "Open",
        "oneOf": [{"type": "object", "required": ["l"]}, {"type": "object", "required": ["r"]},
                  {"type": "integer"}, {"type": "number", "multipleOf": 0.5}],
    },
    "booleans.json": {
        "title": "Booleans",
        "type": "object",
        "properties": {
            "flag": {"oneOf": [{"type": "boolean"}, {"type": "integer", "minimum": 1}]},
            "any": {"oneOf": [{"type": "string"}, {}]},
        },
    },
}
# fmt: on
EXCLUSIVE = {
    ("kinds.json", ""): True,
    ("keys.json", ""): True,
    ("tags.json", ""): True,
    ("open.json", ""): False,
    ("booleans.json", "/properties/flag"): True,
    ("booleans.json", "/properties/any"): False,
}
EDGES = [{"a": "x"}, {"a": "x", "b": 1}, "x", "xy", 1, 1.0, 0.5, True, False, [], [1], None,
         {"l": "x"}, {"r": "x"}, {"l": "x", "r": "x"}, {"l": "x", "n": 1.0}, {"n": 1},
         {"kind": "a"}, {"kind": "b"}, {"kind": "b", "b": 0}, {"kind": "c"}, {"flag": True},
         {"flag": 1}, {"flag": 1.0}, {"flag": 0}, {"any": "x"}, {"any": 1}, {}]  # fmt: skip


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[_Project]:
    made = _Project(tmp_path / "exclusive", SCHEMAS)
    yield made
    made.close()


def test_which_branches_exclude_each_other(generated: _Project) -> None:
    for (rel, pointer), expected in EXCLUSIVE.items():
        schema = next(f for f in generated.tree.files if f.rel.as_posix() == rel)
        assert exclusive_branches(generated.tree, schema, pointer) is expected, (rel, pointer)


def test_an_exclusive_one_of_decides_as_the_schema(generated: _Project) -> None:
    source = (Path(generated.path) / generated.package / "keys.py").read_text()
    assert "_exactly_one" not in source  # the union of the two classes is the whole check
    for schema in SCHEMAS.values():
        documents = [*draw(from_schema(schema), 30), *EDGES, *json_values()]
        generated.judge_all(schema["title"], documents)
    assert generated.judge.findings == [], generated.judge.report()
    assert generated.judge.counts["accepted"] >= 40
