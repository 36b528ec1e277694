"""``maverick-codegen breaking``: rule fixtures, a real git repository, the real schemas.

``tests/fixtures/breaking/<RULE_ID>/`` holds ``previous/`` and ``current/`` (which must yield
the rule; ``expected.txt`` holds its findings as text) and ``compatible/`` (a change of the
same element that must not yield it). ``UPDATE_FIXTURES=1`` rewrites the expected files.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.breaking.gitref import parse_ref
from codegen.breaking.table import (
    BREAKING_RULES,
    DEFAULT_USE,
    Side,
    compare,
    directions_for,
    parse_selection,
    select,
)
from codegen.core.errors import CodegenError
from codegen.core.loader import load_tree
from codegen.core.report import Finding, render
from tests.conftest import REPO, git, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "breaking"
RULE_IDS = [rule.id for rule in BREAKING_RULES]


def findings_of(rule: str, variant: str) -> list[Finding]:
    folder = FIXTURES / rule
    previous = Side(load_tree(folder / "previous"), "previous")
    current = Side(load_tree(folder / variant), variant)
    return compare(previous, current)


def test_every_rule_has_fixtures_and_every_fixture_a_rule() -> None:
    assert len(RULE_IDS) == len(set(RULE_IDS))
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(RULE_IDS)
    for rule in RULE_IDS:
        for part in ("previous", "current", "compatible", "expected.txt"):
            assert (FIXTURES / rule / part).exists(), f"{rule}/{part} is missing"


@pytest.mark.parametrize("rule", RULE_IDS)
def test_current_fixture_yields_its_rule(rule: str) -> None:
    findings = findings_of(rule, "current")
    mine = render([f for f in findings if f.rule == rule], "text").splitlines()
    assert mine, f"{rule} did not fire: {render(findings, 'text')}"
    expected = FIXTURES / rule / "expected.txt"
    if os.environ.get("UPDATE_FIXTURES"):
        expected.write_text("\n".join(mine) + "\n")
    assert mine == expected.read_text().splitlines()


@pytest.mark.parametrize("rule", RULE_IDS)
def test_compatible_fixture_does_not_yield_it(rule: str) -> None:
    findings = findings_of(rule, "compatible")
    assert not [f for f in findings if f.rule == rule], render(findings, "text")


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_data_finding_of_a_fixture_has_one_direction_and_a_witness(rule: str) -> None:
    for variant in ("current", "compatible"):
        for finding in findings_of(rule, variant):
            data = [c for c in finding.categories if c.startswith("DATA_")]
            if data:
                assert len(data) == 1, finding
                assert (finding.witness is None) == (finding.rule == "CHANGE_UNPROVEN"), finding


@pytest.mark.parametrize("rule", RULE_IDS)
def test_no_change_yields_nothing(rule: str) -> None:
    previous = Side(load_tree(FIXTURES / rule / "previous"), "previous")
    assert compare(previous, previous) == []


def test_the_repository_default_is_additive_only_and_old_data_loads() -> None:
    assert parse_selection(DEFAULT_USE) == {"CODEGEN", "DATA_BACKWARD", "PROPERTY_DELETED"}
    findings = compare(
        Side(load_tree(FIXTURES / "ENUM_VALUE_ADDED/previous"), "p"),
        Side(load_tree(FIXTURES / "ENUM_VALUE_ADDED/current"), "c"),
    )
    assert findings
    assert select(findings, parse_selection(DEFAULT_USE)) == []  # forward-only: allowed
    assert select(findings, parse_selection(["DATA_FORWARD"])) == findings


def test_a_deletion_breaks_backward_only_under_a_closed_content_model() -> None:
    [closed] = compare(
        Side(load_tree(FIXTURES / "PROPERTY_DELETED/previous"), "p"),
        Side(load_tree(FIXTURES / "PROPERTY_DELETED/current"), "c"),
    )
    # Old data holding the property no longer loads; new data still loads in old readers.
    assert closed.categories == ("CODEGEN", "DATA_BACKWARD")
    assert 'Mark it "deprecated": true instead.' in closed.message
    assert json.loads(closed.witness or "null")["tags"] == []


def test_unknown_category_is_a_usage_error() -> None:
    with pytest.raises(CodegenError, match="unknown breaking category or rule 'DATA_SIDEWAYS'"):
        parse_selection(["CODEGEN", "DATA_SIDEWAYS"])


def test_buf_style_git_inputs() -> None:
    assert parse_ref("HEAD~1") == "HEAD~1"
    assert parse_ref(".git#branch=main") == "main"
    assert parse_ref(".git#tag=v1.0") == "refs/tags/v1.0"


# ---------------------------------------------------------------------------- the real schemas


def edited(tmp_path: Path, rel: str, change: Callable[[dict[str, Any]], object]) -> Side:
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    path = tmp_path / "schemas" / rel
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return Side(load_tree(tmp_path / "schemas"), "schemas")


REAL = Side(load_tree(REPO / "schemas"), "schemas")


def rules_of(side: Side) -> list[tuple[str, str]]:
    return [(f.rule, f.pointer) for f in compare(REAL, side)]


def test_a_shared_reference_is_compared_once_where_it_is_defined(tmp_path: Path) -> None:
    def drop_renamed(d: dict[str, Any]) -> None:
        d["enum"].remove("renamed")
        d["examples"].remove("renamed")

    side = edited(tmp_path, "agents/change_type.json", drop_renamed)
    assert rules_of(side) == [("ENUM_VALUE_REMOVED", "/enum")]  # not again in FileChange


def test_a_reference_replaced_by_its_inline_copy_is_no_change(tmp_path: Path) -> None:
    def inline(d: dict[str, Any]) -> None:
        change_type = d["properties"]["change_type"]
        del change_type["$ref"]
        change_type.update(type="string", enum=["added", "modified", "deleted", "renamed"])

    assert rules_of(edited(tmp_path, "agents/file_change.json", inline)) == []


def test_null_branch_removed_from_an_any_of_narrows(tmp_path: Path) -> None:
    side = edited(
        tmp_path,
        "agents/review_result.json",
        lambda d: d["properties"].update(
            {"usage": {"$ref": "usage_stats.json", "description": "Usage."}}
        ),
    )
    [finding] = compare(REAL, side)
    assert finding.rule == "TYPE_NARROWED"
    assert finding.message == (
        'The type of property "usage" of ReviewResult (/properties/usage) was narrowed: '
        "it no longer accepts null."
    )
    assert json.loads(finding.witness or "{}")["usage"] is None


def test_nested_items_and_integer_line_of_finding(tmp_path: Path) -> None:
    side = edited(
        tmp_path, "agents/finding.json", lambda d: d["properties"]["line"].update(type="string")
    )
    [finding] = compare(REAL, side)
    assert finding.rule == "TYPE_NARROWED"
    assert finding.message == (
        'The type of property "line" of Finding (/properties/line) was narrowed from '
        '["integer", "string"] to ["string"]: it no longer accepts a number.'
    )
    side = edited(
        tmp_path / "2",
        "agents/task_result.json",
        lambda d: d["properties"]["tests_added"]["items"].update(minLength=1),
    )
    [finding] = compare(REAL, side)
    assert finding.rule == "CONSTRAINT_TIGHTENED"
    assert 'property "tests_added[]" of TaskResult' in finding.message


def test_an_optional_property_added_to_the_open_base_breaks_closed_subclass_readers(
    tmp_path: Path,
) -> None:
    side = edited(
        tmp_path,
        "tools/tool_result.json",
        lambda d: d["properties"].update(
            {"duration_ms": {"type": "integer", "default": 0, "description": "Duration."}}
        ),
    )
    findings = compare(REAL, side)
    # Each closed subclass's old readers refuse it; the open base's do not. The open base
    # accepted any value under that name, and now only an integer: old data may not load.
    assert {(f.rule, f.categories, f.path) for f in findings} == {
        ("TYPE_NARROWED", ("DATA_BACKWARD",), "schemas/tools/tool_result.json"),
        *(
            ("PROPERTY_ADDED_CLOSED", ("DATA_FORWARD",), f"schemas/tools/{name}.json")
            for name in ("compliance_result", "dependency_result", "file_result", "search_result")
        ),
    }
    assert all("duration_ms" in json.loads(f.witness or "{}") for f in findings)


# ---------------------------------------------------------------------------- a real git repository


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding the PROPERTY_DELETED fixture's previous tree, committed."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "PROPERTY_DELETED/previous", root / "schemas")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
    )
    assert git(root, "init", "-q", "-b", "main").returncode == 0
    git(root, "add", "-A")
    assert git(root, "commit", "-qm", "first").returncode == 0
    return root


def edit_note(repo: Path, change: Callable[[dict[str, Any]], object]) -> None:
    path = repo / "schemas/note.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def test_breaking_change_committed_is_found_against_the_previous_commit(repo: Path) -> None:
    edit_note(repo, lambda d: d["required"].append("done"))
    git(repo, "commit", "-qam", "done is now required")
    status_before = git(repo, "status", "--porcelain").stdout
    code, out = run(repo, "breaking", "--against", "HEAD~1")
    assert code == 1, out
    assert 'schemas/note.json:33:5: Property "done" of Note (/properties/done) was made' in out
    assert "(PROPERTY_MADE_REQUIRED)" in out
    assert git(repo, "status", "--porcelain").stdout == status_before  # work tree untouched
    code, out = run(repo, "breaking", "--against", "HEAD~1", "--format", "github")
    assert code == 1
    assert out.startswith(
        "::error file=schemas/note.json,line=33,col=5,title=PROPERTY_MADE_REQUIRED::"
    )
    code, out = run(repo, "breaking", "--against", "HEAD~1", "--categories", "DATA_FORWARD")
    assert code == 0, out


def test_additive_optional_property_passes_and_default_ref_is_head(repo: Path) -> None:
    edit_note(
        repo,
        lambda d: d["properties"].update(
            {"author": {"type": "string", "default": "", "description": "Who wrote it."}}
        ),
    )
    code, out = run(repo, "breaking")
    assert code == 0, out
    assert "no breaking changes in schemas/ against HEAD" in out


def test_deleting_a_property_is_refused_with_the_fix(repo: Path) -> None:
    edit_note(repo, lambda d: d["properties"].pop("tags"))
    code, out = run(repo, "breaking", "--format", "json")
    assert code == 1
    [finding] = json.loads(out)
    assert finding["rule"] == "PROPERTY_DELETED"
    assert finding["path"] == "schemas/note.json"  # the previous file: the property is gone
    assert 'Mark it "deprecated": true instead.' in finding["message"]


def test_default_ref_is_the_upstream_branch_when_one_is_configured(repo: Path) -> None:
    git(repo, "branch", "base")
    git(repo, "config", "branch.main.remote", ".")
    git(repo, "config", "branch.main.merge", "refs/heads/base")
    edit_note(repo, lambda d: d["properties"]["text"].update(minLength=3))
    git(repo, "commit", "-qam", "tighten")
    code, out = run(repo, "breaking")
    assert code == 1
    assert "against base" in out
    assert "(CONSTRAINT_TIGHTENED)" in out


def test_configured_default_and_bad_inputs(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = repo / "pyproject.toml"
    toml.write_text(
        toml.read_text() + '\n[tool.maverick-codegen.breaking]\nuse = ["DATA_FORWARD"]\n'
    )
    edit_note(repo, lambda d: d["required"].append("done"))
    assert run(repo, "breaking")[0] == 0  # backward-only change, forward-only policy
    assert run(repo, "breaking", "--categories", "FOO")[0] == 2
    assert run(repo, "breaking", "--against", "no-such-branch")[0] == 2
    assert "'no-such-branch' names no commit" in capsys.readouterr().err


def test_schema_folder_absent_at_the_revision_is_no_breaking_change(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "README").write_text("x\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "before schemas")
    shutil.copytree(FIXTURES / "PROPERTY_DELETED/previous", root / "schemas")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
    )
    assert run(root, "breaking")[0] == 0


# ---------------------------------------------------------------------------- this repository


def test_current_schemas_have_no_breaking_change_against_head() -> None:
    assert git(REPO, "rev-parse", "--verify", "-q", "HEAD").returncode == 0, "needs a git checkout"
    code, out = run(REPO, "breaking", "--against", "HEAD")
    assert code == 0, out


def test_a_rule_restating_a_declared_type_is_no_change(tmp_path: Path) -> None:
    previous = Side(load_tree(FIXTURES / "RULE_CHANGED/previous"), "p")

    def variant(name: str, change: Callable[[dict[str, Any]], object]) -> Side:
        shutil.copytree(FIXTURES / "RULE_CHANGED/previous", tmp_path / name)
        path = tmp_path / name / "note.json"
        data = json.loads(path.read_text())
        change(data["allOf"][0])
        path.write_text(json.dumps(data, indent=2) + "\n")
        return Side(load_tree(tmp_path / name), name)

    restated = variant("restated", lambda r: r["if"]["properties"]["done"].update(type="boolean"))
    assert compare(previous, restated) == []
    # reason is declared ["string", "null"]: the rule's "string" excludes null, so it counts.
    loosened = variant("loosened", lambda r: r["then"]["properties"]["reason"].pop("type"))
    assert [f.rule for f in compare(previous, loosened)] == ["RULE_CHANGED"]


def test_only_the_directions_a_selection_shows_are_asked() -> None:
    """The default selection shows no DATA_FORWARD finding, so that direction is not asked
    (a recursive schema's forward proof may take the solver its whole search); a forward rule
    or the category asks it."""
    assert directions_for(parse_selection(DEFAULT_USE)) == ("DATA_BACKWARD",)
    assert directions_for(parse_selection(["CODEGEN"])) == ()
    both = ("DATA_BACKWARD", "DATA_FORWARD")
    assert directions_for(parse_selection(["DATA_BACKWARD", "DATA_FORWARD"])) == both
    assert directions_for(parse_selection(["CONSTRAINT_LOOSENED"])) == ("DATA_FORWARD",)
    assert directions_for(parse_selection(["CHANGE_UNPROVEN"])) == both


def _defs_side(root: Path, defs: dict[str, Any]) -> Side:
    folder = root / "schemas"
    folder.mkdir(parents=True)
    note = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Note",
            "type": "object", "properties": {"level": {"$ref": "#/$defs/level"}},
            "$defs": defs}  # fmt: skip
    (folder / "note.json").write_text(json.dumps(note, indent=2) + "\n")
    return Side(load_tree(folder), root.name)


def test_class_deleted_compares_the_class_names_the_generator_derives(tmp_path: Path) -> None:
    """A title written otherwise that derives the same class name is no finding; an untitled
    object schema of ``$defs`` is a class too, and deleting it is one."""
    counted = {"type": "object", "properties": {"n": {"type": "integer"}}}
    previous = _defs_side(tmp_path / "previous", {"level": {**counted, "title": "level"},
                                                  "extra-part": counted})  # fmt: skip
    retitled = _defs_side(tmp_path / "retitled", {"level": {**counted, "title": "Level"},
                                                  "extra-part": counted})  # fmt: skip
    assert previous.tree.files[0].classes == retitled.tree.files[0].classes
    assert compare(previous, retitled) == []
    deleted = _defs_side(tmp_path / "deleted", {"level": {**counted, "title": "level"}})
    [finding] = compare(previous, deleted)
    assert (finding.rule, finding.pointer) == ("CLASS_DELETED", "/$defs/extra-part")
    assert finding.message == (
        'Previously generated class "ExtraPart" of Note (/$defs/extra-part) was deleted or renamed.'
    )
