"""Generated models on the shapes pydantic writes, and on defaults the schema's rules observe.

Each test generates a project, then judges documents with :class:`tests._judge.Judge`: nothing
but ``pydantic.ValidationError`` is raised, the model decides as the ECMA-262 oracle does, and
every dump of an accepted document is accepted again, by the schema and by the model. The
default cases also pin which defaults the model fills in
(:mod:`codegen.generate.models.types.defaults`): where filling one in could make the schema refuse
a document it accepted, the field is ``MISSING`` when absent; where it cannot, the default is
filled in.
"""

from __future__ import annotations

import enum
import importlib
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import pytest
from hypothesis_jsonschema import from_schema

from codegen.core.config import load_config
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree
from tests._judge import Judge
from tests._model_exact import draw, json_values
from tests.conftest import run

DRAFT = "https://json-schema.org/draft/2020-12/schema"


class _Project:
    """Schema files generated into a package, each judged by its model and its oracle."""

    def __init__(self, root: Path, files: dict[str, dict[str, Any]]) -> None:
        self.package = f"shapes_{root.name}"
        for rel, body in files.items():
            path = root / "schemas" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            document = {"$schema": DRAFT, "$id": f"https://example.test/{rel}",
                        "description": f"{rel}.", **body}  # fmt: skip
            path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        (root / "pyproject.toml").write_text(
            f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{self.package}"'
            f'\npackage = "{self.package}"\n',
            encoding="utf-8",
        )
        code, _ = run(root, "generate")
        assert code == 0
        self.tree = load_tree(
            root / "schemas", options=load_config(root / "pyproject.toml").loading
        )
        self.registry = tree_registry(self.tree)
        self.path = str(root / "out")
        sys.path.insert(0, self.path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.module = importlib.import_module(self.package)
        self.judge = Judge()

    def judge_all(self, title: str, documents: list[Any]) -> None:
        schema = self.tree.by_title[title]
        adapter = pydantic.TypeAdapter(getattr(self.module, title))
        oracle = validator_at(self.registry, schema, "")
        for text in dict.fromkeys(json.dumps(d) for d in documents):
            self.judge.document(title, adapter, oracle, text)

    def close(self) -> None:
        for name in [m for m in sys.modules if m.split(".")[0] == self.package]:
            del sys.modules[name]
        sys.path.remove(self.path)  # only its own: a session fixture may hold another


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Any]:
    made: list[_Project] = []

    def make(files: dict[str, dict[str, Any]]) -> _Project:
        made.append(_Project(tmp_path / f"p{len(made)}", files))
        return made[-1]

    yield make
    for each in made:
        each.close()


