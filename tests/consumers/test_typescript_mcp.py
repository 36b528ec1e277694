"""The TypeScript MCP client (@modelcontextprotocol/sdk) against the installed server, over stdio.

``mcp-client.mjs`` starts ``maverick-tools-mcp --root <fixture repository>``, lists the
tools, compares each outputSchema and inputSchema with the exported self-contained files,
makes every call of the table in :mod:`tests.tools._expected` and judges each
structuredContent with Ajv 2020 in strict mode, by the self-contained form and by the
canonical files. Here every answer is checked field by field against the same table the
Python clients use: 0 disagreements.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from maverick.contracts import TOOL_CONTRACTS
from tests.conftest import REPO
from tests.consumers.test_typescript import TS, _run, ensure_node
from tests.tools._expected import ERRORS, SUCCESSES, expected
from tests.tools._repo import build_repo
from tests.tools.conftest import contract_validator

CALLS = [(t, a) for t, a, _ in SUCCESSES] + [(t, a) for t, a, _ in ERRORS]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One TypeScript client session for the whole module (one server process)."""
    node = ensure_node()
    folder = tmp_path_factory.mktemp("ts-mcp")
    repo = build_repo(folder)
    calls = folder / "calls.json"
    calls.write_text(json.dumps({"calls": [[t, a] for t, a in CALLS]}))
    server = Path(sys.executable).with_name("maverick-tools-mcp")
    out = _run(
        [node, str(TS / "mcp-client.mjs"), str(REPO / "export"), str(calls), "--",
         str(server), "--root", str(repo)],
        "the TypeScript MCP client",
    )  # fmt: skip
    return {"repo": repo, **json.loads(out)}


def test_every_output_schema_is_the_exported_file(report: dict[str, Any]) -> None:
    assert report["warnings"] == []
    assert report["tools"] == {
        name: {"exported": True, "outputSchemaEqual": True, "inputSchemaEqual": True}
        for name in TOOL_CONTRACTS
    }


def test_every_answer_agrees_with_python(report: dict[str, Any]) -> None:
    """Field by field, and Ajv (strict, both forms) accepts what the contract accepts."""
    disagreements = []
    results = report["results"]
    assert len(results) == len(CALLS)
    for (tool, _), result, want in zip(CALLS, results, [*SUCCESSES, *ERRORS], strict=True):
        document = result["structuredContent"]
        success = want in SUCCESSES
        checks = {
            "tool": result["tool"] == tool,
            "ajv (self-contained form)": result["ajvForm"] is True,
            "ajv (canonical files)": result["ajvFiles"] is True,
            "ajv refuses an unknown key": result["controlRefused"] is True,
            "python jsonschema": contract_validator(TOOL_CONTRACTS[tool].name).is_valid(document),
            "isError": result["isError"] is (not success),
            "one text block": [c["type"] for c in result["content"]] == ["text"],
            "text": (json.loads(result["content"][0]["text"]) == document)
            if success
            else result["content"][0]["text"] == document["error"],
        }  # fmt: skip
        TOOL_CONTRACTS[tool].model.model_validate_json(json.dumps(document))
        fields = {k: v for k, v in document.items() if k != "metadata"}
        if success:
            checks["fields"] = fields == expected(want[2], report["repo"])
        else:
            checks["error message"] = want[2] in document["error"]
        disagreements += [f"{tool} {want[1]}: {name}" for name, ok in checks.items() if not ok]
    assert disagreements == []
