"""Format generated Python with the pinned ruff, isolated from the caller's configuration.

Every module of one run is formatted by one ruff process over a private temporary folder,
with fixed settings (``--isolated``), so the output depends only on the inputs and the
pinned ruff version, never on the directory the generator is called from.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Mapping
from functools import cache
from pathlib import Path, PurePosixPath

from codegen.core.errors import CodegenError
from codegen.core.scratch import scratch_dir

__all__ = ["LINE_LENGTH", "format_python", "ruff_binary"]

LINE_LENGTH = 100
_SETTINGS = ["--isolated", "--line-length", str(LINE_LENGTH), "--target-version", "py311"]


_ruff_lock = threading.Lock()


@cache
def _find_ruff() -> str:
    from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]  # noqa: PLC0415

    return str(find_ruff_bin())


def ruff_binary() -> str:
    """The pinned ruff's executable, looked up once per process and under a lock.

    The lookup reads ``sysconfig``'s variables, and their first read is not thread-safe in
    CPython 3.11: a thread that reads them while another fills them in finds ``EXE`` missing
    (a 1000-schema generate failed so). A generation formats on a thread of its own while the
    main thread may import datamodel-code-generator (isort reads ``sysconfig`` too), so it
    calls this first, before that thread starts."""
    with _ruff_lock:
        return _find_ruff()


def format_python(
    sources: Mapping[PurePosixPath, str], *, threads: int | None = None
) -> dict[PurePosixPath, str]:
    """Sort imports and format every module; returns the formatted text by the same keys.

    ``threads`` caps ruff's threads (all cores by default), for a run beside other work."""
    env = None if threads is None else {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    with scratch_dir("maverick-codegen-") as tmp:
        root = Path(tmp)
        for rel, text in sources.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
        ruff = ruff_binary()
        for command in (
            [ruff, "check", *_SETTINGS, "--select", "I", "--fix", "--quiet", "--no-cache", tmp],
            [ruff, "format", *_SETTINGS, "--quiet", "--no-cache", tmp],
        ):
            done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
            if done.returncode != 0:
                raise CodegenError(
                    f"ruff could not format the generated code: {done.stdout}{done.stderr}",
                    rule="FORMAT",
                )
        return {rel: (root / rel).read_text(encoding="utf-8") for rel in sources}
