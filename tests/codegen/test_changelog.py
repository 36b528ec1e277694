"""``maverick-codegen changelog``: each kind of change, its bump, the renderings, the CLI on git.

``tests/fixtures/changelog/<case>/`` holds ``previous/`` and ``current/`` schema folders and
the changelog between them as ``expected.md`` and ``expected.json``; ``UPDATE_FIXTURES=1``
rewrites the expected files (read the diff: it is the changelog a release manager sees).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from codegen.breaking.changelog import (
    BUMPS,
    KIND_BUMPS,
    KINDS,
    Bump,
    Changelog,
    Entry,
    changelog,
    kind_of,
    next_version,
    sides_at,
)
from codegen.breaking.changelog_format import Header, render_json, render_markdown
from codegen.breaking.table import Side
from codegen.core.loader import load_tree
from codegen.core.report import Finding
from tests.conftest import commit_all, git, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "changelog"
HEADER = Header("schemas", "v1.4.2", ("1.4.2", "2.0.0"))

# case -> the bump it implies and the kinds of its entries
CASES: dict[str, tuple[Bump, set[str]]] = {
    "added_contract": ("minor", {"added"}),
    "added_definition": ("minor", {"added"}),
    "added_enum_value": ("minor", {"added", "widened"}),
    # the Note is closed (additionalProperties: false): old readers refuse the new property
    "added_property": ("minor", {"added", "widened"}),
    "deprecation": ("minor", {"deprecated", "documentation"}),
    "documentation": ("patch", {"documentation"}),
    "default_changed": ("patch", {"changed"}),
    "rewrite": ("patch", {"changed"}),
    # draft-07 to 2020-12: the same documents (DRAFT_CHANGED), or maxItems beside $ref applied
    "draft_rewrite": ("patch", {"changed"}),
    "draft_tightening": ("major", {"changed", "tightened"}),
    "widening": ("minor", {"widened"}),
    "tightening": ("major", {"tightened"}),
    "removal": ("major", {"removed", "documentation"}),
    "unchanged": ("none", set()),
}


def sides(case: str) -> tuple[Side, Side]:
    folder = FIXTURES / case
    return (
        Side(load_tree(folder / "previous"), "schemas"),
        Side(load_tree(folder / "current"), "schemas"),
    )


def test_every_fixture_is_a_case() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_kind_of_change_and_its_bump(case: str) -> None:
    log = changelog(*sides(case))
    bump, kinds = CASES[case]
    assert {entry.kind for entry in log.entries} == kinds
    assert log.bump == bump
    assert all(entry.contract in ("Note", "Topic") for entry in log.entries)


@pytest.mark.parametrize("case", sorted(CASES))
def test_markdown_and_json_are_as_expected(case: str) -> None:
    log = changelog(*sides(case))
    header = Header("schemas", "v1.4.2", ("1.4.2", next_version("1.4.2", log.bump)))
    for name, text in (
        ("expected.md", render_markdown(log, header)),
        ("expected.json", render_json(log, header)),
    ):
        expected = FIXTURES / case / name
        if os.environ.get("UPDATE_FIXTURES"):
            expected.write_text(text)
        assert text == expected.read_text(), f"{case}/{name}"


def test_the_entries_say_what_changed_and_where() -> None:
    [deprecated] = [e for e in changelog(*sides("deprecation")).entries if e.kind == "deprecated"]
    assert deprecated.message == (
        'Property "count" of Note (/properties/count) was deprecated: How often it was seen. '
        "Deprecated: use tags instead."
    )
    assert (deprecated.path, deprecated.pointer) == (
        "schemas/note.json",
        "/properties/count/deprecated",
    )
    assert (deprecated.line, deprecated.column) == (18, 7)
    [added] = [e for e in changelog(*sides("added_enum_value")).entries if e.kind == "added"]
    assert (
        added.message
        == 'Definition "Level" of Note (/$defs/Level) lists the new enum value "medium".'
    )
    docs = [(e.pointer, e.message) for e in changelog(*sides("documentation")).entries]
    assert docs == [
        ("/description", 'The description and examples of contract "Note" changed.'),
        (
            "/properties/text/title",
            'The title of property "text" of Note (/properties/text) changed.',
        ),
        (
            "/properties/meta/$comment",
            'The $comment of property "meta" of Note (/properties/meta) changed.',
        ),
    ]
    [contract] = changelog(*sides("added_contract")).entries
    assert (contract.contract, contract.rule, contract.path) == (
        "Topic",
        "CONTRACT_ADDED",
        "schemas/topic.json",
    )


def test_a_class_title_is_no_documentation_change(tmp_path: Path) -> None:
    previous, _ = sides("unchanged")
    shutil.copytree(FIXTURES / "unchanged/previous", tmp_path / "schemas")
    path = tmp_path / "schemas/note.json"
    data = json.loads(path.read_text())
    data["$defs"]["Level"]["title"] = "Urgency"
    path.write_text(json.dumps(data, indent=2) + "\n")
    log = changelog(previous, Side(load_tree(tmp_path / "schemas"), "schemas"))
    assert {(e.kind, e.rule) for e in log.entries} == {("removed", "CLASS_DELETED")}
    assert log.bump == "major"


def test_a_description_change_inside_an_added_property_is_the_addition_alone() -> None:
    log = changelog(*sides("added_property"))
    assert [e.rule for e in log.entries if e.kind == "added"] == ["PROPERTY_ADDED"]
    assert not [e for e in log.entries if e.kind == "documentation"]


def test_contracts_and_the_bump_of_each() -> None:
    log = changelog(*sides("added_contract"))
    assert list(log.contracts()) == ["Topic"]
    assert (log.bump_of("Topic"), log.bump_of("Note")) == ("minor", "none")
    log = changelog(*sides("tightening"))
    assert list(log.contracts()) == ["Note"]
    assert log.bump_of("Note") == log.bump == "major"


# ---------------------------------------------------------------------------- the engine's API


def test_findings_sort_by_category_and_an_unproven_change_is_a_possible_break() -> None:
    def finding(rule: str, *categories: str) -> Finding:
        return Finding("schemas/note.json", 3, 5, rule, "m", "/p", categories)

    assert kind_of(finding("X", "CODEGEN", "DATA_BACKWARD")) == "removed"
    assert kind_of(finding("X", "DATA_BACKWARD")) == "tightened"
    assert kind_of(finding("X", "DATA_FORWARD")) == "widened"
    assert kind_of(finding("CHANGE_UNPROVEN", "DATA_FORWARD")) == "unproven"
    assert kind_of(finding("CHANGE_UNPROVEN", "DATA_BACKWARD")) == "unproven"
    assert kind_of(finding("X")) == "unproven"  # no known category: never called compatible
    assert KIND_BUMPS["unproven"] == "major"


def test_witnesses_and_unproven_changes_are_shown() -> None:
    # A pattern with a lookahead: the engine cannot decide one direction, and shows a
    # witness for the other.
    folder = FIXTURES.parent / "breaking/CHANGE_UNPROVEN"
    previous = Side(load_tree(folder / "previous"), "schemas")
    current = Side(load_tree(folder / "current"), "schemas")
    log = changelog(previous, current)
    assert [(e.kind, e.rule, e.witness is not None) for e in log.entries] == [
        ("unproven", "CHANGE_UNPROVEN", False),
        ("widened", "CONSTRAINT_LOOSENED", True),
    ]
    assert log.bump == "major"
    text = render_markdown(log, HEADER)
    witness = next(e.witness for e in log.entries if e.witness)
    assert (
        f"  - Witness, accepted by the current version, refused by the previous one: `{witness}`"
        in text
    )
    assert "**Possibly breaking (may refuse documents the previous version accepted)**" in text
    entries = json.loads(render_json(log, HEADER))["contracts"][0]["entries"]
    assert [e["witness"] for e in entries] == [None, witness]
    assert entries[0]["categories"] == ["DATA_BACKWARD"]


def test_markdown_escapes_what_would_be_markup() -> None:
    entry = Entry("A_b", "added", "s/a.json", 1, 1, "", "R", "x <b> *y* `z` _w_ a_b", (), "`q`")
    text = render_markdown(Changelog((entry,)), HEADER)
    assert r"x \<b\> \*y\* \`z\` \_w\_ a_b" in text
    assert "refused by the current one: `` `q` ``" in text  # a code span around backticks
    assert "## A_b" in text


# ---------------------------------------------------------------------------- next_version


@pytest.mark.parametrize(
    ("version", "bump", "expected"),
    [
        ("1.2.3", "major", "2.0.0"),
        ("1.2.3", "minor", "1.3.0"),
        ("1.2.3", "patch", "1.2.4"),
        ("1.2.3", "none", "1.2.3"),
        ("0.4.1", "major", "0.5.0"),  # 0.x: the minor part is the major one
        ("0.4.1", "minor", "0.4.2"),
        ("0.4.1", "patch", "0.4.2"),
        ("0.0.3", "major", "0.0.4"),  # 0.0.x: every change is breaking
        ("0.0.3", "patch", "0.0.4"),
        ("2.0.0-rc.1", "major", "2.0.0"),  # a pre-release is released, as npm's semver.inc
        ("2.0.0-rc.1", "patch", "2.0.0"),
        ("1.2.3-rc.1", "minor", "1.3.0"),
        ("1.2.0-rc.1", "minor", "1.2.0"),
        ("1.2.3+build.7", "patch", "1.2.4"),
        ("1.2.3+build.7", "none", "1.2.3+build.7"),
        ("10.20.30", "major", "11.0.0"),
    ],
)
def test_next_version(version: str, bump: Bump, expected: str) -> None:
    assert next_version(version, bump) == expected


@pytest.mark.parametrize("version", ["1.2", "v1.2.3", "01.2.3", "1.2.3-", "1.2.3-01", ""])
def test_next_version_refuses_what_is_not_semver(version: str) -> None:
    with pytest.raises(ValueError, match="is not a semver version"):
        next_version(version, "patch")


def test_next_version_refuses_an_unknown_bump() -> None:
    with pytest.raises(ValueError, match="unknown bump 'huge'"):
        next_version("1.0.0", "huge")  # type: ignore[arg-type]
    assert BUMPS == ("none", "patch", "minor", "major")
    assert set(KIND_BUMPS) == set(KINDS)


# ---------------------------------------------------------------------------- a real git repository


def project(root: Path, case: str, side: str) -> None:
    shutil.rmtree(root / "schemas", ignore_errors=True)
    # shutil.copy, not copy2: a copied mtime could hide the change from git
    shutil.copytree(FIXTURES / case / side, root / "schemas", copy_function=shutil.copy)
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose first commit holds the tightening case's previous schemas."""
    root = tmp_path / "repo"
    project(root, "tightening", "previous")
    return commit_all(root)


