"""A class's validator reads the value only as far as its checks look, and decides the same.

:mod:`codegen.generate.models.checks.footprint` finds what the compiled checks of a class read;
:mod:`codegen.generate.models.checks.validators` makes an ``after`` validator that reads those
fields of the instance (``_view``) or, when the checks need the whole object, a ``wrap`` one that
reads the value as given. Here: the analysis on code of each shape, then generated classes of
each kind judged on drawn documents against python-jsonschema, in JSON mode and in Python mode
(the parsed JSON; a wrap validator then reads the instance dumped), with the same errors.
"""

from __future__ import annotations

import ast
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest
from hypothesis_jsonschema import from_schema

from codegen.generate.models import deferred
from codegen.generate.models.checks.footprint import WHOLE, Footprint, footprint, uses_of
from tests._model_exact import draw, json_values
from tests.codegen.test_model_shapes import _Project


def _footprint(body: str, **functions: str) -> Footprint | None:
    uses = {name: uses_of(ast.parse(code)) for name, code in functions.items()}
    return footprint(uses_of(ast.parse(body)), uses)


def test_what_the_checks_read() -> None:
    assert _footprint("if 'a' in x and not _v1(x['a']): raise E") == Footprint(
        frozenset({"a"}), frozenset()
    )
    assert _footprint("if type(x) is dict and 'b' not in x: raise E") == Footprint(
        frozenset(), frozenset({"b"})
    )
    # Through the functions it is handed to, also a recursive one and oneOf's branches.
    functions = {
        "_v1": "def _v1(x):\n    return 'c' in x and _v1(x['d']) and _v2(x)",
        "_v2": "def _v2(x):\n    return type(x) is dict and x['e'] == 1",
        "_v3": "def _v3(x):\n    return len(x) > 1",
    }
    assert _footprint("if not _exactly_one(x, (_v1, _true)): raise E", **functions) == (
        Footprint(frozenset({"d", "e"}), frozenset({"c"}))
    )
    # The names of all its properties: its size, its keys (no value read by them).
    names = Footprint(frozenset(), frozenset(), names=True)
    assert _footprint("if _v3(x): raise E", **functions) == names
    assert _footprint("for key in x: pass") == names
    assert _footprint("if 'a' in x and any(k > 'b' for k in x): raise E") == Footprint(
        frozenset(), frozenset({"a"}), names=True
    )
    # The whole object: its items, a JSON comparison, an unknown function.
    assert _footprint("for key, value in x.items(): pass") is WHOLE
    assert _footprint("if _canonical(x) == _K0: raise E") is WHOLE
    assert _footprint("if _v9(x): raise E") is WHOLE
    assert _footprint("if x[key]: raise E") is WHOLE


