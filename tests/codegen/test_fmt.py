"""Formatting the generated code with the pinned ruff (codegen/generate/files/fmt.py)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import PurePosixPath

import pytest
import ruff.__main__  # type: ignore[import-untyped]

from codegen.generate.files import fmt

MODULE = PurePosixPath("pkg/module.py")


def test_two_threads_formatting_at_once_look_ruff_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A generation formats its own files on one thread and the contracts on another. Finding
    ruff reads sysconfig, whose first read is not thread-safe: one run failed with "can only
    concatenate str (not NoneType)". The lookup runs once, never on two threads at a time."""
    real = ruff.__main__.find_ruff_bin
    inside, lookups = [], []
    lock = threading.Lock()

    def slow_lookup() -> object:
        with lock:
            inside.append(threading.get_ident())
            overlapping = len(inside) > 1
        time.sleep(0.2)  # long enough for the other thread to arrive
        with lock:
            inside.remove(threading.get_ident())
            lookups.append(overlapping)
        return real()

    monkeypatch.setattr(ruff.__main__, "find_ruff_bin", slow_lookup)
    fmt._find_ruff.cache_clear()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            formatted = list(
                pool.map(
                    lambda text: fmt.format_python({MODULE: text}, threads=1),
                    ["x=1\n", "import sys\nimport os\nprint(os,sys)\n"],
                )
            )
    finally:
        fmt._find_ruff.cache_clear()
    assert lookups == [False]
    assert formatted == [
        {MODULE: "x = 1\n"},
        {MODULE: "import os\nimport sys\n\nprint(os, sys)\n"},
    ]
