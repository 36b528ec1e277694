"""The export for consumers that are not Python: ``export --out``, the bundle, the index."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from codegen.core.config import load_config
from codegen.generate.files.targets import targets_of
from codegen.generate.plan import build_plan
from tests._schema_harness import load, mutations, rules_with_bases, validator_for
from tests.conftest import REPO, run


def files_below(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()
    }


def test_export_out_writes_what_generate_commits(
    make_project: Callable[[str], Path], tmp_path: Path
) -> None:
    project = make_project("inheritance_rules")
    assert run(project, "generate")[0] == 0
    code, out = run(project, "export", "--out", str(tmp_path / "out"))
    assert code == 0, out
    assert files_below(tmp_path / "out") == files_below(project / "expected/export")
    code, out = run(project, "export", "--out", str(tmp_path / "out"))
    assert "0 written, 6 unchanged, 0 removed" in out  # deterministic


def test_export_defaults_to_export_dir_and_needs_a_folder(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    assert run(project, "export")[0] == 0
    assert (project / "expected/export/index.json").is_file()
    project = make_project("single_file")  # configures no export_dir
    assert run(project, "export")[0] == 2
    assert "export needs --out DIR" in capsys.readouterr().err


@pytest.mark.parametrize("inside", ["schemas", "expected/golden_contracts"])
def test_export_refuses_the_schema_and_code_folders(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    project = make_project("inheritance_rules")
    assert run(project, "export", "--out", str(project / inside / "x"))[0] == 2
    assert "must not be inside one another" in capsys.readouterr().err


def test_export_refuses_a_folder_it_did_not_write(
    make_project: Callable[[str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "index.json").write_text('{"mine": true}\n')
    assert run(project, "export", "--out", str(folder))[0] == 2
    assert "(HAND_WRITTEN)" in capsys.readouterr().err
    assert (folder / "index.json").read_text() == '{"mine": true}\n'
    assert not (folder / "bundle.json").exists()


def test_ids_must_mirror_file_paths(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    schema = project / "schemas/tools/problem.json"
    doc = json.loads(schema.read_text())
    doc["$id"] = "https://example.test/elsewhere/problem.json"
    schema.write_text(json.dumps(doc, indent=2))
    assert run(project, "generate")[0] == 2
    err = capsys.readouterr().err
    assert "(ID_MIRRORS_PATH)" in err
    assert "check_result.json:" in err
    assert "/properties/problems/items/$ref" in err


def _without_ids(monkeypatch: pytest.MonkeyPatch, root: Path, files: dict[str, Any]) -> Path:
    """A project of ``files`` whose loader accepts files without ``$id`` (issue 24: a file is
    identified by its path; until the loader does, its identity check is turned off here)."""
    import codegen.core.loader

    monkeypatch.setattr(codegen.core.loader, "_check_identities", lambda *_: None, raising=False)
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/shop"\n'
        'package = "shop_contracts"\nexport_dir = "export"\n\n'
        '[tool.maverick-codegen.export]\nname = "shop"\nversion = "0.1.0"\nnpm_dir = "npm"\n'
    )
    for rel, document in files.items():
        (root / "schemas" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "schemas" / rel).write_text(json.dumps(document, indent=2))
    return root


def test_a_file_without_id_is_identified_by_its_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order = {
        "title": "Order",
        "type": "object",
        "properties": {"item": {"$ref": "item.json"}, "other": {"$ref": "elsewhere.json"}},
    }
    root = _without_ids(monkeypatch, tmp_path, {
        "shop/order.json": order,
        "shop/item.json": {"title": "Item", "type": "object",
                           "properties": {"sku": {"type": "string"}}},
        "shop/elsewhere.json": {"$id": "https://other.example/e.json", "title": "Elsewhere",
                                "type": "string"},
    })  # fmt: skip
    assert run(root, "generate")[0] == 0
    base = "https://maverick-codegen.invalid/shop_contracts/shop/"
    index = json.loads((root / "export/index.json").read_text())
    assert {n: e["$id"] for n, e in index["contracts"].items()} == {
        "Order": f"{base}order.json", "Item": f"{base}item.json",
        "Elsewhere": "https://other.example/e.json",
    }  # fmt: skip
    exported = json.loads((root / "export/schemas/shop/order.json").read_text())
    assert exported["$id"] == f"{base}order.json"
    # item.json resolves against the id made from the path; elsewhere.json's $id does not
    # mirror its path, so the reference names it by $id.
    other = {"$ref": "https://other.example/e.json"}
    assert exported["properties"] == {"item": {"$ref": "item.json"}, "other": other}
    assert f'"id": "{base}order.json"' in (root / "npm/validate.js").read_text()
    bundle = json.loads((root / "export/bundle.json").read_text())
    registry: Registry[Any] = (
        Registry().with_resource("urn:bundle", Resource.from_contents(bundle)).crawl()
    )
    check = jsonschema.Draft202012Validator({"$ref": f"{base}order.json"}, registry=registry)
    assert check.is_valid({"item": {"sku": "a"}, "other": "x"})
    assert not check.is_valid({"item": {"sku": 1}})
    assert not check.is_valid({"other": 1})


def test_two_files_the_export_would_identify_alike_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = "https://maverick-codegen.invalid/shop_contracts/b.json"
    root = _without_ids(monkeypatch, tmp_path, {
        "a.json": {"$id": taken, "title": "A", "type": "string"},
        "b.json": {"title": "B", "type": "string"},
    })  # fmt: skip
    assert run(root, "generate")[0] == 2
    err = capsys.readouterr().err
    assert "(ID_UNIQUE)" in err
    assert f"the export would identify b.json and a.json both as {taken}" in err


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ('export_dir = "schemas/out"', "export_dir and schema_dir must not be inside"),
        ('export_dir = "expected"', "export_dir and output_dir must not be inside"),
        ('export_dir = "."', "export_dir must be a folder below the project"),
        ('export_dir = "../elsewhere"', "outside the project"),
        ('docs_file = "docs/contracts.txt"', "docs_file must name a Markdown (.md) file"),
        ('docs_file = "schemas/contracts.md"', "docs_file must not be inside schema_dir"),
        ('docs_file = "out/c.md"\nexport_dir = "out"', "docs_file must not be inside export_dir"),
        ("docs_file = 3", "docs_file must be a path"),
    ],
)
def test_optional_paths_are_validated(
    make_project: Callable[[str], Path],
    capsys: pytest.CaptureFixture[str],
    lines: str,
    message: str,
) -> None:
    project = make_project("single_file")
    toml = project / "pyproject.toml"
    toml.write_text(
        toml.read_text().replace(
            'package = "golden_contracts"\n', f'package = "golden_contracts"\n{lines}\n'
        )
    )
    assert run(project, "check")[0] == 2
    assert message in capsys.readouterr().err


def test_optional_targets_are_left_out_when_not_configured() -> None:
    config = load_config(REPO / "tests/golden/single_file/pyproject.toml")
    assert [t.name for t in targets_of(config)] == ["code"]


# ---------------------------------------------------------------- the real export's content

PLAN = build_plan(load_config(REPO / "pyproject.toml"))
EXPORT: dict[str, Any] = {str(rel): json.loads(text) for rel, text in PLAN.export_files.items()}
TREE = load(REPO / "schemas")


def test_every_file_is_deterministic_json() -> None:
    for rel, text in PLAN.export_files.items():
        assert (
            text
            == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        ), rel


def test_bundle_embeds_every_schema_by_id_untouched() -> None:
    """This project's files are draft 2020-12 and their ids mirror their paths: the export
    writes them as they are."""
    bundle = EXPORT["bundle.json"]
    assert bundle["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(bundle["$defs"]) == {f.schema_id for f in TREE.files}
    for schema in TREE.files:
        embedded = bundle["$defs"][schema.schema_id]
        assert embedded == schema.data  # $id, $schema and every $ref kept as written
        assert EXPORT[f"schemas/{schema.rel}"] == schema.data


def test_index_maps_names_and_agents_to_ids_and_files() -> None:
    index = EXPORT["index.json"]
    assert index["$comment"].startswith("Code generated by maverick-codegen")
    assert sorted(index["files"]) == sorted(EXPORT)
    assert set(index["contracts"]) == {f.title for f in TREE.files}
    for name, entry in index["contracts"].items():
        assert EXPORT[entry["file"]]["$id"] == entry["$id"] == TREE.by_title[name].schema_id
        assert entry["source"] == f"schemas/{TREE.by_title[name].rel}"
    assert {a: e["contract"] for a, e in index["agents"].items()} == dict(PLAN.config.agents)
    for entry in index["agents"].values():
        structured = EXPORT[entry["structured_output"]]
        assert structured == PLAN.output_schemas[entry["contract"]]
        assert structured["type"] == "object"


def _bundle_validator(schema_id: str) -> jsonschema.protocols.Validator:
    """docs/consumers.md's recipe: python-jsonschema with a referencing registry, the bundle."""
    bundle = Resource.from_contents(EXPORT["bundle.json"])
    registry: Registry[Any] = Registry().with_resource("urn:maverick:bundle", bundle).crawl()
    return jsonschema.Draft202012Validator({"$ref": schema_id}, registry=registry)