def test_changelog_against_a_revision(repo: Path) -> None:
    project(repo, "tightening", "current")
    git(repo, "commit", "-qam", "tighten")
    status = git(repo, "status", "--porcelain").stdout
    code, out = run(repo, "changelog", "--against", "HEAD~1")
    assert code == 0, out
    expected = changelog(*sides("tightening"))
    assert out == render_markdown(expected, Header("schemas", "HEAD~1"))
    code, out = run(
        repo, "changelog", "--against", "HEAD~1", "--format", "json", "--released", "1.4.2"
    )
    assert code == 0
    document = json.loads(out)
    assert (document["bump"], document["released"], document["next_version"]) == (
        "major", "1.4.2", "2.0.0",
    )  # fmt: skip
    assert git(repo, "status", "--porcelain").stdout == status  # nothing written
    # what the CLI does, as other code (the npm package's version check) asks for it
    assert changelog(*sides_at(repo, "HEAD~1", repo / "schemas", "schemas")) == expected


def test_the_work_tree_against_head_by_default_and_buf_style_refs(repo: Path) -> None:
    project(repo, "tightening", "current")
    code, out = run(repo, "changelog")
    assert code == 0
    assert out.startswith("# Changelog of schemas/ since HEAD\n")
    assert "**Tightened**" in out
    code, out = run(repo, "changelog", "--against", ".git#branch=main", "--format", "json")
    assert (code, json.loads(out)["against"]) == (0, "main")
    project(repo, "tightening", "previous")
    code, out = run(repo, "changelog")
    assert code == 0
    assert "No change to the contracts: semver bump **none**." in out


