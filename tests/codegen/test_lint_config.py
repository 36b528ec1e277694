"""``[tool.maverick-codegen.lint]``: ``use``, ``except`` and ``ignore`` with buf's meaning.

Every mistake in the configuration is an error (exit 2) naming the file, the line and the key,
never ignored; ``maverick-codegen rules`` shows which rules are on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.lint.table import LINT_RULES
from tests.conftest import REPO, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lint"
BASE = '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'


def project(tmp_path: Path, lint_table: str) -> Path:
    """Two schemas: ``docs/note.json`` lacks a property description and is laid out badly;
    ``other/memo.json`` only lacks the description."""
    note = (FIXTURES / "DESCRIPTION_PROPERTY" / "fail" / "note.json").read_text()
    (tmp_path / "schemas/docs").mkdir(parents=True)
    (tmp_path / "schemas/other").mkdir()
    (tmp_path / "schemas/docs/note.json").write_text(
        note.replace("schemas/note.json", "schemas/docs/note.json").replace(
            '  "title"', '   "title"'
        )
    )
    memo = note.replace("schemas/note.json", "schemas/other/memo.json").replace("Note", "Memo")
    (tmp_path / "schemas/other/memo.json").write_text(memo.replace("Level", "Grade"))
    (tmp_path / "pyproject.toml").write_text(BASE + lint_table)
    return tmp_path


def rules_found(root: Path) -> list[str]:
    code, out = run(root, "lint", "--format", "json")
    assert code in (0, 1), out
    return sorted({f"{f['path']} {f['rule']}" for f in json.loads(out)})


DOCS = "schemas/docs/note.json"
OTHER = "schemas/other/memo.json"


def test_without_configuration_every_rule_but_the_house_rules_is_on(tmp_path: Path) -> None:
    """A description and the layout are house rules: a new project does not get them."""
    root = project(tmp_path, "")
    assert rules_found(root) == []
    code, out = run(root, "lint")
    assert code == 0
    house = sum(rule.house for rule in LINT_RULES)
    assert out == (
        f"2 schema files in schemas/ pass {len(LINT_RULES) - house} lint rules ({house} off: "
        "HOUSE)\n"
    )
    code, out = run(root, "rules", "--format", "json")
    off = [row["id"] for row in json.loads(out)["lint"] if not row["on"]]
    assert off == [rule.id for rule in LINT_RULES if rule.house]
    (root / "pyproject.toml").write_text(
        BASE + '[tool.maverick-codegen.lint]\nuse = ["default", "house"]\n'
    )
    found = rules_found(root)
    assert f"{DOCS} JSON_FORMATTED" in found
    assert f"{DOCS} DESCRIPTION_PROPERTY" in found
    assert f"{OTHER} DESCRIPTION_PROPERTY" in found


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('use = ["STYLE"]', [f"{DOCS} JSON_FORMATTED"]),
        ('use = ["json_formatted", "DOCS"]', None),
        ('except = ["DOCS"]', [f"{DOCS} JSON_FORMATTED"]),
        ('use = ["DOCS", "STYLE"]\nexcept = ["DESCRIPTION_PROPERTY"]', [f"{DOCS} JSON_FORMATTED"]),
        ('ignore = ["schemas/docs"]', [f"{OTHER} DESCRIPTION_PROPERTY"]),
        ('ignore = ["schemas/other/memo.json", "schemas/docs/"]', []),
        (
            'ignore = [{"schemas/docs" = ["DOCS"]}]',
            [f"{DOCS} JSON_FORMATTED", f"{OTHER} DESCRIPTION_PROPERTY"],
        ),
        (
            'ignore = [{"schemas" = ["JSON_FORMATTED"]}, {"schemas/other" = ["DOCS"]}]',
            [f"{DOCS} DESCRIPTION_PROPERTY"],
        ),
    ],
)
def test_use_except_and_ignore_select_findings(
    tmp_path: Path, table: str, expected: list[str] | None
) -> None:
    if "use" not in table:  # every rule: the house rules are the ones these tables select
        table = f'use = ["DEFAULT", "HOUSE"]\n{table}'
    found = rules_found(project(tmp_path, f"[tool.maverick-codegen.lint]\n{table}\n"))
    if expected is None:  # rule ids in any case, and categories, add up
        expected = [f"{DOCS} DESCRIPTION_PROPERTY", f"{DOCS} JSON_FORMATTED"]
        expected.append(f"{OTHER} DESCRIPTION_PROPERTY")
    assert found == sorted(expected)


def test_the_summary_says_how_many_rules_ran(tmp_path: Path) -> None:
    root = project(tmp_path, '[tool.maverick-codegen.lint]\nuse = ["IDENTITY"]\n')
    code, out = run(root, "lint")
    identity = sum(rule.category == "IDENTITY" for rule in LINT_RULES)
    assert code == 0, out
    assert out.endswith(f"pass {identity} lint rules ({len(LINT_RULES) - identity} off)\n")


@pytest.mark.parametrize(
    ("table", "where", "message"),
    [
        ('use = ["STYLE", "NO_SUCH_RULE"]', "6:17", "use: unknown rule or category 'NO_SUCH_RULE'"),
        ('use = ["STYLE"]\nexcept = [\n  "DOCZ",\n]', "8:3", "except: unknown rule or category"),
        ('ignore = [{"schemas/docs" = ["NOPE"]}]', "6:30", "ignore: unknown rule or category"),
        ('ignore = ["schemas/gone"]', "6:11", "ignore: schemas/gone does not exist"),
        ('ignore = ["pyproject.toml"]', "6:11", "ignore: pyproject.toml is not inside schema_dir"),
        ('ignore_only = {KEY_ORDER = ["schemas"]}', "6:1", "has no key 'ignore_only'"),
        ('use = "STYLE"', "6:1", "use must be a list of rule ids and categories"),
        ("ignore = [1]", "6:1", "ignore holds paths, or tables of path = [rule ids]"),
        ('use = ["STYLE"]\nexcept = ["STYLE"]', "6:1", "use and except leave no rule on"),
    ],
)
def test_a_mistake_in_the_configuration_is_an_error_naming_file_place_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, where: str, message: str
) -> None:
    root = project(tmp_path, f"[tool.maverick-codegen.lint]\n{table}\n")
    for command in ("lint", "rules"):
        code, out = run(root, command)
        err = capsys.readouterr().err
        assert code == 2, out
        assert err.startswith(f"{root / 'pyproject.toml'}:{where}: [tool.maverick-codegen.lint] ")
        assert message in err
        assert err.rstrip().endswith("(CONFIG)")
        assert "Traceback" not in err


def test_an_unknown_breaking_category_names_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(
        tmp_path, '[tool.maverick-codegen.breaking]\nuse = [\n  "CODEGEN", "DATA_SIDEWAYS"]\n'
    )
    code, _ = run(root, "rules")
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{root / 'pyproject.toml'}:7:14: [tool.maverick-codegen.breaking] use: ")
    assert "'DATA_SIDEWAYS'" in err


def test_rules_shows_which_rules_are_on(tmp_path: Path) -> None:
    table = (
        'use = ["STYLE", "DOCS"]\nexcept = ["KEY_ORDER"]\nignore = [{"schemas/docs" = ["DOCS"]}]'
    )
    root = project(tmp_path, f"[tool.maverick-codegen.lint]\n{table}\n")
    code, out = run(root, "rules", "--format", "json")
    assert code == 0
    lint = {row["id"]: row for row in json.loads(out)["lint"]}
    on = sorted(rule for rule, row in lint.items() if row["on"])
    assert on == sorted([r.id for r in LINT_RULES if r.category == "DOCS"] + ["JSON_FORMATTED"])
    assert lint["DESCRIPTION_PROPERTY"]["ignored_in"] == ["schemas/docs"]
    assert lint["JSON_FORMATTED"]["ignored_in"] == []
    breaking = {row["id"]: row["on"] for row in json.loads(out)["breaking"]}
    assert breaking["PROPERTY_DELETED"] is True  # the default policy: no breaking table here
    assert breaking["TYPE_WIDENED"] is False
    code, out = run(root, "rules")
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "  off  " in lines["KEY_ORDER"]
    assert " on, not in schemas/docs " in lines["DESCRIPTION_PROPERTY"]


def test_this_project_turns_every_lint_rule_on() -> None:
    code, out = run(REPO, "rules", "--format", "json")
    assert code == 0
    assert all(row["on"] and not row["ignored_in"] for row in json.loads(out)["lint"])
