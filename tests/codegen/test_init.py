"""``maverick-codegen init [SCHEMA_DIR]``: a configuration for a folder of existing schemas.

On a folder of mixed drafts without ``$id``, with file names that are no module names: the
table it writes (and says it wrote), the draft most files name, the default lint selection,
and that the project then lints; an existing table is never changed.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.conftest import run

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Five schemas as people have them: three draft-07, one draft-04, one without $schema;
    no $id, titles that are no class names, dashes, dots and a leading digit in file names."""
    schemas = tmp_path / "contracts"
    (schemas / "v2").mkdir(parents=True)
    documents = {
        "compose-spec.json": {"$schema": D7, "title": "Compose Specification", "type": "object"},
        "1password.json": {"$schema": D7, "definitions": {"a": {"type": "string"}}},
        "v2/foo.v2.json": {"$schema": D7, "type": "array", "items": {"$ref": "../plain.json"}},
        "legacy.json": {"$schema": D4, "type": "number", "minimum": 0, "exclusiveMinimum": True},
        "plain.json": {"type": "string"},
    }
    for name, document in documents.items():
        (schemas / name).write_text(json.dumps(document, indent=2) + "\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "Acme-Shop"\nversion = "1.0"\n')
    return tmp_path


TABLE = """[tool.maverick-codegen]
schema_dir = "contracts"
output_dir = "acme_shop_contracts"
package = "acme_shop_contracts"
# the draft of 3 of the 5 files ($schema): files without one are read as this draft
default_draft = "draft-07"

# Every lint rule but maverick-contracts' house conventions (HOUSE: $schema 2020-12,
# $id mirroring the path, class-name titles, snake_case file names, descriptions,
# examples, the canonical layout); use = ["DEFAULT", "HOUSE"] turns them on too.
[tool.maverick-codegen.lint]
use = ["DEFAULT"]
"""


def test_init_writes_a_table_for_mixed_drafts_without_id(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(folder)
    code, out = run(folder, "init", "contracts")
    assert code == 0
    config = folder / "pyproject.toml"
    assert config.read_text() == f'[project]\nname = "Acme-Shop"\nversion = "1.0"\n\n{TABLE}'
    assert out == (
        f"wrote [tool.maverick-codegen] to {config}:\n\n{TABLE}\n5 schema files in contracts/ "
        "(1 draft-04, 3 draft-07, 1 without $schema); 5 without $id, known by their path. Next: "
        "maverick-codegen lint (--baseline FILE records today's findings, so that only new ones "
        "fail), then maverick-codegen generate.\n"
    )
    assert tomllib.loads(config.read_text())["project"]["name"] == "Acme-Shop"
    # The default lint (no house rule): none of these files breaks a rule.
    code, out = run(folder, "lint")
    assert (code, out.splitlines()[-1]) == (0, "5 schema files in contracts/ pass 22 lint rules "
                                               "(13 off: HOUSE)")  # fmt: skip


def test_init_refuses_to_change_an_existing_table(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(folder)
    assert run(folder, "init", "contracts")[0] == 0
    before = (folder / "pyproject.toml").read_text()
    code, _ = run(folder, "init", "contracts")
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{folder / 'pyproject.toml'}:5:1: pyproject.toml already has a ")
    assert "edit it (docs/configuration.md of maverick-contracts lists every key)" in err
    assert "or remove it and run init again" in err
    assert (folder / "pyproject.toml").read_text() == before


def test_init_creates_pyproject_and_reads_the_newest_draft_when_none_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "2fast-api"
    (project / "schemas").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "schemas/a.json").write_text('{"type": "object"}\n')
    monkeypatch.chdir(project)
    code, out = run(project, "init")
    assert code == 0
    table = tomllib.loads((project / "pyproject.toml").read_text())["tool"]["maverick-codegen"]
    assert table == {
        "schema_dir": "schemas",
        "output_dir": "src/p_2fast_api_contracts",
        "package": "p_2fast_api_contracts",
        "default_draft": "2020-12",
        "lint": {"use": ["DEFAULT"]},
    }
    assert "# no file names its draft ($schema): they are read as this one" in out
    assert "\n1 schema files in schemas/ (1 without $schema); " in out


def test_init_counts_the_drafts_of_files_that_all_name_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "schemas").mkdir()
    schema = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}\n'
    (tmp_path / "schemas/a.json").write_text(schema)
    monkeypatch.chdir(tmp_path)
    code, out = run(tmp_path, "init")
    assert code == 0
    assert "\n1 schema files in schemas/ (1 2020-12); 1 without $id" in out


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "schema folder contracts does not exist"),
        ("empty", "no *.json schema files below contracts"),
    ],
)
def test_init_refuses_what_it_cannot_read_and_writes_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    setup: str,
    message: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    if setup != "missing":
        (tmp_path / "contracts").mkdir()
    monkeypatch.chdir(tmp_path)
    code, _ = run(tmp_path, "init", "contracts")
    assert code == 2
    assert message in capsys.readouterr().err
    assert (tmp_path / "pyproject.toml").read_text() == '[project]\nname = "x"\n'
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_init_names_a_file_it_cannot_read_and_writes_the_table(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that is not JSON is no reason to stop: generate refuses it, with every other
    problem of the folder; init names it and counts the others."""
    (folder / "contracts/broken.json").write_text('{"type": }\n')
    monkeypatch.chdir(folder)
    code, out = run(folder, "init", "contracts")
    assert code == 0
    assert tomllib.loads((folder / "pyproject.toml").read_text())["tool"]["maverick-codegen"]
    assert "\ncontracts/broken.json:1:10: malformed JSON: Expecting value (JSON)\n" in out
    assert "\n5 schema files in contracts/ (1 draft-04, 3 draft-07, 1 without $schema); 5 " in out
    assert "1 cannot be read (above): generate refuses them" in out
