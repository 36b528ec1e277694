"""A run of rules keyed on one property's value is decided by one lookup, exactly.

:mod:`codegen.generate.models.checks.dispatch`: an ``allOf`` of ``if``/``then`` rules keyed on
a property's ``const`` (or ``enum``) is checked through a table from each value to the branches
that apply to it, in the class's validator (each rule's error as before) and in a predicate.
Here: the tables generated, then documents with the key absent, equal to each value, to none,
of another type (``1``, ``1.0`` and ``true``; ``"1"``; arrays and objects) judged against
python-jsonschema, and the errors compared with the same schemas checked rule by rule.
"""

from __future__ import annotations

import ast
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest

from codegen.generate.models.checks import dispatch
from codegen.generate.models.checks.footprint import Footprint, footprint, table_uses, uses_of
from tests._model_exact import json_values
from tests.codegen.test_model_shapes import _Project


def _rule(
    value: Any,
    then: dict[str, Any],
    *,
    schema: dict[str, Any] | None = None,
    test: dict[str, Any] | None = None,
    **more: Any,
) -> dict[str, Any]:
    """A rule keyed on ``kind``: its ``if`` says ``kind`` is ``value`` (or ``schema``)."""
    properties = {"kind": {"const": value} if schema is None else schema}
    return {"if": {"properties": properties, **(test or {})}, "then": then, **more}


