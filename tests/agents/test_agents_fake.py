"""The six agents through the real SDK ``query()`` path, driven by the stand-in ``claude``.

Every agent: a happy path and failure paths, asserting the typed result. File changes the
"tools" made are simulated by editing the temp git repository before the run.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from maverick.agents._sdk import RETRIES_EXHAUSTED
from maverick.agents.code_reviewer import CodeReviewerAgent, chunk_diff, split_diff
from maverick.agents.context import (
    AgentContext,
    FixFindingsContext,
    ImplementationContext,
    IssueContext,
    ReviewContext,
)
from maverick.agents.fixer import FixerAgent
from maverick.agents.implementer import ImplementerAgent
from maverick.agents.issue_fixer import IssueFixerAgent
from maverick.agents.simple_fixer import NOT_REPORTED, SimpleFixerAgent
from maverick.agents.unified_reviewer import UnifiedReviewerAgent
from maverick.contracts import (
    ChangeType,
    FileChange,
    Finding,
    FixerResult,
    FixOutcome,
    FixResult,
    GroupedReviewResult,
    ImplementationResult,
    ReviewResult,
    output_format,
)
from maverick.exceptions import CLINotFoundError, MalformedResponseError, ProcessError
from tests.agents.conftest import FakeCLI, example, git, run
from tests.standins import fake_cli

FENCED = "Done.\n\n```json\n{doc}\n```\n"


def edit_repo(repo: Path) -> None:
    """What an agent's tools might have done: modify, add, delete and rename files."""
    (repo / "app.py").write_text("def add(a, b):\n    return a + b\n")
    (repo / "new.py").write_text("a = 1\nb = 2\nc = 3\n")
    (repo / "gone.py").unlink()
    git(repo, "mv", "old.py", "moved.py")


def with_text(scenario: fake_cli.Scenario, text: str) -> fake_cli.Scenario:
    """``scenario`` with an assistant text block right after the init frame."""
    scenario["events"].insert(1, fake_cli.assistant(fake_cli.text_block(text)))
    return scenario


EXPECTED_CHANGES = [
    FileChange(file_path="app.py", change_type=ChangeType.MODIFIED, lines_added=1, lines_removed=1),
    FileChange(file_path="gone.py", change_type=ChangeType.DELETED, lines_removed=1),
    FileChange(file_path="moved.py", change_type=ChangeType.RENAMED, old_path="old.py"),
    FileChange(file_path="new.py", change_type=ChangeType.ADDED, lines_added=3),
]


# -- fixer ----------------------------------------------------------------------------------


def fixer_context(repo: Path, prompt: str = "Fix add(): it subtracts.") -> AgentContext:
    return AgentContext(cwd=repo, branch="main", extra={"prompt": prompt})


def test_fixer_success(fake: FakeCLI, repo: Path) -> None:
    document = example("FixerResult")
    agent = FixerAgent(**fake.options(fake_cli.success(document)))

    result = run(agent.execute(fixer_context(repo)))

    assert result == FixerResult.model_validate(document)
    record = fake.record()
    argv = record["argv"]
    assert (
        json.loads(argv[argv.index("--json-schema") + 1]) == output_format("FixerResult")["schema"]
    )
    assert record["cwd"] == str(repo)
    assert record["stdin"][1]["message"]["content"] == "Fix add(): it subtracts."


def test_fixer_malformed_answer_keeps_the_changes_made(fake: FakeCLI, repo: Path) -> None:
    """A rule-breaking answer (failure without error_details) and no text: no fake success."""
    edit_repo(repo)
    bad = {"success": False, "summary": "gave up"}
    agent = FixerAgent(**fake.options(fake_cli.success(bad)))

    result = run(agent.execute(fixer_context(repo)))

    assert result.success is False
    assert result.files_mentioned == ["app.py", "gone.py", "moved.py", "new.py"]
    assert result.error_details is not None
    assert "structured output failed validation" in result.error_details
    assert "text fallback failed" in result.error_details


def test_fixer_retries_exhausted_uses_the_text_fallback(fake: FakeCLI, repo: Path) -> None:
    document = {"success": True, "summary": "fixed add()", "files_mentioned": ["app.py"]}
    scenario = with_text(fake_cli.retries_exhausted(), FENCED.format(doc=json.dumps(document)))
    agent = FixerAgent(**fake.options(scenario))

    assert run(agent.execute(fixer_context(repo))) == FixerResult.model_validate(document)


