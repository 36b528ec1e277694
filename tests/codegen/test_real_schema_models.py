"""The shapes of real schemas that made a wrong model, or none (issue 29), each on a small case.

Every case's files lie in one schema folder, generated once (siblings, as a user's folder
holds them); each document is decided by the generated class as python-jsonschema decides it
(the file's own draft, ECMA-262 patterns). The cases, by what went wrong:

* a class dropped keys before its rules looked at them (pydantic's ``extra="ignore"``): a
  definition whose properties come from ``allOf`` references to schemas that are no object
  class (``tsconfig``), or with rules ``required`` and ``anyOf`` of ``not: {required}``;
* a class inherited what ``allOf`` does not say: a closed base let the subclass's properties
  through; two bases declaring one property were merged with one of the two types (``7``
  accepted where an enumeration or an array is required);
* a field took null that its ``$ref`` refuses (a reference to an array definition, a chain of
  references);
* datamodel-code-generator named one of our classes otherwise (an inline object named from its
  property, which took a definition's name; a definition named ``Field``, pydantic's), read a
  ``$defs`` key with dots as a module path or one with slashes twice, and a root model's
  ``default`` or ``deprecated`` made it nullable or unable to validate;
* a description holding a carriage return shifted every edit after it;
* sibling versions of one schema in one folder: the classes of the second, numbered, were named
  otherwise by the generator;
* two files with dashes, one referring to the other from a nested object (a traceback).
"""

from __future__ import annotations

import importlib
import io
import json
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pydantic
import pytest

from codegen.cli import main
from codegen.core.config import load_config
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree
from tests._suite import importable
from tests.conftest import run

D04 = "http://json-schema.org/draft-04/schema#"
D07 = "http://json-schema.org/draft-07/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"