class Color(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class Cat(pydantic.BaseModel):
    kind: Literal["cat"]
    lives: int = pydantic.Field(9, ge=0, le=9)


class Dog(pydantic.BaseModel):
    kind: Literal["dog"]
    bark: str = pydantic.Field("woof", min_length=2)


class Order(pydantic.BaseModel):
    name: str = pydantic.Field("ab", title="Name", min_length=2, max_length=10)
    qty: int = pydantic.Field(1, gt=0)
    price: float = pydantic.Field(0.5, ge=0, multiple_of=0.5)
    note: str | None = None
    color: Color = Color.RED
    colors: list[Color] = []
    pet: Annotated[Cat | Dog, pydantic.Field(discriminator="kind")]
    maybe: Cat | None = None
    mode: Literal["a", "b"] = "a"
    version: Literal[1] = 1
    tags: list[str] = pydantic.Field(default_factory=list, max_length=3)
    counts: dict[str, int] = {}


def test_the_shapes_pydantic_writes(project: Any) -> None:
    """Titles on every property, defaults beside constraints (a title, a default and a
    minLength on one property raised "Unable to apply constraint 'min_length'" on a valid
    document once), Optional as anyOf with null, Literal and const, enums in $defs, a
    discriminated union."""
    named = {"title": "Named", "type": "object", "properties": {
        "name": {"default": "ab", "minLength": 2, "title": "Name", "type": "string"}}}  # fmt: skip
    order = Order.model_json_schema()
    generated = project({"named.json": named, "order.json": order})
    generated.judge_all("Named", [{}, {"name": "abc"}, {"name": "a"}, {"name": 1}, {"x": None}])
    assert generated.module.Named.model_validate_json('{"name": "abc"}').name == "abc"
    pet = {"kind": "cat"}
    documents = [{"pet": pet}, {"pet": {"kind": "dog", "bark": "w"}}, {"pet": pet, "qty": 0},
                 {"pet": pet, "price": 1.25}, {"pet": pet, "note": None}, {"pet": pet, "ver": 1},
                 {"pet": pet, "color": "green"}, {"pet": pet, "tags": ["a"] * 4},
                 {"pet": pet, "maybe": None}, {"pet": pet, "counts": {"a": 1.5}}]  # fmt: skip
    documents += draw(from_schema(order), 20) + list(json_values())
    generated.judge_all("Order", documents)
    assert generated.judge.findings == []
    assert generated.judge.counts["accepted"] >= 10


def _rule(when: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    return {"if": when, "then": then}


# name -> (schema body, the property with a default, whether it is filled in, documents):
# each MISSING case holds a document the schema accepts and would refuse with the default.
DEFAULTS: dict[str, tuple[dict[str, Any], str, bool, list[Any]]] = {
    "issue": (
        {
            "properties": {"kind": {"default": "a"}, "x": {}},
            "allOf": [
                _rule(
                    {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                    {"required": ["x"]},
                )
            ],
        },
        "kind",
        False,
        [{}, {"kind": "a", "x": 1}, {"kind": "b"}],
    ),
    "then_requires_it": (
        {
            "properties": {
                "ok": {"type": "boolean"},
                "error": {"type": ["string", "null"], "default": None},
            },
            "required": ["ok"],
            "allOf": [
                _rule(
                    {"properties": {"ok": {"const": False}}, "required": ["ok"]},
                    {"properties": {"error": {"type": "string"}}, "required": ["error"]},
                )
            ],
        },
        "error",
        True,
        [{"ok": True}, {"ok": False, "error": "e"}, {"ok": False}],
    ),
    "if_refuses_it": (
        {
            "properties": {"status": {"enum": ["DONE", None], "default": None}, "report": {}},
            "allOf": [
                _rule(
                    {"properties": {"status": {"const": "DONE"}}, "required": ["status"]},
                    {"required": ["report"]},
                )
            ],
        },
        "status",
        True,
        [{}, {"status": "DONE", "report": 1}, {"status": "DONE"}],
    ),
    "if_without_required": (
        {
            "properties": {"mode": {"default": "slow"}, "n": {}},
            "allOf": [_rule({"properties": {"mode": {"const": "fast"}}}, {"required": ["n"]})],
        },
        "mode",
        True,
        [{"n": 1}, {"mode": "fast", "n": 1}, {"mode": "slow"}],
    ),
    "if_with_both_branches": (
        {
            "properties": {"mode": {"default": "slow"}, "n": {}},
            "allOf": [
                {
                    **_rule({"properties": {"mode": {"const": "fast"}}}, {"required": ["n"]}),
                    "else": {"maxProperties": 1},
                }
            ],
        },
        "mode",
        False,
        [{"n": 1}, {"mode": "slow"}],
    ),
    "invalid": (
        {"properties": {"alpha": {"type": "number", "maximum": 3, "default": 5}}},
        "alpha",
        False,
        [{}, {"alpha": 1}],
    ),
    "not_required": (
        {"properties": {"p": {"default": 1}}, "not": {"required": ["p"]}},
        "p",
        False,
        [{}, {"q": 1}],
    ),
    "one_of": (
        {
            "properties": {"p": {"default": 1}, "q": {}},
            "oneOf": [{"properties": {"p": {"const": 1}}, "required": ["p"]}, {"required": ["q"]}],
        },
        "p",
        False,
        [{"q": 1}, {"p": 1}],
    ),
    "any_of": (
        {
            "properties": {"p": {"type": "integer", "default": 1}, "q": {}},
            "anyOf": [{"properties": {"p": {"type": "integer"}}}, {"required": ["q"]}],
        },
        "p",
        True,
        [{}, {"q": 1}, {"p": "x"}],
    ),
    "closed_beside": (
        {
            "properties": {"p": {"default": 1}, "q": {}},
            "allOf": [{"properties": {"q": {}}, "additionalProperties": False}],
        },
        "p",
        False,
        [{}, {"q": 1}],
    ),
    "dependent_required": (
        {"properties": {"p": {"default": 1}, "r": {}}, "dependentRequired": {"p": ["r"]}},
        "p",
        False,
        [{}, {"r": 1}],
    ),
    "dependent_elsewhere": (
        {
            "properties": {"p": {"type": "integer", "default": 1}, "q": {}},
            "dependentSchemas": {"q": {"properties": {"p": {"minimum": 0}}}},
        },
        "p",
        True,
        [{"q": 1}, {"q": 1, "p": -1}],
    ),
    "property_names": (
        {"properties": {"long_name": {"default": 1}}, "propertyNames": {"maxLength": 3}},
        "long_name",
        False,
        [{}, {"ab": 1}],
    ),
    "max_properties": (
        {"properties": {"p": {"default": 1}}, "maxProperties": 1},
        "p",
        False,
        [{"q": 1}, {}],
    ),
    "pattern_judges_it": (
        {"properties": {"p": {"default": "x"}}, "patternProperties": {"^p": {"type": "integer"}}},
        "p",
        False,
        [{}],
    ),
}
# Defaults of nested schemas: (body, class, property, filled, documents). Class names are
# derived across the tree (a title taken twice is numbered): each title here is its own.
NESTED: dict[str, tuple[dict[str, Any], str, str, bool, list[Any]]] = {
    "rule_above": ({"properties": {"o": {"type": "object", "properties": {"p": {"default": 1}}},
                                   "z": {}},
                    "allOf": [_rule({"properties": {"o": {"required": ["p"]}}, "required": ["o"]},
                                    {"required": ["z"]})]}, "O", "p", False, [{"o": {}}]),
    "unique_items": ({"properties": {"list": {"type": "array", "uniqueItems": True,
                                              "items": {"$ref": "#/$defs/Item"}}},
                      "$defs": {"Item": {"title": "Item", "type": "object", "properties": {
                          "p": {"type": "integer", "default": 1}}}}},
                     "Item", "p", False, [{"list": [{}, {"p": 1}]}]),
    "max_contains": ({"properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/Item"},
                                              "contains": {"required": ["p"]}, "maxContains": 1}},
                      "$defs": {"Item": {"title": "Counted", "type": "object", "properties": {
                          "p": {"default": 1}}}}},
                     "Counted", "p", False, [{"list": [{"p": 1}, {}]}]),
    "closed_by_a_base": ({"allOf": [{"$ref": "#/$defs/Base"}], "unevaluatedProperties": False,
                          "properties": {"q": {}},
                          "$defs": {"Base": {"title": "Base", "type": "object", "properties": {
                              "p": {"type": "integer", "default": 1}}}}},
                         "Base", "p", True, [{}, {"q": 1}, {"p": 2, "q": 1}, {"r": 1}]),
    "untitled_defs": ({"properties": {"node": {"$ref": "#/$defs/node"}},
                       "$defs": {"node": {"type": "object", "properties": {
                           "next": {"type": "object"}, "v": {"type": "integer"}}}}},
                      "Node", "next", False, [{"node": {"v": 1}}, {"node": {"next": {}}}]),
}  # fmt: skip


def _title(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def test_defaults_are_filled_in_only_where_no_rule_can_refuse_them(project: Any) -> None:
    files = {f"{n}.json": {"title": _title(n), "type": "object", **b} for n, (b, *_) in
             DEFAULTS.items()}  # fmt: skip
    files |= {f"{n}.json": {"title": _title(n), "type": "object", **body}
              for n, (body, *_) in NESTED.items()}  # fmt: skip
    generated = project(files)
    filled = {}
    for name, (_, prop, want, documents) in DEFAULTS.items():
        model = getattr(generated.module, _title(name))
        filled[name] = (model.model_fields[prop].default is not pydantic.MISSING, want)
        generated.judge_all(_title(name), documents)
    for name, (_, cls, prop, want, documents) in NESTED.items():
        nested = getattr(importlib.import_module(f"{generated.package}.{name}"), cls)
        filled[name] = (nested.model_fields[prop].default is not pydantic.MISSING, want)
        generated.judge_all(_title(name), documents)
    assert {n: got for n, (got, _) in filled.items()} == {n: w for n, (_, w) in filled.items()}
    assert generated.judge.findings == []
