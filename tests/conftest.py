"""Shared fixtures."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


def _sendable(text: str) -> str:
    """``text`` with what UTF-8 cannot carry (a lone surrogate) written as an escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A report's captured output and logs as UTF-8 can carry them. pytest-xdist sends reports
    from its workers as UTF-8, and a test that feeds lone surrogates to code that logs its input
    (tests/test_output_properties.py: validate_output warns with the rejected output) would
    otherwise stop the whole run with an internal error."""
    outcome = yield
    report = outcome.get_result()
    report.sections = [(name, _sendable(text)) for name, text in report.sections]
    if isinstance(report.longrepr, str):
        report.longrepr = _sendable(report.longrepr)


def run(project: Path, *args: str) -> tuple[int, str]:
    """Run maverick-codegen in-process on ``project``; returns its exit code and stdout."""
    from codegen.cli import main

    out = io.StringIO()
    code = main(["--config", str(project / "pyproject.toml"), *args], out=out)
    return code, out.getvalue()


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run git in ``repo`` with a fixed identity (and pre-commit's cache beside it)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.test",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.test",
        "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"),
        "PIP_NO_COMPILE": "1",  # a hook environment is used once: no bytecode ahead
    }
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def mypy_strict(program: str, packages: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` (with pydantic's plugin) on ``program``, importing from ``packages``;
    its configuration and cache in ``work``."""
    config = work / "mypy.ini"
    config.write_text(
        f"[mypy]\nstrict = True\nplugins = pydantic.mypy\nmypy_path = {packages}\n"
        f"cache_dir = {work / 'cache'}\n"
    )
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "-c", program],
        capture_output=True,
        text=True,
        check=False,
    )


def commit_all(repo: Path, message: str = "first") -> Path:
    """``repo`` made a git repository (branch main) whose one commit holds all it holds."""
    assert git(repo, "init", "-q", "-b", "main").returncode == 0
    assert git(repo, "add", "-A").returncode == 0
    assert git(repo, "commit", "-qm", message).returncode == 0
    return repo


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[[str], Path]:
    """Copy a golden case (its pyproject.toml and schemas/, not its expected output) to tmp."""

    def make(case: str) -> Path:
        target = tmp_path / case
        target.mkdir()
        shutil.copy(GOLDEN / case / "pyproject.toml", target / "pyproject.toml")
        shutil.copytree(GOLDEN / case / "schemas", target / "schemas")
        return target

    return make


@pytest.fixture(scope="session")
def keyword_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """tests/fixtures/keywords/ generated once, in a temporary folder, its models imported."""
    from tests._keywords import generated_project

    with generated_project(tmp_path_factory.mktemp("keywords")) as project:
        yield project


@pytest.fixture(scope="session")
def keyword_cases(keyword_project: Any) -> list[Any]:
    """The documents of the keyword fixtures every consumer judges (tests/_keywords.py)."""
    from tests._keywords import collect_cases

    return collect_cases(keyword_project.tree)
