"""Shared fixtures."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


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