# file -> (schema, documents)
CASES: dict[str, tuple[dict[str, Any], list[Any]]] = {
    # A draft-04 definition without properties of its own: they come through a base, and its
    # rules (required, anyOf of not-required) read keys the class must keep.
    "profile.json": (
        {
            "$schema": D04,
            "type": "object",
            "properties": {"profile": {"$ref": "#/definitions/profile"}},
            "definitions": {
                "named": {"properties": {"name": {"type": "string"}, "alias": {"type": "string"}}},
                "profile": {
                    "type": "object",
                    "allOf": [{"$ref": "#/definitions/named"}],
                    "required": ["name"],
                    "anyOf": [
                        {"not": {"required": ["alias"]}},
                        {"not": {"required": ["nickname"]}},
                    ],
                },
            },
        },
        [
            {"profile": {"name": "x"}},
            {"profile": {"name": "x", "alias": "y"}},
            {"profile": {"alias": "y"}},
            {"profile": {"name": "x", "alias": "y", "nickname": "z"}},
            {"profile": {"name": 7}},
        ],
    ),
    # tsconfig's shape: the root's properties all come from definitions without "type".
    "compiler.json": (
        {
            "$schema": D04,
            "type": "object",
            "allOf": [{"$ref": "#/definitions/options"}, {"$ref": "#/definitions/files"}],
            "definitions": {
                "options": {
                    "properties": {
                        "options": {
                            "type": ["object", "null"],
                            "properties": {"strict": {"type": ["boolean", "null"]}},
                        }
                    }
                },
                "files": {"properties": {"files": {"type": "array", "items": {"type": "string"}}}},
            },
        },
        [
            {"options": {"strict": True}, "files": ["a.ts"]},
            {"options": {"strict": 2.5}},
            {"files": [1]},
            {"files": "a.ts"},
            {},
        ],
    ),
    # Two bases declaring one property: the subclass must hold both of its schemas.
    "rules.json": (
        {
            "$schema": D07,
            "type": "object",
            "allOf": [{"$ref": "#/definitions/any"}, {"$ref": "#/definitions/level"}],
            "definitions": {
                "any": {"type": "object", "properties": {"quotes": {}}},
                "level": {
                    "type": "object",
                    "properties": {
                        "quotes": {
                            "anyOf": [{"enum": ["off", "warning", "error"]}, {"type": "array"}]
                        }
                    },
                },
            },
        },
        [{"quotes": "off"}, {"quotes": ["error", "double"]}, {"quotes": 7}, {"quotes": "on"}, {}],
    ),
    # A closed base: the subclass's own property is refused by the base.
    "closed.json": (
        {
            "$schema": D2020,
            "type": "object",
            "allOf": [{"$ref": "#/$defs/base"}],
            "properties": {"b": {"type": "integer"}},
            "$defs": {
                "base": {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}},
                    "additionalProperties": False,
                }
            },
        },
        [{"a": 1}, {"a": 1, "b": 2}, {"c": 1}, {}],
    ),
    # A field whose reference refuses null: an array definition, a chain of references, a
    # union without "type" (docfx's content: a string or arrays); and one whose union takes it.
    "nullable.json": (
        {
            "$schema": D07,
            "type": "object",
            "properties": {
                "platforms": {"$ref": "#/definitions/platforms"},
                "icon": {"$ref": "#/definitions/icon"},
                "content": {"$ref": "#/definitions/content"},
                "either": {"$ref": "#/definitions/either"},
            },
            "definitions": {
                "platforms": {"type": "array", "uniqueItems": True},
                "icon": {"$ref": "#/definitions/uri"},
                "uri": {"type": "string"},
                "content": {
                    "anyOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string"}},
                        {"type": "array", "items": {"$ref": "#/definitions/item"}},
                    ]
                },
                "item": {"type": "object", "properties": {"files": {"type": "string"}}},
                "either": {"oneOf": [{"type": "string"}, {"type": "null"}]},
            },
        },
        [
            {"platforms": ["a"]},
            {"platforms": None},
            {"icon": "a.png"},
            {"icon": None},
            {},
            {"content": None},
            {"content": "x"},
            {"content": [{"files": "a"}]},
            {"content": 1},
            {"either": None},
            {"either": "x"},
            {"either": 1},
        ],
    ),
    # Names the generator chose otherwise: an inline object named from its property
    # ("notifications" -> Notification) before the definition of that name, an enumeration
    # named from its property as the contract, a definition named as pydantic's Field.
    "builtins.json": (
        {
            "$schema": D07,
            "title": "Raised",
            "type": "object",
            "properties": {
                "error": {"$ref": "#/definitions/Exception"},
                "missing": {"$ref": "#/definitions/KeyError"},
                # An inline object the generator names after its property: Exception again.
                "exception": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["code"],
                        "properties": {"code": {"type": "integer"}},
                    },
                },
            },
            "definitions": {
                "Exception": {
                    "type": "object",
                    "properties": {"message": {"type": "string"}},
                    "required": ["message"],
                    "if": {"required": ["message"]},
                    "then": {"properties": {"message": {"minLength": 2}}},
                },
                "KeyError": {
                    "type": "object",
                    # A property named as a runtime check the package has only when
                    # formats are asserted: the module must not import it.
                    "properties": {"key": {"type": "integer"}, "_format": {"type": "string"}},
                    "dependencies": {"key": ["where"], "_format": ["key"]},
                },
            },
        },
        [
            {"error": {"message": "ab"}, "missing": {"key": 1, "where": 2}},
            {"error": {"message": "a"}},
            {"error": {}},
            {"missing": {"key": 1}},
            {"missing": {"where": "x"}},
            {"error": 7},
            {"exception": [{"code": 1}, {"code": 2, "more": True}]},
            {"exception": [{"code": "1"}]},
            {"exception": [{}]},
            {"missing": {"_format": "x", "key": 1, "where": 0}},
            {"missing": {"_format": "x"}},
            {"missing": {"_format": 1, "key": 1, "where": 0}},
        ],
    ),
    "notify.json": (
        {
            "$schema": D07,
            "title": "Notify",
            "type": "object",
            "properties": {
                "notifications": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "recipients": {"type": "array", "items": {"type": "string"}}
                        },
                    },
                },
                "notify": {"enum": ["all", "none"]},
                "field": {"$ref": "#/definitions/Field"},
                "other": {"$ref": "#/definitions/notification"},
            },
            "definitions": {
                "notification": {
                    "type": "object",
                    "properties": {
                        "recipients": {"type": "array", "anyOf": [{"type": "array", "maxItems": 1}]}
                    },
                },
                "Field": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
            },
        },
        [
            {"notifications": [{"recipients": ["a", "b"]}]},
            {"other": {"recipients": ["a", "b"]}},
            {"other": {"recipients": ["a"]}},
            {"notify": "all"},
            {"notify": "some"},
            {"field": {"name": "x"}},
            {"field": {}},
        ],
    ),
    # $defs keys with dots (read as module paths) and, through the internal form, with slashes
    # (a reference into a place no keyword names: read twice).
    "keys.json": (
        {
            "$schema": D2020,
            "type": "object",
            "properties": {
                "bicep": {"$ref": "#/$defs/resource.azure.bicep.v0"},
                "value": {"$ref": "#/$defs/value.v1"},
                "full": {"$ref": "#/definitions/a1/full"},
            },
            "$defs": {
                "resource.azure.bicep.v0": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
                "value.v1": {"type": "string", "minLength": 2},
            },
            "definitions": {
                "a1": {
                    "full": {
                        "title": "Full",
                        "type": "object",
                        "properties": {"n": {"type": "integer"}},
                    }
                }
            },
        },
        [
            {"bicep": {"path": "x"}},
            {"bicep": {}},
            {"full": {"n": 1}},
            {"full": {"n": "1"}},
            {"value": "ab"},
            {"value": "a"},
        ],
    ),
    # A root array with a default and a deprecated definition that is a root model.
    "roots.json": (
        {
            "$schema": D07,
            "type": "array",
            "default": [],
            "items": {"$ref": "#/definitions/style"},
            "definitions": {"style": {"deprecated": True, "description": "Old.\rStill read."}},
        },
        [[], [True], None, {}],
    ),
    # A carriage return in descriptions, before a class the postprocessor edits.
    "carriage.json": (
        {
            "$schema": D07,
            "type": "object",
            "description": "One line.\rAnother.",
            "properties": {
                "a": {
                    "type": "object",
                    "description": "x\ry",
                    "properties": {"b": {"type": "string", "description": "z\r\rw"}},
                }
            },
        },
        [{"a": {"b": "s"}}, {"a": {"b": 1}}],
    ),
}
# Sibling versions of one schema: the second file's classes are numbered (DoseEscalationLevel2),
# which the generator named otherwise ("lacks class DoseEscalationLevel2").
for _version in (2, 3):
    CASES[f"forecast-{_version}.0.0.json"] = (
        {
            "$schema": D07,
            "title": "Forecast",
            "type": "object",
            "properties": {"level": {"$ref": "#/definitions/DoseEscalationLevel"}},
            "definitions": {
                "DoseEscalationLevel": {
                    "title": "Dose Escalation Level",
                    "oneOf": [{"$ref": "#/definitions/First"}, {"$ref": "#/definitions/Final"}],
                },
                "First": {
                    "title": "First Dose Escalation Level",
                    "type": "object",
                    "properties": {"first": {"const": True}, "dose": {"type": "number"}},
                    "required": ["first"],
                },
                "Final": {
                    "title": "Final Dose Escalation Level",
                    "type": "object",
                    "properties": {"first": {"const": False}, "rate": {"type": "number"}},
                    "required": ["first"],
                },
            },
        },
        [
            {"level": {"first": True, "dose": 1}},
            {"level": {"first": False, "rate": "x"}},
            {"level": {}},
            {"level": {"first": False, "rate": 2}},
        ],
    )
