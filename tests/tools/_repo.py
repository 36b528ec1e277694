"""The fixture repository the tool tests run on, written fresh into a folder.

A small Bob's Brain-like tree: Python, Node and Terraform manifests, agents that keep the
Hard Mode rules R2, R5 and R7, one R1 violation (``agents/test.py`` line 10 imports
langchain, as in seed 004's sample ComplianceResult), a gateway that only mentions Runner in
a comment, a CI workflow with a drift check, and what every tool must skip or refuse: a
binary file, folders that are never searched (.git, node_modules, a virtual environment),
secrets, and symbolic links that leave the root.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["OUTSIDE_SECRET", "SECRET_FILES", "SECRET_VALUE", "build_repo"]

OUTSIDE_SECRET = "outside-the-root-secret"
# Planted secrets: no tool may ever return this value, whatever it is asked.
SECRET_VALUE = "planted-secret-value-0451"
SECRET_FILES = {
    ".env": f"API_KEY={SECRET_VALUE}\n",
    ".env.local": f"DB_PASSWORD={SECRET_VALUE}\n",
    "config/credentials.json": f'{{"token": "{SECRET_VALUE}"}}\n',
    "keys/id_rsa": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET_VALUE}\n",
    "keys/server.pem": f"-----BEGIN PRIVATE KEY-----\n{SECRET_VALUE}\n",
}

AGENT = """\
from google.adk.agents import LlmAgent
from google.adk.memory import VertexAiMemoryBankService
from google.adk.sessions import VertexAiSessionService
import vertexai

SPIFFE_ID = "spiffe://intent.solutions/agent/bob/dev/us-central1/0.1.0"

session_service = VertexAiSessionService(project="demo")
memory_service = VertexAiMemoryBankService(project="demo")
app = LlmAgent(name="bob", model="gemini-2.5-flash")
"""

TEST_AGENT = "".join(f"# line {n}\n" for n in range(1, 10)) + "import langchain\n"

GATEWAY = """\
# The gateway forwards to Agent Engine; it never builds a Runner itself.
import httpx


async def forward(payload: dict) -> dict:
    async with httpx.AsyncClient() as client:
        return (await client.post("https://engine.invalid", json=payload)).json()
"""

WORKFLOW = """\
name: ci
on: [push]
jobs:
  drift:
    runs-on: ubuntu-latest
    steps:
      - run: python scripts/ci/check_nodrift.sh  # drift detection: no forbidden imports
"""

REQUIREMENTS = "# runtime\ngoogle-adk\npydantic>=2.11  # models\n-r requirements-dev.txt\n"
REQUIREMENTS_DEV = "pytest==8.3.0\n"
PYPROJECT = """\
[project]
name = "bob"
version = "0.1.0"
dependencies = ["fastapi>=0.110", "uvicorn[standard]", "pydantic>=2"]

[project.optional-dependencies]
dev = ["ruff==0.6.0"]
"""
PACKAGE_JSON = {
    "name": "bob-ui",
    "dependencies": {"express": "^4.18.2", "zod": "^3.23.0"},
    "devDependencies": {"typescript": "^5.4.0", "zod": "^3.23.0"},
}
MAIN_TF = """\
terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "~> 5.0"
    }
  }
}

provider "google" {
  project = "demo"
}

provider "random" {}
"""


def build_repo(folder: Path) -> Path:
    """Write the fixture repository into ``folder/repo`` (a secret beside it); returns it."""
    root = folder / "repo"
    files = {
        "agents/bob/agent.py": AGENT,
        "agents/test.py": TEST_AGENT,
        "service/a2a_gateway/main.py": GATEWAY,
        ".github/workflows/ci.yml": WORKFLOW,
        "requirements.txt": REQUIREMENTS,
        "requirements-dev.txt": REQUIREMENTS_DEV,
        "pyproject.toml": PYPROJECT,
        "package.json": json.dumps(PACKAGE_JSON, indent=2) + "\n",
        "infra/main.tf": MAIN_TF,
        "docs/notes.md": "Bob uses google.adk for every agent.\n",
        # Never searched: version control, dependencies, a virtual environment.
        ".git/hooks/pre-commit.py": "import google.adk  # in .git\n",
        "node_modules/pkg/index.py": "import google.adk  # in node_modules\n",
        "env/pyvenv.cfg": "home = /usr/bin\n",
        "env/lib/site.py": "import google.adk  # in a virtual environment\n",
        "node_modules/pkg/main.tf": "terraform {\n  required_providers {\n    aws = {}\n  }\n}\n",
        **SECRET_FILES,
        # Malformed manifests beside good ones, for analyze_deps (a broken Terraform module in
        # .terraform/, which analysing the root skips, as it skips node_modules/).
        "broken/pyproject.toml": "[project\ndependencies = [\n",
        "broken/package.json": '{"dependencies": {"express": }',
        "broken/requirements.txt": "==1.0\n",
        "broken/requirements-dev.txt": "pytest==8.3.0\n",
        ".terraform/modules/broken/main.tf": "terraform {\n  required_providers {\n",
        ".terraform/modules/broken/ok.tf": 'provider "random" {}\n',
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "agents/blob.py").write_bytes(b"google.adk\0\x01\x02binary")
    (root / "latin1.txt").write_bytes("caf\xe9 au lait\n".encode("latin-1"))
    (root / "big.txt").write_text("x" * (1024 * 1024 + 1), encoding="utf-8")
    outside = folder / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(f"import google.adk  # {OUTSIDE_SECRET}\n")
    os.symlink(outside / "secret.py", root / "agents/leak.py")  # a linked file leaving the root
    os.symlink(outside, root / "agents/leakdir")  # a linked folder leaving the root
    os.symlink("bob/agent.py", root / "agents/alias.py")  # a link that stays inside
    os.symlink("../.env", root / "docs/env-link.txt")  # an innocent name for a secret
    return root
