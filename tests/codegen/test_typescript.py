"""The TypeScript declarations: each schema construct and the type it becomes.

A type must hold every document its schema accepts (``tests/consumers/test_npm_package.py``
compiles every valid conformance document against them) and be exact where TypeScript can
say it: these cases pin the text of each form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from codegen.core.loader import load_tree
from codegen.generate.consumers.ts_names import class_names
from codegen.generate.consumers.typescript import declaration_module

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def declarations(tmp_path: Path, files: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Write the schema files (``$schema``, ``$id`` and ``title`` added) and emit each one's
    module, header left out."""
    for rel, data in files.items():
        path = tmp_path / "schemas" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        document = {"$schema": DRAFT, "$id": f"https://t.test/{rel}", **data}
        path.write_text(json.dumps(document, indent=2))
    tree = load_tree(tmp_path / "schemas")
    names = class_names(tree)
    return {
        schema.rel.as_posix(): declaration_module(tree, names, schema, "//")[0].removeprefix("//")
        for schema in tree.files
    }


def one(tmp_path: Path, data: dict[str, Any]) -> str:
    return declarations(tmp_path, {"a.json": {"title": "A", **data}})["a.json"]


def test_required_optional_nullable_and_literal_types(tmp_path: Path) -> None:
    text = one(
        tmp_path,
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "count": {"type": ["integer", "null"], "default": None},
                "mode": {"type": ["string", "null"], "enum": ["fast", None, 1]},
                "any": {"enum": [1, "x", True, None, 2.0]},
                "one": {"const": 1.0},
                "pair": {"const": [1, {"a": "b"}]},
                "free": {},
            },
            "required": ["name", "undeclared"],
            "additionalProperties": False,
        },
    )
    assert "  name: string;\n" in text
    assert "  count?: number | null;\n" in text
    assert '  mode?: "fast" | null;\n' in text  # the type filters the enum
    assert '  any?: 1 | "x" | true | null | 2;\n' in text
    assert "  one?: 1;\n" in text
    assert '  pair?: [1, { a: "b"; }];\n' in text
    assert "  free?: unknown;\n" in text
    assert "  undeclared: unknown;\n" in text  # required, declared by no property
    assert "[key: string]" not in text  # closed: a literal with another key does not compile


def test_tuples_from_prefix_items(tmp_path: Path) -> None:
    pair = [{"type": "string"}, {"type": "integer"}]
    text = one(
        tmp_path,
        {
            "type": "object",
            "properties": {
                "exact": {"type": "array", "prefixItems": pair, "items": False, "minItems": 2},
                "short": {"type": "array", "prefixItems": pair, "items": False, "minItems": 1},
                "rest": {"type": "array", "prefixItems": pair, "items": {"type": "boolean"},
                         "minItems": 2},
                "open": {"type": "array", "prefixItems": pair},
                "list": {"type": "array", "items": {"type": ["string", "null"]}},
                "bare": {"type": "array"},
            },
            "additionalProperties": False,
        },
    )  # fmt: skip
    assert "  exact?: [string, number];\n" in text
    assert "  short?: [string, number?];\n" in text
    assert "  rest?: [string, number, ...boolean[]];\n" in text
    assert "  open?: [string?, number?, ...unknown[]];\n" in text
    assert "  list?: (string | null)[];\n" in text
    assert "  bare?: unknown[];\n" in text


def test_open_closed_and_indexed_objects(tmp_path: Path) -> None:
    text = one(
        tmp_path,
        {
            "type": "object",
            "properties": {
                "open": {"type": "object"},
                "numbers": {"type": "object", "additionalProperties": {"type": "number"}},
                "labels": {"type": "object", "additionalProperties": False,
                           "patternProperties": {"^l_": {"type": "string"}, "^n_": {"const": 1}}},
                "empty": {"type": "object", "additionalProperties": False},
                "mixed": {"type": "object", "properties": {"a": {"type": "string"}},
                          "additionalProperties": {"type": "number"}},
                "my-key": {"type": "boolean"},
                "2nd": {"type": "boolean"},
            },
        },
    )  # fmt: skip
    assert "  open?: { [key: string]: unknown };\n" in text
    assert "  numbers?: { [key: string]: number };\n" in text
    assert "  labels?: { [key: string]: string | 1 };\n" in text
    assert "  empty?: { [key: string]: never };\n" in text  # {} would accept any value
    # Declared properties must fit the index signature: another key is unknown.
    assert "  mixed?: {\n    a?: string;\n    [key: string]: unknown;\n  };\n" in text
    assert '  "my-key"?: boolean;\n' in text
    assert '  "2nd"?: boolean;\n' in text
    assert text.endswith("  [key: string]: unknown;\n};\n")  # the root is open


