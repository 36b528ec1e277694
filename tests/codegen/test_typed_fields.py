"""Every field its most specific exact type (issue 30), and the types change no verdict.

* A definition with ``properties`` and no ``"type": "object"`` is a class with typed fields;
  each reference to it is the union of the class and the other JSON types (the definition
  admits them); inline, and at a root, the union too. ``allOf`` of one reference is that
  reference's type; maps are ``dict[str, T]``; an array with ``prefixItems`` and ``items`` is
  ``list[T]``; an ``enum`` of mixed values the union of their types.
* The model decides every document as the schema does, and each dump is accepted again.
* A consumer's code reads the typed fields of a real corpus schema's class that has no
  ``"type": "object"`` under ``mypy --strict``.
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pydantic
from jsonschema import Draft202012Validator

from tests import _corpus
from tests._typed import count_declarations
from tests.conftest import mypy_strict

D2020 = "https://json-schema.org/draft/2020-12/schema"
SCHEMA = {
    "$schema": D2020,
    "$id": "https://example.com/typed.json",
    "title": "Typed",
    "type": "object",
    "properties": {
        "inline": {"properties": {"x": {"type": "string"}}},
        "items": {"type": "array", "items": {"allOf": [{"$ref": "#/$defs/Point"}]}},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "points": {"type": "object", "patternProperties": {".*": {"$ref": "#/$defs/Point"}}},
        "mixed": {"enum": ["a", 1, None]},
        "number": {"const": 3},
        "pair": {
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "items": {"type": "integer"},
        },
        "loose": {"$ref": "#/$defs/Loose"},
        "short": {"$ref": "#/$defs/Short"},
        # count is typed by the other entry, where the entry is one of the allOf only.
        "level": {"allOf": [{"$ref": "#/$defs/Point"}, {"properties": {"n": {}, "f": {}}}]},
        "alone": {"$ref": "#/properties/level/allOf/1"},
    },
    "$defs": {
        "Point": {"type": "object", "properties": {"n": {"type": "number"}}},
        "Loose": {"properties": {"k": {"type": "string"}}, "required": ["k"]},
        "Short": {"properties": {"k": {"type": "string"}}, "maxLength": 2},
    },
}
OTHERS = "list[Any] | StrictBool | JsonNumber | StrictStr | None"
EXPECTED = {
    "inline": f"Inline | {OTHERS} | MISSING",
    "items": "list[Point] | MISSING",
    "counts": "dict[str, JsonInt] | MISSING",
    "points": "dict[str, Point] | MISSING",
    "mixed": "JsonNumber | Mixed | None | MISSING",
    "number": "JsonNumber | MISSING",
    "pair": "list[StrictStr | JsonInt] | MISSING",
    "loose": f"Loose | {OTHERS} | MISSING",
    "short": f"Short | {OTHERS} | MISSING",
}
DOCUMENTS: list[Any] = [
    {}, None, [], {"inline": "s"}, {"inline": {"x": "s"}}, {"inline": {"x": 1}},
    {"items": [{"n": 1}, {}]}, {"items": [{"n": "1"}]}, {"items": [1]},
    {"counts": {"a": 1}}, {"counts": {"a": 1.5}}, {"counts": {"a": "1"}},
    {"points": {"a": {"n": 2.5}}}, {"points": {"a": {"n": None}}}, {"points": {"a": 3}},
    {"mixed": "a"}, {"mixed": 1}, {"mixed": 1.0}, {"mixed": None}, {"mixed": "b"},
    {"mixed": 2}, {"mixed": True}, {"number": 3}, {"number": 3.0}, {"number": 4},
    {"number": True}, {"pair": ["s", 1, 2]}, {"pair": ["s"]}, {"pair": [1]},
    {"pair": ["s", "t"]}, {"loose": {"k": "v"}}, {"loose": {}}, {"loose": "anything"},
    {"loose": [1]}, {"loose": 1.5}, {"loose": None}, {"short": "ab"}, {"short": "abc"},
    {"short": {"k": "v"}}, {"short": {"k": 1}}, {"short": True},
    {"level": {"n": 1}}, {"level": {"n": "1"}}, {"alone": {"n": "1"}}, {"alone": {"n": 1}},
]  # fmt: skip


def _fields(path: Path, name: str) -> dict[str, str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (cls,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    return {
        n.target.id: ast.unparse(n.annotation)
        for n in cls.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def test_each_field_has_its_most_specific_type_and_decides_as_the_schema(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "schemas").mkdir(parents=True)
    (project / "schemas" / "typed.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/typed_fields"\n'
        'package = "typed_fields"\n',
        encoding="utf-8",
    )
    assert _corpus._generate(project) == (0, "")
    module_path = next((project / "out").rglob("typed.py"))
    fields = _fields(module_path, "Typed")
    assert {k: fields[k] for k in EXPECTED} == EXPECTED
    assert _fields(module_path, "Loose") == {"k": "StrictStr"}
    assert _fields(module_path, "Alone")["n"] == "Any | MISSING"  # the entry alone
    package = module_path.parent.name
    sys.path.insert(0, str(module_path.parent.parent))
    try:
        model = importlib.import_module(f"{package}.typed").Typed
        adapter = pydantic.TypeAdapter(model)
        validator = Draft202012Validator(SCHEMA)
        wrong = []
        for document in DOCUMENTS:
            try:
                value = adapter.validate_json(json.dumps(document))
            except pydantic.ValidationError:
                accepted = False
            else:
                accepted = True
                dumped = json.loads(adapter.dump_json(value))
                assert validator.is_valid(dumped), (document, dumped)
                adapter.validate_json(json.dumps(dumped))
            if accepted != validator.is_valid(document):
                wrong.append(document)
        assert wrong == []
    finally:
        sys.path.remove(str(module_path.parent.parent))
        for name in [m for m in sys.modules if m.split(".")[0] == package]:
            del sys.modules[name]


def test_a_consumer_reads_the_fields_of_a_class_without_an_object_type(tmp_path: Path) -> None:
    rel = "schemastore/enonic-xp-task-8.0.0-B4.json"
    data = json.loads((_corpus.CORPUS / "schemas" / rel).read_text(encoding="utf-8"))
    assert "type" not in data["$defs"]["textLineDef"]  # properties, no "type": "object"
    project, package = _corpus._project(tmp_path / "work", "typed", [rel])
    assert _corpus._generate(project)[0] == 0
    program = (
        f"from {package}.schemastore.enonic_xp_task_8_0_0_b4 import InputsDef, TextLineDef\n"
        "def label(field: TextLineDef) -> str:\n"
        "    return field.name + (field.regexp if isinstance(field.regexp, str) else '')\n"
        "def names(inputs: InputsDef) -> str | None:\n"
        "    return inputs.root.name if isinstance(inputs.root, TextLineDef) else None\n"
    )
    done = mypy_strict(program, project / "out", tmp_path)
    assert done.returncode == 0, done.stdout


def test_the_typescript_count_reads_unions_containers_and_named_types() -> None:
    """bench_typed's TypeScript measure: which property types say nothing."""
    text = """
    export type A = {
      a: string | null;
      b?: (unknown)[];
      c: { [key: string]: unknown };
      d: { [key: string]: unknown; x: "a;b" | 2 };
      e: Array<unknown> | null;
      g: (string | unknown);
      h: N;
      i: I[];
      j: M;
    };
    type N = unknown;
    interface I { [k: string]: unknown; }
    type M = N | null;
    """
    counts = count_declarations([text, text])  # a signature written twice is one distinct
    assert counts == {"properties": 20, "vague": 14, "distinct": 10, "distinct vague": 7}
