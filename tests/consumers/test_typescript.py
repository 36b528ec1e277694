"""A consumer from another ecosystem, run in CI: TypeScript, with Ajv and generated types.

Proves that the committed export is enough for a team that does not use Python:

* Ajv (draft 2020-12, strict mode) judges every example, the shared valid and invalid
  documents of the cross-field rules and a set of structural mutations exactly as Python does
  (jsonschema and the generated model), loading the export three ways: the compound bundle,
  the per-contract files, and each agent contract's structured-output form;
* json-schema-to-typescript turns the per-contract files into ``.d.ts`` files and
  ``tsc --noEmit`` compiles ``usage.ts``, which builds one value of each agent contract.

Node.js and npm are required: without them the test fails (it never skips). ``make test``
runs ``npm ci`` first; run directly, the test runs it itself when ``node_modules`` is missing
or older than the lock file.
"""

from __future__ import annotations

import copy
import enum
import fcntl
import functools
import json
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from codegen.core.config import load_config
from codegen.generate.rules import find_rules
from maverick.contracts import CONTRACTS
from tests._schema_harness import load, model_accepts, mutations, rules_with_bases, validator_for
from tests.codegen.test_typescript import WIDER, WIDER_VALID, declarations
from tests.conftest import REPO

TS = REPO / "tests" / "consumers" / "typescript"
STAMP = TS / "node_modules" / ".maverick-npm-ci"  # the Makefile's stamp too
TREE = load(REPO / "schemas")

_OTHER_TYPE: dict[type, Any] = {
    str: 12345,
    int: "text",
    float: "text",
    bool: "text",
    list: {},
    dict: [],
    type(None): "text",
}


