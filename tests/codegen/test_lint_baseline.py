"""``maverick-codegen lint --baseline FILE``: today's findings recorded, only new ones fail.

A finding is recorded by file, rule, JSON pointer and message, so edits that move lines keep it
recorded; a recorded finding that disappears is dropped when the file is rewritten; the file is
stable JSON (the same findings give the same bytes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run

BASE = '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'


def write(path: Path, data: object, indent: int = 2) -> None:
    path.write_text(json.dumps(data, indent=indent) + "\n")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "pyproject.toml").write_text(BASE)
    order = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Order",
        "type": "object",
        "properties": {
            "sku": {"type": "string", "x-internal": True},
            "count": {"type": "integer", "minimun": 1},
        },
    }
    write(tmp_path / "schemas/order.json", order)
    return tmp_path


def test_a_baseline_records_then_fails_only_on_new_findings(project: Path) -> None:
    baseline = project / "lint-baseline.json"
    code, out = run(project, "lint")
    assert code == 1
    code, out = run(project, "lint", "--baseline", str(baseline))
    assert code == 0
    assert out == (
        f"recorded 2 lint findings of schemas/ in {baseline}: from now on, lint --baseline "
        f"{baseline} fails only on new ones\n"
    )
    recorded = json.loads(baseline.read_text())
    assert recorded["format"] == 1
    assert [(e["path"], e["rule"], e["pointer"]) for e in recorded["findings"]] == [
        ("schemas/order.json", "SUPPORTED_CONSTRUCT", "/properties/count/minimun"),
        ("schemas/order.json", "SUPPORTED_CONSTRUCT", "/properties/sku/x-internal"),
    ]
    first = baseline.read_bytes()

    # Lines move (another layout, a property above): both findings are still recorded.
    order = json.loads((project / "schemas/order.json").read_text())
    order["properties"] = {"id": {"type": "string"}, **order["properties"]}
    write(project / "schemas/order.json", order, indent=4)
    code, out = run(project, "lint", "--baseline", str(baseline))
    assert (code, out) == (0, f"no new lint findings in schemas/ (2 recorded in {baseline})\n")
    assert baseline.read_bytes() == first  # nothing gone: not rewritten

    # A new finding fails, alone; in JSON too.
    order["properties"]["id"]["maxlength"] = 3
    write(project / "schemas/order.json", order)
    code, out = run(project, "lint", "--baseline", str(baseline))
    assert code == 1
    assert out.splitlines()[0] == (
        "schemas/order.json:8:7: 'maxlength' is not a keyword of draft-07: generate ignores "
        "it; did you mean 'maxLength'? (SUPPORTED_CONSTRUCT)"
    )
    assert out.splitlines()[1].startswith(
        f"1 new lint findings in schemas/ (2 recorded in {baseline}): fix each as it says, or "
        "turn its rule off"
    )
    code, out = run(project, "lint", "--baseline", str(baseline), "--format", "json")
    assert code == 1
    assert [f["pointer"] for f in json.loads(out)] == ["/properties/id/maxlength"]

    # A recorded finding fixed: dropped from the baseline; the new one is not added.
    del order["properties"]["sku"]["x-internal"]
    write(project / "schemas/order.json", order)
    code, out = run(project, "lint", "--baseline", str(baseline))
    assert code == 1
    assert f"(1 recorded in {baseline}; 1 fixed since, dropped from it)" in out
    kept = json.loads(baseline.read_text())["findings"]
    assert [e["pointer"] for e in kept] == ["/properties/count/minimun"]

    # The same findings give the same bytes: delete and record again.
    baseline.unlink()
    assert run(project, "lint", "--baseline", str(baseline))[0] == 0
    again = baseline.read_bytes()
    baseline.unlink()
    assert run(project, "lint", "--baseline", str(baseline))[0] == 0
    assert baseline.read_bytes() == again


def test_a_finding_the_baseline_does_not_hold_is_new(project: Path) -> None:
    """An entry taken out of the baseline (by hand) makes its finding new again."""
    baseline = project / "lint-baseline.json"
    assert run(project, "lint", "--baseline", str(baseline))[0] == 0
    data = json.loads(baseline.read_text())
    data["findings"] = [e for e in data["findings"] if "x-internal" in e["pointer"]]
    baseline.write_text(json.dumps(data))
    code, out = run(project, "lint", "--baseline", str(baseline))
    assert code == 1
    assert "'minimun'" in out
    assert "'x-internal'" not in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read the lint baseline"),
        ('{"format": 2, "findings": []}', "not a lint baseline of format 1"),
        ('{"format": 1, "findings": [{"path": "a"}]}', "not a lint baseline of format 1"),
    ],
)
def test_a_file_that_is_not_a_baseline_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    baseline = project / "lint-baseline.json"
    baseline.write_text(content)
    code, _ = run(project, "lint", "--baseline", str(baseline))
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{baseline}:1:1: {message}")
    assert "delete it to record the findings anew" in err
    assert err.rstrip().endswith("(BASELINE)")
    assert baseline.read_text() == content  # untouched


def test_a_baseline_inside_the_schema_folder_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = project / "schemas/lint-baseline.json"
    code, _ = run(project, "lint", "--baseline", str(baseline))
    assert code == 2
    assert "is inside schema_dir, where it would be read as a schema" in capsys.readouterr().err
    assert not baseline.exists()