@pytest.mark.parametrize("name", sorted(f.title for f in TREE.files))
def test_bundle_judges_like_the_schema_files(name: str) -> None:
    by_file = validator_for(TREE, name)
    by_bundle = _bundle_validator(TREE.by_title[name].schema_id)
    examples = TREE.by_title[name].data["examples"]
    documents = [*examples, *mutations(rules_with_bases(TREE, name), examples)]
    for document in documents:
        assert by_bundle.is_valid(document) == by_file.is_valid(document), document
    assert all(by_bundle.is_valid(e) for e in examples)


def test_index_maps_tools_to_their_self_contained_form() -> None:
    index = EXPORT["index.json"]
    assert {t: e["contract"] for t, e in index["tools"].items()} == dict(PLAN.config.tools)
    assert {t: e["input"]["contract"] for t, e in index["tools"].items()} == dict(
        PLAN.config.tool_inputs
    )
    for tool, entry in index["tools"].items():
        assert index["contracts"][entry["contract"]]["tools"] == [tool]
        assert index["contracts"][entry["input"]["contract"]]["tool_inputs"] == [tool]
        for named in (entry, entry["input"]):
            structured = EXPORT[named["structured_output"]]
            assert structured == PLAN.output_schemas[named["contract"]]
            assert (
                named["structured_output"]
                == f"structured-output/{named['file'].removeprefix('schemas/')}"
            )


