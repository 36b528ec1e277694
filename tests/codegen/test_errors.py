"""Bad input: a clear error with file, line, column, pointer and rule; nothing written."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.cli import main
from tests.conftest import run


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def errors_of(project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code, _ = run(project, "generate")
    return code, capsys.readouterr().err


def test_malformed_json_gives_file_line_and_column(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")
    note = project / "schemas/note.json"
    note.write_text('{\n  "title": "Note",\n  "type": "object",,\n}\n')
    code, err = errors_of(project, capsys)
    assert code == 2
    assert f"{note}:3:20: malformed JSON: Expecting property name" in err
    assert not (project / "expected").exists()  # nothing written


def test_remote_ref_is_refused_without_touching_the_network(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    schema = project / "schemas/tools/check_result.json"
    edit(
        schema,
        lambda d: d["properties"]["problems"]["items"].update(
            {"$ref": "https://example.com/problem.json"}
        ),
    )
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "remote $ref 'https://example.com/problem.json' is refused" in err
    assert "/properties/problems/items/$ref (NO_REMOTE_REF)" in err
    assert str(schema) in err


def test_ref_escaping_the_schema_folder_is_refused(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    (project / "outside.json").write_text("{}")
    edit(
        project / "schemas/tools/check_result.json",
        lambda d: d["properties"]["problems"]["items"].update({"$ref": "../../outside.json"}),
    )
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "escapes the schema folder" in err
    assert "(REF_INSIDE_TREE)" in err


def test_dangling_ref_is_refused(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    edit(
        project / "schemas/tools/check_result.json",
        lambda d: d["properties"]["problems"]["items"].update({"$ref": "nope.json"}),
    )
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "$ref 'nope.json' names no schema file" in err


def test_output_folder_outside_the_project_is_refused(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/golden_contracts", "../escaped"))
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "output_dir" in err
    assert "outside the project" in err
    assert not (project.parent / "escaped").exists()


@pytest.mark.parametrize(
    ("keyword", "value", "why"),
    [
        ("x-internal", True, "is an extension keyword"),
        ("descripton", "typo", "generate ignores it; did you mean 'description'?"),
        ("discriminator", {"propertyName": "kind"}, "OpenAPI's keyword"),
    ],
)
def test_a_keyword_the_draft_does_not_define_is_ignored_and_linted(
    make_project: Callable[[str], Path],
    capsys: pytest.CaptureFixture[str],
    keyword: str,
    value: Any,
    why: str,
) -> None:
    """As JSON Schema says, a keyword the draft does not define is ignored: the generated model
    is the one without it. The lint reports it with its line, pointer and rule."""
    project = make_project("single_file")
    assert run(project, "generate")[0] == 0
    before = (project / "expected/golden_contracts/note.py").read_text()
    note = project / "schemas/note.json"
    edit(note, lambda d: d["properties"]["text"].update({keyword: value}))
    assert run(project, "generate")[0] == 0
    after = (project / "expected/golden_contracts/note.py").read_text()
    assert after.splitlines()[3:] == before.splitlines()[3:]  # the records differ, not the code
    capsys.readouterr()
    code, out = run(project, "lint")
    assert code == 1
    line = next(i for i, text in enumerate(note.read_text().splitlines(), 1) if keyword in text)
    finding = next(f for f in out.splitlines() if f"{keyword!r}" in f)
    assert finding.startswith(f"schemas/note.json:{line}:") or f"{note}:{line}:" in finding
    assert why in finding
    assert finding.endswith("(SUPPORTED_CONSTRUCT)")


def test_invalid_ecma_regular_expression_is_refused_in_a_rule_too(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")
    rule = {"if": {"properties": {"text": {"pattern": "(a"}}}, "then": {"required": ["tags"]}}
    edit(project / "schemas/note.json", lambda d: d.update({"allOf": [rule]}))
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "invalid ECMA-262 regular expression '(a'" in err
    assert "at /allOf/0/if/properties/text/pattern (PATTERN)" in err


def test_duplicate_id_is_refused(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("inheritance_rules")
    edit(
        project / "schemas/tools/problem.json",
        lambda d: d.update({"$id": "https://example.test/tools/base_result.json"}),
    )
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "(ID_UNIQUE)" in err


def test_a_title_that_is_no_class_name_names_the_class_and_lint_says_so(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The house rule is lint's (category HOUSE): generate derives the class name
    (codegen/core/names.py)."""
    project = make_project("single_file")
    edit(project / "schemas/note.json", lambda d: d.update({"title": "a note"}))
    code, _ = run(project, "generate")
    assert code == 0
    assert "class ANote(BaseModel):" in (project / "expected/golden_contracts/note.py").read_text()
    capsys.readouterr()
    code, out = run(project, "lint")
    assert code == 0, out  # a new project's default lint: the house rules are off
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.maverick-codegen.lint]\nuse = ["DEFAULT", "HOUSE"]\n'
    )
    code, out = run(project, "lint")
    assert code == 1
    assert "(TITLE_IS_CLASS_NAME)" in out


def test_generator_failure_leaves_previous_files_intact(
    make_project: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project = make_project("inheritance_rules")
    assert run(project, "generate")[0] == 0
    out = project / "expected/golden_contracts"
    before = {p: p.read_text() for p in out.rglob("*.py")}
    edit(
        project / "schemas/tools/problem.json",
        lambda d: d["properties"]["file"].update({"description": "changed"}),
    )
    from codegen.generate.files import writer

    calls = {"n": 0}
    real_fdopen = writer.os.fdopen

    def failing_fdopen(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full")
        return real_fdopen(*args, **kwargs)

    monkeypatch.setattr(writer.os, "fdopen", failing_fdopen)
    code = main(["--config", str(project / "pyproject.toml"), "generate"], out=io.StringIO())
    assert code == 2
    assert capsys.readouterr().err == "error: generate stopped: disk full (OS)\n"
    after = {p: p.read_text() for p in out.rglob("*.py")}
    assert after == before
    assert not [p for p in out.rglob("*.tmp")]


def test_tool_naming_an_unknown_contract_is_refused(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")
    toml = project / "pyproject.toml"
    toml.write_text(
        toml.read_text()
        + '\n[tool.maverick-codegen.tools]\nlookup = {output = "Note", input = "Nope"}\n'
    )
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "tool 'lookup' names contract 'Nope', which no schema file defines" in err


def test_tools_table_must_map_names_to_titles(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text() + '\n[tool.maverick-codegen.tools]\nlookup = {out = "X"}\n')
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "tool 'lookup' of [tool.maverick-codegen.tools] has no key 'out' (did you mean " in err
    toml.write_text(toml.read_text().replace('{out = "X"}', '{input = "X"}'))
    code, err = errors_of(project, capsys)
    assert code == 2
    assert "[tool.maverick-codegen.tools] maps tool names to a contract title" in err
