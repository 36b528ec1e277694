"""The keyword fixtures: contracts that use what issue 9 made faithful, judged by every consumer.

``tests/fixtures/keywords/`` is a project of its own (``pyproject.toml`` and ``schemas/``):
:func:`generate_project` copies it to a temporary folder and runs ``maverick-codegen
generate`` there once (models and export; nothing generated is committed), and
:func:`collect_cases` draws the documents every consumer judges, each with the verdict of the
ECMA-262 oracle (:func:`tests._conformance.ecma_validator_for`):

* ``generated``: candidates hypothesis-jsonschema draws from the simplified draft-7 schema
  (:func:`tests._conformance.draft7_generation_schema`), valid or not, none dropped;
* ``mutated by ...``: each candidate after one of :data:`tests._conformance.MUTATIONS`;
* ``example``: the schema's ``examples`` (the oracle must accept every one);
* ``explicit: ...``: :data:`EXPLICIT` documents, for what generation cannot reach (ECMA-262
  against Python ``re``, counting ``oneOf``, deep rules), each with the verdict it must get.

``tests/test_conformance_keywords.py`` judges every case with the generated models,
``tests/consumers/test_typescript.py`` with Ajv: the same documents, once generated.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import shutil
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis_jsonschema import from_schema

from codegen.core.loader import SchemaTree, iter_subschemas, load_tree
from codegen.generate.rules import find_rules
from tests._conformance import (
    draft7_generation_schema,
    draw_with_mutations,
    ecma_validator_for,
    install_hypothesis_jsonschema_shim,
)
from tests._schema_harness import rules_with_bases
from tests.conftest import run

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "keywords"
PACKAGE = "keyword_contracts"
EXAMPLES = 60  # hypothesis draws per contract; each gives a candidate and a mutation
# The keywords the fixtures exist to exercise: a test proves the tree uses every one.
KEYWORDS = frozenset(
    {
        "pattern", "patternProperties", "additionalProperties", "propertyNames",
        "minProperties", "maxProperties", "const", "enum", "oneOf", "not", "if", "then",
        "else", "dependentRequired", "dependentSchemas", "uniqueItems", "prefixItems",
        "contains", "minContains", "maxContains", "multipleOf", "exclusiveMinimum",
        "exclusiveMaximum", "$ref", "unevaluatedProperties", "format",
    }
)  # fmt: skip

_TICKET = {"points": 3, "confidence": 0.5}
_EDIT = {"kind": "edit", "path": "a.py", "lines": [1, 2]}
_SHELL = {"tool": "shell", "command": "make", "exit_code": 0}
# (contract, document, valid under the schema?, why)
EXPLICIT: list[tuple[str, Any, bool, str]] = [
    # ECMA-262 against Python's re: \p{Lu} is any script's upper case, \d is ASCII only,
    # $ never matches before a final newline.
    ("TriageReport", {**_TICKET, "ticket": "ÉTÉ-42"}, True, "\\p{Lu} matches É"),
    ("TriageReport", {**_TICKET, "ticket": "ΣΩ-1"}, True, "\\p{Lu} matches Greek"),
    ("TriageReport", {**_TICKET, "ticket": "Ab-1"}, False, "b is not upper case"),
    ("TriageReport", {**_TICKET, "ticket": "AB-\u0664\u0662"}, False, "\\d is ASCII only"),
    ("TriageReport", {**_TICKET, "ticket": "AB-12\n"}, False, "$ before a final newline"),
    ("TriageReport", {**_TICKET, "ticket": "ABCDEF-1"}, False, "six letters"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "points": 2.0}, True, "2.0 is 2"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "points": 4}, False, "not Fibonacci"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "points": True}, False, "true is not 1"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "confidence": 1}, False, "exclusive max"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "confidence": 0}, False, "exclusive min"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "confidence": 0.3}, False, "not eighths"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "urgent": False}, False, "enum [true, null]"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "urgent": 1}, False, "1 is not true"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "owner": None}, False, "optional, not null"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "labels": ["a", "a"]}, False, "unique"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "schema_version": [1.0, 0]}, True, "1.0"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "schema_version": [1]}, False, "const"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "estimate": {"high": 3}}, False, "no low"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "estimate": {"low": 1}}, False, "no unit"),
    ("TriageReport", {**_TICKET, "ticket": "AB-1", "estimate": {"unit": "hours"}}, True, "unit"),
    ("FindingNode", {"message": "m", "severity": "error"}, False, "an error without location"),
    (
        "FindingNode",
        {"message": "m", "severity": "info", "location": ["a", 1, 2, 3]},
        False,
        "items false after the tuple",
    ),
    ("FindingNode", {"message": "m", "severity": "info", "location": ["a", 1]}, False, "short"),
    (
        "FindingNode",
        {
            "message": "m",
            "severity": "info",
            "children": [
                {
                    "message": "n",
                    "severity": "info",
                    "children": [{"message": "o", "severity": "error"}],
                }
            ],
        },
        False,
        "the rule holds at depth 3",
    ),
    (
        "FindingNode",
        {
            "message": "m",
            "severity": "info",
            "children": [
                {
                    "message": "n",
                    "severity": "info",
                    "children": [{"message": "o", "severity": "info", "extra": 1}],
                }
            ],
        },
        False,
        "closed at depth 3",
    ),
    ("PatchPlan", {"steps": []}, False, "minItems 1"),
    ("PatchPlan", {"steps": [{**_EDIT, "kind": "delete"}]}, False, "delete has no lines"),
    ("PatchPlan", {"steps": [{"kind": "move", "path": "a"}]}, False, "unknown kind"),
    ("PatchPlan", {"steps": [{**_EDIT, "lines": [1, 2, 3]}]}, False, "a pair"),
    ("PatchPlan", {"steps": [{"kind": "rename", "path": "a", "to": "/b"}]}, False, "absolute"),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 60}, False, "60 matches both branches"),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 60.0}, False, "60.0 is 60"),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 59}, True, "whole seconds"),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 60.5}, True, "half seconds"),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 59.5}, False, "neither"),
    ("PatchPlan", {"steps": [_EDIT], "branch": "main"}, False, "not main"),
    ("PatchPlan", {"steps": [_EDIT], "branch": "mainline"}, True, "not an enum value"),
    ("PatchPlan", {"steps": [_EDIT], "touched": ["a.md"]}, False, "no Python file"),
    ("PatchPlan", {"steps": [_EDIT], "touched": ["a.py\n"]}, False, "$ before a newline"),
    ("PatchPlan", {"steps": [_EDIT], "touched": ["a.py", "b.py", "c.py", "d.py"]}, False, "4"),
    ("PatchPlan", {"steps": [_EDIT], "touched": ["a.py", "b.py", "c.py", "d"]}, True, "3"),
    ("PatchPlan", {"steps": [_EDIT], "env": {"lower": "x"}}, False, "not upper case"),
    ("PatchPlan", {"steps": [_EDIT], "env": {"A\n": "x"}}, False, "$ before a newline"),
    ("PatchPlan", {"steps": [_EDIT], "env": {"A_VERY_LONG_NAME_1": "x"}}, False, "17 chars"),
    ("PatchPlan", {"steps": [_EDIT], "env": {"A": "1", "B": "2", "C": "3", "D": "4"}}, False, "4"),
    ("PatchPlan", {"steps": [_EDIT], "env": {"A": 1}}, False, "a value is a string"),
    ("PatchPlan", {"steps": [_EDIT], "metadata": {}}, False, "minProperties 1"),
    ("PatchPlan", {"steps": [_EDIT], "metadata": {"a": None}}, False, "a scalar, not null"),
    ("PatchPlan", {"steps": [_EDIT], "metadata": {"a": [1]}}, False, "a scalar, not a list"),
    ("PatchPlan", {"steps": [_EDIT], "metadata": {"Key": 1}}, False, "snake_case names"),
    ("PatchPlan", {"steps": [_EDIT], "review": {"approved": True}}, False, "no approver"),
    ("PatchPlan", {"steps": [_EDIT], "review": {"approved": False}}, False, "no reason"),
    (
        "PatchPlan",
        {"steps": [_EDIT], "review": {"approved": False, "reason": "r", "ticket": "T"}},
        False,
        "a ticket without its URL",
    ),
    (
        "PatchPlan",
        {
            "steps": [_EDIT],
            "review": {"approved": False, "reason": "r", "ticket": "T", "ticket_url": "http://t"},
        },
        False,
        "not https",
    ),
    (
        "PatchPlan",
        {"steps": [_EDIT], "review": {"approved": True, "approver": "a", "ticket_url": "x"}},
        True,
        "a URL alone is not checked",
    ),
    ("ShellEvent", {**_SHELL, "exit_code": 1, "stderr": "boom"}, True, "stderr on failure"),
    ("ShellEvent", {**_SHELL, "stderr": "boom"}, False, "stderr only on failure"),
    ("ShellEvent", {**_SHELL, "exit_code": 1, "stderr": ""}, False, "stderr empty"),
    ("ShellEvent", {**_SHELL, "exit_code": 0.0, "stderr": "x"}, False, "0.0 is 0"),
    ("ShellEvent", {**_SHELL, "label_x": "y"}, True, "a label"),
    ("ShellEvent", {**_SHELL, "label_x": 1}, False, "a label is a string"),
    ("ShellEvent", {**_SHELL, "labelx": "y"}, False, "unevaluated"),
    ("ShellEvent", {**_SHELL, "at": "yesterday"}, True, "format is an annotation"),
    ("ShellEvent", {**_SHELL, "tool": ""}, False, "the base's minLength"),
    ("ShellEvent", {"command": "make", "exit_code": 0}, False, "the base's required tool"),
    ("ShellEvent", {**_SHELL, "duration_s": 3600}, False, "exclusive maximum"),
    ("ShellEvent", {**_SHELL, "duration_s": 3599.999}, True, "under an hour"),
    ("ShellEvent", {**_SHELL, "exit_code": 256}, False, "maximum"),
    ("ToolEvent", {"tool": "x", "anything": [1]}, True, "open"),
    ("ToolEvent", {"tool": "x", "at": 1}, False, "at is a string"),
    # An open contract draws few invalid documents, and how many depends on the modules loaded
    # (hypothesis draws constants from the project's code): these keep both verdicts in hand.
    ("ToolEvent", {"tool": ""}, False, "a tool name is not empty"),
    ("ToolEvent", {"at": "2026-01-02T03:04:05Z"}, False, "the tool is required"),
    ("ToolEvent", {"tool": 1}, False, "a tool name is a string"),
    ("ToolEvent", {"tool": "x", "at": None}, False, "at is not null"),
    ("ToolEvent", [], False, "an object"),
]


@dataclass(frozen=True, eq=False)  # hashed by identity: one per session
class KeywordProject:
    """The fixture project generated in a temporary folder, its models imported."""

    root: Path
    tree: SchemaTree
    contracts: Mapping[str, Any]  # the generated registry: title -> entry (``.model``)
    export_dir: Path


@dataclass(frozen=True, eq=False)  # hashed by identity
class Case:
    """A document of one contract and the oracle's verdict on it."""

    name: str
    kind: str  # generated | mutated by ... | example | explicit: ...
    document: Any
    valid: bool


