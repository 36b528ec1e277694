"""The documents ``tests/test_conformance.py`` judges, drawn once per session for every consumer.

For each contract of the project, hypothesis-jsonschema draws valid instances of the schema
(:func:`tests._conformance.generation_schema`) and, after each, one of
:data:`tests._conformance.MUTATIONS` of it; :data:`EDGE_CASES` adds explicit documents with the
verdict the schema gives them. ``tests/test_conformance.py`` judges them with jsonschema and
the models, ``tests/consumers/test_npm_package.py`` with the npm package's validator: the
draw is derandomized and cached, so both see the very same documents.
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis_jsonschema import from_schema

from codegen.generate.rules import find_rules
from tests._conformance import (
    draw_with_mutations,
    generation_schema,
    install_hypothesis_jsonschema_shim,
)
from tests._schema_harness import load, rules_with_bases
from tests.conftest import REPO

__all__ = ["EDGE_CASES", "EXAMPLES", "TREE", "drawn"]

TREE = load(REPO / "schemas")
EXAMPLES = 40  # per contract; each example is one valid case and one mutation

META = {"tool_name": "x", "timestamp": "2025-12-20T15:00:00Z"}
V = {"rule": "R1", "rule_name": "ADK-Only", "type": "forbidden_import", "pattern": "langchain",
     "file": "a.py", "line": 1, "text": "import langchain"}  # fmt: skip
F = {"id": "F001", "file": "a.py", "line": "4", "issue": "x", "severity": "minor",
     "category": "testing"}  # fmt: skip
# (contract, document, valid under the schema?, why)
EDGE_CASES: list[tuple[str, Any, bool, str]] = [
    ("FixerResult", {"success": False, "summary": "s"}, False, "failure without error_details"),
    ("FixerResult", {"success": False, "summary": "s", "error_details": None}, False, "null"),
    ("FixerResult", {"success": False, "summary": "s", "error_details": ""}, False, "empty"),
    ("FixerResult", {"success": True, "summary": "s", "extra": 1}, False, "closed"),
    ("FixerResult", {"success": True, "summary": "s", "error_details": None}, True, "success"),
    ("ToolResult", {"success": False}, False, "failure without error"),
    ("ToolResult", {"success": False, "error": ""}, False, "error empty"),
    ("ToolResult", {"success": False, "error": None}, False, "error null"),
    ("ToolResult", {"success": True, "anything": 1}, True, "ToolResult stays open"),
    ("FileResult", {"success": False, "metadata": META}, False, "failure without error"),
    ("FileResult", {"success": False, "error": "", "metadata": META}, False, "error empty"),
    ("FileResult", {"success": True, "encoding": "latin-1"}, False, "encoding not utf-8"),
    ("FileResult", {"success": True, "size": -1}, False, "negative size"),
    ("FileResult", {"success": True, "mode": "r"}, False, "unknown property (unevaluated)"),
    ("SearchResult", {"success": True, "hits": []}, False, "unknown property (unevaluated)"),
    ("SearchResult", {"success": True, "match_count": -1}, False, "negative match_count"),
    ("SearchResult", {"success": False, "error": ""}, False, "error empty"),
    ("DependencyResult", {"success": False}, False, "failure without error"),
    ("DependencyResult", {"success": True, "deps": {}}, False, "unknown property"),
    ("DependencyResult", {"success": True, "summary": {"python_packages": 1}}, False, "partial"),
    ("DependencyResult", {"success": True, "node": {"dependencies": {"a": 1}}}, False, "version"),
    ("ComplianceResult", {"success": True, "status": "COMPLIANT", "violations": [V]}, False, "C"),
    (
        "ComplianceResult",
        {"success": True, "status": "VIOLATIONS_FOUND", "violations": []},
        False,
        "VIOLATIONS_FOUND with none",
    ),
    ("ComplianceResult", {"success": True, "status": "VIOLATIONS_FOUND"}, False, "absent"),
    ("ComplianceResult", {"success": True, "compliance_score": 100.5}, False, "score > 100"),
    ("ComplianceResult", {"success": True, "risk_level": "SEVERE"}, False, "risk level"),
    ("ComplianceResult", {"success": True, "status": "COMPLIANT"}, True, "violations absent"),
    ("ComplianceResult", {"success": True, "status": None, "violations": [V]}, True, "null"),
    ("ComplianceResult", {"success": True, "compliance_score": 100}, True, "integer score"),
    ("ComplianceResult", {"success": True, "compliance_score": 0}, True, "zero score"),
    ("ComplianceResult", {"success": True, "score": 1}, False, "unknown property"),
    ("ComplianceResult", {"success": False, "error": "", "metadata": META}, False, "error empty"),
    ("Violation", {**V, "severity": "high"}, False, "unknown property (closed)"),
    ("Finding", {**F, "line": None}, False, "null line"),
    ("Finding", {**F, "line": 45}, True, "legacy integer line"),
    ("Finding", {**F, "line": "45-67"}, True, "range line"),
    ("Finding", {k: v for k, v in F.items() if k != "line"}, False, "line missing"),
    ("Finding", {**F, "severity": "suggestion"}, False, "suggestion is not a Finding severity"),
    # Accepted: upstream set no bound on line, and adding one would break old checkpoints.
    ("Finding", {**F, "line": ""}, True, "empty line"),
    ("Finding", {**F, "line": 0}, True, "line 0"),
    ("ReviewFinding", {"severity": "minor", "file": "a.py", "message": "too short"}, False, "<10"),
    (
        "ReviewFinding",
        {"severity": "minor", "file": "a.py", "message": "long enough", "line": 0},
        False,
        "line 0",
    ),
    ("FixOutcome", {"id": "F001", "outcome": "skipped", "explanation": ""}, False, "outcome"),
    ("FixOutcomes", [{"id": "F001", "outcome": "fixed", "explanation": ""}], False, "list root"),
    ("FixResult", {"success": True, "issue_number": 0, "issue_title": "t"}, False, "issue 0"),
    ("FileChange", {"file_path": "a.py", "change_type": "copied"}, False, "change type"),
    ("TaskResult", {"task_id": "T001", "status": "done"}, False, "unknown status"),
    (
        "ImplementationResult",
        {
            "success": True,
            "tasks_completed": 1,
            "tasks_failed": 0,
            "tasks_skipped": 0,
            "task_results": [{"task_id": "T001", "status": "completed", "surprise": 1}],
        },
        False,
        "unknown property in a nested closed object",
    ),
    (
        "UsageStats",
        {"input_tokens": 1, "output_tokens": 1, "duration_ms": 1, "total_cost": -1},
        False,
        "negative cost",
    ),
    (
        "UsageStats",
        {"input_tokens": 1, "output_tokens": 1, "duration_ms": 1, "total_cost": 0},
        True,
        "integer cost",
    ),
    *[
        (name, document, True, "error result")
        for name in (
            "ToolResult",
            "ComplianceResult",
            "SearchResult",
            "FileResult",
            "DependencyResult",
        )
        for document in (
            {"success": False, "error": "boom", "metadata": META},
            {"success": False, "error": "boom"},
        )
    ],
]


@functools.cache
def drawn(name: str) -> tuple[tuple[str, Any], ...]:
    """``("valid", instance)`` and ``("mutated by <mutation>", document)`` pairs, in draw order."""
    install_hypothesis_jsonschema_shim()
    strategy = from_schema(generation_schema(TREE, name))
    rules = [rule for _, rule in find_rules(rules_with_bases(TREE, name))]
    return tuple(draw_with_mutations(strategy, rules, EXAMPLES, "valid"))
