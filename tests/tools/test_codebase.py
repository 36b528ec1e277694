"""The four tools called directly: every result field by field, every bad input."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from maverick.contracts import CONTRACTS, TOOL_CONTRACTS
from maverick.tools import CodebaseTools
from maverick.tools.hard_mode import HARD_MODE_RULES
from tests.tools._expected import ERRORS, SUCCESSES, expected
from tests.tools._repo import OUTSIDE_SECRET
from tests.tools.conftest import contract_validator


def call(repo: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = asyncio.run(getattr(CodebaseTools(repo), tool)(**arguments))
    assert type(result) is TOOL_CONTRACTS[tool].model
    document: dict[str, Any] = result.model_dump(mode="json")
    assert contract_validator(TOOL_CONTRACTS[tool].name).is_valid(document)
    return document


@pytest.mark.parametrize(("tool", "arguments", "result"), SUCCESSES)
def test_success(repo: Path, tool: str, arguments: dict[str, Any], result: dict[str, Any]) -> None:
    document = call(repo, tool, arguments)
    metadata = document.pop("metadata")
    assert document == expected(result, repo)
    assert metadata["tool_name"] == tool
    assert isinstance(metadata["execution_time_ms"], int)
    assert metadata["timestamp"].endswith("Z")


@pytest.mark.parametrize(("tool", "arguments", "message"), ERRORS)
def test_bad_input_is_an_error_result(
    repo: Path, tool: str, arguments: dict[str, Any], message: str
) -> None:
    document = call(repo, tool, arguments)
    assert document["success"] is False
    assert message in document["error"]
    defaults = CONTRACTS[TOOL_CONTRACTS[tool].name].model.model_validate(
        {"success": False, "error": document["error"]}
    )
    assert {k: v for k, v in document.items() if k != "metadata"} == defaults.model_dump(
        mode="json", exclude={"metadata"}
    )


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("search_codebase", {"query": 3}),
        ("search_codebase", {"query": "x", "regex": "yes"}),
        ("search_codebase", {"query": "x", "max_results": True}),
        ("get_file", {"path": None}),
        ("get_file", {"path": "a\0b"}),
        ("check_patterns", {"rules": "R1"}),
        ("analyze_deps", {"path": ["."]}),
    ],
)
def test_wrong_types_are_error_results(repo: Path, tool: str, arguments: dict[str, Any]) -> None:
    document = call(repo, tool, arguments)
    assert document["success"] is False
    assert document["error"]


def test_nothing_outside_the_root_is_read(repo: Path) -> None:
    """Links leaving the root are neither followed by the walk nor opened."""
    for query in (OUTSIDE_SECRET, "in .git", "in node_modules", "in a virtual environment"):
        document = call(repo, "search_codebase", {"query": query, "file_pattern": "*"})
        assert document["match_count"] == 0, query


def test_binary_files_are_skipped_by_search(repo: Path) -> None:
    document = call(repo, "search_codebase", {"query": "binary", "file_pattern": "*.py"})
    assert document["match_count"] == 0
    assert (repo / "agents/blob.py").read_bytes().endswith(b"binary")


def test_every_line_counts_once_and_line_numbers_are_exact(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("ab ab\n\nxab\nno\nab")
    tools = CodebaseTools(tmp_path)
    for regex in (False, True):
        result = asyncio.run(tools.search_codebase("ab", file_pattern="*.txt", regex=regex))
        assert [(m.line_number, m.text) for m in result.matches] == [
            (1, "ab ab"), (3, "xab"), (5, "ab")
        ]  # fmt: skip
    empty = asyncio.run(tools.search_codebase("^$", file_pattern="*.txt", regex=True))
    assert [m.line_number for m in empty.matches] == [2]


def test_violations_risk_and_r8_without_ci(tmp_path: Path) -> None:
    (tmp_path / "service").mkdir()
    (tmp_path / "service/main.py").write_text(
        "from google.adk.runners import Runner\nr = InMemoryRunner()\n"
    )
    result = asyncio.run(CodebaseTools(tmp_path).check_patterns(rules=["R3", "R8"]))
    assert result.status == "VIOLATIONS_FOUND"
    assert [(v.rule, v.type, v.pattern, v.file, v.line) for v in result.violations] == [
        ("R3", "forbidden_in_service", "Runner", "service/main.py", 1),
        ("R3", "forbidden_in_service", "InMemoryRunner", "service/main.py", 2),
        ("R8", "missing_in_ci", "drift", ".github/workflows", 0),
    ]
    assert result.risk_level == "MEDIUM"  # three violations, none of R1/R2
    assert result.compliance_score == 0.0


def test_the_rule_table() -> None:
    assert [r.id for r in HARD_MODE_RULES] == ["R1", "R2", "R3", "R5", "R7", "R8"]
    assert all(r.name and r.description.endswith(".") for r in HARD_MODE_RULES)
    assert HARD_MODE_RULES[0].patterns == ("langchain", "crewai", "autogen", "llama_index")


def test_root_must_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        CodebaseTools(tmp_path / "missing")
