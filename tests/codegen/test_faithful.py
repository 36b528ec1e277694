"""The generated model decides as the schema does, on what agent contracts actually use.

Each test generates a small project and validates documents through the generated model in
JSON mode, beside jsonschema's verdict; the official suite (tests/test_json_schema_suite.py)
covers the whole language, these cover the cases the issue reported and the typed access.
"""

from __future__ import annotations

import enum
import importlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pydantic
import pytest

from tests.conftest import run

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def contract(rel: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": f"https://example.test/{rel}",
        "title": title,
        "description": f"The {title} contract.",
        **body,
    }


@pytest.fixture
def generate(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Generate a project from ``{rel: document}`` and import its package."""
    packages: list[str] = []

    def make(files: dict[str, dict[str, Any]], expect: int = 0) -> Any:
        package = f"faithful_{len(packages)}"
        root = tmp_path / package
        for rel, document in files.items():
            path = root / "schemas" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document, indent=2) + "\n")
        (root / "pyproject.toml").write_text(
            f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
            f'package = "{package}"\n'
        )
        code, _ = run(root, "generate")
        assert code == expect
        if expect:
            return None
        packages.append(package)
        sys.path.insert(0, str(root / "out"))
        return importlib.import_module(package)

    yield make
    for package in packages:
        for name in [m for m in sys.modules if m.split(".")[0] == package]:
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if not p.startswith(str(tmp_path))]


def accepts(model: Any, document: Any) -> bool:
    try:
        pydantic.TypeAdapter(model).validate_json(json.dumps(document))
    except pydantic.ValidationError:
        return False
    return True


def agree(model: Any, schema: dict[str, Any], documents: list[Any]) -> None:
    validator = jsonschema.Draft202012Validator(schema)
    for document in documents:
        assert accepts(model, document) == validator.is_valid(document), document


def test_json_equality_for_const_and_enum(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {
            "off": {"const": False},
            "two": {"const": -2.0},
            "pick": {"enum": [True, [False], {"a": 1}]},
        },
        "additionalProperties": False,
    }
    package = generate({"flags.json": contract("flags.json", "Flags", body)})
    agree(
        package.Flags,
        contract("flags.json", "Flags", body),
        [{"off": False}, {"off": 0}, {"off": 0.0}, {"two": -2}, {"two": -2.0}, {"two": 2},
         {"pick": True}, {"pick": 1}, {"pick": [False]}, {"pick": [0]}, {"pick": {"a": 1.0}},
         {"pick": {"a": True}}],
    )  # fmt: skip


def test_untyped_constraints_apply_to_their_type_only(generate: Callable[..., Any]) -> None:
    body = {"maximum": 3, "minLength": 2, "maxItems": 2, "required": ["a"]}
    package = generate({"loose.json": contract("loose.json", "Loose", body)})
    agree(
        package.Loose,
        contract("loose.json", "Loose", body),
        [3, 4, 2.5, "ab", "a", [1, 2], [1, 2, 3], {"a": 1}, {}, None, True],
    )


def test_required_name_without_a_property_is_enforced(generate: Callable[..., Any]) -> None:
    body = {"type": "object", "additionalProperties": True, "properties": {}, "required": ["x"]}
    package = generate({"open.json": contract("open.json", "Open", body)})
    assert not accepts(package.Open, {})
    assert accepts(package.Open, {"x": None})


def test_false_property_and_property_named_ref(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {"foo": False, "$ref": {"type": "string"}},
        "additionalProperties": True,
    }
    package = generate({"odd.json": contract("odd.json", "Odd", body)})
    assert not accepts(package.Odd, {"foo": 1})
    assert accepts(package.Odd, {"$ref": "a", "bar": 2})
    assert not accepts(package.Odd, {"$ref": 1})


@pytest.mark.parametrize(
    "root",
    [{"type": "integer"}, {"type": ["integer", "string"]}, {"type": "array",
                                                            "items": {"type": "integer"}}],
)  # fmt: skip
def test_integer_roots_import_and_accept_whole_floats(
    generate: Callable[..., Any], root: dict[str, Any]
) -> None:
    package = generate({"number.json": contract("number.json", "Number", root)})
    document = [1.0, 2] if root["type"] == "array" else 1.0
    assert accepts(package.Number, document)
    assert not accepts(package.Number, [1.5] if root["type"] == "array" else 1.5)


def test_boolean_schemas_anywhere(generate: Callable[..., Any]) -> None:
    body = {
        "$defs": {"never": False, "always": True},
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/never"}, "b": {"$ref": "#/$defs/always"}},
        "allOf": [True, {"anyOf": [False, {"required": ["b"]}]}],
        "additionalProperties": False,
    }
    package = generate({"bools.json": contract("bools.json", "Bools", body)})
    assert accepts(package.Bools, {"b": [1]})
    assert not accepts(package.Bools, {"a": 1, "b": 1})
    assert not accepts(package.Bools, {})


def test_two_files_that_reference_each_other(generate: Callable[..., Any]) -> None:
    def node(title: str, other: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "other": {"anyOf": [{"$ref": other}, {"type": "null"}], "default": None},
            },
            "required": ["name"],
            "additionalProperties": False,
        }

    package = generate(
        {
            "tree/a_node.json": contract("tree/a_node.json", "ANode", node("ANode", "b_node.json")),
            "tree/b_node.json": contract("tree/b_node.json", "BNode", node("BNode", "a_node.json")),
        }
    )
    good = {"name": "a", "other": {"name": "b", "other": {"name": "c"}}}
    assert accepts(package.ANode, good)
    assert not accepts(package.ANode, {"name": "a", "other": {"name": "b", "other": {"name": ""}}})


def test_a_recursive_contract(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {
            "label": {"type": "string", "pattern": "^[a-z]+$"},
            "children": {"type": "array", "items": {"$ref": "#"}, "default": []},
        },
        "required": ["label"],
        "additionalProperties": False,
    }
    package = generate({"finding_tree.json": contract("finding_tree.json", "FindingTree", body)})
    tree = {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}
    assert accepts(package.FindingTree, tree)
    tree["children"][0]["children"][0]["label"] = "C"
    assert not accepts(package.FindingTree, tree)


def test_patterns_are_ecma_262_not_python(generate: Callable[..., Any]) -> None:
    # \\d is ASCII-only in ECMA-262 (also with the u flag); Python's re matches any digit.
    body = {"type": "string", "pattern": "^\\d+$"}
    package = generate({"digits.json": contract("digits.json", "Digits", body)})
    assert accepts(package.Digits, "123")
    assert not accepts(package.Digits, "\u0663")  # ARABIC-INDIC DIGIT THREE
    body = {"type": "string", "pattern": "^\\p{Lu}"}
    package = generate({"upper.json": contract("upper.json", "Upper", body)})
    assert accepts(package.Upper, "Éa")
    assert not accepts(package.Upper, "éa")


def test_numbers_as_json_schema_defines_them(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {
            "rate": {"type": "number", "multipleOf": 0.0001},
            "big": {"type": "integer", "exclusiveMinimum": 18446744073709551615},
            "exact": {"type": "number"},
        },
        "additionalProperties": False,
    }
    package = generate({"numbers.json": contract("numbers.json", "Numbers", body)})
    model = package.Numbers
    assert accepts(model, {"rate": 0.0075})
    assert not accepts(model, {"rate": 0.00751})
    assert accepts(model, {"big": 18446744073709551616})
    assert not accepts(model, {"big": 18446744073709551615})
    value = model.model_validate_json('{"exact": 12345678901234567890123}').exact
    assert value == 12345678901234567890123
    assert type(value) is int  # never rounded to a float


def test_string_lengths_count_code_points(generate: Callable[..., Any]) -> None:
    package = generate({"s.json": contract("s.json", "S", {"type": "string", "maxLength": 1})})
    assert accepts(package.S, "\U0001f4a9")  # one code point, two UTF-16 units
    assert not accepts(package.S, "ab")


def test_one_of_counts_its_matches_and_not_is_enforced(generate: Callable[..., Any]) -> None:
    body = {"oneOf": [{"type": "integer"}, {"minimum": 2}], "not": {"const": 5}}
    package = generate({"pick.json": contract("pick.json", "Pick", body)})
    agree(package.Pick, contract("pick.json", "Pick", body), [1, 3, 1.5, 2.5, 5, "x"])


def test_unique_items_keeps_a_list_and_compares_as_json(generate: Callable[..., Any]) -> None:
    body = {"type": "array", "uniqueItems": True}
    package = generate({"bag.json": contract("bag.json", "Bag", body)})
    assert accepts(package.Bag, [1, True, "1"])
    assert not accepts(package.Bag, [1, 1.0])
    assert not accepts(package.Bag, [{"a": [1]}, {"a": [1.0]}])
    assert type(package.Bag.model_validate_json("[1, 2]").root) is list


def test_format_is_an_annotation(generate: Callable[..., Any]) -> None:
    body = {"type": "string", "format": "email"}
    package = generate({"mail.json": contract("mail.json", "Mail", body)})
    assert accepts(package.Mail, "not an email")  # draft 2020-12: format only annotates


def test_optional_property_without_default_is_missing_when_absent(
    generate: Callable[..., Any],
) -> None:
    body = {
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 0},
            "child": {"$ref": "#/$defs/Child"},
            "note": {"type": ["string", "null"]},
            "gone": {"type": "null"},  # null its only value (found by fuzzing: was refused)
        },
        "additionalProperties": False,
        "$defs": {"Child": {"title": "Child", "type": "object", "additionalProperties": True}},
    }
    package = generate({"counter.json": contract("counter.json", "Counter", body)})
    model = package.Counter
    agree(
        model,
        contract("counter.json", "Counter", body),
        [{}, {"count": 3}, {"count": None}, {"count": -1}, {"child": {"a": 1}}, {"child": None},
         {"note": None}, {"note": "x"}, {"gone": None}, {"gone": 0}, {"gone": "null"}],
    )  # fmt: skip
    assert model.model_validate_json('{"gone": null}').model_dump() == {"gone": None}
    absent = model.model_validate_json("{}")
    assert absent.count is pydantic.MISSING  # absent stays absent, never None
    assert absent.child is pydantic.MISSING
    assert absent.note is pydantic.MISSING  # also where null is a value it may take
    assert absent.gone is pydantic.MISSING
    assert absent.model_dump() == {}
    assert model.model_validate_json('{"note": null}').note is None
    assert model.model_validate_json('{"count": 2}').model_dump(exclude_unset=True) == {"count": 2}


def test_an_untyped_optional_property_is_never_written_as_null(
    generate: Callable[..., Any],
) -> None:
    # Found by tests/test_conformance_keywords.py: a property the field types leave as Any
    # (const, an enum of non-strings, oneOf...) defaulted to None, so model_dump() wrote
    # {"version": null} for {}, a document the schema (and the model) refuse.
    body = {
        "type": "object",
        "properties": {
            "version": {"const": [1, 0]},
            "delay": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            "flag": {"enum": [True, None]},
        },
        "additionalProperties": False,
    }
    schema = contract("report.json", "Report", body)
    model = generate({"report.json": schema}).Report
    agree(
        model,
        schema,
        [{}, {"version": None}, {"version": [1.0, 0]}, {"delay": None}, {"delay": 2},
         {"flag": None}, {"flag": True}, {"flag": 1}],
    )  # fmt: skip
    absent = model.model_validate_json("{}")
    assert absent.version is pydantic.MISSING
    assert absent.model_dump(mode="json") == {}
    assert model.model_validate_json('{"flag": null}').model_dump(mode="json") == {"flag": None}


def test_a_rule_error_names_the_rule(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "why": {"type": ["string", "null"], "default": None},
        },
        "required": ["ok"],
        "additionalProperties": False,
        "allOf": [
            {
                "description": "When ok is false, why must match ^E.",
                "if": {"properties": {"ok": {"const": False}}, "required": ["ok"]},
                "then": {"properties": {"why": {"type": "string", "pattern": "^E"}},
                         "required": ["why"]},
            }
        ],
    }  # fmt: skip
    package = generate({"verdict.json": contract("verdict.json", "Verdict", body)})
    with pytest.raises(pydantic.ValidationError) as info:
        package.Verdict.model_validate_json('{"ok": false, "why": "nope"}')
    [error] = info.value.errors()
    assert error["type"] == "schema_rule"
    assert error["msg"] == "When ok is false, why must match ^E."
    assert error["ctx"] == {"rule": "verdict.json#/allOf/0"}
    assert package.Verdict(ok=False, why="E1").why == "E1"  # built in Python: same rules
    with pytest.raises(pydantic.ValidationError):
        package.Verdict(ok=False)


def test_deep_nesting_is_an_input_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    depth = 1000  # json.dumps itself cannot write this: the text is built by hand
    body = '{"type": "array", "items": ' * depth + '{"type": "string"}' + "}" * depth
    head = json.dumps(contract("deep.json", "Deep", {}))[:-1]
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas/deep.json").write_text(f'{head}, "allOf": [{body}]}}\n')
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/deep"\n'
        'package = "deep"\n'
    )
    code, _ = run(tmp_path, "generate")
    assert code == 2
    err = capsys.readouterr().err
    assert "deep.json:1:" in err
    assert "nested too deeply" in err
    assert "(JSON)" in err
    assert not (tmp_path / "out").exists()


def test_a_tagged_one_of_is_a_discriminated_union(generate: Callable[..., Any]) -> None:
    def branch(title: str, kind: str, field: dict[str, Any]) -> dict[str, Any]:
        return {
            "title": title,
            "description": f"A {kind} event.",
            "type": "object",
            "properties": {"kind": {"const": kind}, **field},
            "required": ["kind", *field],
            "additionalProperties": False,
        }

    body = {
        "type": "object",
        "properties": {
            "event": {"oneOf": [{"$ref": "#/$defs/Click"}, {"$ref": "#/$defs/Key"}]},
        },
        "required": ["event"],
        "additionalProperties": False,
        "$defs": {
            "Click": branch("Click", "click", {"x": {"type": "integer", "minimum": 0}}),
            "Key": branch("Key", "key", {"code": {"type": "string", "pattern": "^[A-Z]$"}}),
        },
    }
    package = generate({"input.json": contract("input.json", "Input", body)})
    model = package.Input
    event = model.model_validate_json('{"event": {"kind": "key", "code": "Q"}}').event
    assert type(event) is package.Key  # typed access: the branch's own class
    assert event.code == "Q"
    agree(
        model,
        contract("input.json", "Input", body),
        [{"event": {"kind": "click", "x": 1}}, {"event": {"kind": "click", "x": -1}},
         {"event": {"kind": "key", "code": "q"}}, {"event": {"kind": "key", "x": 1}},
         {"event": {"kind": "other"}}, {"event": {}}],
    )  # fmt: skip
    with pytest.raises(pydantic.ValidationError) as info:
        model.model_validate_json('{"event": {"kind": "other"}}')
    assert info.value.errors()[0]["type"] == "union_tag_invalid"  # pydantic's tagged union


def test_the_output_format_form_leaves_out_what_the_cli_refuses(tmp_path: Path) -> None:
    """Agent contracts may use 2020-12 keywords: the CLI's form is never stricter than them."""
    from codegen.core.loader import load_tree
    from codegen.generate.consumers.bundle import LEFT_OUT, structured_output_schema

    body = {
        "type": "object",
        "properties": {
            "status": {"enum": ["ok", "failed"]},
            "reason": {"type": "string"},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
            "tags": {"type": "array", "contains": {"const": "x"}, "minContains": 2},
        },
        "required": ["status"],
        "dependentRequired": {"reason": ["status"]},
        "dependentSchemas": {"pair": {"required": ["tags"]}},
        "unevaluatedProperties": False,
    }
    schema_file = tmp_path / "schemas" / "report.json"
    schema_file.parent.mkdir(parents=True)
    schema_file.write_text(json.dumps(contract("report.json", "Report", body)))
    tree = load_tree(tmp_path / "schemas")
    form = structured_output_schema(tree, tree.files[0])
    jsonschema.Draft7Validator.check_schema(form)
    text = json.dumps(form)
    for keyword in [*LEFT_OUT, "dependentRequired", "dependentSchemas"]:
        assert f'"{keyword}"' not in text
    assert form["dependencies"] == {"reason": ["status"], "pair": {"required": ["tags"]}}
    canonical = jsonschema.Draft202012Validator(contract("report.json", "Report", body))
    cli = jsonschema.Draft7Validator(form)
    documents = [
        {"status": "ok"},
        {"status": "ok", "extra": 1},  # unevaluated: the contract refuses it, the form not
        {"status": "ok", "pair": ["a"], "tags": ["x", "x"]},
        {"status": "ok", "pair": ["a", "b"], "tags": ["x", "x"]},
        {"status": "ok", "pair": ["a"]},
        {"status": "ok", "tags": ["x"]},
        {"reason": "r"},
    ]
    for document in documents:
        if canonical.is_valid(document):
            assert cli.is_valid(document), document  # never stricter than the contract
    assert cli.is_valid({"status": "ok", "extra": 1})
    assert not canonical.is_valid({"status": "ok", "extra": 1})  # the model decides


def test_an_exact_prefix_items_array_is_a_tuple(generate: Callable[..., Any]) -> None:
    body = {
        "type": "object",
        "properties": {
            "span": {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}, {"type": "number"}],
                "items": False,
                "minItems": 3,
            },
            "loose": {"type": "array", "prefixItems": [{"type": "string"}]},
        },
        "required": ["span"],
        "additionalProperties": False,
    }
    package = generate({"span.json": contract("span.json", "Span", body)})
    model = package.Span
    value = model.model_validate_json('{"span": ["a.py", 3, 1.5], "loose": ["x", 2]}')
    assert value.span == ("a.py", 3, 1.5)  # typed access: a tuple of exact types
    assert type(value.span) is tuple
    assert value.loose == ["x", 2]  # more items allowed: it stays a list
    agree(
        model,
        contract("span.json", "Span", body),
        [{"span": ["a", 1, 2]}, {"span": ["a", 1.0, 2]}, {"span": ["a", 1]},
         {"span": ["a", 1, 2, 3]}, {"span": [1, 1, 2]}, {"span": ["a", 1.5, 2]},
         {"span": ["a", 1, 2], "loose": [3]}, {"span": ["a", 1, True]}],
    )  # fmt: skip
    assert model.model_validate_json('{"span": ["a", 1, 2]}').model_dump(mode="json") == {
        "span": ["a", 1, 2]
    }


