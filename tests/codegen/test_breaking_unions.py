"""The inclusion proofs and the unions told apart of the breaking engine: sound, and at work.

:mod:`codegen.breaking.engine.subsets` proves that one schema accepts every value another
does; a proof it must not make is a silent pass, so each case here that is no inclusion is
checked to be refused. :mod:`codegen.breaking.engine.unions` tells the branches of a union
apart (a tag, a required property, types or values); a union told apart is decided branch by
branch, which the step bounds below show: a search of every branch combination would pass them.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from codegen.breaking.data import _model_note
from codegen.breaking.engine.facts import Empty, Found
from codegen.breaking.engine.inclusion import Break
from codegen.breaking.engine.literals import Lit
from codegen.breaking.engine.nodes import SNode, root
from codegen.breaking.engine.solver import Solver
from codegen.breaking.engine.subsets import Subsets
from codegen.breaking.engine.unions import presence, tag, told_apart
from codegen.breaking.explain import explain
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import SchemaTree, load_tree

D07 = "http://json-schema.org/draft-07/schema#"


def _tree(folder: Path, name: str, document: dict[str, Any]) -> tuple[SchemaTree, SNode]:
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / name / "s.json").write_text(json.dumps({"$schema": D07, "title": "S", **document}))
    tree = load_tree(folder / name)
    return tree, root(tree, tree.files[0])


def _pair(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[SNode, SNode]:
    return _tree(tmp_path, "old", old)[1], _tree(tmp_path, "new", new)[1]


def _closed(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "properties": properties}


INCLUDED = [
    ("a property added to a closed object", _closed(a={"type": "string"}),
     _closed(a={"type": "string"}, b={"type": "integer"})),
    ("an enum value added", {"enum": ["x", "y"]}, {"enum": ["y", "x", "z"]}),
    ("a type widened", {"type": "integer"}, {"type": ["integer", "null"]}),
    ("a bound lowered", {"type": "integer", "minimum": 3}, {"type": "integer", "minimum": 1}),
    ("a pattern widened", {"type": "string", "pattern": "^a+$"},
     {"type": "string", "pattern": "a"}),
    ("a required name dropped", {"type": "object", "required": ["a", "b"]},
     {"type": "object", "required": ["a"]}),
    ("a not of another kind", {"type": "string"}, {"not": {"type": "integer"}}),
    ("a branch added to an anyOf", {"anyOf": [{"type": "string"}, {"type": "null"}]},
     {"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer"}]}),
    ("a const branch added to a oneOf told apart by values",
     {"oneOf": [{"const": "a"}, {"const": "b"}]},
     {"oneOf": [{"const": "a"}, {"const": "b"}, {"const": "c"}]}),
    ("a recursive list whose items were widened",
     {"$ref": "#/definitions/list", "definitions": {"list": {
         "type": "array",
         "items": {"anyOf": [{"type": "string"}, {"$ref": "#/definitions/list"}]}}}},
     {"$ref": "#/definitions/list", "definitions": {"list": {
         "type": "array", "items": {"anyOf": [{"type": ["string", "null"]},
                                              {"$ref": "#/definitions/list"}]}}}}),
]  # fmt: skip

NOT_INCLUDED = [
    ("a property deleted from a closed object",
     _closed(a={"type": "string"}, b={"type": "integer"}), _closed(a={"type": "string"})),
    ("an enum value removed", {"enum": ["x", "y"]}, {"enum": ["x"]}),
    ("a oneOf whose branches overlap", {"type": "integer"},
     {"oneOf": [{"type": "integer"}, {"type": "number"}]}),
    ("a not of the same kind", {"type": "number"}, {"not": {"type": "integer"}}),
    ("a pattern narrowed", {"type": "string", "pattern": "a"},
     {"type": "string", "pattern": "^a+$"}),
    ("a recursive list bounded", {"$ref": "#/definitions/list", "definitions": {"list": {
         "type": "array", "items": {"$ref": "#/definitions/list"}}}},
     {"$ref": "#/definitions/list", "definitions": {"list": {
         "type": "array", "maxItems": 3, "items": {"$ref": "#/definitions/list"}}}}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "old", "new"), INCLUDED, ids=[c[0] for c in INCLUDED])
def test_an_inclusion_is_proved(tmp_path: Path, name: str, old: Any, new: Any) -> None:
    a, b = _pair(tmp_path, old, new)
    assert Subsets().included(a, b), name
    assert isinstance(Solver().question([Lit(a, True), Lit(b, False)]), Empty)


@pytest.mark.parametrize(("name", "old", "new"), NOT_INCLUDED, ids=[c[0] for c in NOT_INCLUDED])
def test_what_is_no_inclusion_is_never_proved(
    tmp_path: Path, name: str, old: Any, new: Any
) -> None:
    """Each of these has a value the first accepts and the second refuses (the self-reference
    one too: the second accepts nothing, as a finite document shows)."""
    a, b = _pair(tmp_path, old, new)
    assert not Subsets().included(a, b), name
    result = Solver().question([Lit(a, True), Lit(b, False)])
    assert isinstance(result, Found), result
    registry_old = tree_registry(a.tree)
    registry_new = tree_registry(b.tree)
    assert validator_at(registry_old, a.home).is_valid(result.value)
    assert not validator_at(registry_new, b.home).is_valid(result.value)


def test_an_assumption_met_without_entering_a_value_proves_nothing(tmp_path: Path) -> None:
    """Coinduction is guarded: the second schema accepts nothing (a finite document never
    ends its references), so no string is in it, though assuming the pair while proving it
    would say so."""
    old = {"anyOf": [{"$ref": "#"}, {"type": "string"}]}
    a, b = _pair(tmp_path, old, {"anyOf": [{"$ref": "#"}]})
    assert not Subsets().included(a, b)


def _runs(usings: list[str]) -> dict[str, Any]:
    def branch(using: Any, key: str) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "required": ["using", key],
                "properties": {"using": using, key: {"type": "string"}, "env": {
                    "type": "object", "additionalProperties": {"type": "string"}}}}  # fmt: skip

    return {"oneOf": [branch({"enum": usings}, "main"), branch({"const": "composite"}, "steps"),
                      branch({"const": "docker"}, "image")]}  # fmt: skip


def _sources(extra: list[str]) -> dict[str, Any]:
    def branch(key: str, more: list[str]) -> dict[str, Any]:
        return _closed(**{k: {"type": "string"} for k in (key, *more)}) | {"required": [key]}

    return {"anyOf": [branch("git", ["rev", *extra]), branch("url", []), branch("path", []),
                      branch("index", []), branch("workspace", ["editable"])]}  # fmt: skip


def test_unions_are_told_apart(tmp_path: Path) -> None:
    runs = _tree(tmp_path, "runs", _runs(["node20"]))[1]
    sources = _tree(tmp_path, "sources", _sources([]))[1]
    consts = _tree(tmp_path, "consts", {"oneOf": [{"const": f"c{i}"} for i in range(40)]})[1]
    overlap = _tree(tmp_path, "overlap", {"oneOf": [{"type": "object"}, {"required": ["a"]}]})[1]
    found = tag(runs, "oneOf")
    assert found is not None
    assert found[0] == "using"
    assert presence(sources, "anyOf") is not None
    assert tag(sources, "anyOf") is None
    assert told_apart(consts, "oneOf")
    assert not told_apart(overlap, "oneOf")


@pytest.mark.parametrize(
    ("name", "old", "new", "forward"),
    [
        ("node24 added to a tagged oneOf", _runs(["node20"]), _runs(["node20", "node24"]), True),
        ("a property added to one branch told apart by presence", _sources([]),
         _sources(["lfs"]), True),
        ("a const branch added among 40", {"oneOf": [{"const": f"c{i}"} for i in range(40)]},
         {"oneOf": [{"const": f"c{i}"} for i in range(41)]}, True),
    ],
)  # fmt: skip
def test_a_union_told_apart_is_decided_branch_by_branch(
    tmp_path: Path, name: str, old: Any, new: Any, forward: bool
) -> None:
    """Both directions within 500 steps: a search of every branch combination of these
    unions (3 to 40 branches, each refused in several ways) takes tens of thousands."""
    a, b = _pair(tmp_path, old, new)
    solver = Solver(steps=500)
    assert isinstance(solver.question([Lit(a, True), Lit(b, False)]), Empty), name
    result = solver.question([Lit(b, True), Lit(a, False)])
    assert isinstance(result, Found) is forward, (name, result)


def test_an_undecided_question_says_what_was_tried(tmp_path: Path) -> None:
    overlap = {"anyOf": [{"type": "object", "required": ["a"]}, {"type": "object"}]}
    old, new = _pair(tmp_path, overlap, overlap)
    undecided = Break((), None, decided=False, reason="the search bound was reached")
    said = explain(undecided, "DATA_BACKWARD", new, old.tree, "S")
    assert said.rule == "CHANGE_UNPROVEN"
    assert "tried: each edit asked where it was made" in said.message
    assert "searched in combination: the branches of / (anyOf)" in said.message


class _Models:
    """A judge whose generated model says what it is told to."""

    def __init__(self, accepts: bool) -> None:
        self.accepts = accepts

    def model_accepts(self, schema: Any, document: Any) -> bool:
        return self.accepts


def _item(direction: str) -> Any:
    from codegen.breaking.data import _Item

    pair = SimpleNamespace(cur=None)
    return _Item(pair, direction, Break((), {"a": 1}, decided=True))  # type: ignore[arg-type]


def test_a_model_that_disagrees_with_its_schema_is_an_internal_error() -> None:
    """The break keeps its witness (the schemas decided it); the note says the model is
    wrong, in either direction."""
    backward, forward = _item("DATA_BACKWARD"), _item("DATA_FORWARD")
    judge: Any = _Models(False)
    assert _model_note(judge, backward, {"a": 1}) == ""
    assert "refuses this witness" in _model_note(judge, forward, {"a": 1})
    judge = _Models(True)
    assert _model_note(judge, forward, {"a": 1}) == ""
    note = _model_note(judge, backward, {"a": 1})
    assert "Internal error: the model generated from the new schema accepts" in note
