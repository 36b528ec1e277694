"""The A2A AgentCard ``skills`` fragment in the export, judged by the a2a-sdk's own types.

Every field the A2A ``AgentSkill`` type defines must parse strictly (protobuf JSON mapping,
unknown fields refused); the two fields A2A does not define (``inputSchema``,
``outputSchema``) carry the tools' self-contained forms, the same documents as the MCP
server's. The skills then go into a whole ``AgentCard`` that the SDK accepts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from a2a.types import AgentCard, AgentSkill
from google.protobuf import json_format

from maverick.contracts import (
    TOOL_CONTRACTS,
    TOOL_INPUT_CONTRACTS,
    canonical_schema,
    tool_input_schema,
    tool_output_schema,
)
from tests.conftest import REPO

NOT_A2A = ("inputSchema", "outputSchema")


def fragment() -> dict[str, Any]:
    index = json.loads((REPO / "export/index.json").read_text())
    data: dict[str, Any] = json.loads((REPO / "export" / index["a2a_skills"]).read_text())
    assert index["a2a_skills"] in index["files"]  # generated, so drift-checked
    return data


def test_one_skill_per_tool_from_the_canonical_files() -> None:
    skills = fragment()["skills"]
    assert [s["id"] for s in skills] == sorted(TOOL_CONTRACTS)
    for skill in skills:
        tool = skill["id"]
        arguments = canonical_schema(TOOL_INPUT_CONTRACTS[tool].name)
        assert skill["name"] == tool
        assert skill["description"] == arguments["description"]
        assert skill["examples"] == [json.dumps(e, sort_keys=True) for e in arguments["examples"]]
        assert skill["tags"] == ["mcp-tool", TOOL_CONTRACTS[tool].name]
        assert skill["inputModes"] == skill["outputModes"] == ["application/json"]
        assert skill["inputSchema"] == tool_input_schema(tool)
        assert skill["outputSchema"] == tool_output_schema(tool)


@pytest.mark.parametrize("index", range(len(TOOL_CONTRACTS)))
def test_every_a2a_field_validates_against_agent_skill(index: int) -> None:
    skill = fragment()["skills"][index]
    defined = {k: v for k, v in skill.items() if k not in NOT_A2A}
    parsed = json_format.ParseDict(defined, AgentSkill())  # unknown fields refused
    assert json_format.MessageToDict(parsed) == defined
    with pytest.raises(json_format.ParseError, match=r"no field named .(input|output)Schema"):
        json_format.ParseDict(skill, AgentSkill())  # A2A defines no schema fields
    with pytest.raises(json_format.ParseError):
        json_format.ParseDict({**defined, "tags": "not-a-list"}, AgentSkill())


def test_the_skills_make_an_agent_card() -> None:
    skills = [{k: v for k, v in s.items() if k not in NOT_A2A} for s in fragment()["skills"]]
    card = json_format.ParseDict(
        {
            "name": "maverick-tools",
            "description": "Bob's Brain's codebase tools",
            "version": "0.1.0",
            "supportedInterfaces": [
                {"url": "http://127.0.0.1:8000/a2a", "protocolBinding": "JSONRPC"}
            ],
            "capabilities": {},
            "defaultInputModes": ["application/json"],
            "defaultOutputModes": ["application/json"],
            "skills": skills,
        },
        AgentCard(),
    )
    assert [s.id for s in card.skills] == sorted(TOOL_CONTRACTS)