def test_a_subclass_closed_by_unevaluated_properties_lists_its_bases_properties(
    tmp_path: Path,
) -> None:
    base = {
        "title": "Base",
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "note": {"type": ["string", "null"]}},
        "required": ["ok"],
        "allOf": [{"if": {"properties": {"ok": {"const": False}}},
                   "then": {"properties": {"why": {"type": "string"}}, "required": ["why"]}}],
    }  # fmt: skip
    sub = {
        "title": "Sub",
        "type": "object",
        "properties": {"note": {"type": "string"}, "size": {"type": "integer"}},
        "unevaluatedProperties": False,
        "allOf": [{"$ref": "base.json"}],
    }
    found = declarations(tmp_path, {"base.json": base, "sub.json": sub})
    assert found["sub.json"] == (
        "\n\nexport type Sub = {\n"
        "  ok: boolean;\n"
        "  note?: (string | null) & string;\n"  # both schemas apply to it
        "  size?: number;\n"
        "  why?: unknown;\n"  # evaluated by the base's rule: allowed, typed by nothing
        "};\n"
    )
    assert found["base.json"].endswith("  [key: string]: unknown;\n};\n")  # the base is open
    # An open subclass is the base and its own properties.
    del sub["unevaluatedProperties"]
    found = declarations(tmp_path / "open", {"base.json": base, "sub.json": sub})
    assert 'import type { Base } from "./base.js";' in found["sub.json"]
    assert "export type Sub = Base & {\n" in found["sub.json"]


def test_unions_references_and_recursion(tmp_path: Path) -> None:
    found = declarations(
        tmp_path,
        {
            "agents/node.json": {
                "title": "Node",
                "type": "object",
                "properties": {
                    "kids": {"type": "array", "items": {"$ref": "#"}},
                    "leaf": {"anyOf": [{"$ref": "../tools/leaf.json"}, {"type": "null"}]},
                    "step": {"oneOf": [{"$ref": "#/$defs/Go"}, {"$ref": "#/$defs/Stop"}]},
                    "loop": {"$ref": "#/$defs/loop"},
                    "both": {"allOf": [{"anyOf": [{"type": "string"}, {"type": "number"}]},
                                       {"$ref": "#/$defs/Go"}]},
                },
                "additionalProperties": False,
                "$defs": {
                    "Go": {"title": "Go", "type": "object", "properties": {"k": {"const": "go"}},
                           "required": ["k"], "additionalProperties": False},
                    "Stop": {"title": "Stop", "type": "object",
                             "properties": {"k": {"const": "stop"}}, "required": ["k"],
                             "additionalProperties": False},
                    "loop": {"type": "array", "items": {"$ref": "#/$defs/loop"}},
                },
            },
            "tools/leaf.json": {"title": "Leaf", "type": "string", "enum": ["a", "b"]},
        },
    )  # fmt: skip
    text = found["agents/node.json"]
    assert text.startswith('\nimport type { Leaf } from "../tools/leaf.js";\n')
    assert "  kids?: Node[];\n" in text
    assert "  leaf?: Leaf | null;\n" in text
    assert "  step?: Go | Stop;\n" in text  # each branch has its literal tag: discriminated
    assert "  loop?: unknown[];\n" in text  # an untitled definition inside itself: validate decides
    assert "  both?: (string | number) & Go;\n" in text
    assert 'export type Go = {\n  k: "go";\n};' in text
    assert found["tools/leaf.json"] == '\n\nexport type Leaf = "a" | "b";\n'


def test_descriptions_defaults_and_deprecations_are_doc_comments(tmp_path: Path) -> None:
    text = one(
        tmp_path,
        {
            "description": "Two lines.\nThe second ends a comment: */ here.",
            "type": "object",
            "properties": {
                "old": {"type": "string", "description": "Use new.", "deprecated": True},
                "tags": {"type": "array", "items": {"type": "string"}, "default": ["é"]},
                "plain": {"type": "boolean", "description": "Short."},
            },
            "additionalProperties": False,
        },
    )
    assert text.startswith(
        "\n\n/**\n * Two lines.\n * The second ends a comment: *\\/ here.\n */\n"
    )
    assert "  /**\n   * Use new.\n   * @deprecated\n   */\n  old?: string;\n" in text
    assert '  /** @default ["é"] */\n  tags?: string[];\n' in text
    assert "  /** Short. */\n  plain?: boolean;\n" in text


@pytest.mark.parametrize(
    ("files", "declared"),
    [
        ({"a.json": {"title": "enum", "type": "string"}}, {"a.json": ["Enum"]}),
        (
            {
                "a.json": {"title": "A", "type": "string", "$defs": {"x": {"title": "B"}}},
                "b.json": {"title": "B", "type": "string"},
            },
            {"a.json": ["A", "B"], "b.json": ["B2"]},
        ),
    ],
)
def test_a_title_typescript_cannot_declare_gets_a_derived_name(
    tmp_path: Path, files: dict[str, dict[str, Any]], declared: dict[str, list[str]]
) -> None:
    """Titles are not identities (issue 24): a reserved word is capitalised, a collision is
    numbered in file order, as the Python classes are."""
    modules = declarations(tmp_path, files)
    assert {
        rel: re.findall(r"^export type (\w+)", text, re.M) for rel, text in modules.items()
    } == declared


