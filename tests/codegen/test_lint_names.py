"""``maverick-codegen lint`` reports every name ``generate`` had to derive (codegen/core/names.py).

A name that had to be numbered (two files or classes would take one) is a finding of every
project (``TITLE_UNIQUE``, ``MODULE_NAME_UNIQUE``): adding, removing or renaming a file can change
it. A name derived because the schema's own is no Python name is a house rule's finding
(``TITLE_IS_CLASS_NAME``, ``FILE_NAME_MATCHES_TITLE``). Each finding names what is generated
and says what to change; the loaded tree generates exactly the names the findings state.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from codegen.core.loader import load_tree
from tests.conftest import run

_TABLE = '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "pkg"\n'
_FILES = {
    "a.json": {"title": "Config", "type": "object"},
    "b.json": {"title": "Config", "type": "object", "$defs": {"item": {"title": "a note"}}},
    "foo-bar.json": {"type": "object"},
    "foo_bar.json": {"title": "FooBar", "type": "object"},
    "sub-dir/x.json": {"title": "X1"},
    "sub_dir/x.json": {"title": "X2"},
}


def project(tmp_path: Path, lint: str) -> Path:
    """A project of the files above, its lint selecting ``lint``."""
    for rel, data in _FILES.items():
        path = tmp_path / "schemas" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
    (tmp_path / "pyproject.toml").write_text(f"{_TABLE}[tool.maverick-codegen.lint]\n{lint}\n")
    return tmp_path


def findings(root: Path) -> list[str]:
    code, out = run(root, "lint", "--format", "json")
    assert code == 1
    return [f"{f['path']}:{f['line']}:{f['column']}: {f['message']} ({f['rule']})"
            for f in json.loads(out)]  # fmt: skip


_NUMBERED = ", a name that adding, removing or renaming a file can change; "


def test_numbered_names_are_findings_of_every_project(tmp_path: Path) -> None:
    assert findings(project(tmp_path, 'use = ["DEFAULT"]')) == [
        "schemas/b.json:1:2: class name 'Config' is generated from schemas/a.json already: this "
        f"one is numbered 'Config2' (in the order of files and pointers){_NUMBERED}give one of "
        "them another title (TITLE_UNIQUE)",
        "schemas/foo_bar.json:1:1: schemas/foo_bar.json generates module 'foo_bar_2', numbered: "
        f"'foo_bar' is generated from schemas/foo-bar.json already (in path order){_NUMBERED}"
        "rename one of them (MODULE_NAME_UNIQUE)",
        "schemas/foo_bar.json:1:2: class name 'FooBar' is generated from schemas/foo-bar.json "
        f"already: this one is numbered 'FooBar2' (in the order of files and pointers){_NUMBERED}"
        "give one of them another title (TITLE_UNIQUE)",
        "schemas/sub_dir/x.json:1:1: schemas/sub_dir/ generates module 'sub_dir_2', numbered: "
        f"'sub_dir' is generated from schemas/sub-dir/ already (in path order){_NUMBERED}rename "
        "one of them (MODULE_NAME_UNIQUE)",
    ]
    tree = load_tree(tmp_path / "schemas")
    named = {s.rel: (s.module_parts, dict(s.classes)) for s in tree.files}
    assert named[PurePosixPath("b.json")] == (("b",), {"": "Config2", "/$defs/item": "ANote"})
    assert named[PurePosixPath("foo_bar.json")] == (("foo_bar_2",), {"": "FooBar2"})
    assert named[PurePosixPath("sub_dir/x.json")] == (("sub_dir_2", "x"), {"": "X2"})


def test_names_derived_from_no_python_name_are_house_findings(tmp_path: Path) -> None:
    rules = '["TITLE_IS_CLASS_NAME", "FILE_NAME_MATCHES_TITLE"]'
    assert findings(project(tmp_path, f"use = {rules}")) == [
        "schemas/a.json:1:2: file name 'a.json' must be 'config.json', the snake_case of its "
        "class 'Config' (FILE_NAME_MATCHES_TITLE)",
        "schemas/b.json:1:2: file name 'b.json' must be 'config.json', the snake_case of its "
        "class 'Config' (FILE_NAME_MATCHES_TITLE)",
        "schemas/b.json:1:58: title 'a note' is no Python class name (an identifier starting "
        "with a capital): the class is generated as 'ANote'; make the title 'ANote' "
        "(TITLE_IS_CLASS_NAME)",
        "schemas/foo-bar.json:1:1: file name 'foo-bar.json' is no Python module name: it "
        "generates 'foo_bar'; rename it 'foo_bar.json' (FILE_NAME_MATCHES_TITLE)",
        "schemas/foo-bar.json:1:1: the contract has no title: its class is named 'FooBar' from "
        'the file name; add "title": "FooBar" (TITLE_IS_CLASS_NAME)',
        "schemas/sub-dir/x.json:1:1: folder name 'sub-dir' is no Python module name: it "
        "generates 'sub_dir'; rename it 'sub_dir' (FILE_NAME_MATCHES_TITLE)",
        "schemas/sub-dir/x.json:1:2: file name 'x.json' must be 'x1.json', the snake_case of "
        "its class 'X1' (FILE_NAME_MATCHES_TITLE)",
        "schemas/sub_dir/x.json:1:2: file name 'x.json' must be 'x2.json', the snake_case of "
        "its class 'X2' (FILE_NAME_MATCHES_TITLE)",
    ]
    code, out = run(project(tmp_path, 'use = ["DEFAULT"]\nexcept = ["IDENTITY"]'), "lint")
    assert code == 0, out  # without the house rules (and the numbered names) nothing is found
