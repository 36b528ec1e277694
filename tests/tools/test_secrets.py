"""One secrets policy for every tool: no planted secret comes back, whatever a call tries.

The tree plants one value in dotenv files, a credentials file, SSH and TLS keys, files a
deny list names (a folder of manifests, a Python module, a CI workflow), links with innocent
names to them, and a link to the root itself. Every tool is called with every path,
file_pattern and query trick below, directly and over stdio (the console script with
``--deny`` and ``--deny-file``); no answer may hold the value, and the results count what
the policy kept from them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from maverick.tools import DEFAULT_DENY, CodebaseTools, SecretsPolicy
from tests.tools._load import console_script
from tests.tools._repo import SECRET_FILES, SECRET_VALUE

SECRET = SECRET_VALUE
FILES = {
    **SECRET_FILES,  # .env, .env.local, config/credentials.json, keys/id_rsa, keys/server.pem
    ".ENV.backup": f"OLD_KEY={SECRET}\n",
    "prod.env": f"TOKEN={SECRET}\n",
    "config/.env.production": f"KEY={SECRET}\n",
    # What the deny list adds: a folder of manifests, a module, a CI workflow.
    "deploy/requirements.txt": f"{SECRET}==1.0\n",
    "deploy/package.json": json.dumps({"dependencies": {SECRET: "1.0"}}) + "\n",
    "deploy/main.tf": f'provider "{SECRET}" {{}}\n',
    "agents/secrets.py": f"import langchain  # {SECRET}\nVertexAiSessionService = '{SECRET}'\n",
    ".github/workflows/deploy.yml": f"# drift {SECRET}\n",
    # What may be read.
    "agents/agent.py": "from google.adk.agents import LlmAgent  # spiffe\n",
    "requirements.txt": "pydantic>=2\n",
    ".env.example": "API_KEY=\n",
}
DENY_RULES = ["deploy/", "agents/secrets.py"]
DENY_FILE_RULES = "# CI secrets\n.github/workflows/deploy.yml\n"
LINKS = {  # link -> target, relative to the root
    "notes.txt": ".env",
    "agents/config.py": "../config/credentials.json",
    "agents/settings.py": "secrets.py",
    "mirror": ".",
}
# What the policy denies: the 13 planted secrets, and .env.example (a dotenv name, though empty).
DENIED = 14

PATHS = [".", "./", "mirror", "agents", "config", "keys", "deploy", ".github", "./.env",
         ".env", "mirror/.env", "config/../.env.local", "notes.txt", "agents/config.py",
         "agents/settings.py", "agents/secrets.py", "deploy/requirements.txt", "prod.env",
         ".ENV.backup", "keys/id_rsa", "keys/server.pem", "config/.env.production"]  # fmt: skip
PATTERNS = ["*", ".*", "*.env", "**/*", ".env*", "*credentials*", "id_rsa", "*.pem", "*/*",
            "deploy/*", "*.py", "*.txt", "*.yml", "*.json", ".ENV*"]  # fmt: skip
QUERIES = [(SECRET, False), ("planted", False), ("=", False), (".", True), ("^.*$", True),
           ("(?i)PLANTED", True), (r"\w+", True)]  # fmt: skip


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("secrets")
    tree = folder / "repo"
    for rel, text in FILES.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text)
    for link, target in LINKS.items():
        os.symlink(target, tree / link)
    (folder / "deny.txt").write_text(DENY_FILE_RULES)
    return tree


def leaks(document: dict[str, Any]) -> bool:
    """Whether a result holds the secret anywhere but in the query it echoes."""
    return "planted-secret" in json.dumps({k: v for k, v in document.items() if k != "query"})


def policy(root: Path) -> SecretsPolicy:
    return SecretsPolicy.with_rules(DENY_RULES, [root.parent / "deny.txt"])


def calls() -> list[tuple[str, dict[str, Any]]]:
    """Every tool with every trick."""
    made: list[tuple[str, dict[str, Any]]] = []
    for path, pattern, (query, regex) in itertools.product(PATHS, PATTERNS, QUERIES):
        arguments = {"query": query, "path": path, "file_pattern": pattern, "regex": regex}
        made.append(("search_codebase", {**arguments, "max_results": 1000}))
    for path in PATHS:
        made += [("get_file", {"path": path}), ("check_patterns", {"path": path})]
        made.append(("analyze_deps", {"path": path}))
    return made


def test_no_tool_returns_a_secret(root: Path) -> None:
    tools = CodebaseTools(root, policy=policy(root))

    async def run() -> list[dict[str, Any]]:
        answers = []
        for tool, arguments in calls():
            result = await getattr(tools, tool)(**arguments)
            answers.append(result.model_dump(mode="json"))
        return answers

    answers = asyncio.run(run())
    assert [a for a in answers if leaks(a)] == []
    # The calls did read what they may: the policy is not "refuse everything".
    assert any(a["success"] and a.get("match_count") for a in answers)


def test_what_the_results_count(root: Path) -> None:
    tools = CodebaseTools(root, policy=policy(root))
    everything = asyncio.run(tools.search_codebase(".", file_pattern="*", regex=True))
    assert everything.secret_files_skipped == DENIED + 3  # and the three links to secrets
    assert {m.file for m in everything.matches} == {"agents/agent.py", "requirements.txt"}
    deps = asyncio.run(tools.analyze_deps("deploy"))
    assert (deps.success, deps.secret_files_skipped, deps.issues) == (True, 3, [])
    assert deps.summary is not None
    assert deps.summary.python_packages == deps.summary.terraform_providers == 0
    check = asyncio.run(tools.check_patterns())
    # agents/secrets.py, the two *.py links to secrets, the CI workflow: each counted once
    assert check.secret_files_skipped == 4
    assert "R1" in check.passed  # the langchain import of agents/secrets.py was never read
    refused = asyncio.run(tools.get_file("agents/settings.py"))
    assert refused.error == "Access denied: agents/settings.py may hold secrets (secrets policy)"


def test_the_deny_list_allows_again_with_a_bang(root: Path) -> None:
    """gitignore's ``!``: a later rule allows what an earlier one denied."""
    assert SecretsPolicy().denies(".env.example")
    tools = CodebaseTools(root, policy=SecretsPolicy.with_rules(["!.env.example"]))
    allowed = asyncio.run(tools.get_file(".env.example"))
    assert allowed.content == "API_KEY=\n"
    assert asyncio.run(tools.get_file(".env")).success is False


