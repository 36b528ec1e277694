"""Deferred references (``codegen/generate/models/deferred.py``): in a module where a chain of
more than ``DEPTH`` classes may be walked, each class is built alone, and what a document
decides, and where its errors are, stays as the eagerly built classes have it.

The JSON-Schema-Test-Suite's groups whose classes reference each other are judged again with
every reference deferred.

The large graph's own test (``test_large.py``) judges documents of a deferred module against
python-jsonschema; here the same schemas are generated both ways (``DEPTH`` lowered to 0
defers every reference) and compared.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pydantic
import pytest

from codegen.generate.models import deferred
from tests import _suite
from tests.codegen.test_drafts import Project
from tests.conftest import mypy_strict

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from large_schema import large_schema

D2020 = "https://json-schema.org/draft/2020-12/schema"

TREE = {
    "$schema": D2020,
    "title": "Tree",
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}, "spare": {"$ref": "#/$defs/leaf"}},
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                "link": {
                    "oneOf": [
                        {"$ref": "#/$defs/node"},
                        {"$ref": "#/$defs/leaf"},
                        {"type": "string"},
                    ]
                },
                "pair": {
                    "type": "array",
                    "prefixItems": [{"$ref": "#/$defs/leaf"}, {"$ref": "#/$defs/node"}],
                    "items": False,
                },
                "by_name": {"type": "object", "additionalProperties": {"$ref": "#/$defs/leaf"}},
                "parent": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "leaf": {
            "type": "object",
            "properties": {"value": {"type": "integer", "maximum": 9}},
            "required": ["value"],
        },
    },
}
TREE_DOCUMENTS: list[Any] = [
    {},
    {"root": {"name": "a"}},
    {"root": {"name": ""}},
    {"root": {"name": "a", "extra": 1}},
    {"root": {"name": "a", "children": [{"name": "b"}, {"name": "c", "children": [{}]}]}},
    {"root": {"name": "a", "link": {"name": "b"}}},
    {"root": {"name": "a", "link": {"value": 3}}},
    {"root": {"name": "a", "link": {"value": 30}}},
    {"root": {"name": "a", "link": "text"}},
    {"root": {"name": "a", "link": {"name": "b", "value": 3}}},
    {"root": {"name": "a", "link": 5}},
    {"root": {"name": "a", "pair": [{"value": 1}, {"name": "b"}]}},
    {"root": {"name": "a", "pair": [{"value": 1}, {"name": "b"}, 3]}},
    {"root": {"name": "a", "pair": [{"name": "b"}, {"value": 1}]}},
    {"root": {"name": "a", "by_name": {"x": {"value": 1.0}, "y": {"value": 2}}}},
    {"root": {"name": "a", "by_name": {"x": {"value": True}}}},
    {"root": {"name": "a", "parent": None}},
    {"root": {"name": "a", "parent": {"name": "b", "parent": {"name": ""}}}},
    {"spare": {"value": 10}},
    {"spare": {"value": 1, "more": [1]}},
    {"root": "a"},
    [],
]

SHAPES = {
    "$schema": D2020,
    "title": "Drawing",
    "type": "object",
    "properties": {"shapes": {"type": "array", "items": {"$ref": "#/$defs/shape"}}},
    "$defs": {
        "shape": {"oneOf": [{"$ref": "#/$defs/circle"}, {"$ref": "#/$defs/group"}]},
        "circle": {
            "type": "object",
            "properties": {"kind": {"const": "circle"}, "r": {"type": "number", "minimum": 0}},
            "required": ["kind", "r"],
            "additionalProperties": False,
        },
        "group": {
            "type": "object",
            "properties": {
                "kind": {"const": "group"},
                "members": {"type": "array", "items": {"$ref": "#/$defs/shape"}},
            },
            "required": ["kind"],
        },
    },
}
SHAPES_DOCUMENTS: list[Any] = [
    {"shapes": []},
    {"shapes": [{"kind": "circle", "r": 1}, {"kind": "group"}]},
    {"shapes": [{"kind": "circle", "r": -1}]},
    {"shapes": [{"kind": "circle"}]},
    {"shapes": [{"kind": "square"}]},
    {"shapes": [{"r": 1}]},
    {"shapes": [{"kind": "group", "members": [{"kind": "circle", "r": 2, "x": 1}]}]},
    {"shapes": [{"kind": "group", "members": [{"kind": "group", "members": [{"kind": "c"}]}]}]},
    {"shapes": [{"kind": "group", "r": 1, "extra": True}]},
]


_AFTER = re.compile(r"^function-after\[\w+\(\), (\w+)\]$")
# A class whose validator reads the value as given (a wrap validator): by the validator's name.
_WRAP = {"function-wrap[_check_node()]": "Node"}


def _named(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(
        _WRAP.get(part, _AFTER.sub(r"\1", part)) if isinstance(part, str) else part for part in loc
    )


def _outcome(model: Any, document: Any) -> tuple[bool, list[tuple[Any, ...]]]:
    """Whether the model accepts ``document`` (as JSON), and where its errors are."""
    try:
        model.model_validate_json(json.dumps(document))
    except pydantic.ValidationError as error:
        return False, sorted(tuple(e["loc"]) for e in error.errors())
    return True, []


def _both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, schema: dict[str, Any], documents: list[Any]
) -> list[tuple[tuple[bool, list[tuple[Any, ...]]], tuple[bool, list[tuple[Any, ...]]]]]:
    """Each document's outcome with the eager module and with the deferred one, checked
    against python-jsonschema; asserts that only the second defers."""
    name, title = "model.json", schema["title"]
    eager = Project(tmp_path / "eager", {name: schema})
    with eager.models() as package:
        eager_outcomes = [_outcome(getattr(package, title), d) for d in documents]
        eager_source = Path(package.__file__).with_name("model.py").read_text()
    monkeypatch.setattr(deferred, "DEPTH", 0)
    lazy = Project(tmp_path / "lazy", {name: schema})
    with lazy.models() as package:
        lazy_outcomes = [_outcome(getattr(package, title), d) for d in documents]
        lazy_source = Path(package.__file__).with_name("model.py").read_text()
    assert "_Deferred[" not in eager_source
    assert "_Deferred[" in lazy_source
    validator = jsonschema.Draft202012Validator(schema)
    for document, (accepted, _) in zip(documents, lazy_outcomes, strict=True):
        assert accepted == validator.is_valid(document), document
    return list(zip(eager_outcomes, lazy_outcomes, strict=True))


def test_deferred_classes_decide_and_locate_errors_as_eager_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = _both(tmp_path, monkeypatch, TREE, TREE_DOCUMENTS)
    assert {accepted for (accepted, _), _ in pairs} == {True, False}
    for document, ((eager, where), lazy) in zip(TREE_DOCUMENTS, pairs, strict=True):
        # In a union, pydantic labels an eager class with a validator after its validator
        # ("function-after[_check_node(), Node]", "function-wrap[_check_node()]"); a deferred
        # one by its name ("Node").
        assert lazy == (eager, sorted(_named(loc) for loc in where)), document


def test_a_tagged_union_of_deferred_classes_decides_as_the_tagged_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = _both(tmp_path, monkeypatch, SHAPES, SHAPES_DOCUMENTS)
    assert {accepted for (accepted, _), _ in pairs} == {True, False}
    for document, ((eager, _), (lazy, _)) in zip(SHAPES_DOCUMENTS, pairs, strict=True):
        assert lazy == eager, document


def test_a_large_graph_is_built_class_by_class(tmp_path: Path) -> None:
    """The large shape's classes all reach each other: each validator holds its own class
    only, and a small graph of the same shape is built eagerly, as before."""
    small = Project(tmp_path / "small", {"graph.json": large_schema(6)})
    with small.models() as package:
        assert "_Deferred[" not in Path(package.__file__).with_name("graph.py").read_text()
    project = Project(tmp_path / "large", {"graph.json": large_schema(deferred.DEPTH * 3)})
    with project.models() as package:
        module = importlib.import_module(f"{package.__name__}.graph")
        classes = [getattr(module, f"D{i}") for i in range(deferred.DEPTH * 3)]
        for cls in classes:
            cls.model_rebuild()
            text = json.dumps(cls.__pydantic_core_schema__, default=repr)
            assert text.count('"type": "model"') == 1, cls.__name__
        # D0's field_2 is a D3, whose required field_0 is a list of D4, which requires field_0
        document = {"field_0": "ok", "field_2": {"field_0": [{}]}}
        with pytest.raises(pydantic.ValidationError) as raised:
            classes[0].model_validate_json(json.dumps(document))
        assert [e["loc"] for e in raised.value.errors()] == [("field_2", "field_0", 0, "field_0")]
        with pytest.raises(pydantic.PydanticInvalidForJsonSchema, match="schema file"):
            classes[0].model_json_schema()


# The suite's keywords whose groups generate classes that name each other (the others make
# no reference to defer).
REFERRING = ("ref", "refRemote", "anchor", "dynamicRef", "recursiveRef",
             "unevaluatedProperties", "unevaluatedItems")  # fmt: skip


@pytest.mark.parametrize("folder", list(_suite.DRAFTS))
def test_the_suite_agrees_with_every_reference_deferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    monkeypatch.setattr(deferred, "DEPTH", 0)
    found = _suite.run_all(_suite.run_maverick, tmp_path, only=REFERRING, folder=folder)
    assert [
        f"{r.group.rel}: {r.status}: {r.detail}" for r in found if r.status != "generated"
    ] == []
    assert [d for r in found for d in r.disagreements()] == []
    assert [e for r in found for e in r.case_errors if e] == []
    deferring = [p for p in tmp_path.rglob("*.py") if "_Deferred[" in p.read_text()]
    assert len(deferring) >= 2, folder


def test_mypy_sees_the_class_through_a_deferred_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deferred module passes ``mypy --strict`` and ``_Deferred[Node]`` is a ``Node``."""
    monkeypatch.setattr(deferred, "DEPTH", 0)
    project = Project(tmp_path, {"model.json": TREE})
    code, err = project.generate()
    assert code == 0, err
    program = (
        f"from {project.package}.model import Tree\nreveal_type(Tree.model_validate({{}}).root)\n"
    )
    done = mypy_strict(program, tmp_path / "out", tmp_path)
    assert done.returncode == 0, done.stdout
    assert f'Revealed type is "{project.package}.model.Node' in done.stdout, done.stdout
