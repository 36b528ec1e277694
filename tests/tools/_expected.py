"""Every call the tool tests make, and what each must answer, field by field.

One table for the direct calls and for every MCP client (Python in memory, Python over stdio,
TypeScript over stdio): ``SUCCESSES`` maps a call to its result without ``metadata`` (``ROOT``
stands for the fixture repository's real path), ``ERRORS`` maps a bad call to a part of its
error message. The TypeScript consumer reads the same table as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["ERRORS", "ROOT", "SUCCESSES", "as_json", "expected"]

ROOT = "<root>"

AGENT_LINES = [
    "from google.adk.agents import LlmAgent",
    "from google.adk.memory import VertexAiMemoryBankService",
    "from google.adk.sessions import VertexAiSessionService",
]
R1 = {
    "rule": "R1",
    "rule_name": "ADK-Only",
    "type": "forbidden_import",
    "pattern": "langchain",
    "file": "agents/test.py",
    "line": 10,
    "text": "import langchain",
}
ERROR_FORM = {"data": None, "success": False}

# (tool, arguments, the result without metadata)
SUCCESSES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "search_codebase",
        {"query": "google.adk"},
        {
            "success": True,
            "data": None,
            "error": None,
            "query": "google.adk",
            "path": ROOT,
            "file_pattern": "*.py",
            "matches": [
                {"file": file, "line_number": n, "text": text}
                for file in ("agents/alias.py", "agents/bob/agent.py")
                for n, text in enumerate(AGENT_LINES, 1)
            ],
            "match_count": 6,
            "file_count": 2,
            "truncated": False,
            "secret_files_skipped": 0,
        },
    ),
    (
        "search_codebase",
        {"query": r"^import \w+$", "path": "agents", "file_pattern": "*", "regex": True,
         "max_results": 1},
        {
            "success": True,
            "data": None,
            "error": None,
            "query": r"^import \w+$",
            "path": f"{ROOT}/agents",
            "file_pattern": "*",
            "matches": [{"file": "agents/alias.py", "line_number": 4, "text": "import vertexai"}],
            "match_count": 3,
            "file_count": 3,
            "truncated": True,
            "secret_files_skipped": 0,
        },
    ),
    (
        "get_file",
        {"path": "agents/test.py"},
        {
            "success": True,
            "data": None,
            "error": None,
            "path": f"{ROOT}/agents/test.py",
            "content": "".join(f"# line {n}\n" for n in range(1, 10)) + "import langchain\n",
            "size": 98,
            "lines": 10,
            "encoding": "utf-8",
        },
    ),
    (
        "check_patterns",
        {"rules": ["R1", "R2", "R5"]},
        {
            "success": True,
            "data": None,
            "error": None,
            "status": "VIOLATIONS_FOUND",
            "violations": [R1],
            "warnings": [],
            "passed": ["R2", "R5"],
            "compliance_score": 66.7,
            "risk_level": "CRITICAL",
            "path": ROOT,
            "rules_checked": ["R1", "R2", "R5"],
            "secret_files_skipped": 0,
        },
    ),
    (
        "check_patterns",
        {"path": "service", "rules": ["R3", "R4"]},
        {
            "success": True,
            "data": None,
            "error": None,
            "status": "COMPLIANT",
            "violations": [],
            "warnings": ["Unknown rule: R4"],
            "passed": ["R3"],
            "compliance_score": 100.0,
            "risk_level": "LOW",
            "path": f"{ROOT}/service",
            "rules_checked": ["R3", "R4"],
            "secret_files_skipped": 0,
        },
    ),
    (
        "check_patterns",
        {},
        {
            "success": True,
            "data": None,
            "error": None,
            "status": "VIOLATIONS_FOUND",
            "violations": [R1],
            "warnings": [],
            "passed": ["R2", "R3", "R5", "R7", "R8"],
            "compliance_score": 83.3,
            "risk_level": "CRITICAL",
            "path": ROOT,
            "rules_checked": ["R1", "R2", "R3", "R5", "R7", "R8"],
            "secret_files_skipped": 0,
        },
    ),
    (
        "analyze_deps",
        {},
        {
            "success": True,
            "data": None,
            "error": None,
            "path": ROOT,
            "python": {
                "requirements_txt": ["pytest==8.3.0", "google-adk", "pydantic>=2.11"],
                "pyproject_toml": ["fastapi>=0.110", "uvicorn[standard]", "pydantic>=2",
                                   "ruff==0.6.0"],
            },
            "node": {
                "dependencies": {"express": "^4.18.2", "zod": "^3.23.0"},
                "dev_dependencies": {"typescript": "^5.4.0", "zod": "^3.23.0"},
            },
            "terraform": {"providers": ["google", "random"]},
            "summary": {"python_packages": 6, "node_packages": 3, "terraform_providers": 2},
            "issues": [
                "Unpinned Python requirement google-adk (requirements.txt:2)",
                "Unpinned Python requirement uvicorn[standard] (pyproject.toml "
                "project.dependencies)",
                "Duplicate Python requirement pydantic: requirements.txt:3, pyproject.toml "
                "project.dependencies",
                "Duplicate Node package zod: dependencies and devDependencies",
            ],
            "secret_files_skipped": 0,
        },
    ),
    (
        # Every file of the tree, secrets included: none is read, each is counted.
        "search_codebase",
        {"query": "planted", "file_pattern": "*"},
        {
            "success": True,
            "data": None,
            "error": None,
            "query": "planted",
            "path": ROOT,
            "file_pattern": "*",
            "matches": [],
            "match_count": 0,
            "file_count": 0,
            "truncated": False,
            "secret_files_skipped": 6,
        },
    ),
    (
        # Malformed manifests are lines of issues; the good one beside them is reported.
        "analyze_deps",
        {"path": "broken"},
        {
            "success": True,
            "data": None,
            "error": None,
            "path": f"{ROOT}/broken",
            "python": {"requirements_txt": ["pytest==8.3.0"], "pyproject_toml": []},
            "node": {"dependencies": {}, "dev_dependencies": {}},
            "terraform": {"providers": []},
            "summary": {"python_packages": 1, "node_packages": 0, "terraform_providers": 0},
            "issues": [
                "Malformed manifest broken/requirements.txt:1: not a requirement: '==1.0'",
                "Malformed manifest broken/pyproject.toml: Expected ']' at the end of a table "
                "declaration (at line 1, column 9)",
                "Malformed manifest broken/package.json: Expecting value: line 1 column 30 "
                "(char 29)",
            ],
            "secret_files_skipped": 0,
        },
    ),
    (
        "analyze_deps",
        {"path": ".terraform/modules/broken"},
        {
            "success": True,
            "data": None,
            "error": None,
            "path": f"{ROOT}/.terraform/modules/broken",
            "python": {"requirements_txt": [], "pyproject_toml": []},
            "node": {"dependencies": {}, "dev_dependencies": {}},
            "terraform": {"providers": ["random"]},
            "summary": {"python_packages": 0, "node_packages": 0, "terraform_providers": 1},
            "issues": [
                "Malformed manifest .terraform/modules/broken/main.tf: Unexpected token "
                "Token('$END', '') at line 3, column 1."
            ],
            "secret_files_skipped": 0,
        },
    ),
]  # fmt: skip

# (tool, arguments, a part of the error message): every bad input of the issue
ERRORS: list[tuple[str, dict[str, Any], str]] = [
    ("search_codebase", {"query": ""}, "Query is required"),
    ("search_codebase", {"query": "x", "path": "missing"}, "Path not found: missing"),
    ("search_codebase", {"query": "x", "path": "../outside"}, "outside the root: ../outside"),
    ("search_codebase", {"query": "x", "path": "agents/leakdir"}, "symbolic link that leaves"),
    ("search_codebase", {"query": "(", "regex": True}, "Invalid regular expression '('"),
    ("search_codebase", {"query": "(a)\\1", "regex": True}, "backreferences (\\1) are not"),
    ("search_codebase", {"query": "a(?=b)", "regex": True}, "lookahead and lookbehind are not"),
    ("search_codebase", {"query": "x", "path": "./.env"}, "Access denied: ./.env may hold secrets"),
    ("search_codebase", {"query": "x", "max_results": 0}, "max_results"),
    ("get_file", {"path": "missing.py"}, "Path not found: missing.py"),
    ("get_file", {"path": "/etc/hostname"}, "outside the root: /etc/hostname"),
    ("get_file", {"path": "agents/leak.py"}, "symbolic link that leaves the root"),
    ("get_file", {"path": "agents"}, "Path is a directory, not a file: agents"),
    ("get_file", {"path": "agents/blob.py"}, "Binary file refused"),
    ("get_file", {"path": "latin1.txt"}, "Not UTF-8 text"),
    ("get_file", {"path": "big.txt"}, "File too large"),
    ("get_file", {"path": ".env"}, "may hold secrets"),
    ("get_file", {"path": "docs/env-link.txt"}, "docs/env-link.txt may hold secrets"),
    ("get_file", {"path": "keys/../.env.local"}, "may hold secrets"),
    ("check_patterns", {"path": "missing"}, "Path not found: missing"),
    ("check_patterns", {"path": "requirements.txt"}, "Path is not a directory"),
    ("check_patterns", {"rules": ["R4"]}, "No known rule among ['R4']"),
    ("analyze_deps", {"path": "../outside"}, "outside the root"),
    ("analyze_deps", {"path": "config/credentials.json"}, "may hold secrets"),
    ("check_patterns", {"path": "keys/id_rsa"}, "may hold secrets"),
]


def expected(result: dict[str, Any], root: Path) -> dict[str, Any]:
    """``result`` with ROOT replaced by the real root, in every string."""
    return json.loads(json.dumps(result).replace(ROOT, str(root)))


def as_json() -> str:
    """The table for the TypeScript consumer."""
    return json.dumps(
        {
            "root": ROOT,
            "successes": [list(s) for s in SUCCESSES],
            "errors": [list(e) for e in ERRORS],
        }
    )
