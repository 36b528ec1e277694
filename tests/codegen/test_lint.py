"""``maverick-codegen lint``: every rule has fixtures that give exactly its verdict.

``tests/fixtures/lint/<RULE_ID>/pass/`` is a schema tree that lints clean (no finding of any
rule); ``fail/`` yields that rule, and ``expected.txt`` lists where (``path:line:col (RULE)``):
messages of the rules that reuse the generator's checks belong to those checks, so only
places are locked here. A fixture may name agents in ``agents.toml`` (``[agents]`` table).
``UPDATE_FIXTURES=1`` rewrites the expected files.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from codegen.cli import main
from codegen.core.report import Finding, render
from codegen.lint.runner import LintSelection, lint_tree
from codegen.lint.table import LINT_RULES
from tests.conftest import REPO, git, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lint"
RULE_IDS = [rule.id for rule in LINT_RULES]


def lint_fixture(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[Finding]:
    """The fixture's findings, paths relative to the rule's folder."""
    monkeypatch.chdir(folder.parent)
    agents_file = Path(folder.name) / "agents.toml"
    agents = tomllib.loads(agents_file.read_text())["agents"] if agents_file.exists() else {}
    return lint_tree(
        Path(folder.name),
        agents,
        config_path=agents_file,
        display_root=folder.name,
        selection=LintSelection(LINT_RULES),  # every rule, the house rules too
    )


def test_every_rule_has_fixtures_and_every_fixture_a_rule() -> None:
    assert len(RULE_IDS) == len(set(RULE_IDS))
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(RULE_IDS)
    for rule in RULE_IDS:
        for part in ("pass", "fail", "expected.txt"):
            assert (FIXTURES / rule / part).exists(), f"{rule}/{part} is missing"


@pytest.mark.parametrize("rule", RULE_IDS)
def test_pass_fixture_lints_clean(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert lint_fixture(FIXTURES / rule / "pass", monkeypatch) == []


@pytest.mark.parametrize("rule", RULE_IDS)
def test_fail_fixture_yields_its_rule(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    findings = lint_fixture(FIXTURES / rule / "fail", monkeypatch)
    mine = [f"{f.path}:{f.line}:{f.column} ({f.rule})" for f in findings if f.rule == rule]
    assert mine, f"{rule} did not fire: {render(findings, 'text')}"
    expected = FIXTURES / rule / "expected.txt"
    if os.environ.get("UPDATE_FIXTURES"):
        expected.write_text("\n".join(mine) + "\n")
    assert mine == expected.read_text().splitlines()


def test_real_schemas_lint_clean() -> None:
    out = io.StringIO()
    code = main(["--config", str(REPO / "pyproject.toml"), "lint"], out=out)
    assert code == 0, out.getvalue()
    assert f"pass {len(LINT_RULES)} lint rules" in out.getvalue()


def project(tmp_path: Path, rule: str, part: str) -> Path:
    """A project whose schema folder is a copy of a lint fixture."""
    shutil.copytree(FIXTURES / rule / part, tmp_path / "schemas")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
        '[tool.maverick-codegen.lint]\nuse = ["DEFAULT", "HOUSE"]\n'
    )
    return tmp_path


def test_every_finding_is_reported_not_just_the_first(tmp_path: Path) -> None:
    root = project(tmp_path, "SUPPORTED_CONSTRUCT", "fail")
    note = root / "schemas/note.json"
    data = json.loads(note.read_text())
    data["properties"]["text"].pop("description")
    data["properties"]["count"].pop("description")
    note.write_text(json.dumps(data, indent=2) + "\n")
    code, out = run(root, "lint")
    assert code == 1
    assert out.count("(SUPPORTED_CONSTRUCT)") == 2  # x-pattern and a typo (maxitems)
    assert out.count("(DESCRIPTION_PROPERTY)") == 2
    assert "schemas/note.json:11:7: 'x-pattern' is an extension keyword" in out
    assert "schemas/note.json:26:7: 'maxitems' is not a keyword of 2020-12" in out
    assert out.splitlines()[-1] == (
        f"4 lint findings in schemas/ from {len(LINT_RULES)} lint rules: fix each as it says, or "
        "turn its rule off ([tool.maverick-codegen.lint] except, or ignore for a path; "
        "maverick-codegen rules lists them), or record today's findings with --baseline FILE"
    )


def test_positions_survive_collecting_several_errors_of_one_list(tmp_path: Path) -> None:
    # The rule compiler stops at its first error; lint removes the entry and runs it again,
    # and must still report the later entry at its place in the original text.
    root = project(tmp_path, "SUPPORTED_RULE", "pass")
    note = root / "schemas/note.json"
    data = json.loads(note.read_text())
    data["allOf"][0]["then"]["anyOf"] = [{"pattern": "(a"}, {"type": "string"}, {"pattern": "[b"}]
    note.write_text(json.dumps(data, indent=2) + "\n")
    code, out = run(root, "lint")
    assert code == 1
    lines = note.read_text().splitlines()
    for source in ("(a", "[b"):
        line = next(i for i, text in enumerate(lines, 1) if f'"pattern": "{source}"' in text)
        assert f"schemas/note.json:{line}:13: invalid ECMA-262 regular expression {source!r}" in out


def test_json_and_github_formats(tmp_path: Path) -> None:
    root = project(tmp_path, "DESCRIPTION_PROPERTY", "fail")
    code, out = run(root, "lint", "--format", "json")
    assert code == 1
    [finding] = json.loads(out)
    assert finding["rule"] == "DESCRIPTION_PROPERTY"
    assert (finding["path"], finding["line"], finding["column"]) == ("schemas/note.json", 8, 5)
    assert finding["pointer"] == "/properties/text"
    assert finding["categories"] == ["DOCS", "HOUSE"]
    code, out = run(root, "lint", "--format", "github")
    assert code == 1
    assert out == (
        "::error file=schemas/note.json,line=8,col=5,title=DESCRIPTION_PROPERTY::"
        "property 'text' has no description: add one\n"
    )


def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path, "DRAFT_2020_12", "pass")
    (root / "schemas/broken.json").write_text('{"title": "Broken",,}\n')
    code, _ = run(root, "lint")
    assert code == 2
    assert "broken.json:1:20: malformed JSON" in capsys.readouterr().err


def test_lint_runs_first_in_make_test_and_in_the_hooks() -> None:
    makefile = (REPO / "Makefile").read_text()
    test_recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert test_recipe.splitlines()[1].strip() == "$(PY) -m codegen lint"
    assert "$(PY) -m codegen lint" in makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    local = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    hooks = {h["id"]: h for repo in local["repos"] for h in repo["hooks"]}
    assert hooks["maverick-codegen-lint"]["entry"] == ".venv/bin/python -m codegen lint"
    published = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"]: h["entry"] for h in published}["maverick-codegen-lint"] == (
        "maverick-codegen lint"
    )


def test_rules_lists_both_tables() -> None:
    code, out = run(REPO, "rules", "--format", "json")
    assert code == 0
    tables = json.loads(out)
    assert [row["id"] for row in tables["lint"]] == RULE_IDS
    assert all(row["purpose"] and row["categories"] for row in tables["lint"])
    assert {"PROPERTY_DELETED", "TYPE_NARROWED"} <= {row["id"] for row in tables["breaking"]}
    code, out = run(REPO, "rules")
    assert code == 0
    assert "lint rules:" in out
    assert "breaking rules:" in out


def test_examples_are_judged_with_ecma_262_patterns(tmp_path: Path) -> None:
    """\\p{Lu} is ECMA-262 (Python's re refuses it) and \\d is ASCII only there."""
    root = project(tmp_path, "EXAMPLES_VALID", "pass")
    note = next((root / "schemas").rglob("*.json"))
    data = json.loads(note.read_text())
    first = next(iter(data["properties"]))
    data["properties"][first] = {"type": "string", "pattern": "^\\p{Lu}\\d$",
                                 "description": "A code."}  # fmt: skip
    data["examples"] = [{**data["examples"][0], first: "É1"}]
    note.write_text(json.dumps(data, indent=2) + "\n")
    _, out = run(root, "lint", "--format", "json")
    assert not [f for f in json.loads(out) if f["rule"] == "EXAMPLES_VALID"], out
    data["examples"] = [{**data["examples"][0], first: "É\u0663"}]  # an Arabic-Indic digit
    note.write_text(json.dumps(data, indent=2) + "\n")
    code, out = run(root, "lint", "--format", "json")
    assert code == 1
    assert [f["rule"] for f in json.loads(out)].count("EXAMPLES_VALID") == 1


def test_examples_are_judged_with_exact_multiple_of(tmp_path: Path) -> None:
    """0.0003 is a multiple of 0.0001 as written (floating point says 2.9999999999999996)."""
    root = project(tmp_path, "EXAMPLES_VALID", "pass")
    note = next((root / "schemas").rglob("*.json"))
    data = json.loads(note.read_text())
    first = next(iter(data["properties"]))
    data["properties"][first] = {"type": "number", "multipleOf": 0.0001, "description": "A rate."}
    for value, valid in ((0.0003, True), (0.00035, False)):
        data["examples"] = [{**data["examples"][0], first: value}]
        note.write_text(json.dumps(data, indent=2) + "\n")
        _, out = run(root, "lint", "--format", "json")
        rules = [f["rule"] for f in json.loads(out)]
        assert rules.count("EXAMPLES_VALID") == (0 if valid else 1), out
        assert "MULTIPLE_OF_BINARY" in rules  # the step itself splits other consumers


def test_the_lint_hook_refuses_a_commit(tmp_path: Path) -> None:
    """This repository's hook, in a repository with this repository's policy (HOUSE on)."""
    root = project(tmp_path, "DESCRIPTION_PROPERTY", "pass")
    assert git(root, "init", "-q", "-b", "main").returncode == 0
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    hooks = [h for r in config["repos"] for h in r["hooks"] if h["id"] == "maverick-codegen-lint"]
    hooks[0]["entry"] = hooks[0]["entry"].replace(".venv/bin/python", sys.executable)
    (root / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]})
    )
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    assert pre_commit is not None
    subprocess.run([pre_commit, "install"], cwd=root, capture_output=True, check=True)
    note = root / "schemas/note.json"
    data = json.loads(note.read_text())
    data["properties"]["text"].pop("description")
    note.write_text(json.dumps(data, indent=2) + "\n")
    git(root, "add", "-A")
    refused = git(root, "commit", "-qm", "undocumented")
    assert refused.returncode != 0
    assert "property 'text' has no description: add one (DESCRIPTION_PROPERTY)" in (
        refused.stdout + refused.stderr
    )
