"""Relative paths made once: a large tree names the same thousands of files in every step.

``PurePosixPath`` parses its text on every construction and computes its hash and order from
the parts on first use; a generation builds the paths of every generated file several times
(scanning a folder, reading a manifest, naming each contract's files), and ``generate --watch``
again on every save. :func:`rel_path` gives the same object for the same text, so each is
parsed, hashed and compared as parts once per process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

__all__ = ["rel_path"]


@lru_cache(maxsize=1 << 17)
def rel_path(text: str) -> PurePosixPath:
    """``PurePosixPath(text)``, the same object each time."""
    return PurePosixPath(text)
