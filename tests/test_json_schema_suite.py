"""The official JSON-Schema-Test-Suite, every draft from draft-04 to 2020-12, through the generator.

Every group becomes a contract of its draft, ``maverick-codegen generate`` runs on it, and every
case is validated in JSON mode by the generated model (``tests/_suite.py`` says exactly how).
Any disagreement, any crash (a traceback is never an answer), any module that does not import and
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

# The figures this run must reach, per draft: at least this share of the cases judged (not
# refused), every judged case agreeing.
MINIMUM_JUDGED = 0.97
# Groups, cases: the required tests of each draft at the vendored commit.
SIZES = {"draft4": (160, 618), "draft6": (232, 839), "draft7": (257, 927),
         "draft2019-09": (372, 1259), "draft2020-12": (383, 1299)}  # fmt: skip
# What may be refused: a $schema that names a metaschema of its own (the vocabulary files).
REFUSABLE = {"vocabulary"}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[_suite.Result]]:
    workdir = tmp_path_factory.mktemp("suite")
    return {
        folder: _suite.run_all(_suite.run_maverick, workdir, folder=folder)
        for folder in _suite.DRAFTS
    }


def test_the_suite_is_vendored_with_its_license_and_commit() -> None:
    folder = _suite.FOLDER
    assert "Permission is hereby granted" in (folder / "LICENSE").read_text()
    assert "44401e0c046704b476ec9d2e2fccdaee618f259d" in (folder / "README.md").read_text()
    for draft, (groups, cases) in SIZES.items():
        found = _suite.groups(folder=draft)
        assert (len(found), sum(len(g.cases) for g in found)) == (groups, cases), draft
    assert (_suite.REMOTES / "draft2020-12" / "integer.json").is_file()


@pytest.mark.parametrize("folder", list(_suite.DRAFTS))
def test_every_case_agrees_and_nothing_crashes(
    results: dict[str, list[_suite.Result]], folder: str
) -> None:
    found = results[folder]
    table, total = _suite.table(found)
    print(f"\n{folder}\n{table}")
    broken = [
        f"{r.group.rel} ({r.group.description}): {r.status}: {r.detail}"
        for r in found
        if r.status in ("crashed", "import failed", "set aside")
        or (r.status == "refused" and r.group.keyword not in REFUSABLE)
    ]
    broken += [
        f"{r.group.rel}: {case.description}: {error}"
        for r in found
        if r.status == "generated"
        for case, error in zip(r.group.cases, r.case_errors, strict=True)
        if error
    ]
    assert broken == []
    assert [d for r in found for d in r.disagreements()] == []
    assert total["agree"] >= MINIMUM_JUDGED * sum(total.values()), table


def test_refusals_name_file_pointer_and_rule(results: dict[str, list[_suite.Result]]) -> None:
    # run_maverick turns a refusal without a location into a crash; check the ones it kept.
    refused = [r for found in results.values() for r in found if r.status == "refused"]
    for result in refused:
        *reasons, summary = result.detail.split("\n")  # each reason, then how many files
        assert _suite.SUMMARY.fullmatch(summary), result.detail
        assert all(_suite.REFUSAL.fullmatch(line) for line in reasons), result.detail
        assert "(DRAFT)" in result.detail
        assert "unknown $schema" in result.detail


def test_a_group_becomes_a_contract_file() -> None:
    group = next(g for g in _suite.groups(["minLength"]) if g.index == 0)
    contract = group.contract()
    assert contract["$id"] == "https://suite.example/suite/min_length_00.json"
    assert contract["title"] == "MinLength00"
    assert contract["minLength"] == 2
    assert contract["$schema"] == "https://json-schema.org/draft/2020-12/schema"  # its own
    false_group = next(g for g in _suite.groups(["boolean_schema"]) if g.schema is False)
    assert {k: v for k, v in false_group.contract().items() if k == "not"} == {"not": {}}
    # A schema's own identifier is kept (draft-04 spells it id); one is added only when missing.
    owned = next(g for g in _suite.groups(["ref"], "draft4") if "id" in g.schema)
    assert owned.contract()["id"] == owned.schema["id"]
    assert "$id" not in owned.contract()
    assert 'default_draft = "draft-04"' in owned.config("p")
    assert f'"{_suite.REMOTE_PREFIX}" = ' in owned.config("p")


@pytest.mark.parametrize("folder", list(_suite.DRAFTS))
def test_compiled_predicates_alone_decide_as_the_suite(tmp_path: Path, folder: str) -> None:
    """The predicate compiler in full mode (every keyword, no typed skeleton) on every case."""
    from codegen.core.config import load_config
    from codegen.core.loader import load_tree
    from codegen.generate.models.checks.predicate_runtime import RUNTIME, RUNTIME_IMPORTS
    from codegen.generate.models.checks.predicates import compile_predicates

    runtime: dict[str, Any] = {}
    exec("\n".join(RUNTIME_IMPORTS) + "\n" + RUNTIME, runtime)
    checked = 0
    for group in _suite.groups(folder=folder):
        if group.keyword in REFUSABLE:
            continue
        root = tmp_path / group.name
        (root / "schemas/suite").mkdir(parents=True)
        (root / "schemas" / group.rel).write_text(json.dumps(group.contract()), encoding="utf-8")
        (root / "pyproject.toml").write_text(group.config("p"), encoding="utf-8")
        tree = load_tree(root / "schemas", options=load_config(root / "pyproject.toml").loading)
        compiled = compile_predicates(tree, [(tree.files[0], "")])
        namespace = dict(runtime)
        exec(compiled.source, namespace)
        name = compiled.entries[(group.rel, "")]
        check = namespace[name] if name else (lambda x: True)
        for case in group.cases:
            verdict = check(json.loads(json.dumps(case.data)))
            assert verdict is case.valid, (group.rel, group.description, case.description)
            checked += 1
    refused = sum(len(g.cases) for g in _suite.groups(REFUSABLE, folder))
    assert checked == SIZES[folder][1] - refused


def test_support_page_is_current(results: dict[str, list[_suite.Result]]) -> None:
    """docs/json-schema-support.md: every keyword the generator knows, figures of this run."""
    from codegen.core.drafts import ANNOTATIONS, DEFAULT_DRAFT

    assert set(_suite.HOW) == set(DEFAULT_DRAFT.keywords) | ANNOTATIONS
    page = _suite.support_table(results)
    path = Path(__file__).resolve().parent.parent / "docs" / "json-schema-support.md"
    if os.environ.get("UPDATE_DOCS"):
        path.write_text(page, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == page
