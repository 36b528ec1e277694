"""Private temporary folders for files that live a moment (the generator's input, ruff's work).

Hundreds of small files are written, read and removed on every run. On a disk file system each
costs a journal entry (0.2 s for 500 files on ext4, measured), so they go to memory when the
machine has a tmpfs at ``/dev/shm`` with room to spare (a container's default 64 MiB is not)
and the user named no temporary folder (``TMPDIR``); else to the usual temporary folder.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache

__all__ = ["scratch_dir"]

_MEMORY = "/dev/shm"  # a private folder (mode 0700) is made inside it
_ROOM = 1 << 30  # free bytes it must have: far more than a run needs (500 schemas: ~10 MB)


@cache
def _memory() -> str | None:
    if os.environ.get("TMPDIR"):
        return None  # the user's choice
    if not (os.path.isdir(_MEMORY) and os.access(_MEMORY, os.W_OK | os.X_OK)):
        return None
    stat = os.statvfs(_MEMORY)
    return _MEMORY if stat.f_bavail * stat.f_frsize >= _ROOM else None


def scratch_dir(prefix: str) -> tempfile.TemporaryDirectory[str]:
    """A new private folder, removed when the ``with`` block ends."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=_memory())
