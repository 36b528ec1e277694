"""Hints name a command that exists where they are printed: no ``make`` without a Makefile."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from codegen.cli import main


def drifted(make_project: Callable[[str], Path]) -> Path:
    """A project whose generated code is missing: ``check`` fails and prints its hint."""
    project = make_project("single_file")
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/golden_contracts", "out/golden_contracts"))
    return project


def hint(argv: list[str]) -> str:
    out = io.StringIO()
    assert main([*argv, "check", "--no-cache"], out=out) == 1
    [line] = [line for line in out.getvalue().splitlines() if "fix it with" in line]
    return line.split("fix it with: ", 1)[1]


def test_without_a_makefile_the_hint_names_maverick_codegen(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(drifted(make_project))
    assert hint([]) == "maverick-codegen generate"


def test_a_makefile_with_a_generate_target_is_named_too(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = drifted(make_project)
    monkeypatch.chdir(project)
    (project / "Makefile").write_text("PY := python\ngenerate_all: x\nbuild:\n\techo generate:\n")
    assert hint([]) == "maverick-codegen generate"  # no target named generate
    (project / "Makefile").write_text(".PHONY: generate\ncheck generate: $(PY)\n\t$(PY) -m x\n")
    assert hint([]) == "make generate (or maverick-codegen generate)"


def test_a_configuration_elsewhere_is_named_in_the_hint(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = drifted(make_project)
    (project / "Makefile").write_text("generate:\n\ttrue\n")
    monkeypatch.chdir(project.parent)
    # make would run in the wrong folder: only the command that works from here is named.
    config = f"{project.name}/pyproject.toml"
    assert hint(["--config", config]) == f"maverick-codegen --config {config} generate"
