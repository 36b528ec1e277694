"""Files a process reads again and again, read once until they change.

``generate --watch`` generates on every save, and each generation reads every schema file and
every generated file (thousands, in a large tree) to compare them with what it would write.
This module keeps what it read with the file's status (modification and change times, size,
inode, device) and reads a file again whenever its status differs, as ``make`` and git's
index do. A file changed in the last two seconds is never kept: a write that follows within
the resolution of the file system's clock could leave its times as they were (git's "racy"
entries); any later write moves the change time, which nobody can set back.
"""

from __future__ import annotations

import os
import time
from typing import Generic, TypeVar

__all__ = ["read_bytes", "read_text"]

_RACY_NS = 2_000_000_000
_MAX_ENTRIES = 100_000

_Status = tuple[int, int, int, int, int]
_T = TypeVar("_T")


class _Cache(Generic[_T]):
    """What was read of each file, by path, with the file's status then."""

    def __init__(self) -> None:
        self.entries: dict[str, tuple[_Status, _T]] = {}

    def get(self, path: str) -> tuple[_T] | None:
        """``(value,)`` when the file is as it was when read, else None."""
        found = self.entries.get(path)
        if found is None:
            return None
        try:
            current: _Status | None = _status(os.stat(path))
        except OSError:
            current = None
        if current != found[0]:
            del self.entries[path]
            return None
        return (found[1],)

    def keep(self, path: str, status: os.stat_result, value: _T) -> None:
        if _settled(status):
            if len(self.entries) >= _MAX_ENTRIES:
                self.entries.clear()
            self.entries[path] = (_status(status), value)


_bytes: _Cache[bytes] = _Cache()
_texts: _Cache[str | None] = _Cache()


def _status(result: os.stat_result) -> _Status:
    return (result.st_mtime_ns, result.st_ctime_ns, result.st_size, result.st_ino, result.st_dev)


def _settled(result: os.stat_result) -> bool:
    """Whether the file last changed long enough ago for its status to tell a later change."""
    return time.time_ns() - max(result.st_mtime_ns, result.st_ctime_ns) > _RACY_NS


def read_bytes(path: str) -> bytes:
    """The file's bytes (raises :class:`OSError` as ``open`` does)."""
    found = _bytes.get(path)
    if found is not None:
        return found[0]
    with open(path, "rb") as handle:
        data = handle.read()
        status = os.fstat(handle.fileno())
    _bytes.keep(path, status, data)
    return data


def read_text(path: str) -> str | None:
    """The file's text as ``open(path, encoding="utf-8").read()`` gives it (line ends read as
    ``\\n``), or None when it cannot be read or is not UTF-8."""
    found = _texts.get(path)
    if found is not None:
        return found[0]
    try:
        with open(path, encoding="utf-8") as handle:
            text: str | None = handle.read()
            status = os.fstat(handle.fileno())
    except (OSError, UnicodeDecodeError):
        return None
    _texts.keep(path, status, text)
    return text
