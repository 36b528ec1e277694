"""MaverickAgent construction and options, the registry, AgentContext, and the SDK-free import."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from maverick.agents._git import GitError, changed_files, changed_paths
from maverick.agents.base import (
    BUILTIN_TOOLS,
    DEFAULT_MODEL,
    STRUCTURED_OUTPUT_INSTRUCTIONS,
    MaverickAgent,
)
from maverick.agents.context import AgentContext, ReviewContext, detect_branch
from maverick.agents.fixer import FixerAgent
from maverick.agents.registry import AgentRegistry, registry
from maverick.contracts import (
    AGENT_CONTRACTS,
    ChangeType,
    FileChange,
    FixerResult,
    ReviewResult,
    output_format,
)
from maverick.exceptions import (
    AgentNotFoundError,
    ConfigError,
    DuplicateAgentError,
    InvalidToolError,
)
from tests.agents.conftest import git

REPO_ROOT = Path(__file__).resolve().parents[2]


class EchoAgent(MaverickAgent[AgentContext, FixerResult]):
    async def execute(self, context: AgentContext) -> FixerResult:
        return await self._run("hi", context.cwd, FixerResult)


def make(tools: list[str], **kwargs: Any) -> EchoAgent:
    return EchoAgent("echo", "Be brief.", tools, output_model=FixerResult, **kwargs)


# -- tools ----------------------------------------------------------------------------------


def test_builtin_and_configured_mcp_tools_are_accepted() -> None:
    servers = {"github": {"command": "gh-mcp"}}
    agent = make(["Read", "Bash", "mcp__github__create_issue"], mcp_servers=servers)
    assert agent.allowed_tools == ("Read", "Bash", "mcp__github__create_issue")


@pytest.mark.parametrize(
    "tool",
    ["Reed", "read", "mcp__github__create_issue", "mcp__gitlab__x", "mcp__github__", "mcp__"],
)
def test_invalid_tools_are_refused(tool: str) -> None:
    servers = {"gitlab": {"command": "gl"}} if tool == "mcp__github__create_issue" else {}
    servers |= {"github": {"command": "gh"}} if tool == "mcp__github__" else {}
    with pytest.raises(InvalidToolError) as caught:
        make(["Read", tool], mcp_servers=servers)
    assert caught.value.tool_name == tool
    assert caught.value.agent_name == "echo"
    assert "Read" in caught.value.available_tools


def test_output_model_must_be_the_contracts_generated_model() -> None:
    with pytest.raises(ConfigError):
        EchoAgent("echo", "x", [], output_model=ReviewResult, contract="FixerResult")
    with pytest.raises(ConfigError):
        EchoAgent("", "x", [], output_model=FixerResult)


# -- options --------------------------------------------------------------------------------


def test_build_options(tmp_path: Path) -> None:
    servers = {"github": {"command": "gh-mcp"}}
    agent = make(
        ["Read", "Edit", "mcp__github__list"],
        mcp_servers=servers,
        max_turns=10,
        max_structured_output_retries=4,
        cli_path="/opt/claude",
        env={"FOO": "1"},
    )

    options = agent._build_options(tmp_path)

    assert options.system_prompt == {
        "type": "preset",
        "preset": "claude_code",
        "append": f"Be brief.\n\n{STRUCTURED_OUTPUT_INSTRUCTIONS}",
    }
    assert options.tools == ["Read", "Edit"]
    assert options.allowed_tools == ["Read", "Edit", "mcp__github__list"]
    assert options.mcp_servers == servers
    assert options.permission_mode == "acceptEdits"
    assert options.model == DEFAULT_MODEL
    assert options.max_turns == 10 + 4 + 1
    assert options.env == {"MAX_STRUCTURED_OUTPUT_RETRIES": "4", "FOO": "1"}
    assert options.cli_path == "/opt/claude"
    assert options.cwd == tmp_path
    assert options.output_format == output_format("FixerResult")


def test_output_format_comes_from_the_canonical_schema() -> None:
    agent = FixerAgent()
    assert agent.output_format == output_format("FixerResult")
    assert agent.output_format["schema"] != FixerResult.model_json_schema()


@pytest.mark.parametrize("name", sorted(AGENT_CONTRACTS))
def test_each_agent_returns_its_registered_contract(name: str) -> None:
    agent = registry.create(name)
    info = AGENT_CONTRACTS[name]
    assert agent.name == name
    assert agent.contract == info.name
    assert agent.output_model is info.model
    assert set(agent.allowed_tools) <= BUILTIN_TOOLS
    assert agent._build_options().output_format == output_format(info.name)


# -- registry -------------------------------------------------------------------------------


def test_registry_register_get_create() -> None:
    local = AgentRegistry()

    @local.register("echo")
    class Decorated(EchoAgent):
        pass

    local.register("fixer", FixerAgent)
    assert local.get("echo") is Decorated
    assert local.list_agents() == ["echo", "fixer"]
    assert "fixer" in local
    agent = local.create("fixer", model="opus")
    assert isinstance(agent, FixerAgent)
    assert agent.model == "opus"


def test_registry_duplicate_and_missing() -> None:
    local = AgentRegistry()
    local.register("fixer", FixerAgent)
    with pytest.raises(DuplicateAgentError) as duplicate:
        local.register("fixer", FixerAgent)
    assert duplicate.value.agent_name == "fixer"
    with pytest.raises(AgentNotFoundError) as missing:
        local.get("fixr")
    assert missing.value.agent_name == "fixr"
    assert "registered agents: fixer" in missing.value.message


def test_module_registry_holds_the_six_agents() -> None:
    assert registry.list_agents() == sorted(AGENT_CONTRACTS)


# -- context --------------------------------------------------------------------------------


def test_agent_context_from_cwd(repo: Path) -> None:
    context = AgentContext.from_cwd(repo, config={"model": "opus"}, extra={"prompt": "p"})
    assert (context.cwd, context.branch) == (repo, "main")
    assert context.config == {"model": "opus"}
    assert context.extra == {"prompt": "p"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        context.branch = "other"  # type: ignore[misc]
    git(repo, "checkout", "-q", "-b", "feature/x")
    assert AgentContext.from_cwd(str(repo)).branch == "feature/x"
    git(repo, "checkout", "-q", "--detach")
    assert detect_branch(repo) == "HEAD"


def test_agent_context_refuses_bad_directories(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a directory"):
        AgentContext.from_cwd(tmp_path / "missing")
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="not a directory"):
        AgentContext.from_cwd(tmp_path / "file")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(ConfigError, match="not inside a git repository"):
        AgentContext.from_cwd(plain)
    with pytest.raises(ConfigError, match="branch"):
        AgentContext(cwd=tmp_path, branch="")
    with pytest.raises(ConfigError):
        ReviewContext(cwd=tmp_path / "missing")


# -- the contracts import needs no claude-agent-sdk -----------------------------------------

BLOCK_SDK = textwrap.dedent(
    """
    import sys

    class BlockSDK:
        def find_spec(self, name, path=None, target=None):
            if name == "claude_agent_sdk" or name.startswith("claude_agent_sdk."):
                raise ImportError(f"blocked for this test: {name}")
            return None

    sys.meta_path.insert(0, BlockSDK())
    """
)


def run_without_sdk(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_SDK + textwrap.dedent(code)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_contracts_import_without_claude_agent_sdk() -> None:
    completed = run_without_sdk(
        """
        from maverick.agents.contracts import (
            FixerResult, FixResult, ImplementationResult, ReviewResult, GroupedReviewResult,
            FixOutcome, validate_output, OutputValidationError,
        )
        import maverick.agents, maverick.agents.context, maverick.agents.display
        import maverick.agents.registry, maverick.workflows.review_fix
        assert "claude_agent_sdk" not in sys.modules
        try:
            import maverick.agents.base
        except ImportError as error:
            print("blocked:", error)
        """
    )
    assert completed.returncode == 0, completed.stderr
    assert "blocked: blocked for this test: claude_agent_sdk" in completed.stdout


# -- git ground truth -----------------------------------------------------------------------


def test_changed_files_without_commits_and_outside_a_repository(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q")
    (fresh / "a.txt").write_text("1\n2")
    (fresh / "b.txt").write_text("x\n")
    git(fresh, "add", "b.txt")
    assert changed_files(fresh) == (
        FileChange(file_path="a.txt", change_type=ChangeType.ADDED, lines_added=2),
        FileChange(file_path="b.txt", change_type=ChangeType.ADDED, lines_added=1),
    )
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitError):
        changed_files(plain)
    assert changed_paths(plain) == ()
