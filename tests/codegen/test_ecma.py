"""The ECMA-262 oracle (codegen.core.ecma) judges a file as written, by its own draft.

What the suite's schemas found wrong in it, when the oracle judged documents the suite does not
hold (tests/test_model_exact.py): each case below failed before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.core.config import load_config
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def oracle(tmp_path: Path, document: dict[str, Any], draft: str = "2020-12") -> Any:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "c.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/p"\npackage = "p"\n'
        f'default_draft = "{draft}"\n',
        encoding="utf-8",
    )
    config = load_config(tmp_path / "pyproject.toml")
    tree = load_tree(tmp_path / "schemas", options=config.loading)
    return validator_at(tree_registry(tree), tree.files[0], "")


def test_the_root_s_relative_references_resolve_against_its_id(tmp_path: Path) -> None:
    # A file is registered under its path and its $id: a reference looked up by the path
    # resolved "child1" against the path, where nothing is.
    check = oracle(tmp_path, {
        "$schema": DRAFT, "$id": "http://localhost:1234/draft2020-12/foobar", "title": "C",
        "$defs": {"A": {"$id": "child1", "allOf": [
            {"$id": "child2", "$anchor": "my_anchor", "type": "number"},
            {"$anchor": "my_anchor", "type": "string"}]}},
        "$ref": "child1#my_anchor",
    })  # fmt: skip
    assert check.is_valid("a")
    assert not check.is_valid(1)


def test_patterns_stay_ecma_262_past_a_reference_to_a_file_with_schema(tmp_path: Path) -> None:
    # python-jsonschema picks the class of a schema declaring $schema by it: the standard one,
    # whose Python re refuses \p{L}.
    check = oracle(tmp_path, {
        "$schema": DRAFT, "$id": "https://example.test/c.json", "title": "C",
        "$defs": {"letters": {"$schema": DRAFT, "pattern": "^\\p{L}+$"}},
        "$ref": "#/$defs/letters",
    })  # fmt: skip
    assert check.is_valid("été")
    assert not check.is_valid("1")


def test_unevaluated_properties_sees_through_dynamic_references(tmp_path: Path) -> None:
    check = oracle(tmp_path, {
        "$schema": DRAFT, "$id": "https://example.test/derived", "title": "C",
        "$ref": "./baseSchema",
        "$defs": {
            "derived": {"$dynamicAnchor": "addons", "properties": {"bar": {"type": "string"}}},
            "baseSchema": {
                "$id": "./baseSchema", "unevaluatedProperties": False,
                "properties": {"foo": {"type": "string"}}, "$dynamicRef": "#addons",
                "$defs": {"defaultAddons": {"$dynamicAnchor": "addons"}},
            },
        },
    })  # fmt: skip
    assert check.is_valid({"foo": "foo", "bar": "bar"})
    assert not check.is_valid({"foo": "foo", "bar": "bar", "baz": "baz"})


def test_unevaluated_properties_sees_through_recursive_references(tmp_path: Path) -> None:
    check = oracle(tmp_path, {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://example.test/extended-tree", "title": "C", "$recursiveAnchor": True,
        "$ref": "./tree", "properties": {"name": {"type": "string"}},
        "$defs": {"tree": {
            "$id": "./tree", "$recursiveAnchor": True, "type": "object", "required": ["node"],
            "properties": {"node": True, "branches": {
                "unevaluatedProperties": False, "$recursiveRef": "#"}}}},
    }, draft="2019-09")  # fmt: skip
    assert check.is_valid({"name": "a", "node": 1, "branches": {"name": "b", "node": 2}})
    assert not check.is_valid({"name": "a", "node": 1, "branches": {"foo": "b", "node": 2}})
