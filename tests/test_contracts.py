"""The real contracts: examples, cross-field rules, the registry and the one-import API."""

from __future__ import annotations

import enum
import json
import subprocess
import sys

import pytest

import maverick.agents.contracts as public
from codegen.generate.rules import find_rules
from maverick.contracts import AGENT_CONTRACTS, CONTRACTS, canonical_schema, output_format
from tests._schema_harness import (
    load,
    model_accepts,
    mutations,
    rules_with_bases,
    validator_for,
)
from tests.conftest import REPO

TREE = load(REPO / "schemas")
NAMES = sorted(CONTRACTS)
RULED = sorted(name for name in NAMES if find_rules(rules_with_bases(TREE, name)))


def test_every_schema_file_is_a_registered_contract() -> None:
    assert sorted(f.title for f in TREE.files) == NAMES
    for name in NAMES:
        info = CONTRACTS[name]
        schema = TREE.by_title[name]
        assert info.schema_id == schema.schema_id
        assert info.schema_file == f"schemas/{schema.rel}"
        assert info.model.__name__ == name
        assert canonical_schema(name) == schema.data


def test_agents_map_to_the_contracts_of_contracts_md() -> None:
    assert {agent: info.name for agent, info in AGENT_CONTRACTS.items()} == {
        "code-reviewer": "ReviewResult",
        "unified-reviewer": "GroupedReviewResult",
        "simple-fixer": "FixOutcomes",
        "fixer": "FixerResult",
        "issue-fixer": "FixResult",
        "implementer": "ImplementationResult",
    }


@pytest.mark.parametrize("name", NAMES)
def test_examples_validate_under_jsonschema_and_the_model(name: str) -> None:
    examples = TREE.by_title[name].data.get("examples")
    assert examples, f"{name} has no examples"
    validator = validator_for(TREE, name)
    model = CONTRACTS[name].model
    for example in examples:
        assert validator.is_valid(example), list(validator.iter_errors(example))
        if issubclass(model, enum.Enum):
            assert model(example).value == example
            continue
        instance = model.model_validate_json(json.dumps(example))
        # The model writes back what it read (no field lost, no value changed).
        dumped = json.loads(instance.model_dump_json(exclude_unset=True))
        assert dumped == example


@pytest.mark.parametrize("name", RULED)
def test_cross_field_rules_judge_like_jsonschema(name: str) -> None:
    rules = rules_with_bases(TREE, name)
    validator = validator_for(TREE, name)
    model = CONTRACTS[name].model
    verdicts = {True: 0, False: 0}
    for document in mutations(rules, TREE.by_title[name].data["examples"]):
        expected = validator.is_valid(document)
        assert model_accepts(model, document) == (expected, expected), document
        verdicts[expected] += 1
    assert verdicts[True] > 0
    assert verdicts[False] > 0


@pytest.mark.parametrize("agent", sorted(AGENT_CONTRACTS))
def test_output_format_is_a_self_contained_object_schema(agent: str) -> None:
    fmt = output_format(AGENT_CONTRACTS[agent].name)
    assert fmt["type"] == "json_schema"
    schema = fmt["schema"]
    assert schema["type"] == "object"
    text = json.dumps(schema)
    assert '"$ref": "#' in text or "$ref" not in text
    assert "$id" not in text
    assert "x-" not in {k[:2] for k in _keys(schema)}
    for example in TREE.by_title[AGENT_CONTRACTS[agent].name].data["examples"]:
        import jsonschema

        assert jsonschema.Draft202012Validator(schema).is_valid(example)


def _keys(node: object) -> set[str]:
    if isinstance(node, dict):
        found = set(node)
        for value in node.values():
            found |= _keys(value)
        return found
    if isinstance(node, list):
        return set().union(*(_keys(v) for v in node)) if node else set()
    return set()


def test_one_import_offers_every_output_type() -> None:
    # SC-004, in a fresh interpreter, without claude-agent-sdk being imported.
    code = (
        "import sys\n"
        "from maverick.agents.contracts import (FixerResult, FixResult, ImplementationResult,"
        " ReviewResult, GroupedReviewResult, FixOutcome, FixOutcomes, ReviewFinding, Finding,"
        " FindingGroup, validate_output, OutputValidationError, AgentResult, AgentUsage)\n"
        "assert 'claude_agent_sdk' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_public_names_are_locked() -> None:
    defs = {
        d["title"] for f in TREE.files for d in (f.data.get("$defs") or {}).values() if "title" in d
    }
    generated = set(NAMES) | defs | {
        "AGENT_CONTRACTS", "CONTRACTS", "ContractInfo", "canonical_schema", "output_format",
        "TOOL_CONTRACTS", "tool_output_schema", "TOOL_INPUT_CONTRACTS", "tool_input_schema",
    }  # fmt: skip
    runtime = {
        "AgentResult", "AgentUsage", "ChunkError", "ChunkedOutputs", "FieldError",
        "OutputValidationError", "validate_output", "validate_outputs",
    }  # fmt: skip
    assert set(public.__all__) == generated | runtime
    for name in public.__all__:
        assert getattr(public, name) is not None


def test_tool_results_really_inherit_from_tool_result() -> None:
    base = CONTRACTS["ToolResult"].model
    for name in TOOL_RESULTS:
        assert issubclass(CONTRACTS[name].model, base)


TOOL_RESULTS = ["ComplianceResult", "SearchResult", "FileResult", "DependencyResult"]


@pytest.mark.parametrize("name", TOOL_RESULTS)
def test_error_results_are_constructible(name: str) -> None:
    model = CONTRACTS[name].model
    result = model.model_validate({"success": False, "error": "it broke"})
    assert result.success is False
    assert result.error == "it broke"


def test_tool_registry_hands_out_the_exported_form() -> None:
    from maverick.contracts import TOOL_CONTRACTS, tool_output_schema

    index = json.loads((REPO / "export/index.json").read_text())
    assert {t: c.name for t, c in TOOL_CONTRACTS.items()} == {
        t: e["contract"] for t, e in index["tools"].items()
    }
    for tool, entry in index["tools"].items():
        schema = tool_output_schema(tool)
        assert schema == json.loads((REPO / "export" / entry["structured_output"]).read_text())
        schema["type"] = "changed"  # a copy: the registry is not altered
        assert tool_output_schema(tool)["type"] == "object"