# Each kind of validator: the view of some fields (scalar values, and presence alone); the
# value as given (the object's size, a property the class does not declare, the whole value
# compared; an array of classes, an array of objects).
SCHEMAS: dict[str, dict[str, Any]] = {
    "viewed.json": {
        "title": "Viewed",
        "type": "object",
        "properties": {
            "kind": {"enum": ["a", "b"], "type": "string"},
            "count": {"type": "integer"},
            "note": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "size": {"type": "number"},
        },
        "additionalProperties": False,
        "$defs": {
            "item": {
                "title": "Item",
                "type": "object",
                "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}},
                "required": ["name"],
                "additionalProperties": False,
            }
        },
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                "then": {"required": ["note"], "properties": {"size": {"multipleOf": 0.5}}},
            },
            {"not": {"required": ["count", "size"]}},
        ],
        "dependentRequired": {"note": ["kind"]},
    },
    "whole.json": {
        "title": "Whole",
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "additionalProperties": {"type": ["string", "integer"]},
        "minProperties": 2,
        "if": {"required": ["z"]},
        "then": {"required": ["a"], "properties": {"z": {"const": {"k": [1, 2.0]}}}},
    },
    "raw.json": {
        "title": "Raw",
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "data": {"contains": {"const": {"k": 1.0}}},
            "kind": {"type": "string"},
        },
        "if": {"properties": {"kind": {"const": "c"}}, "required": ["kind"]},
        "then": {"required": ["data"]},
    },
    # The names of all the properties: a root model of an object (its root's keys), a class
    # that keeps the properties it does not declare (the fields given and the others).
    "names.json": {
        "title": "Names",
        "type": "object",
        "properties": {"map": {"$ref": "#/$defs/map"}, "kind": {"type": "string"}},
        "minProperties": 2,
        "propertyNames": {"maxLength": 4},
        "$defs": {
            "map": {
                "title": "Map",
                "type": "object",
                "patternProperties": {"^[a-z]+$": {"$ref": "#/$defs/entry"}},
                "additionalProperties": False,
            },
            "entry": {
                "title": "Entry",
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            },
        },
    },
    # The whole object, a field holding a member of a string enumeration (a wrap validator).
    "kinds.json": {
        "title": "Kinds",
        "type": "object",
        "properties": {"kind": {"enum": ["a", "b"], "type": "string"}, "n": {"type": "integer"}},
        "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        "then": {"required": ["z"], "properties": {"z": {"enum": ["a", 1]}}},
    },
    "nested.json": {
        "title": "Nested",
        "type": "object",
        "properties": {
            "inner": {"$ref": "whole.json"},
            "pairs": {"type": "array", "items": {"$ref": "whole.json"}, "uniqueItems": True},
            "items": {"type": "array", "items": {"$ref": "viewed.json#/$defs/item"}},
        },
        "additionalProperties": False,
        "oneOf": [{"required": ["inner"]}, {"required": ["pairs"]}],
        "if": {"required": ["items"]},
        "then": {"properties": {"items": {"minItems": 1, "uniqueItems": True}}},
    },
    # Guards of its properties alone, one reading an array of classes: each its field's own
    # validator, which reads that field's value as given (no wrap of the whole object).
    "fielded.json": {
        "title": "Fielded",
        "type": "object",
        "properties": {
            "pairs": {"type": "array", "items": {"$ref": "whole.json"}, "uniqueItems": True},
            "one": {"$ref": "whole.json", "minProperties": 3},
            "word": {"type": "string", "pattern": "^[a-z]+$"},
            # A default the generator would validate in every instance: an empty array is
            # its own value (validate_default off), and the field's validator stays its own.
            "more": {
                "type": "array",
                "items": {"$ref": "whole.json"},
                "uniqueItems": True,
                "default": [],
            },
        },
    },
}


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[_Project]:
    made = _Project(tmp_path / "reads", SCHEMAS)
    yield made
    made.close()


def _errors(error: pydantic.ValidationError) -> list[tuple[Any, ...]]:
    return [(e["type"], e["loc"], (e.get("ctx") or {}).get("rule")) for e in error.errors()]


def _verdict(validate: Any, argument: Any) -> list[tuple[Any, ...]] | None:
    try:
        validate(argument)
    except pydantic.ValidationError as error:
        return _errors(error)
    return None


