"""The pre-commit hook for real: in a temporary git repository, a commit with drift is refused."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from tests.conftest import REPO, git


def test_commit_with_drift_is_refused_and_clean_commit_passes(
    make_project: Callable[[str], Path],
) -> None:
    repo = make_project("inheritance_rules")
    # The project's own drift hook, pointed at this interpreter instead of .venv.
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    hooks = [h for r in config["repos"] for h in r["hooks"] if h["id"] == "maverick-codegen-check"]
    assert len(hooks) == 1
    hooks[0]["entry"] = hooks[0]["entry"].replace(".venv/bin/python", sys.executable)
    config = {"repos": [{"repo": "local", "hooks": hooks}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    toml = repo / "pyproject.toml"
    toml.write_text(toml.read_text().replace("expected/golden_contracts", "src/golden_contracts"))
    subprocess.run([sys.executable, "-m", "codegen", "generate"], cwd=repo, check=True)
    assert git(repo, "init", "-q").returncode == 0
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    assert pre_commit is not None
    installed = subprocess.run(
        [pre_commit, "install"], cwd=repo, capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stderr
    git(repo, "add", "-A")
    first = git(repo, "commit", "-qm", "clean")
    assert first.returncode == 0, first.stdout + first.stderr

    schema = repo / "schemas/tools/problem.json"
    schema.write_text(schema.read_text().replace('"File path."', '"Path of the file."'))
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-qm", "drift")
    assert refused.returncode != 0
    assert "generated contracts match the schemas" in refused.stdout + refused.stderr
    assert "changed: src/golden_contracts/tools/problem.py" in refused.stdout + refused.stderr
    assert "fix it with: maverick-codegen generate" in refused.stdout + refused.stderr

    subprocess.run([sys.executable, "-m", "codegen", "generate"], cwd=repo, check=True)
    git(repo, "add", "-A")
    fixed = git(repo, "commit", "-qm", "regenerated")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
