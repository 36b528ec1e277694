"""breaking and changelog pair the contracts of two versions by identity: a file's ``$id``,
else its path below the schema folder (schemas as people have them mostly have no ``$id``).

Before, every file without ``$id`` had the identity "": each previous contract was paired
with the same current one, and a one-keyword edit read as files moved and contracts renamed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

from codegen.breaking.engine.literals import child_of
from codegen.breaking.engine.nodes import root
from codegen.breaking.words import worded
from codegen.core.loader import load_tree
from tests.conftest import commit_all, run

D07 = "http://json-schema.org/draft-07/schema#"


def _link(index: int, count: int, max_length: int = 10) -> dict[str, Any]:
    properties: dict[str, Any] = {"name": {"type": "string", "maxLength": max_length}}
    if index + 1 < count:
        properties["next"] = {"$ref": f"link_{index + 1}.json"}
    return {"$schema": D07, "title": f"Link{index}", "type": "object", "properties": properties}


def _write(root: Path, files: dict[str, dict[str, Any]]) -> None:
    folder = root / "schemas"
    for old in folder.glob("*.json"):
        old.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    for name, document in files.items():
        (folder / name).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _project(root: Path, files: dict[str, dict[str, Any]]) -> None:
    """A repository whose HEAD holds ``files``, each without ``$id``."""
    _write(root, files)
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/links"\n'
        'package = "links"\n',
        encoding="utf-8",
    )
    commit_all(root, "links")


def _rules(out: str) -> list[tuple[str, str]]:
    """(file, rule) of each finding."""
    return re.findall(r"^schemas/(\S+?):\d+:\d+: .* \(([A-Z_]+)\)$", out, re.MULTILINE)


def test_an_edit_in_files_without_id_is_paired_by_path(tmp_path: Path) -> None:
    _project(tmp_path, {f"link_{i}.json": _link(i, 3) for i in range(3)})
    _write(tmp_path, {f"link_{i}.json": _link(i, 3, 5 if i == 2 else 10) for i in range(3)})
    code, out = run(tmp_path, "breaking", "--against", "HEAD")
    assert code == 1, out
    rules = _rules(out)
    assert ("link_2.json", "CONSTRAINT_TIGHTENED") in rules, out
    assert not [rule for _, rule in rules if rule.startswith("CONTRACT_")], out
    assert not [rule for _, rule in rules if rule == "PROPERTY_DELETED"], out


def test_a_file_without_id_moved_is_a_move_not_a_new_id(tmp_path: Path) -> None:
    files = {f"link_{i}.json": _link(i, 3) for i in range(3)}
    _project(tmp_path, files)
    moved = {**files, "link_1.json": _link(1, 3)}
    moved["tail.json"] = moved.pop("link_2.json")
    moved["link_1.json"]["properties"]["next"] = {"$ref": "tail.json"}
    _write(tmp_path, moved)
    code, out = run(tmp_path, "breaking", "--against", "HEAD")
    assert code == 1, out
    assert _rules(out) == [("tail.json", "CONTRACT_FILE_MOVED")], out


def test_the_changelog_adds_only_the_new_file_without_id(tmp_path: Path) -> None:
    files = {f"link_{i}.json": _link(i, 2) for i in range(2)}
    _project(tmp_path, files)
    _write(tmp_path, {**files, "extra.json": {"$schema": D07, "title": "Extra"}})
    code, out = run(tmp_path, "changelog", "--against", "HEAD")
    assert code == 0, out
    added = re.findall(r'Contract "(\w+)" \(([^)]*)\) was added', out)
    assert added == [("Extra", "extra.json")], out


def test_a_chain_of_files_reports_the_edit_once(tmp_path: Path) -> None:
    """Every contract of a chain of 20 files reaches the narrowed one: each is asked at the
    edit, however far down the chain (not cut off half way, at a reference of another file),
    so the one finding is the edit's."""
    count = 20
    _project(tmp_path, {f"link_{i}.json": _link(i, count) for i in range(count)})
    narrowed = {
        f"link_{i}.json": _link(i, count, 5 if i == count - 1 else 10) for i in range(count)
    }
    _write(tmp_path, narrowed)
    code, out = run(tmp_path, "breaking", "--against", "HEAD")
    assert code == 1, out
    assert _rules(out) == [(f"link_{count - 1}.json", "CONSTRAINT_TIGHTENED")], out


def test_a_reference_written_as_before_is_not_said_to_have_changed(tmp_path: Path) -> None:
    """A $ref whose target was narrowed reads as such, never as "tightened from X to X"."""
    _write(tmp_path / "before", {f"link_{i}.json": _link(i, 2) for i in range(2)})
    _write(tmp_path / "after", {"link_0.json": _link(0, 2), "link_1.json": _link(1, 2, 5)})
    previous = load_tree(tmp_path / "before" / "schemas")
    current = load_tree(tmp_path / "after" / "schemas")
    node = child_of(
        root(current, current.by_rel[PurePosixPath("link_0.json")]), ("properties", "next")
    )
    counterpart = child_of(
        root(previous, previous.by_rel[PurePosixPath("link_0.json")]), ("properties", "next")
    )
    assert node is not None
    assert counterpart is not None
    rule, message = worded(node, ("$ref",), other=previous, counterpart=counterpart,
                           value={"name": "aaaaaa"}, subject='property "next" of Link0',
                           backward=True, rule_at=None)  # fmt: skip
    assert rule == "CONSTRAINT_TIGHTENED"
    assert message == (
        'The $ref of property "next" of Link0 is written as before ("link_1.json"), but the '
        "schema it names no longer accepts what it did."
    )