def test_a_revision_without_schemas_adds_every_contract(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "README").write_text("x\n")
    commit_all(root, "before schemas")
    project(root, "added_contract", "current")
    code, out = run(root, "changelog", "--format", "json")
    assert code == 0
    entries = [e for c in json.loads(out)["contracts"] for e in c["entries"]]
    assert [(e["contract"], e["rule"]) for e in entries] == [
        ("Note", "CONTRACT_ADDED"),
        ("Topic", "CONTRACT_ADDED"),
    ]


def test_bad_input_exits_2_with_a_clear_error(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(repo, "changelog", "--against", "no-such-branch")[0] == 2
    assert "'no-such-branch' names no commit" in capsys.readouterr().err
    assert run(repo, "changelog", "--released", "1.4")[0] == 2
    assert "--released: '1.4' is not a semver version" in capsys.readouterr().err
    (repo / "schemas/note.json").write_text('{"title": "Note",\n  "type": }\n')
    git(repo, "commit", "-qam", "broken")
    project(repo, "tightening", "current")
    assert run(repo, "changelog", "--against", "HEAD")[0] == 2
    err = capsys.readouterr().err
    assert err.startswith("HEAD:schemas/note.json:2:")
    assert "the schemas at HEAD do not load" in err
    outside = tmp_path / "not-a-repo"
    project(outside, "tightening", "current")
    assert run(outside, "changelog")[0] == 2
    assert "is not inside a git repository" in capsys.readouterr().err
