"""The official JSON-Schema-Test-Suite (every draft) through the export, judged by Ajv.

Each group's contract is loaded as ``tests/test_json_schema_suite.py`` loads it (its draft,
the suite's remotes mapped), exported
(:class:`codegen.generate.consumers.export_docs.ExportDocuments`, the bundle as
:mod:`codegen.generate.consumers.export` writes it: one draft 2020-12 compound document), and
Ajv2020, with the npm package's options, judges every case from that bundle. The models decide
every judged case as the suite does (that test proves it), so Ajv must too: but for the groups the
npm package refuses (:func:`codegen.generate.consumers.ajv_limits.check_ajv_decides`: where Ajv
misreads ``unevaluated*``), which are counted, and must hold every group where Ajv errs.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from codegen.core.config import load_config
from codegen.core.errors import CodegenError, SchemaError
from codegen.core.loader import load_tree
from codegen.generate.consumers.ajv_limits import check_ajv_decides, own_properties
from codegen.generate.consumers.export import _bundle
from codegen.generate.consumers.export_docs import ExportDocuments
from codegen.generate.files.records import dump
from tests import _suite
from tests.consumers.test_typescript import TS, ensure_node
from tests.test_json_schema_suite import REFUSABLE


def _group(group: _suite.Group, root: Path) -> dict[str, Any] | None:
    """The group exported, or None when the loader refuses it (only the suite's vocabulary
    files, whose $schema is a metaschema of their own)."""
    (root / "schemas/suite").mkdir(parents=True)
    (root / "schemas" / group.rel).write_text(json.dumps(group.contract()), encoding="utf-8")
    (root / "pyproject.toml").write_text(group.config("suite"), encoding="utf-8")
    try:
        tree = load_tree(root / "schemas", options=load_config(root / "pyproject.toml").loading)
    except CodegenError:
        assert group.keyword in REFUSABLE, group.rel
        return None
    exported = ExportDocuments(tree, "suite")
    texts = {exported.ids[s.rel]: dump(exported.document(s)) for s in (*tree.files, *tree.external)}
    try:
        check_ajv_decides(tree)
        refused = ""
    except SchemaError as exc:
        refused = f"{exc.rule} at {exc.location.pointer if exc.location else ''}"
    return {
        "bundle": json.loads(_bundle(texts, "suite")),
        "id": exported.ids[tree.files[0].rel],
        "own": own_properties(tree),
        "refused": refused,
    }


def test_ajv_judges_every_suite_case_as_the_models_do(tmp_path: Path) -> None:
    node = ensure_node()
    started = time.perf_counter()
    judged: list[tuple[_suite.Group, dict[str, Any]]] = []
    for folder in _suite.DRAFTS:
        for group in _suite.groups(folder=folder):
            found = _group(group, tmp_path / folder / group.name)
            if found is not None:
                judged.append((group, found))
    exported = time.perf_counter() - started
    payload = [
        {**{k: v for k, v in found.items() if k != "refused"},
         "cases": [case.data for case in group.cases]}
        for group, found in judged
    ]  # fmt: skip
    (tmp_path / "groups.json").write_text(json.dumps(payload), encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run([node, str(TS / "suite-verdicts.mjs"), str(tmp_path / "groups.json")],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    tally: dict[str, Counter[str]] = {folder: Counter() for folder in _suite.DRAFTS}
    problems = []
    for (group, found), result in zip(judged, results, strict=True):
        counts = tally[group.folder]
        assert "error" not in result, (group.rel, group.description, result)
        for case, verdict in zip(group.cases, result["verdicts"], strict=True):
            if found["refused"]:
                counts["refused" if verdict == case.valid else "refused, Ajv errs"] += 1
            elif verdict == case.valid:
                counts["agree"] += 1
            else:
                counts["disagree"] += 1
                problems.append(f"{group.folder}/{group.rel} {group.description}: "
                                f"{case.description}")  # fmt: skip
    for folder, counts in tally.items():
        print(f"\n{folder}: {dict(sorted(counts.items()))}")
    total = sum(tally.values(), Counter())
    print(f"Ajv on the exported bundles: {dict(sorted(total.items()))}; export {exported:.1f}s, "
          f"node {time.perf_counter() - started:.1f}s")  # fmt: skip
    assert problems == []
    assert total["refused, Ajv errs"] > 0  # the refusals are not idle
    refused = {group.keyword for group, found in judged if found["refused"]}
    assert refused == {"unevaluatedItems", "unevaluatedProperties"}  # Ajv's only misreadings


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        ({"contains": {"type": "string"}, "unevaluatedItems": False}, "/contains"),
        ({"anyOf": [{"items": {"type": "string"}}, True], "unevaluatedItems": False},
         "/anyOf/0/items"),
        ({"if": {"patternProperties": {"f": True}}, "unevaluatedProperties": False}, "/if"),
        ({"allOf": [{"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}}],
          "properties": {"c": True}, "unevaluatedProperties": False}, "/allOf/0/if"),
    ],
)  # fmt: skip
def test_what_ajv_misreads_is_refused_with_its_place(
    tmp_path: Path, schema: dict[str, Any], keyword: str
) -> None:
    (tmp_path / "s").mkdir()
    document = {"$id": "https://x.example/s/a.json", "title": "A", **schema}
    (tmp_path / "s/a.json").write_text(json.dumps(document, indent=2))
    with pytest.raises(SchemaError) as caught:
        check_ajv_decides(load_tree(tmp_path / "s"))
    assert caught.value.rule == "AJV_UNEVALUATED"
    assert caught.value.location is not None
    assert caught.value.location.pointer == keyword
    assert caught.value.location.line > 1


def test_what_ajv_reads_right_is_not_refused(tmp_path: Path) -> None:
    """An if whose names are declared beside unevaluatedProperties (this project's rules), an
    items beside unevaluatedItems: Ajv's reading cannot change the verdict."""
    (tmp_path / "s").mkdir()
    document = {
        "$id": "https://x.example/s/a.json", "title": "A", "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"},
                       "l": {"items": True, "contains": {"const": 1}, "unevaluatedItems": False}},
        "allOf": [{"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}}],
        "unevaluatedProperties": False,
    }  # fmt: skip
    (tmp_path / "s/a.json").write_text(json.dumps(document))
    check_ajv_decides(load_tree(tmp_path / "s"))
