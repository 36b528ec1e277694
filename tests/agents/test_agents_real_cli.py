"""The six agents through the real bundled Claude CLI, against the Messages API stand-in.

Proves that the CLI accepts every agent's ``output_format`` schema (it refuses a schema it
cannot compile before any API call, and the stand-in refuses one that is not valid draft
2020-12, as the API does), that the schema reaches the model verbatim as the StructuredOutput
tool, and that what comes back validates into the contract. Then the failure modes, on one
agent each. About 1.5 s a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from maverick.agents.base import MaverickAgent
from maverick.agents.context import (
    AgentContext,
    FixFindingsContext,
    ImplementationContext,
    IssueContext,
    ReviewContext,
)
from maverick.agents.registry import registry
from maverick.contracts import AGENT_CONTRACTS, Finding, GroupedReviewResult, output_format
from maverick.exceptions import MalformedResponseError, ProcessError
from tests.agents.conftest import example, run
from tests.standins.messages_api import (
    STRUCTURED_OUTPUT_TOOL,
    MessagesAPIStandIn,
    Reply,
    structured_output,
    structured_outputs,
    text_only,
)

DIFF = "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-a\n+b\n"


def _finding(finding_id: str) -> Finding:
    return Finding(id=finding_id, file="a.py", line="1", issue="x", severity="minor", category="c")


def context_for(name: str, cwd: Path, document: dict[str, Any]) -> Any:
    contexts: dict[str, Callable[[], Any]] = {
        "fixer": lambda: AgentContext(cwd=cwd, branch="main", extra={"prompt": "Fix it."}),
        "issue-fixer": lambda: IssueContext(cwd=cwd, issue_number=3, issue_title="Bug"),
        "implementer": lambda: ImplementationContext(cwd=cwd, task_description="Do T001."),
        "code-reviewer": lambda: ReviewContext(cwd=cwd, diff=DIFF),
        "unified-reviewer": lambda: ReviewContext(cwd=cwd, diff=DIFF),
        "simple-fixer": lambda: FixFindingsContext(
            cwd=cwd, findings=[_finding(o["id"]) for o in document.get("outcomes", [])]
        ),
    }
    return contexts[name]()


def expected_result(name: str, document: dict[str, Any]) -> Any:
    """The example as the agent returns it, after merging its ground truth (a clean repo)."""
    model = AGENT_CONTRACTS[name].model
    parsed = model.model_validate(document)
    if name == "simple-fixer":
        return parsed.outcomes
    if name == "issue-fixer":
        return parsed.model_copy(
            update={"issue_number": 3, "issue_title": "Bug", "files_changed": []}
        )
    if name == "implementer":
        return parsed.model_copy(update={"files_changed": []})
    if name == "code-reviewer":
        usage = None  # compared separately
        return parsed.model_copy(
            update={
                "files_reviewed": 1,
                "output": "Reviewed.",
                "metadata": {"base_branch": "main"},
                "usage": usage,
            }
        )
    return parsed


@pytest.mark.parametrize("name", sorted(AGENT_CONTRACTS))
def test_real_cli_accepts_every_agent_contract(
    name: str, api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    contract = AGENT_CONTRACTS[name].name
    document = example(contract)
    api.responder = structured_output(document, text="Reviewed.")
    agent: MaverickAgent[Any, Any] = registry.create(name, **real_cli)

    result = run(agent.execute(context_for(name, repo, document)))

    if name == "code-reviewer":
        assert result.usage is not None
        result = result.model_copy(update={"usage": None})
    assert result == expected_result(name, document)
    (request,) = api.message_requests()
    (tool,) = [t for t in request["tools"] if t["name"] == STRUCTURED_OUTPUT_TOOL]
    assert tool["input_schema"] == output_format(contract)["schema"]
    system = json.dumps(request["system"])
    assert "call the StructuredOutput tool exactly once" in system


# -- failure modes, through the unified reviewer ------------------------------------------

GROUPED = {
    "groups": [
        {
            "description": "Batch 1",
            "findings": [
                {
                    "id": "F001",
                    "file": "app.py",
                    "line": "1",
                    "issue": "renamed a to b",
                    "severity": "minor",
                    "category": "clean_code",
                }
            ],
        }
    ]
}
BAD = {"groups": "none"}
FENCED = "My review.\n\n```json\n" + json.dumps(GROUPED) + "\n```"


def reviewer(real_cli: dict[str, Any]) -> MaverickAgent[ReviewContext, Any]:
    agent: MaverickAgent[ReviewContext, Any] = registry.create(
        "unified-reviewer", max_structured_output_retries=2, **real_cli
    )
    return agent


def test_real_cli_retries_exhausted_falls_back_to_the_text(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    api.responder = structured_outputs([BAD], text=FENCED)

    result = run(reviewer(real_cli).execute(ReviewContext(cwd=repo, diff=DIFF)))

    assert result == GroupedReviewResult.model_validate(GROUPED)
    assert len(api.message_requests()) == 2  # MAX_STRUCTURED_OUTPUT_RETRIES=2 reached the CLI


def test_real_cli_retries_exhausted_without_text_is_malformed(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    api.responder = structured_outputs([BAD])

    with pytest.raises(MalformedResponseError) as caught:
        run(reviewer(real_cli).execute(ReviewContext(cwd=repo, diff=DIFF)))

    assert "ran out of structured-output retries" in caught.value.message
    assert "must be array" in caught.value.message  # the CLI's own validation error
    assert "text fallback failed" in caught.value.message


def test_real_cli_model_never_calls_the_tool_text_fallback(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    api.responder = text_only(FENCED)
    result = run(reviewer(real_cli).execute(ReviewContext(cwd=repo, diff=DIFF)))
    assert result == GroupedReviewResult.model_validate(GROUPED)


def test_real_cli_model_never_calls_the_tool_without_json_is_malformed(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    api.responder = text_only("Looks good to me.")

    with pytest.raises(MalformedResponseError) as caught:
        run(reviewer(real_cli).execute(ReviewContext(cwd=repo, diff=DIFF)))

    assert caught.value.raw_response is not None
    assert "Looks good to me." in caught.value.raw_response
    assert "without structured output" in caught.value.message


def test_real_cli_refused_request_is_a_process_error(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], repo: Path
) -> None:
    api.responder = lambda body: Reply(
        status=401, error_type="authentication_error", error_message="invalid x-api-key"
    )

    with pytest.raises(ProcessError) as caught:
        run(reviewer(real_cli).execute(ReviewContext(cwd=repo, diff=DIFF)))

    assert caught.value.exit_code == 1
    assert "HTTP 401" in caught.value.message
    assert caught.value.agent_name == "unified-reviewer"


def test_real_cli_accepts_the_form_of_a_contract_using_2020_12_keywords(
    api: MessagesAPIStandIn, real_cli: dict[str, Any], tmp_path: Path
) -> None:
    """unevaluated*, dependent*, prefixItems, minContains: the form translates or leaves them
    out, the bundled CLI compiles it, and the stand-in (draft 2020-12, as the API) takes it."""
    from claude_agent_sdk import ClaudeAgentOptions

    from codegen.core.loader import load_tree
    from codegen.generate.consumers.bundle import structured_output_schema
    from maverick.agents._sdk import run_query

    contract = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/report.json",
        "title": "Report",
        "description": "A report.",
        "type": "object",
        "properties": {
            "status": {"enum": ["ok", "failed"]},
            "reason": {"type": "string"},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
            "tags": {"type": "array", "contains": {"const": "x"}, "minContains": 2},
        },
        "required": ["status"],
        "dependentRequired": {"reason": ["status"]},
        "dependentSchemas": {"pair": {"required": ["tags"]}},
        "unevaluatedProperties": False,
    }
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas/report.json").write_text(json.dumps(contract))
    tree = load_tree(tmp_path / "schemas")
    form = structured_output_schema(tree, tree.files[0])
    document = {"status": "ok", "pair": ["a"], "tags": ["x", "x"]}
    api.responder = structured_output(document, text="Done.")
    options = ClaudeAgentOptions(
        output_format={"type": "json_schema", "schema": form},
        tools=[],
        max_turns=3,
        cwd=str(tmp_path),
        **real_cli,
    )

    outcome = run(run_query("Report.", options))

    assert outcome.structured_output == document
    (request,) = api.message_requests()
    (tool,) = [t for t in request["tools"] if t["name"] == STRUCTURED_OUTPUT_TOOL]
    assert tool["input_schema"] == form