@pytest.mark.parametrize(
    "tool", [*sorted(PLAN.config.tools), *(f"{t}:input" for t in sorted(PLAN.config.tool_inputs))]
)
def test_tool_form_judges_like_the_schema_files(tool: str) -> None:
    """allOf + unevaluatedProperties survive inlining: the one-document form is the same contract.

    The base becomes ``#/$defs/ToolResult``; ``unevaluatedProperties`` still sees the base's
    properties through the in-place ``$ref``, so success/error/metadata are allowed and an
    unknown key is refused, exactly as by the files.
    """
    tool, _, which = tool.partition(":")
    entry = EXPORT["index.json"]["tools"][tool]
    entry = entry["input"] if which else entry
    name = entry["contract"]
    by_file = validator_for(TREE, name)
    form = EXPORT[entry["structured_output"]]
    jsonschema.Draft202012Validator.check_schema(form)
    by_form = jsonschema.Draft202012Validator(form)
    examples = TREE.by_title[name].data["examples"]
    documents = [
        *examples,
        *mutations(rules_with_bases(TREE, name), examples),
        *({**e, "surplus": 1} for e in examples),
        *({k: v for k, v in e.items() if k not in ("success", "query", "path")} for e in examples),
        *({**e, "path": ""} for e in examples),
    ]
    verdicts = {True: 0, False: 0}
    for document in documents:
        expected = by_file.is_valid(document)
        assert by_form.is_valid(document) == expected, document
        verdicts[expected] += 1
    assert verdicts[True] >= len(examples)
    assert verdicts[False] > len(examples)


def test_the_structured_output_form_refuses_a_dynamic_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The form has one $defs and no resources: it cannot say a $dynamicRef (the export's
    documents write it as a $ref per dynamic scope). Refused, with its place, never guessed."""
    root = tmp_path / "draft2020"
    shutil.copytree(REPO / "tests/fixtures/drafts/draft2020", root)
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text().replace('biller = "Invoice"', 'biller = "Page"'))
    assert run(root, "generate")[0] == 2
    err = capsys.readouterr().err
    assert "(OUTPUT_FORMAT)" in err
    assert "a dynamic reference cannot be written in the self-contained form" in err
    assert "tree.json:" in err
    assert "/properties/children/items" in err
