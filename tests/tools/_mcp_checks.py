"""What every Python MCP client test checks, on the answers one client session collected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from maverick.contracts import TOOL_CONTRACTS
from tests.conftest import REPO
from tests.tools._expected import ERRORS, SUCCESSES
from tests.tools.conftest import contract_validator

EXPORT = REPO / "export"


def collect(server: Any) -> dict[str, Any]:
    """List the tools and make every call of the table in one session of ``server``."""

    async def run() -> dict[str, Any]:
        async with Client(server, read_timeout_seconds=60) as client:
            listing = await client.list_tools()
            calls = [(tool, args) for tool, args, _ in [*SUCCESSES, *ERRORS]]
            answers = [await client.call_tool(tool, args) for tool, args in calls]
            unknown: str | None = None
            try:
                await client.call_tool("rm_rf", {})
            except Exception as exc:  # the protocol error for an unknown tool
                unknown = str(exc)
        return {
            "tools": {t.name: t for t in listing.tools},
            "answers": answers,
            "unknown": unknown,
        }

    return anyio.run(run)


def exported_output_schema(tool: str, which: str = "output") -> dict[str, Any]:
    """The exported self-contained form of ``tool``'s result (or, ``"input"``, arguments)."""
    entry = json.loads((EXPORT / "index.json").read_text())["tools"][tool]
    entry = entry["input"] if which == "input" else entry
    return json.loads((EXPORT / entry["structured_output"]).read_text())


def check_answer(answer: Any, tool: str, success: bool) -> dict[str, Any]:
    """The answer's structured content, after checking its form, its schema and its model."""
    document: dict[str, Any] = answer.structured_content
    assert isinstance(document, dict)
    assert contract_validator(TOOL_CONTRACTS[tool].name).is_valid(document)
    TOOL_CONTRACTS[tool].model.model_validate_json(json.dumps(document))
    assert answer.is_error is (not success)
    assert len(answer.content) == 1
    assert answer.content[0].type == "text"
    if success:
        assert json.loads(answer.content[0].text) == document
    else:
        assert answer.content[0].text == document["error"]
    assert document["metadata"]["tool_name"] == tool
    return document


def case_ids() -> list[str]:
    return [f"{t}-{i}" for i, (t, _, _) in enumerate([*SUCCESSES, *ERRORS])]


def root_of(repo: Path) -> Path:
    return repo.resolve()
