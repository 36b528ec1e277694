"""The npm package of a project that asserts formats judges the suite's format tests as the
models do.

Every group of the JSON-Schema-Test-Suite's optional format tests (draft-07 and 2020-12) whose
format the package asserts becomes a contract of one project with ``formats = "assert"`` and an
npm package; the package's ``validate`` (Ajv with ajv-formats, and the models' grammars where
ajv-formats decides otherwise) must judge every case as the suite does, which is how the models
judge them (``tests/test_json_schema_formats.py``). A format the package cannot assert as the
models do is refused for the package (``AJV_FORMAT``), never passed. ajv-formats alone, in its
"fast" and "full" modes, is measured on the same cases and printed (``pytest -s``): the formats
the package leaves to it agree with the suite on every case.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
from collections import Counter
from pathlib import Path

from codegen.cli import main
from codegen.core.formats import ASSERTED
from codegen.generate.consumers.ajv_limits import NOT_IN_AJV
from tests import _suite
from tests.consumers.test_typescript import TS, ensure_node

FOLDERS = ("draft7/optional/format", "draft2020-12/optional/format")
LEFT_TO_AJV_FORMATS = ("date", "time", "ipv4", "ipv6")  # as validate.js says


def _project(root: Path, groups: list[_suite.Group]) -> None:
    for group in groups:
        path = root / "schemas" / group.tag / f"{group.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        contract = group.contract() | {
            "title": f"{group.title}{group.tag.title().replace('_', '')}"
        }
        contract["$id"] = f"https://suite.example/{group.tag}/{group.name}.json"
        path.write_text(json.dumps(contract), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/fmt"\n'
        'package = "fmt"\nexport_dir = "export"\nformats = "assert"\n\n'
        '[tool.maverick-codegen.export]\nname = "fmt"\nversion = "0.0.0"\nnpm_dir = "npm"\n',
        encoding="utf-8",
    )


def test_the_npm_package_asserts_formats_as_the_models_do(tmp_path: Path) -> None:
    node = ensure_node()
    found = [g for folder in FOLDERS for g in _suite.groups(folder=folder)]
    asserted = [g for g in found if g.schema["format"] in ASSERTED - NOT_IN_AJV]
    _project(tmp_path, asserted)
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        code = main(["--config", str(tmp_path / "pyproject.toml"), "generate"], io.StringIO())
    assert code == 0, out.getvalue()
    package = json.loads((tmp_path / "npm" / "package.json").read_text())
    assert set(package["dependencies"]) == {"ajv", "ajv-formats"}
    os.symlink(TS / "node_modules", tmp_path / "node_modules")  # ajv and ajv-formats
    cases = [
        {
            "contract": f"{g.title}{g.tag.title().replace('_', '')}",
            "format": g.schema["format"],
            "data": case.data,
            "valid": case.valid,
        }
        for g in asserted
        for case in g.cases
    ]
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run(
        [node, str(TS / "format-verdicts.mjs"), str(tmp_path / "npm" / "validate.js"),
         str(tmp_path / "cases.json")],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    verdicts = json.loads(done.stdout)
    wrong = [
        f"{c['format']}: {json.dumps(c['data'])[:80]} (the suite says {c['valid']})"
        for c, verdict in zip(cases, verdicts["package"], strict=True)
        if verdict != c["valid"]
    ]
    assert wrong == [], "\n".join(wrong)
    print(
        f"\nnpm package, formats = assert: {len(cases)} cases of {sum(len(g.cases) for g in found)}"
        f" judged, 0 disagreements (refused for the package: {', '.join(sorted(NOT_IN_AJV))})"
    )
    for mode in ("fast", "full"):
        disagree: Counter[str] = Counter()
        for c, verdict in zip(cases, verdicts[mode], strict=True):
            if verdict is None or verdict != c["valid"]:
                disagree[c["format"]] += 1
        print(
            f"ajv-formats alone ({mode}): {sum(disagree.values())} of {len(cases)} cases "
            f"otherwise than the suite (unknown formats counted): {dict(sorted(disagree.items()))}"
        )
        if mode == "full":
            assert not any(disagree[f] for f in LEFT_TO_AJV_FORMATS), disagree


def test_a_format_the_package_cannot_assert_is_refused_for_it(tmp_path: Path) -> None:
    group = next(g for g in _suite.groups(folder=FOLDERS[1]) if g.keyword == "hostname")
    _project(tmp_path, [group])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["--config", str(tmp_path / "pyproject.toml"), "generate"], io.StringIO())
    assert code == 2
    assert "(AJV_FORMAT)" in err.getvalue()
    assert "cannot assert format 'hostname'" in err.getvalue()
    assert " at /format" in err.getvalue()