def _run(command: list[str], what: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({' '.join(command)}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def ensure_node() -> str:
    """The node executable, with the consumer's packages installed by ``npm ci``."""
    found = {tool: shutil.which(tool) for tool in ("node", "npm")}
    node_path, npm = found["node"], found["npm"]
    if node_path is None or npm is None:
        missing = " and ".join(tool for tool, path in found.items() if path is None)
        pytest.fail(
            f"{missing} not found on PATH: the TypeScript consumer test needs Node.js 20 or "
            "later with npm (CI machines have them); it never skips"
        )
    inputs = [TS / "package.json", TS / "package-lock.json"]
    # pytest-xdist may run two modules that need the packages at once: one installs them.
    with open(Path(tempfile.gettempdir()) / "maverick-npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not STAMP.exists() or any(STAMP.stat().st_mtime < p.stat().st_mtime for p in inputs):
            started = time.perf_counter()
            _run([npm, "ci", "--prefix", str(TS), "--no-audit", "--no-fund"], "npm ci")
            STAMP.touch()
            print(f"npm ci: {time.perf_counter() - started:.1f}s")
    return node_path


@pytest.fixture(scope="module")
def node() -> str:
    return ensure_node()


@pytest.fixture(scope="module")
def export_dir() -> Path:
    """The committed export (``check`` guards that it matches the schemas)."""
    folder = load_config(REPO / "pyproject.toml").export_dir
    assert folder is not None, "pyproject.toml configures no export_dir"
    assert (folder / "index.json").is_file(), "no export: run make generate"
    return folder


def _structural(data: dict[str, Any], examples: list[Any]) -> Iterator[Any]:
    """Documents one change away from an example: unknown, missing, null and mistyped fields."""
    for example in examples:
        if not isinstance(example, dict):
            continue
        document = copy.deepcopy(example)
        document["unexpected_property"] = "x"
        yield document
        for name in data.get("required", []):
            document = copy.deepcopy(example)
            document.pop(name, None)
            yield document
        for name, value in example.items():
            for replacement in (None, _OTHER_TYPE[type(value)]):
                document = copy.deepcopy(example)
                document[name] = replacement
                yield document
    if not all(isinstance(e, dict) for e in examples):
        yield from (None, 1, "not-a-value", "")


@functools.cache
def _validator(name: str) -> Any:
    return validator_for(TREE, name)


def _python_verdict(name: str, document: Any) -> tuple[bool, tuple[bool, bool]]:
    """jsonschema's verdict, and the generated model's (from JSON text, from Python data)."""
    expected = _validator(name).is_valid(document)
    model = CONTRACTS[name].model
    if isinstance(model, type) and issubclass(model, enum.Enum):
        try:
            model(document)
        except ValueError:
            return expected, (False, False)
        return expected, (True, True)
    return expected, model_accepts(model, document)


def python_cases() -> list[dict[str, Any]]:
    """Every document to judge, with the verdict Python gives it."""
    cases: list[dict[str, Any]] = []
    for name in sorted(CONTRACTS):
        data = TREE.by_title[name].data
        examples = data["examples"]
        rules = rules_with_bases(TREE, name)
        documents = [("example", d) for d in examples]
        if find_rules(rules):
            documents += [("rule", d) for d in mutations(rules, examples)]
        documents += [("structural", d) for d in _structural(data, examples)]
        seen: set[str] = set()
        for kind, document in documents:
            key = json.dumps(document, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            expected, from_model = _python_verdict(name, document)
            assert from_model == (expected, expected), (name, document)  # Python agrees first
            cases.append(
                {
                    "id": f"{name}/{kind}/{len(cases)}",
                    "name": name,
                    "kind": kind,
                    "document": document,
                    "verdict": expected,
                }
            )
    return cases


def test_ajv_judges_every_document_as_python_does(
    node: str, export_dir: Path, tmp_path: Path
) -> None:
    started = time.perf_counter()
    cases = python_cases()
    python_seconds = time.perf_counter() - started
    index = json.loads((export_dir / "index.json").read_text(encoding="utf-8"))
    payload = [
        {
            "id": case["id"],
            "schema": index["contracts"][case["name"]]["$id"],
            "structured": index["contracts"][case["name"]].get("structured_output"),
            "document": case["document"],
        }
        for case in cases
    ]
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps({"cases": payload}), encoding="utf-8")
    started = time.perf_counter()
    out = _run([node, str(TS / "verdicts.mjs"), str(export_dir), str(cases_file)], "Ajv verdicts")
    node_seconds = time.perf_counter() - started
    report = json.loads(out)

    unexpected = report["warnings"]  # Ajv runs fully strict: any warning is a finding
    assert not unexpected, f"Ajv strict mode reported: {unexpected}"
    disagreements = []
    for case in cases:
        verdicts = report["results"][case["id"]]
        for loaded_as, verdict in verdicts.items():
            if verdict is not None and verdict != case["verdict"]:
                disagreements.append((case["id"], loaded_as, verdict, case["document"]))
    assert not disagreements, (
        f"{len(disagreements)} verdicts differ from Python's, e.g. {disagreements[:10]}"
    )
    kinds = {k: sum(c["kind"] == k for c in cases) for k in ("example", "rule", "structural")}
    accepted = sum(c["verdict"] for c in cases)
    structured = sum(v["structured"] is not None for v in report["results"].values())
    print(
        f"\n{len(cases)} documents ({kinds}), {accepted} valid and {len(cases) - accepted} "
        f"invalid; Ajv agreed for all of them from the bundle, the per-contract files and "
        f"({structured} documents) the structured-output forms; 0 disagreements. "
        f"Python verdicts {python_seconds:.1f}s, node {node_seconds:.1f}s"
    )
    # Every contract is judged, and the rules are exercised on both sides.
    assert {c["name"] for c in cases} == set(CONTRACTS)
    assert accepted > 100
    assert len(cases) - accepted > 100


def test_ajv_judges_the_keyword_fixtures_as_python_does(
    node: str, keyword_project: Any, keyword_cases: list[Any], tmp_path: Path
) -> None:
    """The keyword fixtures' export (tests/fixtures/keywords/, generated in a temporary
    folder) and the very documents tests/test_conformance_keywords.py judges with the models:
    Ajv, from the bundle and from the per-contract files, gives the ECMA-262 oracle's verdict,
    which the models give too (that test fails otherwise), but where its own multipleOf
    decides (binary floating point; parseInt on a quotient of 1e21 or more): with that one
    keyword made exact, as the npm package's validate has it, every verdict agrees."""
    index = json.loads((keyword_project.export_dir / "index.json").read_text(encoding="utf-8"))
    payload = [
        {
            "id": str(number),
            "schema": index["contracts"][case.name]["$id"],
            "structured": None,
            "document": case.document,
        }
        for number, case in enumerate(keyword_cases)
    ]
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps({"cases": payload}), encoding="utf-8")
    started = time.perf_counter()
    out = _run(
        [node, str(TS / "verdicts.mjs"), str(keyword_project.export_dir), str(cases_file)],
        "Ajv verdicts on the keyword fixtures",
    )
    node_seconds = time.perf_counter() - started
    report = json.loads(out)
    assert not report["warnings"], f"Ajv strict mode reported: {report['warnings']}"
    disagreements, multiple_of = [], []
    for number, case in enumerate(keyword_cases):
        verdicts = report["results"][str(number)]
        for loaded_as, verdict in verdicts.items():
            if verdict is None or verdict == case.valid:
                continue
            # Ajv's own multipleOf (docs/consumers.md): only it differs between these and "exact".
            if loaded_as != "exact" and verdicts["exact"] == case.valid:
                multiple_of.append((case.name, loaded_as, case.document))
            else:
                disagreements.append((case.name, case.kind, loaded_as, verdict, case.document))
    assert not disagreements, (
        f"{len(disagreements)} Ajv verdicts differ from Python's, e.g. {disagreements[:10]}"
    )
    counts: dict[str, list[int]] = {}
    for case in keyword_cases:
        counts.setdefault(case.name, [0, 0])[0 if case.valid else 1] += 1
    print(
        f"\nkeyword fixtures: {len(keyword_cases)} documents, Ajv agreed for all of them from "
        f"the bundle and the per-contract files (node {node_seconds:.1f}s) but "
        f"{len(multiple_of) // 2} that Ajv's own multipleOf decides otherwise (with an exact "
        f"one, all agree); valid/invalid per contract: {counts}"
    )
    assert set(counts) == set(index["contracts"])
    for name, (valid, invalid) in counts.items():
        assert valid >= 20, name
        assert invalid >= (10 if name == "ToolEvent" else 20), name


def test_generated_typescript_types_compile(node: str, export_dir: Path, tmp_path: Path) -> None:
    index = json.loads((export_dir / "index.json").read_text(encoding="utf-8"))
    usage = (TS / "usage.ts").read_text(encoding="utf-8")
    for agent, entry in index["agents"].items():
        assert re.search(rf"import type {{ {entry['contract']} }}", usage), (
            f"usage.ts builds no value of {entry['contract']} (agent {agent})"
        )
    started = time.perf_counter()
    written = json.loads(
        _run(
            [node, str(TS / "gen-types.mjs"), str(export_dir), str(tmp_path / "generated")],
            "json-schema-to-typescript",
        )
    )
    generate_seconds = time.perf_counter() - started
    assert {w["name"] for w in written} == set(index["contracts"])
    shutil.copy(TS / "usage.ts", tmp_path / "usage.ts")
    shutil.copy(TS / "tsconfig.json", tmp_path / "tsconfig.json")
    started = time.perf_counter()
    _run(
        [node, str(TS / "node_modules" / "typescript" / "bin" / "tsc"), "-p", str(tmp_path)], "tsc"
    )
    print(
        f"\njson-schema-to-typescript {generate_seconds:.1f}s for {len(written)} contracts, "
        f"tsc --noEmit {time.perf_counter() - started:.1f}s"
    )


def test_missing_node_fails_with_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda tool: None if tool == "node" else "/bin/npm")
    with pytest.raises(pytest.fail.Exception, match=r"node not found on PATH.*never skips"):
        ensure_node()


@pytest.mark.parametrize("step", [0.01, 0.1, 0.05, 0.0001, 0.125, 0.5])
def test_the_multiple_of_lint_is_right_about_ajv_and_jsonschema(node: str, step: float) -> None:
    """MULTIPLE_OF_BINARY's claim, checked: for a decimal step it names a multiple that Ajv and
    python-jsonschema refuse; for a binary step, they accept all of the first multiples."""
    from decimal import Decimal
    from fractions import Fraction

    import jsonschema

    from codegen.lint.portable import binary_disagreement

    draft = "https://json-schema.org/draft/2020-12/schema"
    schema = {"$schema": draft, "type": "number", "multipleOf": step}
    example = binary_disagreement(step)
    exact = Decimal(repr(step))
    documents = [float(exact * k) for k in range(1, 101)] if example is None else [float(example)]
    if example is not None:  # a multiple by the schema's exact arithmetic
        assert (Fraction(Decimal(example)) / Fraction(exact)).denominator == 1
    script = (
        "const Ajv2020 = require(process.argv[1] + '/node_modules/ajv/dist/2020.js').default;"
        "const [schema, documents] = JSON.parse(process.argv[2]);"
        "const check = new Ajv2020({ strict: true }).compile(schema);"
        "console.log(JSON.stringify(documents.map((d) => check(d))));"
    )
    payload = json.dumps([schema, documents])
    ajv = json.loads(_run([node, "-e", script, str(TS), payload], "Ajv multipleOf"))
    python = [jsonschema.Draft202012Validator(schema).is_valid(d) for d in documents]
    assert ajv == python == [example is None] * len(documents)


def test_wider_types_hold_every_valid_document(node: str, tmp_path: Path) -> None:
    """The types a property takes from its branches, and a map's, hold the documents the
    schema accepts (tsc --strict compiles them)."""
    validator = jsonschema.Draft202012Validator({"title": "A", **WIDER})
    assert all(validator.is_valid(d) for d in WIDER_VALID)
    text = declarations(tmp_path, {"a.json": {"title": "A", **WIDER}})["a.json"]
    (tmp_path / "a.d.ts").write_text(text, encoding="utf-8")
    lines = ['import type { A } from "./a.js";']
    lines += [f"export const d{n}: A = {json.dumps(d)};" for n, d in enumerate(WIDER_VALID)]
    (tmp_path / "documents.ts").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = json.loads((TS / "tsconfig.json").read_text(encoding="utf-8"))
    config["files"] = ["documents.ts"]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    _run(
        [node, str(TS / "node_modules" / "typescript" / "bin" / "tsc"), "-p", str(tmp_path)], "tsc"
    )
