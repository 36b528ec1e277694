"""Every draft, every reference: how the loader reads a schema folder, through generate.

Each test writes a small project, runs ``maverick-codegen generate`` in-process and judges
documents with the generated model (or reads the refusal: file, line, pointer, rule).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest

from codegen.cli import main
from codegen.core.drafts import DRAFTS
from codegen.core.jsonpos import pointer_tokens
from codegen.core.translate import internal_pointer, positions, translate

D04 = "http://json-schema.org/draft-04/schema#"
D07 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


class Project:
    """A project of schema files; ``generate`` runs the real CLI, ``model`` imports a class."""

    def __init__(self, root: Path, files: dict[str, Any], table: str = "") -> None:
        self.root = root
        self.package = f"drafts_{abs(hash(root)) % 10**8}"
        for rel, document in files.items():
            path = root / "schemas" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            text = document if isinstance(document, str) else json.dumps(document, indent=2)
            path.write_text(text + "\n", encoding="utf-8")
        (root / "pyproject.toml").write_text(
            f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{self.package}"\n'
            f'package = "{self.package}"\n{table}',
            encoding="utf-8",
        )

    def generate(self) -> tuple[int, str]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["--config", str(self.root / "pyproject.toml"), "generate"], io.StringIO())
        return code, err.getvalue()

    @contextlib.contextmanager
    def models(self) -> Iterator[Any]:
        code, err = self.generate()
        assert code == 0, err
        sys.path.insert(0, str(self.root / "out"))
        try:
            yield importlib.import_module(self.package)
        finally:
            sys.path.remove(str(self.root / "out"))
            for name in [m for m in sys.modules if m.split(".")[0] == self.package]:
                del sys.modules[name]


def accepts(model: Any, document: Any) -> bool:
    try:
        model.model_validate_json(json.dumps(document))
    except pydantic.ValidationError:
        return False
    return True


def contract(title: str, draft: str | None = None, **body: Any) -> dict[str, Any]:
    head = {"$schema": draft} if draft else {}
    identity = "id" if draft == D04 else "$id"
    return {**head, identity: f"https://example.test/{title.lower()}.json", "title": title, **body}


def test_draft_07_reads_its_own_keywords(tmp_path: Path) -> None:
    schema = contract(
        "Order",
        D07,
        type="object",
        definitions={"short": {"type": "string", "maxLength": 3}},
        properties={
            # draft-07 ignores the keywords beside $ref: maxLength 1 is not applied
            "code": {"$ref": "#/definitions/short", "maxLength": 1},
            "pair": {"type": "array", "items": [{"type": "integer"}], "additionalItems": False},
            "any": {"type": "array", "additionalItems": False},  # ignored: items is no list
        },
        dependencies={"code": ["pair"], "pair": {"required": ["any"]}},
    )
    with Project(tmp_path, {"order.json": schema}).models() as package:
        order = package.Order
        assert accepts(order, {"code": "abc", "pair": [1], "any": []})
        assert not accepts(order, {"code": "abcd", "pair": [1], "any": []})  # the definition
        assert not accepts(order, {"pair": [1, 2], "any": []})  # additionalItems: false
        assert accepts(order, {"any": [1, "x"]})
        assert not accepts(order, {"code": "a"})  # dependencies: code needs pair
        assert not accepts(order, {"pair": [1]})  # dependencies: pair needs any


def test_draft_04_bounds_integers_and_booleans(tmp_path: Path) -> None:
    schema = contract(
        "Measure",
        D04,
        type="object",
        properties={
            "n": {"type": "integer", "maximum": 5, "exclusiveMaximum": True},
            "m": {"type": "number", "minimum": 1, "exclusiveMinimum": False},
            "c": {"const": 1},  # no keyword in draft-04: ignored
        },
        additionalProperties=False,
    )
    with Project(tmp_path, {"measure.json": schema}).models() as package:
        measure = package.Measure
        assert accepts(measure, {"n": 4, "m": 1, "c": 2})
        assert not accepts(measure, {"n": 5})
        assert not accepts(measure, {"n": 1.0})  # draft-04: 1.0 is no integer
        assert not accepts(measure, {"m": 0.5})
        assert not accepts(measure, {"x": 1})


def test_draft_06_integers_accept_a_zero_fraction(tmp_path: Path) -> None:
    schema = contract("Count", "http://json-schema.org/draft-06/schema#", type="integer")
    with Project(tmp_path, {"count.json": schema}).models() as package:
        assert accepts(package.Count, 1.0)
        assert not accepts(package.Count, 1.5)


def test_default_draft_reads_files_without_schema(tmp_path: Path) -> None:
    schema = {"$id": "https://example.test/t.json", "title": "T", "type": "array",
              "items": [{"type": "string"}], "additionalItems": False}  # fmt: skip
    project = Project(tmp_path, {"t.json": schema}, 'default_draft = "draft-07"\n')
    with project.models() as package:
        assert accepts(package.T, ["a"])
        assert not accepts(package.T, ["a", "b"])
        assert not accepts(package.T, [1])


def test_an_unknown_schema_or_draft_is_refused_with_its_line(tmp_path: Path) -> None:
    schema = contract("T", "https://json-schema.org/draft/2099/schema", type="object")
    code, err = Project(tmp_path / "a", {"t.json": schema}).generate()
    assert code == 2
    assert "t.json:2:" in err
    assert "unknown $schema 'https://json-schema.org/draft/2099/schema'" in err
    assert err.splitlines()[0].endswith("at /$schema (DRAFT)")  # the file's reason, then a summary
    code, err = Project(
        tmp_path / "b", {"t.json": contract("T")}, 'default_draft = "7"\n'
    ).generate()
    assert code == 2
    assert "default_draft must be one of draft-04, draft-06, draft-07, 2019-09, 2020-12" in err


def test_references_by_id_by_anchor_and_across_files(tmp_path: Path) -> None:
    base = contract(
        "Base",
        D2019,
        type="object",
        properties={"id": {"type": "string"}},
        **{"$defs": {"code": {"$anchor": "code", "type": "string", "pattern": "^[A-Z]+$"}}},
    )
    user = contract(
        "User",
        D2019,
        type="object",
        properties={
            "base": {"$ref": "https://example.test/base.json"},  # by $id
            "code": {"$ref": "base.json#code"},  # by anchor, relative to this file's $id
        },
    )
    with Project(tmp_path, {"base.json": base, "nested/user.json": user}).models() as package:
        user_model = importlib.import_module(f"{package.__name__}.nested.user").User
        assert accepts(user_model, {"base": {"id": "a"}, "code": "AB"})
        assert not accepts(user_model, {"code": "ab"})
        assert not accepts(user_model, {"base": {"id": 1}})


def test_a_relative_ref_follows_the_id_and_says_so_when_the_path_disagrees(
    tmp_path: Path,
) -> None:
    a = contract("A", type="object")
    a["$id"] = "https://example.test/elsewhere/a.json"
    b = contract("B", type="object", properties={"a": {"$ref": "a.json"}})
    code, err = Project(tmp_path, {"a.json": a, "b.json": b}).generate()
    assert code == 2
    assert "b.json:" in err
    assert "names a.json by path but https://example.test/a.json by the $id of this file" in err
    assert err.splitlines()[0].endswith("at /properties/a/$ref (ID_MIRRORS_PATH)")


def test_urls_resolve_through_the_mapping_only(tmp_path: Path) -> None:
    remote = tmp_path / "vendor"
    remote.mkdir()
    (remote / "money.json").write_text(json.dumps({"type": "number", "minimum": 0}))
    schema = contract(
        "Price", type="object", properties={"amount": {"$ref": "http://vendor.test/s/money.json"}}
    )
    mapped = '[tool.maverick-codegen.refs]\n"http://vendor.test/s/" = "../vendor"\n'
    project = Project(tmp_path / "p", {"price.json": schema}, mapped)
    with project.models() as package:
        assert accepts(package.Price, {"amount": 3})
        assert not accepts(package.Price, {"amount": -1})
        generated = {p.name for p in (tmp_path / "p/out").rglob("*.py")}
        assert "money.py" not in generated  # an external document is never a contract
    code, err = Project(tmp_path / "q", {"price.json": schema}).generate()
    assert code == 2
    line = (
        json.dumps(schema, indent=2)
        .splitlines()
        .index('      "$ref": "http://vendor.test/s/money.json"')
    )
    assert (
        f"price.json:{line + 1}:7: remote $ref 'http://vendor.test/s/money.json' is refused" in err
    )
    assert err.splitlines()[0].endswith("(NO_REMOTE_REF)")  # the file's reason, then a summary


def test_a_metaschema_is_reached_without_a_mapping(tmp_path: Path) -> None:
    schema = contract("Meta", D07, **{"$ref": "http://json-schema.org/draft-07/schema#"})
    with Project(tmp_path, {"meta.json": schema}).models() as package:
        assert accepts(package.Meta, {"type": "string", "minLength": 1})
        assert not accepts(package.Meta, {"minLength": -1})


def test_recursive_ref_extends_a_tree_dynamically(tmp_path: Path) -> None:
    children = {"type": "array", "items": {"$recursiveRef": "#"}}
    tree = {"$schema": D2019, "$id": "https://example.test/tree.json", "title": "Tree",
            "$recursiveAnchor": True, "type": "object",
            "properties": {"children": children}}  # fmt: skip
    strict = {"$schema": D2019, "$id": "https://example.test/strict.json", "title": "Strict",
              "$recursiveAnchor": True, "$ref": "tree.json",
              "unevaluatedProperties": False}  # fmt: skip
    with Project(tmp_path, {"tree.json": tree, "strict.json": strict}).models() as package:
        assert accepts(package.Tree, {"children": [{"x": 1}]})
        assert accepts(package.Strict, {"children": [{"children": []}]})
        assert not accepts(package.Strict, {"children": [{"x": 1}]})  # the nested node is strict


def test_a_tagged_one_of_beside_a_dynamic_reference_is_checked(tmp_path: Path) -> None:
    """Where a reference of the tree is dynamic no ``$ref`` is typed: a tagged ``oneOf`` of
    references is then no discriminated union, its matches are counted by the predicates."""
    tree = {
        "$schema": D2019,
        "$id": "https://example.test/tree.json",
        "title": "Tree",
        "$recursiveAnchor": True,
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$recursiveRef": "#"}}},
    }
    tag = {"type": "object", "required": ["kind"], "additionalProperties": False}
    defs = {
        name: {**tag, "title": f"Tag{name}", "properties": {"kind": {"const": name}}}
        for name in ("A", "B")
    }
    thing = contract(
        "Thing",
        type="object",
        required=["v"],
        properties={"v": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}},
        **{"$defs": defs},
    )
    files = {"tree.json": tree, "thing.json": thing}
    with Project(tmp_path, files).models() as package:  # fmt: skip
        assert accepts(package.Thing, {"v": {"kind": "A"}})
        assert not accepts(package.Thing, {"v": {"kind": "C"}})
        assert not accepts(package.Thing, {"v": {}})


def test_errors_point_into_the_file_as_written(tmp_path: Path) -> None:
    schema = contract("Bad", D07, definitions={"code": {"type": "string", "pattern": "(a"}},
                      items=[{"$ref": "#/definitions/code"}])  # fmt: skip
    code, err = Project(tmp_path, {"bad.json": schema}).generate()
    assert code == 2
    line = json.dumps(schema, indent=2).splitlines().index('      "pattern": "(a"') + 1
    assert f"bad.json:{line}:7: invalid ECMA-262 regular expression '(a'" in err
    assert "at /definitions/code/pattern (PATTERN)" in err


@pytest.mark.parametrize("draft", DRAFTS, ids=lambda d: d.name)
def test_every_schema_position_maps_to_its_internal_pointer(draft: Any) -> None:
    """The internal pointer the resolver computes for a schema is where translate puts it."""
    prefix = [{"minimum": 1}, {"properties": {"x": {"not": {"type": "null"}}}}]
    listed = "prefixItems" not in draft.keywords  # up to 2019-09, items may be a list
    document = {
        "definitions": {"a": {"type": "string"}},
        "$defs": {"b": {"type": "integer"}},
        "items" if listed else "prefixItems": prefix,
        "additionalItems" if listed else "items": {"maxLength": 2},
        "dependencies": {"p": ["q"], "r": {"required": ["s"]}},
        "allOf": [{"$ref": "#/definitions/a", "maxLength": 1}],
        "properties": {"y": {"anyOf": [{"type": "string"}]}},
    }
    internal = translate(document, draft, lambda at, key, value: value).data
    for pointer, node, kept in positions(document, draft):
        inner = internal_pointer(document, draft, pointer)
        if not kept:
            assert inner is None, pointer
            continue
        assert inner is not None, pointer
        found: Any = internal
        for token in pointer_tokens(inner):
            found = found[int(token)] if isinstance(found, list) else found[token]
        assert found == translate(node, draft, lambda at, key, value: value).data, pointer
