"""Scratch folders: in memory when the machine has room there, else where the user says."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from codegen.core import scratch


@pytest.fixture(autouse=True)
def _fresh() -> None:
    scratch._memory.cache_clear()


def test_memory_when_dev_shm_has_room(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(scratch, "_ROOM", 1)
    expected = Path("/dev/shm") if os.path.isdir("/dev/shm") else None
    with scratch.scratch_dir("maverick-test-") as folder:
        assert Path(folder).is_dir()
        if expected is not None:
            assert Path(folder).parent == expected
            assert Path(folder).stat().st_mode & 0o777 == 0o700
    assert not Path(folder).exists()


def test_the_user_s_tmpdir_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    with scratch.scratch_dir("maverick-test-") as folder:
        assert Path(folder).parent == tmp_path


def test_a_small_dev_shm_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(scratch, "_ROOM", 1 << 62)  # more than any machine has
    assert scratch._memory() is None
