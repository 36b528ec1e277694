"""The drift check: changed, missing, stale and hand-written files, exit codes, the records."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from codegen.core import inputs
from codegen.core.config import load_config
from codegen.generate import plan
from codegen.generate.files.targets import targets_of
from tests.conftest import REPO, run

PATH = "out/golden_contracts"


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
    assert "by their records" in run(project, "check")[1]
    schema = project / "schemas/tools/problem.json"
    doc = json.loads(schema.read_text())
    doc["properties"]["file"]["description"] = "Path of the file, relative to the root."
    schema.write_text(json.dumps(doc, indent=2))
    code, out = run(project, "check")
    assert code == 1
    # A summary first: how many files, and why (the schema, not the configuration or generator)
    assert out.splitlines()[1:2] == ["  why: 1 schema file changed: tools/problem.json (edited)"]
    assert f"changed: {PATH}/tools/problem.py" in out
    assert '+    file: Annotated[StrictStr, Field(description="Path of the file' in out
    # run() passes --config: the hint names the command that works from here
    assert out.rstrip().endswith(f"maverick-codegen --config {project / 'pyproject.toml'} generate")


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


def test_no_cache_option_forces_regeneration(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = generated(make_project)
    assert run(project, "check")[0] == 0
    built: list[bool] = []
    real = plan.build_plan
    monkeypatch.setattr(
        plan, "build_plan", lambda *a, **k: built.append(k["reuse"]) or real(*a, **k)
    )
    code, out = run(project, "check", "--no-cache")
    assert code == 0
    assert "by their records" not in out
    assert built == [False]  # everything regenerated in memory, no record trusted


# The Markdown catalog and the export folder are targets like the Python package.
DOCS = "expected/contracts.md"
EXPORT = "expected/export"


def test_schema_edit_not_reexported_fails_for_docs_and_export(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    schema = project / "schemas/tools/problem.json"
    schema.write_text(schema.read_text().replace('"File path."', '"Path of the file."'))
    code, out = run(project, "check")
    assert code == 1
    for path in (
        DOCS,
        f"{EXPORT}/schemas/tools/problem.json",
        f"{EXPORT}/bundle.json",
        f"{EXPORT}/structured-output/tools/check_result.json",
    ):
        assert f"changed: {path}\n" in out
    assert "+| `file` | string | required | Path of the file. |" in out
    assert '+      "description": "Path of the file.",' in out
    assert run(project, "generate")[0] == 0
    assert run(project, "check")[0] == 0


@pytest.mark.parametrize(
    "path",
    [
        f"{PATH}/tools/problem.py",
        DOCS,
        f"{EXPORT}/bundle.json",
        f"{EXPORT}/index.json",
        f"{EXPORT}/schemas/tools/problem.json",
    ],
)
def test_hand_edit_of_any_generated_file_is_caught(
    make_project: Callable[[str], Path], path: str
) -> None:
    project = generated(make_project)
    assert "by their records" in run(project, "check")[1]
    target = project / path
    edited = target.read_text().replace("problem", "problème")
    assert edited != target.read_text()
    target.write_text(edited)
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {path}" in out


def test_deleted_schema_reports_stale_files_and_generate_removes_them(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project, "enums_and_refs")
    (project / "schemas/agents/review.json").unlink()
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace('reviewer = "Review"', ""))
    code, out = run(project, "check")
    assert code == 1
    assert f"stale: {PATH}/agents/review.py (its schema is gone)" in out
    assert f"stale: {EXPORT}/schemas/agents/review.json (its schema is gone)" in out
    assert f"stale: {EXPORT}/structured-output/agents/review.json (its schema is gone)" in out
    assert f"changed: {DOCS}" in out
    code, out = run(project, "generate")
    assert code == 0
    assert f"removed stale {PATH}/agents/review.py" in out
    assert not (project / PATH / "agents/review.py").exists()
    assert f"removed stale {EXPORT}/structured-output/agents/review.json" in out
    assert not (project / EXPORT / "structured-output").exists()  # emptied folders go too
    assert run(project, "check")[0] == 0


def test_hand_written_file_in_export_folder_is_reported_and_never_touched(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    notes = project / EXPORT / "NOTES.md"
    notes.write_text("mine\n")
    code, out = run(project, "check")
    assert code == 1
    assert f"hand-written: {EXPORT}/NOTES.md" in out
    assert run(project, "generate")[0] == 0
    assert notes.read_text() == "mine\n"


def test_files_not_marked_as_generated_are_never_overwritten(
    make_project: Callable[[str], Path],
) -> None:
    project = generated(make_project)
    docs = project / DOCS
    docs.write_text("# My own notes\n")
    assert run(project, "generate")[0] == 2  # no generated header: refused
    assert docs.read_text() == "# My own notes\n"
    docs.unlink()
    # An export folder whose index is gone: its files are no longer known to be generated.
    (project / EXPORT / "index.json").unlink()
    bundle = project / EXPORT / "bundle.json"
    bundle.write_text("{}\n")
    assert run(project, "generate")[0] == 2
    assert bundle.read_text() == "{}\n"
    assert not docs.exists()  # nothing was written: the refusal comes first


@pytest.mark.parametrize(
    "source",
    ["generate/models/checks/support.py", "core/loader.py", "generate/templates/registry.py.j2"],
)
def test_an_edit_anywhere_in_the_generator_makes_every_file_stale(
    make_project: Callable[[str], Path], tmp_path: Path, source: str
) -> None:
    """The records name every source file of the generator, whatever its depth."""
    project = generated(make_project)
    generator = tmp_path / "generator"
    shutil.copytree(
        REPO / "codegen", generator / "codegen", ignore=shutil.ignore_patterns("__pycache__")
    )

    def codegen(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "codegen", *args],
            cwd=project,
            env={**os.environ, "PYTHONPATH": str(generator)},
            capture_output=True,
            text=True,
            check=False,
        )

    assert "by their records" in codegen("check").stdout
    edited = generator / "codegen" / source
    edited.write_text(edited.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    done = codegen("check")
    assert done.returncode == 1, done.stdout + done.stderr
    # its record names the generator; the summary says so before any file
    assert f"changed: {PATH}/tools/problem.py (its records only)" in done.stdout
    summary = done.stdout.splitlines()[:2]
    assert summary[0].startswith("generated code has drifted: ")
    assert re.search(
        r": (\d+) changed \(\1 in their records only\), 0 missing, 0 stale", summary[0]
    )
    assert summary[1].startswith("  why: the generator changed (maverick-codegen ")
    assert codegen("generate").returncode == 0
    assert "by their records" in codegen("check").stdout


@pytest.mark.parametrize("tool", ["datamodel-code-generator", "ruff"])
def test_another_version_of_a_pinned_tool_makes_every_file_stale(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    project = generated(make_project)
    real = inputs.version
    monkeypatch.setattr(inputs, "version", lambda name: "0.0.1" if name == tool else real(name))
    inputs.generator_digest.cache_clear()
    try:
        code, out = run(project, "check")
    finally:
        monkeypatch.undo()
        inputs.generator_digest.cache_clear()
    assert code == 1
    assert "by their records" not in out
    assert f"changed: {PATH}/tools/problem.py" in out


def test_a_fresh_clone_is_checked_by_its_records_without_generating(
    make_project: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No cache anywhere: a copy of the project (what CI checks out) passes on its records."""
    project = generated(make_project)
    clone = tmp_path / "clone"
    shutil.copytree(project, clone)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("check generated something")

    monkeypatch.setattr(plan, "build_plan", refuse)
    code, out = run(clone, "check")
    assert code == 0, out
    files = sum(len(t.on_disk()) for t in targets_of(load_config(clone / "pyproject.toml")))
    assert files > 20  # code, catalog, export, npm package
    assert out == f"generated code is up to date ({files} files, by their records)\n"


