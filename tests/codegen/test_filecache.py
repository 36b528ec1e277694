"""Files read again by ``generate --watch`` come from memory only while they are unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codegen.core import filecache


@pytest.fixture
def settled_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as settled: kept from its first read (the two seconds waived)."""
    monkeypatch.setattr(filecache, "_RACY_NS", -(10**18))


def _rewrite_keeping_times(path: Path, text: str) -> None:
    """Same size, same modification time: only the change time tells."""
    status = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert path.stat().st_mtime_ns == status.st_mtime_ns
    assert path.stat().st_size == status.st_size


@pytest.mark.usefixtures("settled_at_once")
def test_an_unchanged_file_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.json"
    path.write_text("{}\n", encoding="utf-8")
    assert filecache.read_text(str(path)) == "{}\n"
    assert filecache.read_bytes(str(path)) == b"{}\n"

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("read again")

    monkeypatch.setattr("builtins.open", refuse)
    assert filecache.read_text(str(path)) == "{}\n"
    assert filecache.read_bytes(str(path)) == b"{}\n"


@pytest.mark.usefixtures("settled_at_once")
def test_a_change_that_keeps_size_and_mtime_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"a": 1}\n', encoding="utf-8")
    assert filecache.read_text(str(path)) == '{"a": 1}\n'
    assert filecache.read_bytes(str(path)) == b'{"a": 1}\n'
    _rewrite_keeping_times(path, '{"a": 2}\n')
    assert filecache.read_text(str(path)) == '{"a": 2}\n'
    assert filecache.read_bytes(str(path)) == b'{"a": 2}\n'


def test_a_file_changed_just_now_is_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"a": 1}\n', encoding="utf-8")
    assert filecache.read_text(str(path)) == '{"a": 1}\n'
    assert str(path) not in filecache._texts.entries


@pytest.mark.usefixtures("settled_at_once")
def test_a_removed_or_replaced_file(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("{}\n", encoding="utf-8")
    assert filecache.read_text(str(path)) == "{}\n"
    replacement = tmp_path / "b.json"
    replacement.write_text("[]\n", encoding="utf-8")
    os.replace(replacement, path)  # what generate does: a new inode
    assert filecache.read_text(str(path)) == "[]\n"
    path.unlink()
    assert filecache.read_text(str(path)) is None
    with pytest.raises(FileNotFoundError):
        filecache.read_bytes(str(path))


def test_text_reads_as_open_does(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"one\r\ntwo\rthree\n")
    with open(path, encoding="utf-8") as handle:
        assert filecache.read_text(str(path)) == handle.read()
    path.write_bytes(b"\xff\xfe")
    assert filecache.read_text(str(path)) is None