def titles() -> list[str]:
    """The fixture tree's contracts, known without generating it (for parametrize)."""
    return sorted(load_tree(FIXTURE / "schemas").by_title)


def keywords_used() -> set[str]:
    """Every keyword the fixture tree writes, in any subschema."""
    tree = load_tree(FIXTURE / "schemas")
    return {
        key for schema in tree.files for _, node in iter_subschemas(schema.data) for key in node
    }


@contextlib.contextmanager
def generated_project(workdir: Path) -> Iterator[KeywordProject]:
    """Copy the fixture project to ``workdir``, generate it, and import its models."""
    root = workdir / "keywords"
    shutil.copytree(FIXTURE, root)
    code, out = run(root, "generate")
    assert code == 0, f"generate failed on the keyword fixtures:\n{out}"
    sys.path.insert(0, str(root / "out"))
    try:
        module = importlib.import_module(PACKAGE)
        yield KeywordProject(root, load_tree(root / "schemas"), module.CONTRACTS, root / "export")
    finally:
        sys.path.remove(str(root / "out"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _drawn(tree: SchemaTree, name: str) -> list[tuple[str, Any]]:
    """Candidates and their mutations, drawn deterministically."""
    install_hypothesis_jsonschema_shim()
    strategy = from_schema(draft7_generation_schema(tree, name))
    rules = [rule for _, rule in find_rules(rules_with_bases(tree, name))]
    return draw_with_mutations(strategy, rules, EXAMPLES, "generated")


def collect_cases(tree: SchemaTree) -> list[Case]:
    """Every document of every contract of the tree, once each, with the oracle's verdict."""
    cases: list[Case] = []
    for name in sorted(tree.by_title):
        oracle = ecma_validator_for(tree, name)
        documents = _drawn(tree, name)
        documents += [("example", e) for e in tree.by_title[name].data["examples"]]
        documents += [(f"explicit: {why}", d) for n, d, _, why in EXPLICIT if n == name]
        seen: set[str] = set()
        for kind, document in documents:
            key = json.dumps(document, sort_keys=True)
            if key not in seen:
                seen.add(key)
                cases.append(Case(name, kind, document, oracle.is_valid(document)))
    return cases