def test_an_inline_object_s_optional_property_is_missing_when_absent(
    generate: Callable[..., Any],
) -> None:
    # Found by tests/test_conformance_keywords.py: the nested class (no title, no validator of
    # its own) defaulted the field to None, so model_dump() wrote {"e": {"n": null}}.
    inner = {"type": "object", "properties": {"n": {"type": "integer"}},
             "additionalProperties": False}  # fmt: skip
    body = {
        "type": "object",
        "properties": {"e": inner, "many": {"type": "array", "items": inner, "default": []}},
        "additionalProperties": False,
    }
    schema = contract("outer.json", "Outer", body)
    model = generate({"outer.json": schema}).Outer
    agree(model, schema, [{"e": {}}, {"e": {"n": 1}}, {"e": {"n": None}}, {"many": [{}]}])
    written = model.model_validate_json('{"e": {}, "many": [{}]}').model_dump(mode="json")
    assert written == {"e": {}, "many": [{}]}
    assert jsonschema.Draft202012Validator(schema).is_valid(written)


def test_what_differential_fuzzing_found(generate: Callable[..., Any]) -> None:
    """Cases tests/test_differential.py's search found: a class that may be null, an enum
    beside other keywords (an Enum class takes no validator and no length), a nullable
    object without properties (typed ``dict | None``, which the generator left open), an
    optional property the generator types ``Any`` (it was refused: "not optional")."""
    files = {
        "maybe_node.json": {  # a class is never null: null must still be accepted
            "type": ["object", "null"],
            "properties": {"b": {"type": "string"}},
            "required": ["b"],
        },
        "maybe_closed.json": {"type": ["null", "object"], "additionalProperties": False},
        "odd_enum.json": {"enum": ["abc"], "const": {"a": 1}},
        "short_enum.json": {"type": "string", "enum": ["a", "abc"], "minLength": 2},
        # unions of strings, which the generator makes Enum classes (they take no validator)
        "odd_union.json": {"anyOf": [{"const": "x", "prefixItems": [{}]}], "minLength": 3},
        "twin_union.json": {"oneOf": [{"const": "x"}, {"const": "x"}]},
        "plain_union.json": {"anyOf": [{"const": "x"}, {"const": "y"}]},
        # a tag whose const stands beside null is no Literal: no discriminated union on it
        "tagged.json": {
            "oneOf": [{"$ref": "#/$defs/A"}],
            "$defs": {
                "A": {
                    "title": "TagA",
                    "type": "object",
                    "required": ["kind", "c"],
                    "properties": {
                        "kind": {"type": "string", "const": "x"},
                        "c": {"type": ["string", "null"], "const": "done"},
                    },
                }
            },
        },
        # a default the generator validates on a union it wraps in a class of its own
        "wrapped.json": {
            "type": "object",
            "properties": {
                "c": {
                    "oneOf": [{"type": "object"}, {"type": "number", "maximum": 2}],
                    "default": "",
                }
            },
        },
        # defaults the generator would validate (fields holding a class) that their own schema
        # refuses: not applied, or every document leaving the property out was refused
        "defaults.json": {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/Part", "default": 0},
                "b": {"$ref": "#/$defs/Part", "default": None},
                "c": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/Part"},
                    "minItems": 1,
                    "default": [],
                },
                "d": {"$ref": "#/$defs/Part", "default": {"n": 1}},
            },
            "$defs": {
                "Part": {
                    "title": "Part",
                    "type": "object",
                    "properties": {"n": {"type": "integer"}},
                }
            },
        },
        "holder.json": {
            "type": "object",
            "properties": {
                "p": {"type": "string", "enum": ["a", "abc"], "minLength": 2},
                "s": {"type": "string", "const": "abc", "maxLength": 2},
                "n": {"type": ["object", "null"], "additionalProperties": False},
                # null among the types, but not among the enum's or const's values
                "ne": {"type": ["string", "null"], "enum": ["a", "b"]},
                "nc": {"type": ["string", "null"], "const": ""},
                # typed Any (the union holds anything), optional without a default: MISSING
                "t": {"type": "object", "properties": {"a": {"anyOf": [{"type": "null"}, {}]}}},
            },
        },
    }
    # a base whose class names a class defined after it (an inline enum), subclassed in
    # another file: the subclass was never complete ("not fully defined")
    files["base_note.json"] = {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "note": {"enum": ["a", "b"]}},
        "required": ["ok"],
    }
    files["sub_note.json"] = {
        "type": "object",
        "allOf": [{"$ref": "base_note.json"}],
        "properties": {"n": {"type": "integer"}},
        "unevaluatedProperties": False,
    }
    titles = {name: "".join(w.title() for w in name[:-5].split("_")) for name in files}
    documents = {n: contract(n, titles[n], body) for n, body in files.items()}
    package = generate(documents)
    cases = {
        "maybe_node.json": [None, {}, {"b": "x"}, {"b": 1}],
        "maybe_closed.json": [None, {}, {"a": 1}],
        "odd_enum.json": ["abc", {"a": 1}],
        "short_enum.json": ["a", "abc", "b"],
        "odd_union.json": ["x", "xyz", [1]],
        "twin_union.json": ["x", "y"],
        "plain_union.json": ["x", "y", "z"],
        "defaults.json": [{}, {"a": {"n": 2}}, {"b": None}, {"c": []}, {"c": [{}]}],
        "tagged.json": [{"kind": "x", "c": "done"}, {"kind": "x", "c": None}, {"kind": "y"}],
        "wrapped.json": [{}, {"c": 1.5}, {"c": 3}, {"c": {}}],

        "holder.json": [{"p": "a"}, {"p": "abc"}, {"s": "abc"}, {"n": None}, {"n": {}},
                        {"n": {"a": 1}}, {"t": {}}, {"t": {"a": None}}, {"t": {"a": [1]}},
                        {"ne": None}, {"ne": "a"}, {"nc": None}, {"nc": ""}],
    }  # fmt: skip
    for name, instances in cases.items():
        agree(getattr(package, titles[name]), documents[name], instances)
    sub = [({"ok": True}, True), ({"ok": True, "note": "a", "n": 1}, True), ({"ok": 1}, False),
           ({"ok": True, "note": "c"}, False), ({"ok": True, "x": 1}, False)]  # fmt: skip
    assert [accepts(package.SubNote, d) for d, _ in sub] == [v for _, v in sub]
    assert accepts(package.MaybeNode, None)
    for t in ({}, {"a": None}):
        assert package.Holder.model_validate_json(json.dumps({"t": t})).model_dump() == {"t": t}
    assert not accepts(package.ShortEnum, "a")
    assert issubclass(package.PlainUnion, enum.StrEnum)  # typed as an Enum where it can be
    empty = package.Defaults.model_validate_json("{}")
    assert empty.a is pydantic.MISSING
    assert empty.d == package.Part(n=1)  # a valid default still applies
