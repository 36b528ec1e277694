"""``breaking`` across drafts: each version of a contract judged by its own draft.

``tests/fixtures/breaking_drafts/<case>/`` holds ``previous/`` and ``current/`` schema folders,
``expected.txt`` (the findings from previous to current) and ``reverse.txt`` (from current to
previous); ``UPDATE_FIXTURES=1`` rewrites them. Every witness shown was judged by both
versions' schemas as written, each by its own draft, and by the generated model; the tests
below also judge some of them here, and check the places the internal form alone is not the
whole meaning: draft-04's ``integer``, dynamic references, documents outside the folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from codegen.breaking.table import Side, compare
from codegen.breaking.witness import Judge
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree
from codegen.core.report import Finding, render
from tests.conftest import commit_all, git, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "breaking_drafts"
CASES = sorted(p.name for p in FIXTURES.iterdir())


def sides(case: str, *, reverse: bool = False) -> tuple[Side, Side]:
    first, second = ("current", "previous") if reverse else ("previous", "current")
    return (
        Side(load_tree(FIXTURES / case / first), first),
        Side(load_tree(FIXTURES / case / second), second),
    )


def findings(case: str, *, reverse: bool = False) -> list[Finding]:
    return compare(*sides(case, reverse=reverse))


def data(found: list[Finding]) -> list[tuple[str, tuple[str, ...], Any]]:
    return [(f.rule, f.categories, json.loads(f.witness or "null")) for f in found]


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("case", CASES)
def test_each_pair_across_drafts_is_as_expected(case: str, reverse: bool) -> None:
    text = render(findings(case, reverse=reverse), "text").splitlines()
    expected = FIXTURES / case / ("reverse.txt" if reverse else "expected.txt")
    if os.environ.get("UPDATE_FIXTURES"):
        expected.write_text("".join(f"{line}\n" for line in text))
    assert text == expected.read_text().splitlines()


def test_draft04_integer_refuses_1_0_and_draft06_accepts_it() -> None:
    [widened] = findings("integer_draft04_to_draft06")
    assert widened.rule == "TYPE_WIDENED"
    assert widened.categories == ("DATA_FORWARD",)
    assert widened.witness == '{"count": 1.0, "text": "a"}'
    [narrowed] = findings("integer_draft04_to_draft06", reverse=True)
    assert (narrowed.rule, narrowed.categories) == ("TYPE_NARROWED", ("DATA_BACKWARD",))
    assert narrowed.witness == widened.witness
    # Each side's own schema, read as written by its own draft, and each side's model.
    document = json.loads(widened.witness)
    previous, current = sides("integer_draft04_to_draft06")
    for side, accepts in ((previous, False), (current, True)):
        [note] = side.tree.files
        assert validator_at(tree_registry(side.tree), note).is_valid(document) is accepts
        judge = Judge(side.tree, side.tree)
        try:
            judge.prepare([note])
            assert judge.model_accepts(note, document) is accepts
            assert judge.model_accepts(note, {"count": 1, "text": "a"})
        finally:
            judge.close()


def test_a_number_the_engine_cannot_write_is_unproven_never_passed(tmp_path: Path) -> None:
    big = 2**53 + 1  # no float holds it: 1.0's kind cannot be written for it
    for name, draft, key in (
        ("previous", "http://json-schema.org/draft-04/schema#", "id"),
        ("current", "http://json-schema.org/draft-06/schema#", "$id"),
    ):
        (tmp_path / name).mkdir()
        body = {"$schema": draft, key: "https://example.test/n.json", "title": "N",
                "type": "integer", "minimum": big, "maximum": big}  # fmt: skip
        (tmp_path / name / "n.json").write_text(json.dumps(body))
    [found] = compare(*(Side(load_tree(tmp_path / n), n) for n in ("previous", "current")))
    assert (found.rule, found.categories, found.witness) == (
        "CHANGE_UNPROVEN",
        ("DATA_FORWARD",),
        None,
    )
    assert "cannot be written exactly with a fraction" in found.message


def test_a_ref_beside_max_items_is_ignored_by_draft07_and_applied_by_2019_09() -> None:
    assert data(findings("ref_beside_maxitems_draft07_to_2019_09")) == [
        ("CONSTRAINT_TIGHTENED", ("DATA_BACKWARD",), {"tags": ["", "", ""]})
    ]
    assert data(findings("ref_beside_maxitems_draft07_to_2019_09", reverse=True)) == [
        ("CONSTRAINT_LOOSENED", ("DATA_FORWARD",), {"tags": ["", "", ""]})
    ]


SAME = ["rewrite_draft07_to_2020_12", "rewrite_draft04_to_2020_12", "dynamic_ref_without_anchor"]


@pytest.mark.parametrize("case", SAME)
def test_a_rewrite_that_accepts_the_same_documents_is_no_finding(case: str) -> None:
    assert findings(case) == []
    assert findings(case, reverse=True) == []


@pytest.mark.parametrize("case", ["dynamic_ref_made_static", "recursive_ref_made_static"])
def test_a_dynamic_reference_is_followed_in_its_dynamic_scope(case: str) -> None:
    # The strict tree binds the anchor: its children must be strict trees too. Made static,
    # the children are plain trees: the strict tree now accepts more (the plain tree does not).
    [loosened] = findings(case)
    assert (loosened.rule, loosened.categories) == ("CONSTRAINT_LOOSENED", ("DATA_FORWARD",))
    [tightened] = findings(case, reverse=True)
    assert (tightened.rule, tightened.categories) == ("CONSTRAINT_TIGHTENED", ("DATA_BACKWARD",))
    document = json.loads(loosened.witness or "null")
    previous, current = sides(case)
    strict = [
        (side, side.tree.by_title["StrictTree"], side.tree.by_title["Tree"])
        for side in (previous, current)
    ]
    judged = [
        (validator_at(tree_registry(s.tree), f).is_valid(document),
         validator_at(tree_registry(s.tree), t).is_valid(document))
        for s, f, t in strict
    ]  # fmt: skip
    assert judged == [(False, True), (True, True)]  # (StrictTree, Tree) before and after


def test_names_across_drafts_are_located_where_the_files_write_them() -> None:
    found = {(f.rule, f.path, f.pointer) for f in findings("names_draft04")}
    assert {
        ("CONTRACT_ID_CHANGED", "current/note.json", "/id"),
        ("CLASS_DELETED", "previous/note.json", "/definitions/Level/title"),
        ("PROPERTY_DELETED", "previous/note.json", "/properties/text"),
    } <= found
    [deleted] = findings("names_draft07_to_2020_12")
    assert (deleted.rule, deleted.pointer) == ("CLASS_DELETED", "/definitions/Level/title")
    assert "(/definitions/Level/title)" in deleted.message
    [tightened] = findings("items_list_tightened_draft07")
    assert tightened.pointer == "/properties/pair/items/0/maxLength"
    [recursive] = findings("recursive_ref_made_static")
    assert recursive.pointer == "/properties/children/items/$recursiveRef"
    assert recursive.message.startswith("The $recursiveRef of ")


# ---------------------------------------------------------------------------- outside the folder

D7 = "http://json-schema.org/draft-07/schema#"
D20 = "https://json-schema.org/draft/2020-12/schema"
VENDOR_NAME = "https://vendor.test/common.json#/definitions/Name"


def _project(root: Path, max_length: int) -> Path:
    (root / "schemas").mkdir(parents=True)
    (root / "vendor").mkdir()
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
        '\n[tool.maverick-codegen.refs]\n"https://vendor.test/" = "vendor"\n'
    )
    _vendor(root, max_length)
    for name, title in (("note", "Note"), ("memo", "Memo")):
        body = {
            "$schema": D20,
            "$id": f"https://example.test/{name}.json",
            "title": title,
            "description": "A contract using a vendor's definition.",
            "type": "object",
            "properties": {
                "name": {"$ref": VENDOR_NAME, "description": "A name."},
                "count": {"type": "integer", "description": "A count."},
            },
            "additionalProperties": False,
        }
        (root / f"schemas/{name}.json").write_text(json.dumps(body, indent=2) + "\n")
    return commit_all(root)


def _vendor(root: Path, max_length: int) -> None:
    common = {"$schema": D7, "definitions": {"Name": {"type": "string", "maxLength": max_length}}}
    (root / "vendor/common.json").write_text(json.dumps(common, indent=2) + "\n")


def test_a_changed_external_document_is_a_change_of_every_contract_reaching_it(
    tmp_path: Path,
) -> None:
    repo = _project(tmp_path / "repo", 10)
    _vendor(repo, 5)  # the work tree's vendor document; HEAD holds the one with 10
    code, out = run(repo, "breaking", "--format", "json")
    assert code == 1, out
    found = json.loads(out)
    assert [(f["path"], f["pointer"], f["rule"], f["witness"]) for f in found] == [
        (f"schemas/{n}.json", "/properties/name/$ref", "CONSTRAINT_TIGHTENED", {"name": "aaaaaa"})
        for n in ("memo", "note")
    ]
    assert f"through its reference to {VENDOR_NAME}: the maxLength" in found[0]["message"]
    code, out = run(repo, "changelog", "--format", "json")
    assert code == 0, out
    log = json.loads(out)
    assert [(c["contract"], c["bump"]) for c in log["contracts"]] == [
        ("Memo", "major"),
        ("Note", "major"),
    ]


def test_an_unchanged_external_document_reads_the_same_on_both_sides(tmp_path: Path) -> None:
    repo = _project(tmp_path / "repo", 10)
    note = repo / "schemas/note.json"
    body = json.loads(note.read_text())
    body["properties"]["count"]["minimum"] = 0
    note.write_text(json.dumps(body, indent=2) + "\n")
    git(repo, "commit", "-qam", "count at least 0")
    code, out = run(repo, "breaking", "--against", "HEAD~1", "--format", "json")
    assert code == 1, out
    assert [(f["path"], f["rule"]) for f in json.loads(out)] == [
        ("schemas/note.json", "CONSTRAINT_TIGHTENED")
    ]
