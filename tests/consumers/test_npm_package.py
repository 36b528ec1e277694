"""The npm packages as a TypeScript consumer uses them: packed, installed, compiled, run.

``maverick-codegen export --npm`` writes this project's package (byte for byte what ``generate``
commits to ``npm/``) and ``generate`` the keyword fixtures' (``tests/fixtures/keywords/``).
Both are packed with ``npm pack`` and installed from their tarballs into a scratch project
(``npm install --prefer-offline``: Ajv comes from npm's cache, filled by the TypeScript
consumer's ``npm ci``, or from the registry; nothing else is fetched). Then:

* ``tsc --strict`` (the TypeScript consumer's compiler, checking the packages' declarations
  too) compiles ``npm/usage.ts`` and ``documents.ts``, which types every valid conformance
  document of every contract of both packages as its contract;
* ``tsc`` refuses ``npm/wrong.ts``, on exactly the lines marked "refused";
* node judges every conformance document (those ``tests/test_conformance.py`` and
  ``tests/test_conformance_keywords.py`` judge, and :data:`MULTIPLE_OF`) with the packages'
  ``validate``: the verdicts must be the generated Python models', and each error's JSON
  pointer must name the value refused (or, for a missing property, the place it is missing
  from).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from codegen.core.jsonpos import resolve_pointer
from maverick.contracts import CONTRACTS
from tests._conformance import judge
from tests._project_cases import EDGE_CASES, drawn
from tests.conftest import REPO, run
from tests.consumers.test_typescript import TS, ensure_node

HERE = Path(__file__).resolve().parent / "npm"
TSC = TS / "node_modules" / "typescript" / "bin" / "tsc"
PROJECT, KEYWORDS = "maverick-contracts", "keyword-contracts"


@dataclass(frozen=True)
class Installed:
    """The scratch project with both packages installed, and what packing them gave."""

    root: Path
    packed: dict[str, dict[str, Any]]  # package -> npm pack --json's report


def _run(command: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"{what} failed ({' '.join(command)}):\n{done.stdout}\n{done.stderr}")
    return done


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.fixture(scope="module")
def installed(keyword_project: Any, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    ensure_node()
    npm = shutil.which("npm")
    assert npm is not None
    work = tmp_path_factory.mktemp("npm-consumer")
    started = time.perf_counter()
    code, out = run(REPO, "export", "--npm", str(work / "package"))
    assert code == 0, out
    print(f"\nexport --npm: {time.perf_counter() - started:.1f}s; {out.splitlines()[-1]}")
    # The same inputs give the same bytes: what generate committed is what export --npm writes.
    assert _files(work / "package") == _files(REPO / "npm")
    packed = {}
    for name, folder in ((PROJECT, work / "package"), (KEYWORDS, keyword_project.root / "npm")):
        done = _run([npm, "pack", "--json", "--pack-destination", str(work), str(folder)], work,
                    f"npm pack {name}")  # fmt: skip
        packed[name] = json.loads(done.stdout)[0]
    scratch = work / "scratch"
    scratch.mkdir()
    (scratch / "package.json").write_text(
        json.dumps({"name": "scratch", "version": "0.0.0", "private": True, "type": "module"})
    )
    ajv = json.loads((TS / "package.json").read_text())["devDependencies"]["ajv"]
    tarballs = [str(work / report["filename"]) for report in packed.values()]
    started = time.perf_counter()
    _run([npm, "install", "--prefer-offline", "--no-audit", "--no-fund", *tarballs,
          f"ajv@{ajv}"], scratch, "npm install")  # fmt: skip
    print(f"npm install of both tarballs: {time.perf_counter() - started:.1f}s")
    return Installed(scratch, packed)


def test_the_tarball_holds_the_manifest_and_depends_on_ajv(installed: Installed) -> None:
    report = installed.packed[PROJECT]
    manifest = json.loads((REPO / "npm" / "maverick-codegen.json").read_text())
    assert sorted(f["path"] for f in report["files"]) == manifest["files"]
    package = json.loads((installed.root / "node_modules" / PROJECT / "package.json").read_text())
    assert package["dependencies"] == {"ajv": "^8.20.0"}
    pinned = json.loads((TS / "package.json").read_text())["devDependencies"]["ajv"]
    match = re.fullmatch(r"8\.(\d+)\.\d+", pinned)  # the consumer's Ajv is in the range
    assert match is not None, pinned
    assert int(match[1]) >= 20, pinned
    print(
        f"\n{PROJECT} {report['version']}: {report['size']} bytes packed "
        f"({report['unpackedSize']} unpacked, {report['entryCount']} files)"
    )


def _project_documents() -> list[tuple[str, str, Any]]:
    """``(contract, kind, document)`` of every document tests/test_conformance.py judges."""
    found = [(name, kind, doc) for name in sorted(CONTRACTS) for kind, doc in drawn(name)]
    found += [(name, f"edge case: {why}", doc) for name, doc, _, why in EDGE_CASES]
    return found


_EDIT = {"kind": "edit", "path": "a.py", "lines": [1, 2]}
# multipleOf where Ajv's own division is wrong, and the package's exact one must not be: a
# quotient of 1e21 or more (Ajv reads it with parseInt), tiny and fractional steps.
MULTIPLE_OF = [
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 5.231520963471975e31}),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 1e300}),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 2**70}),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 60.25}),
    ("PatchPlan", {"steps": [_EDIT], "retry_after": 1e21 + 0.5}),
    ("TriageReport", {"ticket": "AB-1", "points": 3, "confidence": 0.375}),
    ("TriageReport", {"ticket": "AB-1", "points": 3, "confidence": 0.3}),
    ("TriageReport", {"ticket": "AB-1", "points": 3, "confidence": 1.25e-1}),
]


def _cases(keyword_project: Any, keyword_cases: list[Any]) -> list[dict[str, Any]]:
    """Every conformance document of both packages with the generated model's verdict."""
    cases = []
    adapters: dict[tuple[str, str], TypeAdapter[Any]] = {}
    documents = [(PROJECT, c, k, d) for c, k, d in _project_documents()]
    documents += [(KEYWORDS, c.name, c.kind, c.document) for c in keyword_cases]
    documents += [(KEYWORDS, name, "explicit: multipleOf", d) for name, d in MULTIPLE_OF]
    for package, contract, kind, document in documents:
        registry = CONTRACTS if package == PROJECT else keyword_project.contracts
        key = (package, contract)
        if key not in adapters:
            adapters[key] = TypeAdapter(registry[contract].model)
        verdict = judge(adapters[key], document).from_json
        cases.append({"package": package, "contract": contract, "kind": kind,
                      "document": document, "valid": verdict})  # fmt: skip
    return cases


