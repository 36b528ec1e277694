"""Small contracts and helpers shared by the tests of `maverick.output._validate`."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

Severity = Literal["critical", "major", "minor", "info"]


class Finding(BaseModel):
    """A review finding, shaped like the real contracts' ones."""

    model_config = ConfigDict(extra="forbid")

    file: str
    line: int = Field(ge=1)
    severity: Severity
    message: str
    confidence: float = 1.0
    suggestion: str | None = None


class Report(BaseModel):
    """An object-rooted contract holding a list of findings."""

    model_config = ConfigDict(extra="forbid")

    summary: str
    findings: list[Finding]
    metadata: dict[str, Any] = Field(default_factory=dict)


class Findings(RootModel[list[Finding]]):
    """An array-rooted contract."""


def finding(index: int = 0, **overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "file": f"src/pkg/module_{index % 97}.py",
        "line": index + 1,
        "severity": ("critical", "major", "minor", "info")[index % 4],
        "message": f"Finding {index}: consider splitting this function",
        "confidence": 0.5,
        "suggestion": None,
    }
    data.update(overrides)
    return data


def report(count: int = 2, **overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "summary": f"{count} findings",
        "findings": [finding(i) for i in range(count)],
        "metadata": {},
    }
    data.update(overrides)
    return data


def fenced(body: str, info: str = "json", fence: str = "```") -> str:
    return f"{fence}{info}\n{body}\n{fence}\n"


def agent_output(data: Any, *, before: str = "", after: str = "", indent: int | None = 2) -> str:
    """An agent's answer: prose, then the JSON in a ```json block, then more prose."""
    return f"{before}{fenced(json.dumps(data, indent=indent))}{after}"
