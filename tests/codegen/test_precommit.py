"""The pre-commit hooks for real, in temporary git repositories.

This project's own (local) drift hook refuses a commit with drift; and another repository using
the published hooks (``.pre-commit-hooks.yaml``) by repository and revision goes from an
unformatted schema to a clean commit. pre-commit installs the hook repository with pip into its
own virtual environment, once per module (one PRE_COMMIT_HOME).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
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


# --------------------------------------------- this project's hooks, from another repository

ORDER = {
    "title": "Order",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://shop.example/schemas/orders/order.json",
    "description": "An order placed in the shop.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "minLength": 1, "description": "The order's id."},
        "total": {"type": "number", "minimum": 0, "default": 0, "description": "Its total."},
    },
    "required": ["id"],
    "examples": [{"id": "o-1", "total": 9.5}],
}
SHOP_TOML = """\
[project]
name = "shop"

[tool.maverick-codegen]
schema_dir = "schemas"
output_dir = "src/shop_contracts"
package = "shop_contracts"

[tool.maverick-codegen.lint]
use = ["DEFAULT", "STYLE"]
"""


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A clone of this repository at its current state: HEAD, plus the work tree's changes
    committed on top (so that the hooks under test are the code under test)."""
    clone = tmp_path_factory.mktemp("hooks") / "maverick-contracts"
    done = subprocess.run(
        ["git", "clone", "-q", "--no-local", str(REPO), str(clone)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    for rel in filter(None, listed.stdout.decode().split("\0")):
        source, target = REPO / rel, clone / rel
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        elif target.exists():
            target.unlink()  # deleted in the work tree
    git(clone, "add", "-A")
    if git(clone, "diff", "--cached", "--quiet").returncode:
        assert git(clone, "commit", "-qm", "work tree").returncode == 0
    return clone, git(clone, "rev-parse", "HEAD").stdout.strip()


def test_another_repository_uses_the_published_hooks(
    hook_repo: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The issue's "Why", replayed: lint refuses the layout, format fixes it, check refuses the
    missing generated code and names the command that exists, generate fixes it."""
    clone, rev = hook_repo
    shop = clone.parent / "shop"  # beside the clone: git() keeps pre-commit's cache there
    (shop / "schemas/orders").mkdir(parents=True)
    order = shop / "schemas/orders/order.json"
    order.write_text(json.dumps(ORDER))
    (shop / "pyproject.toml").write_text(SHOP_TOML)
    hooks = [{"id": "maverick-codegen-lint"}, {"id": "maverick-codegen-check"}]
    hooks.append({"id": "maverick-codegen-format", "stages": ["manual"]})
    config = {"repos": [{"repo": str(clone), "rev": rev, "hooks": hooks}]}
    (shop / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    assert pre_commit is not None
    assert git(shop, "init", "-q").returncode == 0
    installed = subprocess.run(
        [pre_commit, "install"], cwd=shop, capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stderr
    git(shop, "add", "-A")

    refused = git(shop, "commit", "-qm", "an order")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "schemas pass the contract lint" in output
    assert "schemas/orders/order.json:1:2: not laid out as 2-space indented JSON" in output
    assert "top-level keyword 'title' is out of order" in output
    assert "(KEY_ORDER)" in output
    assert "maverick-codegen format fixes it" in output

    env = {**os.environ, "PRE_COMMIT_HOME": str(shop.parent / "pre-commit-home")}
    formatted = subprocess.run(
        [pre_commit, "run", "--hook-stage", "manual", "maverick-codegen-format"],
        cwd=shop,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert formatted.returncode == 1  # pre-commit fails a hook that changed files
    assert "reformatted schemas/orders/order.json" in formatted.stdout
    assert json.loads(order.read_text()) == ORDER
    assert list(json.loads(order.read_text()))[:3] == ["$schema", "$id", "title"]
    git(shop, "add", "-A")

    refused = git(shop, "commit", "-qm", "an order")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert re.search(r"schemas pass the contract lint\.+Passed", output), output
    assert "missing: src/shop_contracts/orders/order.py" in output
    assert "fix it with: maverick-codegen generate" in output
    assert "make" not in output.split("fix it with:", 1)[1]

    generated = subprocess.run(
        [sys.executable, "-m", "codegen", "generate"],
        cwd=shop,
        capture_output=True,
        text=True,
        check=False,
    )
    assert generated.returncode == 0, generated.stderr
    git(shop, "add", "-A")
    passed = git(shop, "commit", "-qm", "an order")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert git(shop, "status", "--porcelain").stdout == ""
