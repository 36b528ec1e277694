"""Fixtures of the agent tests: a temp git repository, the stand-in CLI, the real CLI."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from maverick.contracts import canonical_schema
from tests.standins import fake_cli
from tests.standins.messages_api import MessagesAPIStandIn, cli_env

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def example(contract: str) -> dict[str, Any]:
    """The first schema example of ``contract``: a document the contract accepts."""
    document: dict[str, Any] = canonical_schema(contract)["examples"][0]
    return document


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository on branch ``main`` with one commit (app.py, old.py, gone.py)."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "test@example.com")
    git(path, "config", "user.name", "Test")
    git(path, "config", "commit.gpgsign", "false")
    (path / "app.py").write_text("def add(a, b):\n    return a - b\n")
    (path / "old.py").write_text("".join(f"line {i}\n" for i in range(20)))
    (path / "gone.py").write_text("x = 1\n")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "initial")
    return path


@dataclass
class FakeCLI:
    """The stand-in ``claude``: ``options(scenario)`` are agent keyword options that use it."""

    launcher: Path
    directory: Path

    def options(self, scenario: fake_cli.Scenario, **env: str) -> dict[str, Any]:
        path = fake_cli.write_scenario(self.directory / "scenario.json", scenario)
        return {
            "cli_path": self.launcher,
            "env": {
                "FAKE_CLI_SCENARIO": str(path),
                "FAKE_CLI_RECORD": str(self.record_path),
                **env,
            },
        }

    def sequence(self, scenarios: list[fake_cli.Scenario]) -> dict[str, Any]:
        """Options whose n-th run plays ``scenarios[n]`` (the last one repeats)."""
        for n, scenario in enumerate(scenarios):
            fake_cli.write_scenario(self.directory / f"scenario_{n}.json", scenario)
        counter = self.directory / "counter"
        counter.write_text("0")
        last = len(scenarios) - 1
        launcher = self.directory / "claude-sequence"
        launcher.write_text(
            "#!/bin/sh\n"
            f'n=$(cat "{counter}")\n'
            f'echo $((n + 1)) > "{counter}"\n'
            f"if [ $n -gt {last} ]; then n={last}; fi\n"
            f'FAKE_CLI_SCENARIO="{self.directory}/scenario_$n.json" exec "{self.launcher}" "$@"\n'
        )
        launcher.chmod(0o755)
        return {"cli_path": launcher, "env": {"FAKE_CLI_RECORD": str(self.record_path)}}

    def runs(self) -> int:
        return int((self.directory / "counter").read_text())

    @property
    def record_path(self) -> Path:
        return self.directory / "record.json"

    def record(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.record_path.read_text())
        return data


@pytest.fixture
def fake(tmp_path: Path) -> FakeCLI:
    directory = tmp_path / "fake"
    directory.mkdir()
    return FakeCLI(launcher=fake_cli.write_launcher(directory), directory=directory)


@pytest.fixture
def api() -> Iterator[MessagesAPIStandIn]:
    with MessagesAPIStandIn() as server:
        yield server


@pytest.fixture
def real_cli(api: MessagesAPIStandIn, tmp_path: Path) -> dict[str, Any]:
    """Agent keyword options for the bundled CLI, talking to the Messages API stand-in only."""
    return {"env": cli_env(api.base_url, config_dir=tmp_path / "claude-config")}