def test_a_checkout_with_crlf_line_ends_is_up_to_date_by_its_records(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git for Windows checks text files out with CRLF (core.autocrlf): the same commit, so the
    same records. Before, every schema's digest changed and check reported drift."""
    project = generated(make_project)
    rewritten = 0
    for path in sorted(project.rglob("*")):
        if path.is_file() and path.suffix in {".json", ".py", ".md", ".ts", ".js", ".toml"}:
            data = path.read_bytes()
            assert b"\r" not in data
            path.write_bytes(data.replace(b"\n", b"\r\n"))
            rewritten += 1
    assert rewritten > 30

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("check generated something")

    with monkeypatch.context() as patched:
        patched.setattr(plan, "build_plan", refuse)
        code, out = run(project, "check")
    assert code == 0, out
    assert out.endswith("files, by their records)\n")
    code, out = run(project, "generate")
    assert code == 0, out
    assert out.startswith("up to date:"), out
    # An edit is still an edit, whatever the line ends.
    schema = project / "schemas/tools/problem.json"
    schema.write_bytes(schema.read_bytes().replace(b"File path.", b"The path of the file."))
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {PATH}/tools/problem.py" in out


@pytest.mark.parametrize("renamed", range(6))
def test_a_generation_killed_between_two_renames_never_passes_check(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch, renamed: int
) -> None:
    """A crash (no signal to hold back) after some files are in place: old and new files side
    by side, which ``check`` refuses; the next ``generate`` repairs it."""
    project = generated(make_project)
    schema = project / "schemas/tools/problem.json"
    schema.write_text(schema.read_text().replace('"File path."', '"Path of the file."'))
    done = 0
    real = os.replace

    def crash(src: str, dst: str) -> None:
        nonlocal done
        if done == renamed:
            raise SystemExit("killed")
        done += 1
        real(src, dst)

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SystemExit):
        run(project, "generate")
    monkeypatch.undo()
    for leftover in project.rglob(".*.tmp"):
        leftover.unlink()  # a killed process leaves its staged files; check ignores them too
    assert run(project, "check")[0] == 1
    assert run(project, "generate")[0] == 0
    assert run(project, "check")[0] == 0
