"""The factories: seed 004's examples, metadata, validation, and what they refuse."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from maverick.contracts import (
    ComplianceResult,
    DependencyResult,
    DependencySummary,
    FileResult,
    NodeDependencies,
    PythonDependencies,
    SearchMatch,
    SearchResult,
    TerraformDependencies,
    ToolResult,
    Violation,
)
from maverick.tools.results import create_error_result, create_success_result, utc_timestamp

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def _fields(result: BaseModel) -> dict[str, Any]:
    dumped = result.model_dump(mode="json")
    dumped.pop("metadata")
    return dumped


def _fresh(metadata: dict[str, Any], tool: str) -> None:
    assert metadata["tool_name"] == tool
    assert STAMP.match(metadata["timestamp"])
    stamped = datetime.fromisoformat(metadata["timestamp"].replace("Z", "+00:00"))
    assert abs(datetime.now(UTC) - stamped) < timedelta(seconds=60)


def test_seed_tool_result() -> None:
    result = create_success_result(ToolResult, "my_tool", data={"key": "value"})
    assert type(result) is ToolResult
    assert _fields(result) == {"success": True, "data": {"key": "value"}, "error": None}
    _fresh(result.metadata, "my_tool")
    assert set(result.metadata) == {"tool_name", "timestamp"}


def test_seed_compliance_result() -> None:
    result = create_success_result(
        ComplianceResult,
        "check_patterns",
        status="VIOLATIONS_FOUND",
        violations=[
            Violation(
                rule="R1",
                rule_name="ADK-Only",
                type="forbidden_import",
                pattern="langchain",
                file="agents/test.py",
                line=10,
                text="import langchain",
            )
        ],
        passed=["R2", "R5"],
        compliance_score=66.7,
        risk_level="CRITICAL",
        path="/test/repo",
        rules_checked=["R1", "R2", "R5"],
    )
    assert _fields(result) == {
        "success": True,
        "data": None,
        "error": None,
        "status": "VIOLATIONS_FOUND",
        "violations": [
            {
                "rule": "R1",
                "rule_name": "ADK-Only",
                "type": "forbidden_import",
                "pattern": "langchain",
                "file": "agents/test.py",
                "line": 10,
                "text": "import langchain",
            }
        ],
        "warnings": [],
        "passed": ["R2", "R5"],
        "compliance_score": 66.7,
        "risk_level": "CRITICAL",
        "path": "/test/repo",
        "rules_checked": ["R1", "R2", "R5"],
        "secret_files_skipped": 0,
    }
    _fresh(result.metadata, "check_patterns")


def test_seed_search_result() -> None:
    result: SearchResult = create_success_result(
        SearchResult,
        "search_codebase",
        query="google.adk",
        path="/repo",
        file_pattern="*.py",
        matches=[
            SearchMatch(
                file="agents/bob/agent.py",
                line_number=10,
                text="from google.adk.agents import LlmAgent",
            )
        ],
        match_count=1,
        file_count=1,
        truncated=False,
    )
    assert result.matches[0].line_number == 10
    assert result.match_count == result.file_count == 1
    assert result.truncated is False
    assert (result.query, result.path, result.file_pattern) == ("google.adk", "/repo", "*.py")


def test_seed_file_error_result() -> None:
    result = create_error_result(FileResult, "get_file", "File not found: /path/to/missing.py")
    assert result.success is False
    assert result.error == "File not found: /path/to/missing.py"
    assert result.path is None
    assert result.content is None
    assert _fields(result) == {
        "success": False,
        "data": None,
        "error": "File not found: /path/to/missing.py",
        "path": None,
        "content": None,
        "size": None,
        "lines": None,
        "encoding": "utf-8",
    }
    _fresh(result.metadata, "get_file")


def test_seed_dependency_result() -> None:
    result = create_success_result(
        DependencyResult,
        "analyze_deps",
        path="/repo",
        python=PythonDependencies(requirements_txt=["google-adk", "pydantic"], pyproject_toml=[]),
        node=NodeDependencies(
            dependencies={"fastapi": "^0.104.0"}, dev_dependencies={"pytest": "^7.4.0"}
        ),
        terraform=TerraformDependencies(providers=["google", "random"]),
        summary=DependencySummary(python_packages=2, node_packages=2, terraform_providers=2),
        issues=[],
    )
    assert result.summary is not None
    assert result.summary.python_packages == 2
    assert result.node is not None
    assert result.node.dev_dependencies == {"pytest": "^7.4.0"}


def test_dependency_error_result_is_constructible() -> None:
    """Upstream's create_error_result(DependencyResult, ...) always raised."""
    result = create_error_result(DependencyResult, "analyze_deps", "Path not found: /x")
    assert (result.path, result.python, result.summary, result.issues) == (None, None, None, [])


@pytest.mark.parametrize("cls", [ToolResult, ComplianceResult, SearchResult, FileResult])
def test_every_error_result_is_schema_valid(cls: type[ToolResult]) -> None:
    from tests.tools.conftest import contract_validator

    result = create_error_result(cls, "t", "boom", execution_time_ms=5)
    document = result.model_dump(mode="json")
    assert contract_validator(cls.__name__).is_valid(document)
    assert document["metadata"]["execution_time_ms"] == 5


def test_execution_time_and_own_metadata() -> None:
    result = create_success_result(
        ToolResult, "t", execution_time_ms=12, metadata={"request_id": "abc"}
    )
    assert result.metadata["execution_time_ms"] == 12
    assert result.metadata["request_id"] == "abc"
    with pytest.raises(ValueError, match="set by the factory"):
        create_success_result(ToolResult, "t", metadata={"tool_name": "other"})
    with pytest.raises(ValueError, match="execution_time_ms"):
        create_success_result(ToolResult, "t", execution_time_ms=-1)
    with pytest.raises(ValueError, match="tool_name"):
        create_error_result(ToolResult, "", "boom")


def test_a_bad_field_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="match_count"):
        create_success_result(SearchResult, "search_codebase", match_count=-1)
    with pytest.raises(ValidationError, match="surplus"):
        create_success_result(SearchResult, "search_codebase", surplus=1)
    with pytest.raises(ValidationError, match="violations must list at least one"):
        create_success_result(ComplianceResult, "check_patterns", status="VIOLATIONS_FOUND")
    with pytest.raises(ValidationError, match="error must be a non-empty string"):
        create_error_result(FileResult, "get_file", "")


def test_a_class_that_is_not_a_tool_result_is_refused() -> None:
    class Other(BaseModel):
        success: bool

    for cls in (Other, dict, "SearchResult", SearchMatch):
        with pytest.raises(TypeError, match="is not a ToolResult class"):
            create_success_result(cls, "t")  # type: ignore[type-var, arg-type]
        with pytest.raises(TypeError, match="is not a ToolResult class"):
            create_error_result(cls, "t", "boom")  # type: ignore[type-var, arg-type]
    with pytest.raises(TypeError, match="sets 'success' itself"):
        create_success_result(ToolResult, "t", success=False)


def test_timestamp_is_utc_ending_in_z() -> None:
    eastern = datetime(2025, 12, 20, 10, 4, 12, 481532, tzinfo=timezone(timedelta(hours=-5)))
    assert utc_timestamp(eastern) == "2025-12-20T15:04:12.481532Z"
