"""A union of classes that a property tells apart is validated by one member (keyed unions).

:mod:`codegen.generate.models.types.keyed` turns a union whose member classes each require a
property every other member class refuses into a ``pydantic.Discriminator``: pydantic's smart
union validated every class (a union of 13: each item 13 times, and 170 errors on a miss).
Here: which unions are keyed, each model judged against python-jsonschema on drawn documents
and the ones at the edges (no key, two keys, a key beside a value of another kind), and the
errors: those of the member the key names, or one at the union's location.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest
from hypothesis_jsonschema import from_schema

from tests._model_exact import draw, json_values
from tests.codegen.test_model_shapes import _Project

_CLOSED = {"type": "object", "additionalProperties": False}


def _branch(key: str, title: str) -> dict[str, Any]:
    properties = {key: {"type": "string", "minLength": 1}, "n": {"type": "integer"}}
    return {**_CLOSED, "title": title, "required": [key], "properties": properties}


# fmt: off
SCHEMAS: dict[str, dict[str, Any]] = {
    # Three closed classes, each with its own required key, beside a string and an integer.
    "keyed.json": {
        "title": "Keyed",
        **_CLOSED,
        "properties": {
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "inline": {"type": "array",
                       "items": {"anyOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"}]}},
        },
        "$defs": {
            "item": {"oneOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/right"},
                               {"$ref": "#/$defs/middle"}, {"type": "string", "minLength": 2},
                               {"type": "integer"}]},
            "left": _branch("l", "Left"),
            "right": _branch("r", "Right"),
            "middle": {**_branch("m", "Middle"), "minProperties": 2},
        },
    },
    # An anyOf of the same kind of classes: a union as well.
    "either.json": {
        "title": "Either",
        "anyOf": [{"$ref": "#/$defs/up"}, {"$ref": "#/$defs/down"}],
        "$defs": {"up": _branch("u", "Up"), "down": _branch("d", "Down")},
    },
    # Open classes told apart by the values of a property each requires (a const, an enum).
    "tagged.json": {
        "title": "Tagged",
        "type": "array",
        "items": {"anyOf": [
            {"type": "object", "title": "Cat", "required": ["kind"],
             "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}},
            {"type": "object", "title": "Dog", "required": ["kind", "name"],
             "properties": {"kind": {"enum": ["dog", "puppy"]}, "name": {"type": "string"}}},
            {"type": "string"},
        ]},
    },
    # A definition that says no type: a root class of its class and every other JSON type.
    "wrapped.json": {
        "title": "Wrapped",
        "type": "array",
        "items": {"anyOf": [{"$ref": "#/$defs/left"}, {"$ref": "#/$defs/loose"}, {"type": "null"}]},
        "$defs": {
            "left": _branch("l", "Left"),
            "loose": {"required": ["w"], "properties": {"w": {"type": "string"}},
                      "additionalProperties": False},
        },
    },
    # An enum of one string is a Literal (an Enum that refuses a value costs a call of Python).
    "single.json": {
        "title": "Single",
        "type": "object",
        "properties": {"kind": {"enum": ["only"]}, "mode": {"type": "string", "enum": ["in"]},
                       "many": {"enum": ["a", "b"]}, "fixed": {"$ref": "#/$defs/fixed"}},
        "$defs": {"fixed": {"title": "Fixed", "enum": ["one"]}},
    },
    # Members whose properties are guarded each by its field's own validator: still keyed.
    "guarded.json": {
        "title": "Guarded",
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/near"}, {"$ref": "#/$defs/far"}]},
        "$defs": {
            "near": {**_CLOSED, "title": "Near", "required": ["n"],
                     "properties": {"n": {"type": "string"},
                                    "box": {"$ref": "#/$defs/box", "minProperties": 1}}},
            "far": {**_CLOSED, "title": "Far", "required": ["f"],
                    "properties": {"f": {"type": "string"},
                                   "box": {"$ref": "#/$defs/box", "minProperties": 1}}},
            "box": {"title": "Box", "type": "object", "properties": {"v": {"type": "integer"}}},
        },
    },
    # Not keyed: an open class admits the other's key.
    "open.json": {
        "title": "Open",
        "oneOf": [{"$ref": "#/$defs/closed"}, {"$ref": "#/$defs/wide"}],
        "$defs": {
            "closed": _branch("c", "Closed"),
            "wide": {"type": "object", "title": "Wide", "required": ["w"],
                     "properties": {"w": {"type": "string"}}},
        },
    },
}
# fmt: on
EDGES = [
    {"items": [{"l": "x"}, {"r": "y", "n": 1}, "ab", 3, 3.0]},
    {"items": [{"l": ""}]},
    {"items": [{"l": "x", "r": "y"}]},
    {"items": [{"z": 1}]},
    {"items": [{}]},
    {"items": [{"m": "x"}]},
    {"items": [{"m": "x", "n": 1}]},
    {"items": ["a"]},
    {"items": [True]},
    {"items": [None]},
    {"items": [[]]},
    {"items": [2.5]},
    {"u": "x"},
    {"d": "x"},
    {"u": "x", "d": "y"},
    {"c": "x"},
    {"w": "x"},
    {"w": "x", "c": "y"},
    {"c": "x", "n": 1.0},
    [{"n": "x", "box": {}}],
    [{"n": "x", "box": {"v": 1}}, {"f": "y", "box": {"v": 1.5}}],
    [{"f": "y", "box": {"w": 1}}, {"n": "x", "f": "y"}],
    {},
    [],
    "x",
]  # fmt: skip


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Project]:
    made = _Project(tmp_path_factory.mktemp("k") / "keyed", SCHEMAS)
    yield made
    made.close()


def _source(generated: _Project, name: str) -> str:
    return (Path(generated.path) / generated.package / f"{name}.py").read_text()


def test_which_unions_are_keyed(generated: _Project) -> None:
    assert "Discriminator(" in _source(generated, "keyed")
    assert '_keyed((("l", Left), ("r", Right), ("m", Middle)), True)' in " ".join(
        _source(generated, "keyed").split()
    ).replace("( (", "((").replace(", )", ")")
    assert "Discriminator(" in _source(generated, "either")
    assert "Discriminator(" not in _source(generated, "open")
    assert "Discriminator(" in _source(generated, "guarded")
    assert '@field_validator("box", mode="wrap")' in _source(generated, "guarded")
    tagged = "".join(_source(generated, "tagged").split())
    wrapped = "".join(_source(generated, "wrapped").split())
    assert '_keyed((("l",Left2),("w",Loose)),True)' in wrapped
    assert '_tagged("kind",(("cat",Tagged1),("dog",Tagged2),("puppy",Tagged2)),True)' in tagged


def test_a_keyed_union_decides_as_the_schema(generated: _Project) -> None:
    for schema in SCHEMAS.values():
        documents = [*draw(from_schema(schema), 30), *EDGES, *json_values()]
        generated.judge_all(schema["title"], documents)
    assert generated.judge.findings == [], generated.judge.report()
    assert generated.judge.counts["accepted"] >= 40


def _errors(generated: _Project, document: Any) -> list[dict[str, Any]]:
    adapter = pydantic.TypeAdapter(generated.module.Keyed)
    with pytest.raises(pydantic.ValidationError) as caught:
        adapter.validate_python(document)
    return [{k: e[k] for k in ("type", "loc")} for e in caught.value.errors()]


def test_errors_name_the_member_the_key_names(generated: _Project) -> None:
    # The member the key names, alone, labelled by its class as in a smart union.
    assert _errors(generated, {"items": [{"l": ""}]}) == [
        {"type": "string_too_short", "loc": ("items", 0, "Left", "l")}
    ]
    assert _errors(generated, {"items": [{"l": "x", "r": "y"}]}) == [
        {"type": "extra_forbidden", "loc": ("items", 0, "Left", "r")}
    ]
    # An object without a key: one error at the union's location, naming the keys.
    errors = _errors(generated, {"items": [{"z": 1}]})
    assert errors == [{"type": "union_key_missing", "loc": ("items", 0)}]
    adapter = pydantic.TypeAdapter(generated.module.Keyed)
    with pytest.raises(pydantic.ValidationError) as caught:
        adapter.validate_json('{"items": [{"z": 1}]}')
    assert "l, r, m" in caught.value.errors()[0]["msg"]
    # A value of another kind: the members that are no class.
    assert {e["type"] for e in _errors(generated, {"items": [True]})} <= {
        "string_type", "int_type", "float_type"
    }  # fmt: skip


def test_python_values_are_keyed_as_their_json(generated: _Project) -> None:
    module = generated.module
    adapter = pydantic.TypeAdapter(module.Keyed)
    left = adapter.validate_python({"items": [{"l": "x"}]}).items[0].root
    assert type(left) is module.Left
    # An instance of a member is that member; a mapping is an object.
    again = adapter.validate_python({"items": [left, types.MappingProxyType({"r": "y"})]})
    assert again.items[0].root is left
    assert type(again.items[1].root) is module.Right


def test_a_keyed_union_beside_missing_builds(generated: _Project) -> None:
    # An optional list of a keyed union: Annotated[...] | MISSING hashes the Discriminator.
    adapter = pydantic.TypeAdapter(generated.module.Keyed)
    assert adapter.validate_python({}).inline is pydantic.MISSING
    assert "list[Annotated[Annotated[Left,Tag" in "".join(_source(generated, "keyed").split())
    pair = adapter.validate_python({"inline": [{"l": "x"}, {"r": "y"}]}).inline
    assert [type(v) for v in pair] == [generated.module.Left, generated.module.Right]


def test_a_tagged_union_reads_its_tag(generated: _Project) -> None:
    module = generated.module
    adapter = pydantic.TypeAdapter(module.Tagged)
    found = adapter.validate_python([{"kind": "cat"}, {"kind": b"puppy", "name": "x"}, "s"])
    assert [type(v).__name__ for v in found.root] == ["Tagged1", "Tagged2", "str"]
    with pytest.raises(pydantic.ValidationError) as caught:
        adapter.validate_json('[{"kind": "cow"}, {"kind": "dog"}]')
    errors = [{k: e[k] for k in ("type", "loc")} for e in caught.value.errors()]
    assert errors == [
        {"type": "union_key_missing", "loc": (0,)},
        {"type": "missing", "loc": (1, "Tagged2", "name")},
    ]
    assert "kind is one of (cat, dog, puppy)" in caught.value.errors()[0]["msg"]


def test_an_enum_of_one_string_is_a_literal(generated: _Project) -> None:
    source = _source(generated, "single")
    assert 'kind: Literal["only"] | MISSING' in source
    assert 'mode: Literal["in"] | MISSING' in source
    assert "class Many(StrEnum)" in source  # two values: an Enum, as before
    assert "class Fixed(StrEnum)" in source  # a definition's class keeps its Enum
    adapter = pydantic.TypeAdapter(generated.module.Single)
    with pytest.raises(pydantic.ValidationError) as caught:
        adapter.validate_json('{"kind": "other"}')
    assert [(e["type"], e["loc"]) for e in caught.value.errors()] == [("literal_error", ("kind",))]