# Two files with dashes, one referring to the other's definition from a nested object.
DASHED = {
    "pre-commit-hooks.json": {"$schema": D07, "type": "array", "items": {"type": "object"},
                              "definitions": {"stages": {"type": "array", "items": {
                                  "enum": ["commit", "push"]}}}},
    "pre-commit-config.json": {"$schema": D07, "type": "object", "properties": {
        "repos": {"type": "array", "items": {"type": "object", "properties": {
            "stages": {"$ref": "pre-commit-hooks.json#/definitions/stages"}}}}}},
}  # fmt: skip
DASHED_DOCUMENTS = [{"repos": [{"stages": ["commit"]}]}, {"repos": [{"stages": ["pull"]}]},
                    {"repos": [{"stages": None}]}]  # fmt: skip


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Every case generated in one folder: each file's class and its judge."""
    project = tmp_path_factory.mktemp("real-shapes")
    schemas = project / "schemas"
    schemas.mkdir()
    for name, (schema, _) in CASES.items():
        (schemas / name).write_text(json.dumps(schema, indent=1), encoding="utf-8")
    for name, schema in DASHED.items():
        (schemas / name).write_text(json.dumps(schema, indent=1), encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/shapes"\n'
        'package = "shapes"\n',
        encoding="utf-8",
    )
    code, out = run(project, "generate")
    assert code == 0, out
    tree = load_tree(schemas, options=load_config(project / "pyproject.toml").loading)
    registry = tree_registry(tree)
    found: dict[str, Any] = {}
    with importable(project / "out", "shapes"):
        for schema in tree.files:
            module = importlib.import_module(".".join(("shapes", *schema.module_parts)))
            found[schema.rel.as_posix()] = (
                getattr(module, schema.title),
                validator_at(registry, schema).is_valid,
            )
        yield found


def _verdicts(model: Any, judge: Any, documents: list[Any]) -> list[tuple[Any, bool, bool]]:
    adapter = pydantic.TypeAdapter(model)
    found = []
    for document in documents:
        try:
            adapter.validate_json(json.dumps(document))
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        found.append((document, judge(document), accepted))
    return found


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_document_is_decided_as_python_jsonschema_decides_it(
    generated: dict[str, Any], name: str
) -> None:
    model, judge = generated[name]
    verdicts = _verdicts(model, judge, CASES[name][1])
    assert [(d, truth) for d, truth, accepted in verdicts if accepted != truth] == []
    assert {truth for _, truth, _ in verdicts} == {True, False}  # both kinds are tried


