"""The drift check: changed, missing, stale and hand-written files, exit codes, the cache."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from codegen.cli import main

PATH = "out/golden_contracts"


def run(project: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["--config", str(project / "pyproject.toml"), *args], out=out)
    return code, out.getvalue()


def generated(make_project: Callable[[str], Path], case: str = "inheritance_rules") -> Path:
    project = make_project(case)
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/golden_contracts", PATH))
    assert run(project, "generate")[0] == 0
    return project


def test_clean_tree_passes(make_project: Callable[[str], Path]) -> None:
    project = generated(make_project)
    code, out = run(project, "check")
    assert code == 0, out
    assert "up to date" in out


def test_schema_edited_without_regenerating_fails_naming_the_file(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    assert run(project, "check")[0] == 0  # records the fast-path stamp
    schema = project / "schemas/tools/problem.json"
    doc = json.loads(schema.read_text())
    doc["properties"]["file"]["description"] = "Path of the file, relative to the root."
    schema.write_text(json.dumps(doc, indent=2))
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {PATH}/tools/problem.py" in out
    assert '+    file: Annotated[StrictStr, Field(description="Path of the file' in out
    assert out.rstrip().endswith("make generate")


def test_hand_edit_of_generated_file_is_caught_even_with_the_cache(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    assert run(project, "check")[0] == 0
    assert "inputs and outputs unchanged" in run(project, "check")[1]  # cache is used
    module = project / PATH / "tools/problem.py"
    module.write_text(module.read_text().replace("StrictInt", "int"))
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {PATH}/tools/problem.py" in out


def test_deleted_schema_reports_stale_file_and_generate_removes_it(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project, "enums_and_refs")
    (project / "schemas/agents/review.json").unlink()
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace('reviewer = "Review"', ""))
    code, out = run(project, "check")
    assert code == 1
    assert f"stale: {PATH}/agents/review.py (its schema is gone)" in out
    code, out = run(project, "generate")
    assert code == 0
    assert f"removed stale {PATH}/agents/review.py" in out
    assert not (project / PATH / "agents/review.py").exists()
    assert run(project, "check")[0] == 0


def test_missing_generated_file_is_reported(make_project: Callable[[str], Path]) -> None:
    project = generated(make_project)
    (project / PATH / "tools/base_result.py").unlink()
    code, out = run(project, "check")
    assert code == 1
    assert f"missing: {PATH}/tools/base_result.py" in out


def test_hand_written_file_in_generated_folder_is_reported_and_never_overwritten(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    helper = project / PATH / "tools/helpers.py"
    helper.write_text("X = 1\n")
    code, out = run(project, "check")
    assert code == 1
    assert f"hand-written: {PATH}/tools/helpers.py" in out
    assert run(project, "generate")[0] == 0
    assert helper.read_text() == "X = 1\n"  # generate leaves it alone
    (project / PATH / "tools/problem.py").write_text("# mine\n")
    code = run(project, "generate")[0]
    assert code == 2  # refuses to overwrite a file without our header
    assert (project / PATH / "tools/problem.py").read_text() == "# mine\n"


def test_no_cache_option_forces_regeneration(make_project: Callable[[str], Path]) -> None:
    project = generated(make_project)
    assert run(project, "check")[0] == 0
    code, out = run(project, "check", "--no-cache")
    assert code == 0
    assert "inputs and outputs unchanged" not in out
