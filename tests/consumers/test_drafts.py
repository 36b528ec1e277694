"""The export and the npm package of a project in each draft, as consumers use them.

Each project of ``tests/fixtures/drafts/`` (draft-07, draft-04, 2019-09 with
``$recursiveRef``, 2020-12 with ``$dynamicRef`` and documents reached by URL) is generated
(:mod:`tests._drafts`), its npm package packed and installed in a scratch project beside Ajv,
and every document the generated models judge (:func:`tests._drafts.documents`) is judged
again by: python-jsonschema on the export's bundle, the package's ``validate``, Ajv2020 on the
export's bundle, and for an agent contract draft-07 Ajv on its structured-output form. Every
verdict must be the model's, but where JavaScript cannot tell: draft-04's ``integer`` refuses
``1.0``, which ``JSON.parse`` reads as ``1`` (docs/consumers.md, "What JavaScript cannot decide
exactly"), so a document of a draft-04 project may differ only where the model, given the
document with every integral float written as an integer, gives the other verdict too.
``tsc --strict`` compiles every valid document typed as its contract, and refuses
``drafts/wrong.ts`` on exactly the lines marked "refused".
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter
from referencing import Registry, Resource

from codegen.core.loader import DRAFT_2020_12, iter_subschemas
from tests._conformance import judge
from tests._drafts import Document, Project, documents, generated_projects
from tests._drafts import integral_floats_as_integers as as_integers
from tests.consumers.test_typescript import TS, ensure_node

HERE = Path(__file__).resolve().parent / "drafts"
TSC = TS / "node_modules" / "typescript" / "bin" / "tsc"
# Keywords the export never writes: each draft's own spelling, and dynamic references.
NOT_2020_12 = {"definitions", "dependencies", "additionalItems", "id", "$recursiveRef",
               "$recursiveAnchor", "$dynamicRef", "$dynamicAnchor"}  # fmt: skip


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Project]]:
    with generated_projects(tmp_path_factory.mktemp("drafts")) as found:
        yield found


@pytest.fixture(scope="module")
def cases(projects: dict[str, Project]) -> list[Document]:
    return documents(projects)


def _run(command: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({' '.join(command)}):\n{done.stdout}\n{done.stderr}")
    return done


@pytest.fixture(scope="module")
def scratch(projects: dict[str, Project], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch project with every draft project's npm package installed (and Ajv)."""
    ensure_node()
    npm = shutil.which("npm")
    assert npm is not None
    work = tmp_path_factory.mktemp("drafts-npm")
    tarballs = []
    for project in projects.values():
        done = _run([npm, "pack", "--json", "--pack-destination", str(work),
                     str(project.root / "npm")], work, f"npm pack {project.name}")  # fmt: skip
        tarballs.append(str(work / json.loads(done.stdout)[0]["filename"]))
    root = work / "scratch"
    root.mkdir()
    (root / "package.json").write_text(
        json.dumps({"name": "scratch", "version": "0.0.0", "private": True, "type": "module"})
    )
    ajv = json.loads((TS / "package.json").read_text())["devDependencies"]["ajv"]
    _run([npm, "install", "--prefer-offline", "--no-audit", "--no-fund", *tarballs,
          f"ajv@{ajv}"], root, "npm install")  # fmt: skip
    return root


def _index(project: Project) -> dict[str, Any]:
    return json.loads((project.root / "export" / "index.json").read_text(encoding="utf-8"))


def _explained(case: Document, verdict: bool, projects: dict[str, Project]) -> bool:
    """Whether a verdict other than the model's is draft-04's ``1.0``, which JavaScript (and
    python-jsonschema reading draft 2020-12) cannot tell from ``1``."""
    if case.project != "draft04":
        return False
    model = projects[case.project].contracts[case.contract].model
    return judge(TypeAdapter(model), as_integers(case.document)).from_json is verdict


