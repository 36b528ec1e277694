"""The official JSON-Schema-Test-Suite (draft 2020-12) through the real generator.

Every group becomes a contract, ``maverick-codegen generate`` runs on it, and every case is
validated in JSON mode by the generated model (``tests/_suite.py`` says exactly how). Any
disagreement, any crash (a traceback is never an answer), any module that does not import and
any refusal without ``file:line:col``, JSON pointer and rule id fails the test; the counts per
keyword file are printed (``pytest -s``). ``bench/bench_suite.py`` prints the same table beside
plain datamodel-code-generator's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests import _suite

# The figures this run must reach: every case that is not set aside is supported and agrees.
MINIMUM_AGREEING = 0.90


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[_suite.Result]:
    return _suite.run_all(_suite.run_maverick, tmp_path_factory.mktemp("suite"))


def test_the_suite_is_vendored_with_its_license_and_commit() -> None:
    folder = _suite.SUITE.parent
    assert "Permission is hereby granted" in (folder / "LICENSE").read_text()
    assert "44401e0c046704b476ec9d2e2fccdaee618f259d" in (folder / "README.md").read_text()
    groups = _suite.groups()
    assert len(groups) == 383
    assert sum(len(g.cases) for g in groups) == 1299


def test_every_case_agrees_and_nothing_crashes(results: list[_suite.Result]) -> None:
    table, total = _suite.table(results)
    print("\n" + table)
    broken = [
        f"{r.group.rel} ({r.group.description}): {r.status}: {r.detail}"
        for r in results
        if r.status in ("crashed", "import failed")
    ]
    broken += [
        f"{r.group.rel}: {case.description}: {error}"
        for r in results
        if r.status == "generated"
        for case, error in zip(r.group.cases, r.case_errors, strict=True)
        if error
    ]
    assert broken == []
    assert [d for r in results for d in r.disagreements()] == []
    considered = sum(total.values()) - total["set aside"]
    assert total["agree"] >= MINIMUM_AGREEING * considered, table


def test_refusals_name_file_pointer_and_rule(results: list[_suite.Result]) -> None:
    # run_maverick turns a refusal without a location into a crash; check the ones it kept.
    for result in results:
        if result.status == "refused":
            assert _suite.REFUSAL.fullmatch(result.detail + "\n"), result.detail


def test_groups_set_aside_are_those_that_test_reference_resolution() -> None:
    by_description = {(g.keyword, g.description): g for g in _suite.groups()}
    aside = {
        ("ref", "remote ref, containing refs itself"),
        ("ref", "$id must be resolved against nearest parent, not just immediate parent"),
        ("anchor", "Location-independent identifier"),
        ("defs", "validate definition against metaschema"),
    }
    kept = {("ref", "root pointer ref"), ("ref", "nested refs")}
    for key in aside:
        assert by_description[key].set_aside, key
    for key in kept:
        assert by_description[key].set_aside is None, key


def test_a_group_becomes_a_contract_file() -> None:
    group = next(g for g in _suite.groups(["minLength"]) if g.index == 0)
    contract = group.contract()
    assert list(contract)[:4] == ["$schema", "$id", "title", "description"]
    assert contract["$id"] == "https://suite.example/suite/min_length_00.json"
    assert contract["title"] == "MinLength00"
    assert contract["minLength"] == 2
    false_group = next(g for g in _suite.groups(["boolean_schema"]) if g.schema is False)
    assert {k: v for k, v in false_group.contract().items() if k == "not"} == {"not": {}}


def test_compiled_predicates_alone_decide_as_the_suite(tmp_path: Path) -> None:
    """The predicate compiler in full mode (every keyword, no typed skeleton) on every case."""
    from codegen.core.loader import load_tree
    from codegen.generate.predicate_runtime import RUNTIME, RUNTIME_IMPORTS
    from codegen.generate.predicates import compile_predicates

    runtime: dict[str, Any] = {}
    exec("\n".join(RUNTIME_IMPORTS) + "\n" + RUNTIME, runtime)
    checked = 0
    for group in _suite.groups():
        if group.set_aside:
            continue
        root = tmp_path / group.name
        (root / "suite").mkdir(parents=True)
        (root / group.rel).write_text(json.dumps(group.contract()), encoding="utf-8")
        tree = load_tree(root)
        compiled = compile_predicates(tree, [(tree.files[0], "")])
        namespace = dict(runtime)
        exec(compiled.source, namespace)
        name = compiled.entries[(group.rel, "")]
        check = namespace[name] if name else (lambda x: True)
        for case in group.cases:
            verdict = check(json.loads(json.dumps(case.data)))
            assert verdict is case.valid, (group.rel, group.description, case.description)
            checked += 1
    assert checked == 1159


def test_support_page_is_current(results: list[_suite.Result]) -> None:
    """docs/json-schema-support.md: every keyword the generator knows, figures of this run."""
    from codegen.generate.predicates import ANNOTATIONS, KEYWORDS
    from codegen.generate.support import WHY

    known = (KEYWORDS | ANNOTATIONS) - {"$id"}
    assert set(_suite.HOW) == known
    refused = {k: v for k, v in WHY.items() if k != "$id"}
    page = _suite.support_table(results, refused)
    path = Path(__file__).resolve().parent.parent / "docs" / "json-schema-support.md"
    if os.environ.get("UPDATE_DOCS"):
        path.write_text(page, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == page