def test_each_kind_of_validator_decides_as_the_schema(generated: _Project) -> None:
    def source(name: str) -> str:
        return (Path(generated.path) / generated.package / f"{name}.py").read_text()

    assert 'x = _view(self, ("kind", "size"), ("count", "note"))' in source("viewed")
    # Fields of JSON scalars only (a string): read from the instance in place, no call.
    assert 'if "name" in given:\n            x["name"] = self.name' in source("viewed")
    # The names of the properties: the root's keys, or the instance's fields and the others.
    assert "x = self.root" in source("names")
    assert "x = _view(self, (), (), names=True)" in source("names")
    assert '@model_validator(mode="wrap")' not in source("names")
    # Fields whose types keep the JSON value as parsed (an array of strings, anything): read
    # as the instance holds them, in JSON mode, but in an instance of a subclass.
    assert "parsed = type(self) is Raw and _parsed(info)" in source("raw")
    assert 'x = _view(self, ("kind",), (), ("data", "tags"), parsed)' in source("raw")
    # The whole object, from an instance that holds every property as parsed (fields of JSON
    # values, the others kept): read from it in JSON mode, dumped in Python mode.
    assert "if type(self) is Whole and _parsed(info):\n            x = _whole(self)" in source(
        "whole"
    )
    # Guards of the properties alone: each field's own validator, on the value given.
    assert '@field_validator("pairs", mode="wrap")' in source("fielded")
    assert "model_validator" not in source("fielded")
    assert '@field_validator("more", mode="wrap")' in source("fielded")
    assert "validate_default" not in source("fielded")
    # An array of classes: the value as given.
    assert '@model_validator(mode="wrap")' in source("nested")
    assert "x = value if _parsed(info) else _json_view(model)" in source("nested")
    for title in ("Viewed", "Whole", "Nested", "Raw", "Names", "Kinds", "Fielded"):
        schema = SCHEMAS[
            "whole.json" if title in ("Nested", "Fielded") else f"{title.lower()}.json"
        ]
        documents = draw(from_schema(schema), 40)
        if title == "Fielded":  # wholes in an array, one in place
            documents = [{"pairs": [d, d]} for d in documents[:10]] + [
                {"pairs": [d], "one": d, "word": "ab"} for d in documents[10:]
            ]
            documents += [{"more": [{"a": 1, "b": "c"}] * 2}, {"more": []},
                          {"word": "aB"}, {"pairs": [{"a": 1, "b": "c"}, {"a": 1.0, "b": "c"}]},
                          {"pairs": [{"a": 1, "b": "c"}, {"b": "c", "a": 2}], "word": "A"},
                          {"one": {"a": 1, "b": "c", "c": 2}},
                          {"one": {"a": 1, "b": "c"}}]  # fmt: skip
        if title == "Nested":  # two wholes, in place or in an array
            documents = [{"inner": d} for d in documents[:20]] + [{"pairs": [d, d]} for d in
                                                                   documents[20:]]  # fmt: skip
            documents += [{"inner": {"a": 1, "b": "c"}, "items": items} for items in
                          ([], [{"name": "a"}], [{"name": "a"}, {"name": "a"}])]  # fmt: skip
        documents += [{"kind": "a", "note": "n", "size": 1.5}, {"kind": "a", "size": 1.5},
                      {"kind": "a", "note": "n", "size": 1.25}, {"note": "n"}, {"count": 1,
                      "size": 1.5}, {"a": 1, "z": {"k": [1, 2]}}, {"a": 1, "z": {"k": [2]}},
                      {"a": 1}, {"inner": {"a": 1, "b": "c"}, "pairs": []}, {"tags": ["a",
                      "a"]}, {"tags": ["a", "b"], "kind": "c"}, {"kind": "c", "data": [{"k": 1}]},
                      {"data": [{"k": 1.5}, 2]}, {"data": {"k": 1}}, {"map": {"ab": {"n": 1}},
                      "kind": "k"}, {"map": {"Ab": {"n": 1}}, "kind": "k"}, {"map": {}},
                      {"map": {"a": {"n": 1.5}}, "k": 1}, {"kind": "a", "other": 2},
                      {"kind": "a", "z": "a"}, {"kind": "a", "z": 1.0}, {"kind": "a", "z": "b"},
                      {"kind": "b", "z": "b"}, {"kind": "a", "n": 1}]  # fmt: skip
        documents += list(json_values())
        generated.judge_all(title, documents)
        adapter = pydantic.TypeAdapter(getattr(generated.module, title))
        for text in dict.fromkeys(json.dumps(d) for d in documents):
            # Python mode (the parsed document) decides as JSON mode, with the same errors.
            python = _verdict(adapter.validate_python, json.loads(text))
            assert python == _verdict(adapter.validate_json, text), text
    assert generated.judge.findings == [], generated.judge.report()
    assert generated.judge.counts["accepted"] >= 20


def test_below_a_deferred_field_the_value_is_read_as_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a module whose classes are built alone, a deferred field's class validates its value
    in Python mode: in a validation in JSON mode its validator still reads the value as parsed
    (no instance is dumped), and decides as in Python mode, where it dumps the instance."""
    monkeypatch.setattr(deferred, "DEPTH", 0)
    whole = {k: v for k, v in SCHEMAS["whole.json"].items() if k != "title"}
    nested = json.loads(json.dumps(SCHEMAS["nested.json"]).replace("whole.json", "#/$defs/whole"))
    nested["properties"].pop("items")
    del nested["if"], nested["then"]
    deep = {**nested, "title": "Deep", "$defs": {"whole": whole}}
    generated = _Project(tmp_path / "deferred", {"deep.json": deep})
    try:
        module = importlib.import_module(f"{generated.package}.deep")
        assert "_Deferred[Whole]" in Path(module.__file__ or "").read_text()
        documents = [{"inner": {"a": 1, "b": "c"}}, {"inner": {"a": 1}}, {"inner": {"z": 1}},
                     {"pairs": [{"a": 1, "b": "c"}, {"a": 1, "b": "c"}]},
                     {"pairs": [{"a": 1, "b": "c"}, {"a": 2, "b": "c"}]}]  # fmt: skip
        adapter = pydantic.TypeAdapter(module.Deep)
        python = [_verdict(adapter.validate_python, d) for d in documents]
        dumps: list[Any] = []
        real = module._json_view
        monkeypatch.setattr(module, "_json_view", lambda model: dumps.append(model) or real(model))
        assert [_verdict(adapter.validate_json, json.dumps(d)) for d in documents] == python
        assert dumps == []
        assert [_verdict(adapter.validate_python, d) for d in documents] == python
        assert dumps  # in Python mode, the instances are dumped
        assert [v is None for v in python] == [True, False, False, False, True]
    finally:
        generated.close()