def test_fixer_retries_exhausted_without_text_is_a_failure(fake: FakeCLI, repo: Path) -> None:
    agent = FixerAgent(**fake.options(fake_cli.retries_exhausted(attempts=3)))

    result = run(agent.execute(fixer_context(repo)))

    assert result.success is False
    assert result.error_details is not None
    assert "ran out of structured-output retries" in result.error_details
    assert result.files_mentioned == []


def test_fixer_without_a_prompt_does_not_run(repo: Path) -> None:
    agent = FixerAgent(cli_path="/nonexistent/claude")
    result = run(agent.execute(AgentContext(cwd=repo, branch="main")))
    assert result.success is False
    assert result.error_details is not None
    assert "prompt" in result.error_details


def test_fixer_crash_is_a_process_error_with_stderr(fake: FakeCLI, repo: Path) -> None:
    agent = FixerAgent(**fake.options(fake_cli.crash("FATAL: disk on fire", exit_code=2)))

    with pytest.raises(ProcessError) as caught:
        run(agent.execute(fixer_context(repo)))

    assert caught.value.exit_code == 2
    assert caught.value.stderr is not None
    assert "disk on fire" in caught.value.stderr
    assert caught.value.agent_name == "fixer"


def test_missing_cli_is_cli_not_found(repo: Path) -> None:
    agent = FixerAgent(cli_path=repo / "no-such-claude")
    with pytest.raises(CLINotFoundError) as caught:
        run(agent.execute(fixer_context(repo)))
    assert caught.value.agent_name == "fixer"


# -- issue fixer ----------------------------------------------------------------------------


def issue_context(repo: Path) -> IssueContext:
    return IssueContext(
        cwd=repo, issue_number=7, issue_title="add() subtracts", issue_body="2 + 2 is 0."
    )


def test_issue_fixer_merges_git_ground_truth(fake: FakeCLI, repo: Path) -> None:
    edit_repo(repo)
    document = example("FixResult")  # claims issue 142 and files that do not exist here
    agent = IssueFixerAgent(**fake.options(fake_cli.success(document)))

    result = run(agent.execute(issue_context(repo)))

    assert isinstance(result, FixResult)
    assert result.success is document["success"]
    assert result.root_cause == document["root_cause"]
    assert (result.issue_number, result.issue_title) == (7, "add() subtracts")
    assert result.files_changed == EXPECTED_CHANGES
    prompt = fake.record()["stdin"][1]["message"]["content"]
    assert "#7: add() subtracts" in prompt
    assert "2 + 2 is 0." in prompt


def test_issue_fixer_unreadable_answer_is_a_typed_failure(fake: FakeCLI, repo: Path) -> None:
    edit_repo(repo)
    agent = IssueFixerAgent(**fake.options(fake_cli.no_tool_call("I fixed it, trust me.")))

    result = run(agent.execute(issue_context(repo)))

    assert result.success is False
    assert result.verification_passed is False
    assert result.files_changed == EXPECTED_CHANGES
    assert "without structured output" in result.errors[0]
    assert "failed at extraction stage" in result.errors[0]


# -- implementer ----------------------------------------------------------------------------


def test_implementer_success_with_ground_truth(fake: FakeCLI, repo: Path) -> None:
    edit_repo(repo)
    document = {"success": True, "tasks_completed": 1, "tasks_failed": 0, "tasks_skipped": 0}
    agent = ImplementerAgent(**fake.options(fake_cli.success(document)))
    context = ImplementationContext(cwd=repo, task_description="Fix add()", branch="feature")

    result = run(agent.execute(context))

    assert isinstance(result, ImplementationResult)
    assert result.success is True
    assert result.files_changed == EXPECTED_CHANGES
    assert result.metadata["branch"] == "feature"
    assert result.errors == []


def test_implementer_claimed_success_with_failed_tasks(fake: FakeCLI, repo: Path) -> None:
    document = {"success": True, "tasks_completed": 1, "tasks_failed": 1, "tasks_skipped": 0}
    agent = ImplementerAgent(**fake.options(fake_cli.success(document)))
    context = ImplementationContext(cwd=repo, task_file=repo / "tasks.md")

    result = run(agent.execute(context))

    assert result.success is False
    assert result.errors == ["reported success with 1 failed task(s)"]
    assert "tasks.md" in fake.record()["stdin"][1]["message"]["content"]


def test_implementer_unreadable_answer_is_a_typed_failure(fake: FakeCLI, repo: Path) -> None:
    edit_repo(repo)
    agent = ImplementerAgent(**fake.options(fake_cli.retries_exhausted()))
    context = ImplementationContext(cwd=repo, task_description="Fix add()")

    result = run(agent.execute(context))

    assert result.success is False
    assert (result.tasks_completed, result.tasks_failed) == (0, 0)
    assert result.files_changed == EXPECTED_CHANGES
    assert RETRIES_EXHAUSTED not in result.errors[0]  # described, not just named
    assert "ran out of structured-output retries" in result.errors[0]