def test_every_document_is_exported_in_draft_2020_12(projects: dict[str, Project]) -> None:
    for project in projects.values():
        export, index = project.root / "export", _index(project)
        ids = set()
        for path in sorted((export / "schemas").rglob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            assert document["$schema"] == DRAFT_2020_12, path
            ids.add(document["$id"])
            for pointer, node in iter_subschemas(document):
                assert not NOT_2020_12 & set(node), (path, pointer)
                assert pointer == "" or not {"$id", "$schema"} & set(node), (path, pointer)
        bundle = json.loads((export / "bundle.json").read_text(encoding="utf-8"))
        assert set(bundle["$defs"]) == ids
        assert {c["$id"] for c in index["contracts"].values()} <= ids
        package = project.root / "npm" / "schemas"
        assert sorted(p.relative_to(package) for p in package.rglob("*.json")) == sorted(
            p.relative_to(export / "schemas") for p in (export / "schemas").rglob("*.json")
        )
    external = _index(projects["draft2020"])["external"]
    assert sorted(external) == [
        "http://localhost:1234/geo.json",
        "http://localhost:1234/money.json",
    ]
    for entry in external.values():
        assert entry["$id"].startswith("https://maverick-codegen.invalid/draft2020_contracts/")
        assert (projects["draft2020"].root / "export" / entry["file"]).is_file()


def test_python_jsonschema_judges_the_export_as_the_models_do(
    projects: dict[str, Project], cases: list[Document]
) -> None:
    validators = {}
    for project in projects.values():
        bundle = json.loads((project.root / "export" / "bundle.json").read_text())
        registry: Registry[Any] = (
            Registry().with_resource("urn:bundle", Resource.from_contents(bundle)).crawl()
        )
        for name, entry in _index(project)["contracts"].items():
            validators[project.name, name] = Draft202012Validator(
                {"$ref": entry["$id"]}, registry=registry
            )
    differ = [c for c in cases if validators[c.project, c.contract].is_valid(c.document) != c.valid]
    unexplained = [c for c in differ if not _explained(c, not c.valid, projects)]
    assert not unexplained, unexplained[:5]
    print(f"\npython-jsonschema on the bundles: {len(cases)} documents, {len(differ)} differ, "
          "each a draft-04 integer written 1.0")  # fmt: skip


def test_ajv_judges_every_document_as_the_models_do(
    projects: dict[str, Project], cases: list[Document], scratch: Path
) -> None:
    payload: dict[str, Any] = {"exports": {}, "cases": []}
    for project in projects.values():
        payload["exports"][project.npm_name] = str(project.root / "export")
    indexes = {p.name: _index(p) for p in projects.values()}
    for case in cases:
        entry = indexes[case.project]["contracts"][case.contract]
        payload["cases"].append(
            {"package": projects[case.project].npm_name, "contract": case.contract,
             "id": entry["$id"], "structured": entry.get("structured_output"),
             "document": case.document}
        )  # fmt: skip
    (scratch / "cases.json").write_text(json.dumps(payload))
    shutil.copy(HERE / "verdicts.mjs", scratch / "verdicts.mjs")
    started = time.perf_counter()
    done = _run([ensure_node(), "verdicts.mjs", "cases.json"], scratch, "Ajv verdicts")
    report = json.loads(done.stdout)
    assert report["warnings"] == []
    explained = {"npm": 0, "bundle": 0}
    for case, verdict in zip(cases, report["verdicts"], strict=True):
        for way in ("npm", "bundle"):
            if verdict[way] != case.valid:
                assert _explained(case, verdict[way], projects), (way, case)
                explained[way] += 1
        if verdict["structured"] is not None and case.valid:
            assert verdict["structured"], ("the structured form is stricter", case)
    for name in projects:
        mine = [c for c in cases if c.project == name]
        valid = sum(c.valid for c in mine)
        print(f"\n{name}: {len(mine)} documents of {len({c.contract for c in mine})} contracts, "
              f"{valid} valid, {len(mine) - valid} invalid")  # fmt: skip
    print(f"Ajv (npm validate, bundle): 0 disagreements but {explained} draft-04 integers "
          f"written 1.0; node {time.perf_counter() - started:.1f}s")  # fmt: skip
    for project in projects.values():
        for name in project.contracts:
            verdicts = {c.valid for c in cases if (c.project, c.contract) == (project.name, name)}
            assert verdicts == {True, False}, (project.name, name)
    assert explained["npm"] > 0  # the draft-04 documents written 1.0 are among them


def _tsc(root: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    config = {
        "compilerOptions": {"strict": True, "noEmit": True, "target": "es2022",
                            "module": "nodenext", "moduleResolution": "nodenext", "types": [],
                            "skipLibCheck": False},
        "files": files,
    }  # fmt: skip
    (root / "tsconfig.json").write_text(json.dumps(config, indent=2))
    return subprocess.run([ensure_node(), str(TSC), "-p", str(root)], cwd=root,
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_tsc_strict_types_every_valid_document_and_refuses_wrong_ones(
    projects: dict[str, Project], cases: list[Document], scratch: Path
) -> None:
    spaces = {name: f"P{number}" for number, name in enumerate(projects)}
    lines = [f'import type * as {spaces[p.name]} from "{p.npm_name}";' for p in projects.values()]
    typed = [c for c in cases if c.valid]
    for number, case in enumerate(typed):
        lines.append(f"export const d{number}: {spaces[case.project]}.{case.contract} = "
                     f"{json.dumps(case.document)};")  # fmt: skip
    (scratch / "documents.ts").write_text("\n".join(lines) + "\n")
    done = _tsc(scratch, ["documents.ts"])
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.copy(HERE / "wrong.ts", scratch / "wrong.ts")
    text = (HERE / "wrong.ts").read_text()
    marked = {n for n, line in enumerate(text.splitlines(), 1) if "// refused" in line}
    done = _tsc(scratch, ["wrong.ts"])
    reported = {int(m[1]) for m in re.finditer(r"wrong\.ts\((\d+),\d+\): error TS\d+", done.stdout)}
    assert reported == marked, done.stdout
    print(f"\ntsc --strict: {len(typed)} valid documents typed as their contracts")
