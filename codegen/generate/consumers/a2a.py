"""The A2A AgentCard ``skills`` fragment of the MCP tools, for the export.

Seed 004 built AgentCard skill schemas by hand from ``model_json_schema()``. Here one skill per
tool of ``[tool.maverick-codegen.tools]`` is generated from the canonical files: ``id`` and
``name`` are the tool name, ``description`` that of its arguments' contract (else of its
result's), ``examples`` its arguments' schema examples as JSON text, ``tags``, and JSON in and
out. Those are the fields the A2A ``AgentSkill`` type defines. ``inputSchema`` and
``outputSchema`` are not A2A fields: they carry the self-contained forms (the MCP
``inputSchema`` and ``outputSchema``) for agents that want them, as seed 004 did.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codegen.generate.contract import Contract

__all__ = ["A2A_SKILLS", "a2a_skills"]

A2A_SKILLS = "a2a-skills.json"
JSON = "application/json"


def a2a_skills(
    contracts: Iterable[Contract], forms: Mapping[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """One AgentCard skill per MCP tool, sorted by tool name (empty without tools)."""
    returns: dict[str, Contract] = {}
    takes: dict[str, Contract] = {}
    for contract in contracts:
        returns.update(dict.fromkeys(contract.tools, contract))
        takes.update(dict.fromkeys(contract.tool_inputs, contract))
    skills = []
    for tool in sorted(returns):
        result, arguments = returns[tool], takes.get(tool)
        described = (arguments or result).schema.data
        skill: dict[str, Any] = {
            "id": tool,
            "name": tool,
            "description": described["description"],
            "tags": ["mcp-tool", result.name],
            "examples": [
                json.dumps(e, sort_keys=True, ensure_ascii=False)
                for e in (arguments.schema.data.get("examples", []) if arguments else [])
            ],
            "inputModes": [JSON],
            "outputModes": [JSON],
            "outputSchema": forms[result.name],
        }
        if arguments is not None:
            skill["inputSchema"] = forms[arguments.name]
        skills.append(skill)
    return skills