def test_two_dashed_files_referring_from_a_nested_object_generate(
    generated: dict[str, Any],
) -> None:
    """``pre-commit-config.json`` names ``pre-commit-hooks.json#/definitions/stages`` from an
    item's property: the reference between the generator's module files is read back as
    written (it raised ``KeyError: 'pre_commit_hooks.json'``)."""
    model, judge = generated["pre-commit-config.json"]
    verdicts = _verdicts(model, judge, DASHED_DOCUMENTS)
    assert [(truth, accepted) for _, truth, accepted in verdicts] == [
        (True, True),
        (False, False),
        (False, False),
    ]


def test_a_class_named_as_pydantic_field_is_numbered(generated: dict[str, Any]) -> None:
    model, _ = generated["notify.json"]
    module = importlib.import_module(model.__module__)
    assert module.Field is pydantic.Field
    assert module.Field2.model_fields["name"].is_required()


def test_a_class_named_as_a_python_builtin_is_numbered(generated: dict[str, Any]) -> None:
    """Definitions named ``Exception`` and ``KeyError`` (a real API gateway's schema): pydantic
    resolved the annotation to the builtin before the module's class was defined, and the
    model did not build."""
    model, _ = generated["builtins.json"]
    module = importlib.import_module(model.__module__)
    assert module.Exception2.model_fields["message"].is_required()
    assert module.KeyError2.model_fields["key"].annotation is not None
    assert "Exception" not in vars(module)
    assert "KeyError" not in vars(module)
    # The inline class the generator named Exception is numbered too.
    [inline] = [
        c for n, c in vars(module).items() if n.startswith("Exception") and n != "Exception2"
    ]
    assert inline.model_fields["code"].is_required()


def test_the_model_names_the_rule_as_the_file_writes_it(generated: dict[str, Any]) -> None:
    """A draft-04 file's definition is ``#/definitions/profile`` in an error's ``rule`` and
    message, not the internal ``#/$defs/profile``."""
    model, _ = generated["profile.json"]
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate({"profile": {"alias": "y"}})
    error = caught.value.errors()[0]
    assert error["ctx"]["rule"] == "profile.json#/definitions/profile"
    assert "$defs" not in error["msg"]
    assert PurePosixPath(error["ctx"]["rule"].split("#")[0]).name == "profile.json"


def test_a_failure_while_editing_the_generated_code_names_the_schema_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edit the generator's code defeats (IndexError in _defer_build, once) is a refusal
    that names the file and the rule, never a traceback that names none."""
    from codegen.generate.models import assemble

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise IndexError("list index out of range")

    monkeypatch.setattr(assemble, "use_missing", broken)
    (tmp_path / "schemas").mkdir()
    note = {"$schema": D2020, "title": "Note", "type": "object", "properties": {"text": {}}}
    (tmp_path / "schemas" / "note.json").write_text(json.dumps(note), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/notes"\n'
        'package = "notes"\n',
        encoding="utf-8",
    )
    code = main(["--config", str(tmp_path / "pyproject.toml"), "generate"], io.StringIO())
    error = capsys.readouterr().err
    assert code == 2
    assert error.startswith(f"{tmp_path / 'schemas' / 'note.json'}:1:1: ")
    assert "IndexError: list index out of range" in error
    assert error.rstrip().endswith("(GENERATOR)")


def test_a_circle_of_bases_is_refused_and_a_circle_through_a_property_generates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The generator refused a circle of allOf references ('Generated model inheritance
    cycle'); no class is extended along one now. Where the circle applies a schema to the same
    value (allOf, not, $ref) no validator decides any document: refused, REF_CYCLE. Through a
    property it is a recursive schema, and generates."""
    (tmp_path / "schemas").mkdir()
    defs = {"x": {"type": "object", "allOf": [{"$ref": "#/definitions/y"}],
                  "properties": {"p": {"type": "string"}}},
            "y": {"type": "object", "allOf": [{"$ref": "#/definitions/x"}]}}  # fmt: skip
    looped = {"$schema": D07, "type": "object", "definitions": defs,
              "properties": {"x": {"$ref": "#/definitions/x"}}}  # fmt: skip
    (tmp_path / "schemas" / "looped.json").write_text(json.dumps(looped), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/loops"\n'
        'package = "loops"\n',
        encoding="utf-8",
    )
    code = main(["--config", str(tmp_path / "pyproject.toml"), "generate"], io.StringIO())
    error = capsys.readouterr().err
    assert code == 2
    assert "looped.json#/definitions/x -> looped.json#/definitions/x/allOf/0" in error
    assert error.splitlines()[0].endswith("(REF_CYCLE)")  # then the line counting the refusals
    defs["y"] = {"type": "object", "properties": {"x": {"$ref": "#/definitions/x"}}}
    (tmp_path / "schemas" / "looped.json").write_text(json.dumps(looped), encoding="utf-8")
    code = main(["--config", str(tmp_path / "pyproject.toml"), "generate"], io.StringIO())
    assert code == 0, capsys.readouterr().err