@pytest.fixture(scope="module")
def cases(keyword_project: Any, keyword_cases: list[Any]) -> list[dict[str, Any]]:
    return _cases(keyword_project, keyword_cases)


def _tsc(root: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    config = {
        "compilerOptions": {
            "strict": True,
            "noEmit": True,
            "target": "es2022",
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "types": [],
            "skipLibCheck": False,  # the packages' declarations are checked too
            "noUnusedLocals": True,
        },
        "files": files,
    }
    (root / "tsconfig.json").write_text(json.dumps(config, indent=2))
    node = ensure_node()
    return subprocess.run([node, str(TSC), "-p", str(root)], cwd=root, capture_output=True,
                          text=True, check=False)  # fmt: skip


def test_tsc_strict_compiles_a_usage_file_and_every_valid_document(
    installed: Installed, cases: list[dict[str, Any]]
) -> None:
    shutil.copy(HERE / "usage.ts", installed.root / "usage.ts")
    lines = [
        f'import type * as P from "{PROJECT}";',
        f'import type * as K from "{KEYWORDS}";',
    ]
    typed = [c for c in cases if c["valid"]]
    for number, case in enumerate(typed):
        space = "P" if case["package"] == PROJECT else "K"
        lines.append(f"export const d{number}: {space}.{case['contract']} = "
                     f"{json.dumps(case['document'])};")  # fmt: skip
    (installed.root / "documents.ts").write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    done = _tsc(installed.root, ["usage.ts", "documents.ts"])
    assert done.returncode == 0, done.stdout + done.stderr
    contracts = {(c["package"], c["contract"]) for c in typed}
    assert len(contracts) == len(CONTRACTS) + 5, "a contract has no valid document"
    print(
        f"\ntsc --strict: usage.ts and {len(typed)} valid documents of {len(contracts)} contracts "
        f"typed as their contract, {time.perf_counter() - started:.1f}s"
    )


def test_tsc_refuses_a_wrongly_typed_usage_file(installed: Installed) -> None:
    shutil.copy(HERE / "wrong.ts", installed.root / "wrong.ts")
    text = (HERE / "wrong.ts").read_text()
    marked = {n for n, line in enumerate(text.splitlines(), 1) if "// refused" in line}
    done = _tsc(installed.root, ["wrong.ts"])
    assert done.returncode != 0
    reported = {int(m[1]) for m in re.finditer(r"wrong\.ts\((\d+),\d+\): error TS\d+", done.stdout)}
    assert reported == marked, done.stdout
    assert len(marked) == 11


def _resolves(document: Any, pointer: str) -> bool:
    try:
        resolve_pointer(document, pointer)
    except LookupError:
        return False
    return True


def _pointer_problem(document: Any, error: dict[str, str]) -> str | None:
    """Why an error's pointer does not name the refused value, or None when it does."""
    pointer, keyword = error["pointer"], error["keyword"]
    if pointer and not pointer.startswith("/"):
        return "not a JSON pointer"
    if keyword in ("required", "dependentRequired"):  # names the missing property
        parent = pointer.rpartition("/")[0]
        if not _resolves(document, parent) or _resolves(document, pointer):
            return "names no missing property"
        return None
    return None if _resolves(document, pointer) else "names no value of the document"


def test_validate_judges_every_conformance_document_as_the_python_models_do(
    installed: Installed, cases: list[dict[str, Any]]
) -> None:
    payload = [{k: c[k] for k in ("package", "contract", "document")} for c in cases]
    cases_file = installed.root / "cases.json"
    cases_file.write_text(json.dumps({"cases": payload}))
    shutil.copy(HERE / "verdicts.mjs", installed.root / "verdicts.mjs")
    started = time.perf_counter()
    done = _run([ensure_node(), "verdicts.mjs", str(cases_file)], installed.root, "validate")
    seconds = time.perf_counter() - started
    assert done.stderr == "", done.stderr  # Ajv strict mode logged nothing
    verdicts = json.loads(done.stdout)
    disagreements = [
        (c["package"], c["contract"], c["kind"], c["valid"], c["document"])
        for c, v in zip(cases, verdicts, strict=True)
        if v["valid"] != c["valid"]
    ]
    assert not disagreements, f"{len(disagreements)} disagree, e.g. {disagreements[:5]}"
    bad_pointers = [
        (c["contract"], e, problem, c["document"])
        for c, v in zip(cases, verdicts, strict=True)
        for e in v.get("errors", [])
        if (problem := _pointer_problem(c["document"], e)) is not None
    ]
    assert not bad_pointers, bad_pointers[:5]
    assert all(v["errors"] for v in verdicts if not v["valid"])
    for package in (PROJECT, KEYWORDS):
        mine = [c for c in cases if c["package"] == package]
        valid = sum(c["valid"] for c in mine)
        print(
            f"\n{package}: {len(mine)} documents of {len({c['contract'] for c in mine})} "
            f"contracts, {valid} valid and {len(mine) - valid} invalid: 0 disagreements"
        )
    print(f"node validate: {seconds:.1f}s for {len(cases)} documents")
    explicit = [c["valid"] for c in cases if c["kind"] == "explicit: multipleOf"]
    assert explicit == [True, True, True, False, True, True, False, True]
    for key in {(c["package"], c["contract"]) for c in cases}:  # both verdicts, every contract
        assert {c["valid"] for c in cases if (c["package"], c["contract"]) == key} == {True, False}