# A property declared without a type beside branches that type it, a map of every key, an untitled
# definition that contains itself through a property (an alias) and one that names itself, values
# a ``not`` of a type alone refuses.
WIDER = {
    "type": "object",
    "properties": {
        "mode": {"enum": ["auto", "manual"]},
        "address": {"title": "typed by the branches"},
        "extra": {},
        "byKey": {"type": "object", "patternProperties": {".*": {"type": "integer"}}},
        "tree": {"$ref": "#/$defs/tree"},
        "loop": {"$ref": "#/$defs/loop"},
        "attributes": {"type": "object", "additionalProperties": {"not": {"type": "null"}}},
        "label": {"type": ["string", "integer"], "not": {"type": "number", "title": "a title"}},
        "someNumber": {"not": {"type": "integer"}},
        "notAnEmail": {"not": {"type": "string", "format": "email"}},
        "level": {
            "allOf": [
                {"$ref": "#/$defs/base"},
                {"properties": {"count": {}, "flag": {"type": "boolean"}}, "required": ["name"]},
            ]
        },
        "entryAlone": {"$ref": "#/properties/level/allOf/1"},
        "secret": {
            "type": "object",
            "required": ["kind"],
            "oneOf": [
                {"properties": {"kind": {"const": "env"}, "value": {"type": "string"}}},
                {"required": ["path"], "properties": {"kind": {"const": "file"}}},
            ],
        },
    },
    "$defs": {
        "base": {"type": "object", "properties": {"count": {"type": "integer"}, "name": {}}},
        "tree": {
            "oneOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}
                    },
                },
            ]
        },
        "loop": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/loop"}]},
    },
    "oneOf": [
        {"properties": {"mode": {"const": "auto"}, "address": {"type": ["string", "null"]}}},
        {"properties": {"mode": {"const": "manual"}, "address": {"type": "string"}}},
        {"type": "string"},
    ],
    "allOf": [{"properties": {"extra": {"type": "boolean"}}}],
}
# Documents the schema accepts: their types must compile (tests/consumers/test_typescript.py).
WIDER_VALID = [
    {
        "mode": "auto",
        "address": None,
        "extra": True,
        "byKey": {"a": 1},
        "loop": 2,
        "tree": {"children": ["a", {"children": []}, {"other": 1}]},
        "attributes": {"a": "x", "b": 1, "c": True, "d": [None], "e": {"f": None}},
        "label": "x",
        "someNumber": 1.5,
        "notAnEmail": False,
        "secret": {"kind": "env", "value": "v"},
        "level": {"count": 1, "flag": True, "name": None},
        "entryAlone": {"count": "any value: the base does not apply", "name": 2},
    },
    {"mode": "manual", "address": "x", "byKey": {}, "someNumber": None, "notAnEmail": None},
    {
        "mode": "manual",
        "address": "x",
        "someNumber": [1],
        "notAnEmail": 1,
        "secret": {"kind": "file", "path": 1},
    },
    {"mode": "manual", "address": "x", "someNumber": {"a": 1}, "notAnEmail": {}},
    {"mode": "manual", "address": "y", "unknown": [1]},
]


def test_a_property_without_a_type_takes_the_branches_types(tmp_path: Path) -> None:
    text = one(tmp_path, WIDER)
    assert "  address?: string | null;\n" in text  # the union over the branches
    assert "  extra?: boolean;\n" in text  # from the allOf entry
    # ".*" takes every key: additionalProperties judges none, the values are the pattern's.
    assert "  byKey?: { [key: string]: number };\n" in text
    assert "  tree?: string | {\n    children?: _tree[];\n" in text
    assert "\ntype _tree = string | {\n  children?: _tree[];\n" in text  # not exported
    assert "  loop?: unknown;\n" in text  # type _loop = number | _loop would be circular
    # A ``not`` of a type alone refuses that type (a number: every integer too); with a format
    # (which may be asserted) it refuses some values only.
    values = "{ [key: string]: unknown } | unknown[] | string | number | boolean"
    assert f"  attributes?: {{ [key: string]: {values} }};\n" in text
    assert "  label?: string;\n" in text
    assert f"  someNumber?: {values} | null;\n" in text
    assert "  notAnEmail?: unknown;\n" in text
    # Required but declared by no property: as the branches type it (path: by none, any value).
    assert '    kind: "env" | "file";\n' in text
    assert "    path: unknown;\n" in text
    # Untyped in an allOf entry: as another entry of the same allOf types it (name: none does).
    assert "    count?: number;\n    flag?: boolean;\n    name: unknown;\n" in text
    # A reference to that entry alone applies it alone: its count is any value.
    assert "    count?: unknown;\n    flag?: boolean;\n    name: unknown;\n" in text