def test_bad_deny_rules_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"invalid deny rule '!'"):
        SecretsPolicy.with_rules(["*.pem", "!"])
    with pytest.raises(ValueError, match=r"invalid deny rule '\[z-a\]'"):
        SecretsPolicy.with_rules(["[z-a]"])
    with pytest.raises(FileNotFoundError, match=r"missing\.txt"):
        SecretsPolicy.with_rules([], [tmp_path / "missing.txt"])
    assert ".env*" in DEFAULT_DENY


def test_over_stdio_with_the_deny_options(root: Path) -> None:
    """The console script's --deny and --deny-file reach every tool."""
    args = ["--root", str(root), "--deny-file", str(root.parent / "deny.txt")]
    for rule in DENY_RULES:
        args += ["--deny", rule]
    server = StdioServerParameters(command=console_script(), args=args)
    sample = [c for n, c in enumerate(calls()) if n % 17 == 0 or c[0] != "search_codebase"]

    async def run() -> list[Any]:
        async with Client(server, read_timeout_seconds=60) as client:
            return [await client.call_tool(tool, arguments) for tool, arguments in sample]

    answers = anyio.run(run)
    assert len(answers) > 100
    for answer in answers:
        assert not leaks(answer.structured_content)
        text = answer.content[0].text
        assert not leaks(json.loads(text) if not answer.is_error else {"error": text})
    assert any(not a.is_error and a.structured_content.get("match_count") for a in answers)