# -- code reviewer --------------------------------------------------------------------------

REVIEW = {
    "success": True,
    "findings": [
        {"severity": "major", "file": "app.py", "line": 2, "message": "add() subtracts its inputs"}
    ],
    "files_reviewed": 1,
    "summary": "One bug.",
}


def feature_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "app.py").write_text("def add(a, b):\n    return a - b  # sure\n")
    (repo / "b.py").write_text("y = 2\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "feature")


def test_code_reviewer_reviews_the_branch_diff(fake: FakeCLI, repo: Path) -> None:
    feature_branch(repo)
    agent = CodeReviewerAgent(**fake.options(fake_cli.success(REVIEW)))

    result = run(agent.execute(ReviewContext(cwd=repo, base_branch="main")))

    assert result.success is True
    assert [f.message for f in result.findings] == ["add() subtracts its inputs"]
    assert result.files_reviewed == 2  # counted from the diff, not taken from the model
    assert result.usage is not None
    assert result.usage.output_tokens == 7
    prompt = fake.record()["stdin"][1]["message"]["content"]
    assert "diff --git a/app.py b/app.py" in prompt
    assert "diff --git a/b.py b/b.py" in prompt


def test_code_reviewer_partial_results_when_a_chunk_fails(fake: FakeCLI, repo: Path) -> None:
    feature_branch(repo)
    second = dict(REVIEW, findings=[], summary="Clean.")
    scenarios = [fake_cli.success(REVIEW), fake_cli.no_tool_call("hmm"), fake_cli.success(second)]
    diff = git(repo, "diff", "main...HEAD") + git(repo, "diff", "main...HEAD").replace(
        "app.py", "other.py"
    )
    agent = CodeReviewerAgent(max_chunk_chars=200, **fake.sequence(scenarios))

    result = run(agent.execute(ReviewContext(cwd=repo, diff=diff)))

    assert fake.runs() == 4
    assert result.success is False
    assert len(result.findings) == 1
    assert result.files_reviewed == 4
    assert result.metadata["chunks_used"] == 4
    assert result.metadata["failed_chunks"] == [2]
    (error,) = result.errors
    assert error.startswith("chunk 2/4 (b.py): ")
    assert "returned no valid ReviewResult" in error
    assert result.summary.startswith("Reviewed 3 of 4 chunks")


def test_code_reviewer_every_chunk_failing_raises(fake: FakeCLI, repo: Path) -> None:
    feature_branch(repo)
    agent = CodeReviewerAgent(**fake.options(fake_cli.no_tool_call("no opinion")))
    with pytest.raises(MalformedResponseError) as caught:
        run(agent.execute(ReviewContext(cwd=repo)))
    assert caught.value.raw_response == "no opinion\nno opinion"


def test_code_reviewer_empty_diff_does_not_run(repo: Path) -> None:
    agent = CodeReviewerAgent(cli_path="/nonexistent/claude")
    result = run(agent.execute(ReviewContext(cwd=repo, diff="")))
    assert result == ReviewResult(
        success=True,
        files_reviewed=0,
        summary="No changes to review.",
        metadata={"base_branch": "main"},
    )


def test_split_and_chunk_diff() -> None:
    diff = (
        "diff --git a/a.py b/a.py\n+1\n"
        "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n"
        "diff --git a/c.py b/c.py\n" + "+x\n" * 50
    )
    files = split_diff(diff)
    assert [(f.path, f.binary) for f in files] == [
        ("a.py", False),
        ("img.png", True),
        ("c.py", False),
    ]
    assert [[f.path for f in c] for c in chunk_diff(files, 120)] == [["a.py", "img.png"], ["c.py"]]
    assert [[f.path for f in c] for c in chunk_diff(files, 10_000)] == [["a.py", "img.png", "c.py"]]


# -- unified reviewer -----------------------------------------------------------------------

GROUPED = {
    "groups": [
        {
            "description": "Batch 1",
            "findings": [
                {
                    "id": "F001",
                    "file": "app.py",
                    "line": "2",
                    "issue": "add() subtracts",
                    "severity": "major",
                    "category": "clean_code",
                }
            ],
        }
    ]
}


def test_unified_reviewer_success(fake: FakeCLI, repo: Path) -> None:
    feature_branch(repo)
    agent = UnifiedReviewerAgent(**fake.options(fake_cli.success(GROUPED)))

    result = run(agent.execute(ReviewContext(cwd=repo, requirements="add() must add")))

    assert result == GroupedReviewResult.model_validate(GROUPED)
    prompt = fake.record()["stdin"][1]["message"]["content"]
    assert "add() must add" in prompt
    assert "diff --git a/app.py" in prompt


def test_unified_reviewer_text_fallback(fake: FakeCLI, repo: Path) -> None:
    agent = UnifiedReviewerAgent(**fake.options(fake_cli.fenced_text(GROUPED)))
    result = run(agent.execute(ReviewContext(cwd=repo, diff="diff --git a/x b/x\n+1\n")))
    assert result == GroupedReviewResult.model_validate(GROUPED)


def test_unified_reviewer_never_turns_a_failure_into_no_findings(fake: FakeCLI, repo: Path) -> None:
    agent = UnifiedReviewerAgent(**fake.options(fake_cli.no_tool_call("Looks fine to me.")))

    with pytest.raises(MalformedResponseError) as caught:
        run(agent.execute(ReviewContext(cwd=repo, diff="diff --git a/x b/x\n+1\n")))

    error = caught.value
    assert error.agent_name == "unified-reviewer"
    assert error.raw_response == "Looks fine to me.\nLooks fine to me."
    assert "without structured output" in error.message
    assert "text fallback failed" in error.message


def test_unified_reviewer_corrupt_line_is_a_malformed_response(fake: FakeCLI, repo: Path) -> None:
    line = '{"type": "assistant", "message": {'
    agent = UnifiedReviewerAgent(**fake.options(fake_cli.corrupt_json_line(line)))
    with pytest.raises(MalformedResponseError) as caught:
        run(agent.execute(ReviewContext(cwd=repo, diff="diff --git a/x b/x\n+1\n")))
    assert caught.value.raw_response == line
    assert caught.value.agent_name == "unified-reviewer"


# -- simple fixer ---------------------------------------------------------------------------


def finding(finding_id: str) -> Finding:
    return Finding(
        id=finding_id, file="app.py", line="2", issue="bug", severity="major", category="x"
    )


def test_simple_fixer_fills_in_unreported_findings(
    fake: FakeCLI, repo: Path, caplog: pytest.LogCaptureFixture
) -> None:
    document: dict[str, Any] = {
        "outcomes": [
            {"id": "F999", "outcome": "fixed", "explanation": "not asked"},
            {"id": "F002", "outcome": "blocked", "explanation": "needs an API change"},
            {"id": "F001", "outcome": "fixed", "explanation": "done"},
            {"id": "F001", "outcome": "deferred", "explanation": "repeated"},
        ]
    }
    agent = SimpleFixerAgent(**fake.options(fake_cli.success(document)))
    context = FixFindingsContext(
        cwd=repo, findings=[finding("F001"), finding("F002"), finding("F003")]
    )

    with caplog.at_level(logging.WARNING, logger="maverick.agents.simple_fixer"):
        outcomes = run(agent.execute(context))

    assert outcomes == [
        FixOutcome(id="F001", outcome="fixed", explanation="done"),
        FixOutcome(id="F002", outcome="blocked", explanation="needs an API change"),
        FixOutcome(id="F003", outcome="deferred", explanation=NOT_REPORTED),
        FixOutcome(id="F999", outcome="fixed", explanation="not asked"),
    ]
    assert "unknown finding id 'F999'" in caplog.text
    assert "twice on 'F001'" in caplog.text
    assert '"id": "F003"' in fake.record()["stdin"][1]["message"]["content"]


def test_simple_fixer_example_contract(fake: FakeCLI, repo: Path) -> None:
    document = example("FixOutcomes")
    agent = SimpleFixerAgent(**fake.options(fake_cli.success(document)))
    findings = [finding(o["id"]) for o in document["outcomes"]]
    outcomes = run(agent.execute(FixFindingsContext(cwd=repo, findings=findings)))
    assert outcomes == [FixOutcome.model_validate(o) for o in document["outcomes"]]


def test_simple_fixer_unreadable_answer_raises(fake: FakeCLI, repo: Path) -> None:
    agent = SimpleFixerAgent(**fake.options(fake_cli.retries_exhausted()))
    with pytest.raises(MalformedResponseError) as caught:
        run(agent.execute(FixFindingsContext(cwd=repo, findings=[finding("F001")])))
    assert "ran out of structured-output retries" in caught.value.message
    assert caught.value.agent_name == "simple-fixer"


def test_simple_fixer_without_findings_does_not_run(repo: Path) -> None:
    agent = SimpleFixerAgent(cli_path="/nonexistent/claude")
    assert run(agent.execute(FixFindingsContext(cwd=repo, findings=[]))) == []