# A rule before and after the run (checked before and after it), the property absent (an
# "if" without "required" holds), an "else", an "enum", a "type" beside the const.
KEYED = {
    "title": "Keyed",
    "type": "object",
    "properties": {"z": {"type": "string"}},
    "allOf": [
        {"properties": {"a": {"not": {"const": "never"}}}, "description": "a is not never"},
        _rule("a", {"required": ["a"]}),
        _rule("b", {"required": ["b"]}, test={"required": ["kind"]},
              **{"else": {"properties": {"b": {"type": "string"}}}}),
        _rule(None, {"properties": {"a": {"type": "integer"}}}, description="a or c: integer",
              schema={"enum": ["a", "c"]}),
        _rule("d", {"properties": {"d": {"minimum": 0}}}, test={"required": ["kind"]}),
        {"if": {"properties": {"kind": {"const": "e", "type": "string"}}},
         "then": {"required": ["e"]}},
        {"properties": {"b": {"not": {"const": 0}}}},
    ],
}  # fmt: skip
# Values of every JSON type: 1 and 1.0 are one value, true is none of them, "1" a string.
VALUES: list[Any] = [1, 2.5, True, False, None, "1", [1], {"a": 1}]
NUMBERS = {
    "title": "Numbers",
    "type": "object",
    "allOf": [_rule(v, {"required": [f"v{i}"]}) for i, v in enumerate(VALUES)],
}
# Not a class: a predicate of each item.
NESTED = {
    "title": "Nested",
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"allOf": NUMBERS["allOf"]}}},
}
# Its rules read only fields that hold JSON scalars: an after validator, reading them alone.
VIEWED = {
    "title": "Viewed",
    "type": "object",
    "properties": {"kind": {"type": "string"}, "a": {"type": "integer"}, "b": {"type": "string"},
                   "c": {"type": "object"}},
    "allOf": [_rule("a", {"properties": {"a": {"minimum": 0}}}),
              _rule("b", {"required": ["b"]}),
              _rule("c", {"properties": {"a": {"maximum": 0}}}, test={"required": ["kind"]})],
}  # fmt: skip
SCHEMAS = {"keyed.json": KEYED, "numbers.json": NUMBERS, "nested.json": NESTED,
           "viewed.json": VIEWED}  # fmt: skip


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[_Project, _Project]]:
    """The schemas generated with their keyed runs dispatched, and checked rule by rule."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "MIN_RUN", 10**9)
        plain = _Project(tmp_path_factory.mktemp("plain") / "plain", SCHEMAS)
    keyed = _Project(tmp_path_factory.mktemp("keyed") / "keyed", SCHEMAS)
    yield keyed, plain
    keyed.close()
    plain.close()


def _source(project: _Project, name: str) -> str:
    return (Path(project.path) / project.package / f"{name}.py").read_text()


def test_keyed_runs_are_dispatched(projects: tuple[_Project, _Project]) -> None:
    keyed, plain = projects
    # The class's rules 1 to 5: one lookup; the rules around them each on their own.
    source = _source(keyed, "keyed")
    assert source.count('for check, message, rule in _dispatch(x["kind"], _D') == 1
    assert source.count("is not never") == 1  # its own guard
    # The values as JSON reads them: pairs (True and 1 are one key of a dict), 1 for 1.0.
    assert "(True, (" in _source(keyed, "numbers")
    assert "(1, (" in _source(keyed, "numbers")
    assert 'for check in _dispatch(x["kind"], ' in _source(keyed, "nested")
    assert '@model_validator(mode="after")' in _source(keyed, "viewed")
    assert '_dispatch(x["kind"]' in _source(keyed, "viewed")
    assert all("_dispatch(" not in _source(plain, name) for name in ("keyed", "nested"))


def _documents() -> list[Any]:
    kinds: list[Any] = [..., "a", "b", "c", "d", "e", "f", 1.0, *VALUES]
    payloads = [{}, {"a": 1}, {"a": "x", "b": 1}, {"a": -1, "b": "s", "d": -1, "e": 0},
                {"a": 2, "d": 1}, {"a": "never"}, {"b": 0, "a": 1.5}]  # fmt: skip
    documents: list[Any] = []
    for kind, payload in itertools.product(kinds, payloads):
        documents.append(payload if kind is ... else {**payload, "kind": kind})
    for index, value in enumerate(VALUES):
        documents += [{"kind": value, f"v{index}": 0}, {"kind": value, f"v{(index + 1) % 8}": 0}]
    documents += [{f"v{i}": 0 for i in range(8)}, {"kind": 1.0, "v0": 0}, {"kind": 1, "v0": 0}]
    return documents + list(json_values())


def _error(validate: Any, argument: Any) -> list[tuple[Any, ...]] | None:
    try:
        validate(argument)
    except pydantic.ValidationError as error:
        return [(e["type"], e["loc"], e["msg"], (e.get("ctx") or {}).get("rule"))
                for e in error.errors()]  # fmt: skip
    return None


def test_a_dispatch_decides_as_the_schema_with_the_same_errors(
    projects: tuple[_Project, _Project],
) -> None:
    keyed, plain = projects
    documents = _documents()
    nested = [{"items": [d]} for d in documents] + [{"items": documents[:40]}]
    for title, drawn in (("Keyed", documents), ("Numbers", documents), ("Nested", nested),
                         ("Viewed", documents)):  # fmt: skip
        keyed.judge_all(title, drawn)
        ours = pydantic.TypeAdapter(getattr(keyed.module, title))
        theirs = pydantic.TypeAdapter(getattr(plain.module, title))
        for text in dict.fromkeys(json.dumps(d) for d in drawn):
            error = _error(ours.validate_json, text)
            assert error == _error(theirs.validate_json, text), (title, text)
            # Python mode (the parsed document; an after validator reads the instance).
            error = _error(ours.validate_python, json.loads(text))
            assert error == _error(theirs.validate_python, json.loads(text)), (title, text)
    assert keyed.judge.findings == [], keyed.judge.report()
    assert keyed.judge.counts["accepted"] >= 50
    assert keyed.judge.counts["documents"] - keyed.judge.counts["accepted"] >= 200


def test_the_plan_of_a_run() -> None:
    rules = [_rule("a", {"required": ["a"]}, **{"else": {"required": ["x"]}}),
             _rule(1, {"required": ["b"]}, test={"required": ["kind"]}),
             _rule(1.0, {"required": ["c"]})]  # fmt: skip
    found = dispatch.plan(rules, float_integers=True)
    assert found is not None
    assert found.values == (("a", ((0, "then"),)), (1, ((0, "else"), (1, "then"), (2, "then"))))
    assert found.other == ((0, "else"),)
    # An object without the property: an "if" holds unless it requires it; no object: all.
    assert dispatch.absent(rules, "kind") == [(0, "then"), (2, "then")]
    assert dispatch.no_object(rules) == [(0, "then"), (1, "then"), (2, "then")]
    # draft-04: 1.0 is no integer, so one key cannot stand for 1 and 1.0.
    typed = [_rule(1, {"required": ["b"]}, schema={"const": 1, "type": "integer"})] * 3
    assert dispatch.plan(typed, float_integers=False) is None
    assert dispatch.plan(typed, float_integers=True) is not None
    # Not keyed: another keyword in the if, two properties, a schema that is no value.
    assert dispatch.key_of(_rule("a", {}, test={"minProperties": 1})) is None
    assert dispatch.key_of({"if": {"properties": {"a": {"const": 1}, "b": {"const": 1}}}}) is None
    assert dispatch.key_of(_rule(None, {}, schema={"type": "string"})) is None
    assert dispatch.key_of(_rule("a", {}, test={"required": ["other"]})) is None
    assert dispatch.key_of({**_rule("a", {}), "properties": {}}) is None


def test_what_a_dispatch_reads() -> None:
    table = table_uses(ast.parse("_D3 = _dispatch_table((_v1, _v2), {}, ())").body[0])
    assert table is not None
    assert table[1].calls == {"_v1", "_v2"}
    body = "for check in _dispatch(x['kind'], _D3):\n    if not check(x):\n        raise E"
    functions = {"_D3": table[1], "_v1": uses_of(ast.parse("x['a']")),
                 "_v2": uses_of(ast.parse("'b' in x"))}  # fmt: skip
    assert footprint(uses_of(ast.parse(body)), functions) == Footprint(
        frozenset({"kind", "a"}), frozenset({"b"})
    )
