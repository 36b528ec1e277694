"""``generate --watch`` for real, and the writer's all-or-nothing promise under Ctrl-C.

The watch runs as a subprocess; its output is read by a thread, and every wait polls with a
timeout (no fixed sleeps). An edit saved before the watcher is up would go unseen, so edits
are saved again until their effect shows.
"""

from __future__ import annotations

import io
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codegen.core.config import load_config
from codegen.generate.files.writer import write_outputs
from codegen.generate.plan import build_plan
from codegen.generate_cli import watch
from tests.conftest import REPO

OUT = "out/golden_contracts"


def project(make_project: Callable[[str], Path]) -> Path:
    root = make_project("inheritance_rules")
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/golden_contracts", OUT))
    return root


def snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text()
        for p in sorted((root / "out").rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


# ------------------------------------------------------------------ the writer, interrupted


def described(root: Path, text: str) -> None:
    schema = root / "schemas/tools/problem.json"
    doc = json.loads(schema.read_text())
    doc["properties"]["file"]["description"] = text
    schema.write_text(json.dumps(doc, indent=2) + "\n")


def test_ctrl_c_while_files_are_staged_leaves_the_previous_generation(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(make_project)
    config = load_config(root / "pyproject.toml")
    write_outputs(build_plan(config).outputs)
    before = snapshot(root)
    described(root, "Changed file path.")
    described_outputs = build_plan(config).outputs
    staged = 0
    real_mkstemp = tempfile.mkstemp

    def interrupted(*args: object, **kwargs: object) -> tuple[int, str]:
        nonlocal staged
        staged += 1
        if staged == 2:
            raise KeyboardInterrupt
        return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(tempfile, "mkstemp", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_outputs(described_outputs)
    assert staged == 2
    assert snapshot(root) == before  # no temporary file left, nothing replaced


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in this process, as in a terminal (a shell may start the
    tests with SIGINT ignored, and a background job's is)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ctrl_c_stops() -> None:
    """In the watch's process, before Python starts: SIGINT as in a terminal, whatever the
    tests' process was started with (Python then turns it into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.usefixtures("ctrl_c")
def test_ctrl_c_while_files_are_renamed_is_delivered_after_the_whole_generation(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(make_project)
    config = load_config(root / "pyproject.toml")
    write_outputs(build_plan(config).outputs)
    package = root / OUT
    stale = package / "tools/old_result.py"  # a generated file whose schema is gone
    stale.write_text((package / "tools/problem.py").read_text())
    described(root, "Changed file path.")
    outputs = build_plan(config).outputs
    assert outputs[0].target.folder == package
    expected = {f"{OUT}/{rel}": text for rel, text in outputs[0].files.items()}
    renames = 0
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        nonlocal renames
        renames += 1
        if renames == 1:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C between two renames
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        write_outputs(outputs)
    assert renames > 1
    assert snapshot(root) == expected  # every file rewritten, the stale one removed


# ------------------------------------------------------------------------- the watch loop


class Watch:
    """``maverick-codegen generate --watch`` in a subprocess, its output read line by line."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-m", "codegen", "--config", "pyproject.toml", "generate", "--watch"],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            preexec_fn=_ctrl_c_stops,  # noqa: PLW1509 (no thread of ours runs yet in the child)
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, wanted: Callable[[str], bool], *, redo: Callable[[], None] | None = None,
                 timeout: float = 60.0) -> str:  # fmt: skip
        """The next line for which ``wanted`` holds; ``redo`` is done at once, then again each
        second without output meanwhile."""
        deadline = time.monotonic() + timeout
        next_redo = time.monotonic()
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                assert self.process.poll() is None, "\n".join(self.seen)
                if redo is not None and time.monotonic() >= next_redo:
                    redo()
                    next_redo = time.monotonic() + 1.0
                continue
            self.seen.append(line)
            if wanted(line):
                return line
        raise AssertionError("timed out; output so far:\n" + "\n".join(self.seen))

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        finally:
            self.process.kill()
            self.process.wait()
            self.reader.join(timeout=10)
            assert self.process.stdout is not None
            self.process.stdout.close()


@pytest.fixture
def watching(make_project: Callable[[str], Path]) -> Iterator[Watch]:
    watch = Watch(project(make_project))
    try:
        yield watch
    finally:
        watch.stop()


def test_watch_regenerates_reports_errors_and_goes_on(watching: Watch) -> None:
    root = watching.root
    problem = root / OUT / "tools/problem.py"
    watching.wait_for(lambda line: line.startswith("watching schemas/ and pyproject.toml"))
    assert problem.exists()  # the first generation

    # A save regenerates.
    watching.wait_for(
        lambda line: line == f"wrote {OUT}/tools/problem.py",
        redo=lambda: described(root, "Path of the file, from the root."),
    )
    assert "Path of the file, from the root." in problem.read_text()

    # A bad save prints the error with file:line:col, and the loop goes on.
    schema = root / "schemas/tools/problem.json"
    good = schema.read_text()
    bad = good.replace('"type": "object",', '"type": "object",,', 1)

    error = watching.wait_for(  # (check_result.json, which references it, is refused too)
        lambda line: "malformed JSON" in line and line.endswith("(JSON)"),
        redo=lambda: schema.write_text(bad),
    )
    assert error.startswith(f"{root}/schemas/tools/problem.json:") or error.startswith(
        "schemas/tools/problem.json:"
    )
    line, column = error.split(":")[1:3]
    assert line.isdigit()
    assert column.isdigit()
    assert error.endswith("(JSON)")
    watching.wait_for(lambda line: line.startswith("generation failed"))
    assert "Path of the file, from the root." in problem.read_text()  # nothing half-written
    assert watching.process.poll() is None

    # A fix regenerates.
    fixed = good.replace("Path of the file, from the root.", "The file's path.")
    watching.wait_for(
        lambda line: line == f"wrote {OUT}/tools/problem.py",
        redo=lambda: schema.write_text(fixed),
    )
    assert "The file's path." in problem.read_text()

    # A save of the configuration reloads it.
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/contracts.md", "docs/contracts.md"))
    watching.wait_for(
        lambda line: line == "wrote docs/contracts.md",
        redo=lambda: toml.write_text(toml.read_text()),
    )
    assert (root / "docs/contracts.md").exists()

    # Ctrl-C stops it cleanly, nothing left behind.
    assert watching.stop() == 0
    assert "stopped watching" in [*watching.seen, *_drain(watching)]
    assert not [p for p in root.rglob("*.tmp")]


def _drain(watch: Watch) -> list[str]:
    lines = []
    while not watch.lines.empty():
        lines.append(watch.lines.get())
    return lines


def test_watch_in_a_thread_stops_when_told(make_project: Callable[[str], Path]) -> None:
    """``watch`` is callable in-process (an editor plugin, a dev server): a stop event ends it."""
    root = project(make_project)
    out, err = io.StringIO(), io.StringIO()
    stop = threading.Event()
    result: list[int] = []
    thread = threading.Thread(
        target=lambda: result.append(watch(root / "pyproject.toml", out, err, stop=stop))
    )
    thread.start()
    deadline = time.monotonic() + 60
    while "watching schemas/" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (root / OUT / "tools/problem.py").exists()
    stop.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert result == [0]
    assert err.getvalue() == ""
