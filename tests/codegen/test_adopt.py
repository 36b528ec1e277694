"""Adopting a collection of schemas as it is: every mistake and every refusal in one run.

A misspelt setting is an error with its line; ``generate``, ``check`` and ``lint`` list every
file they refuse with its reasons; ``exclude`` (which ``init --exclude-refused`` writes) lets
the rest generate, naming each file it leaves out; an unresolved reference says the URI it
resolved to and the ``[tool.maverick-codegen.refs]`` line that would map it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, run

BASE = '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'


def _note(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "note.json").write_text(
        '{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Note", '
        '"type": "object", "properties": {"text": {"type": "string"}}}\n'
    )


@pytest.mark.parametrize(
    ("table", "where", "message"),
    [
        ('default_draf = "draft-07"\n', "5:1", "[tool.maverick-codegen] has no key 'default_draf' "
         "(did you mean 'default_draft'?)"),
        ('[tool.maverick-codegen.lnt]\nuse = ["DEFAULT"]\n', "5:1",
         "[tool.maverick-codegen] has no key 'lnt' (did you mean 'lint'?)"),
        ('[tool.maverick-codegen.lint]\nuse = ["DEFAULT"]\nexcpt = ["DOCS"]\n', "7:1",
         "[tool.maverick-codegen.lint] has no key 'excpt' (did you mean 'except'?)"),
        ("[tool.maverick-codegen.breaking]\nuses = []\n", "6:1",
         "[tool.maverick-codegen.breaking] has no key 'uses' (did you mean 'use'?)"),
        ('[tool.maverick-codegen.export]\nname = "x"\nverison = "1.0.0"\n', "7:1",
         "[tool.maverick-codegen.export] has no key 'verison' (did you mean 'version'?)"),
        ('[tool.maverick-codegen.tools]\nlook = {output = "Note", inptu = "Note"}\n', "6:1",
         "tool 'look' of [tool.maverick-codegen.tools] has no key 'inptu' (did you mean "
         "'input'?)"),
        ('colour = "blue"\n', "5:1", "[tool.maverick-codegen] has no key 'colour'; its keys are "
         "schema_dir, output_dir,"),
    ],
)  # fmt: skip
def test_a_misspelt_key_is_an_error_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, where: str, message: str
) -> None:
    _note(tmp_path / "schemas")
    (tmp_path / "pyproject.toml").write_text(BASE + table)
    code, _ = run(tmp_path, "generate")
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"{tmp_path / 'pyproject.toml'}:{where}: {message}"), err
    assert err.rstrip().endswith("(CONFIG)")
    assert not (tmp_path / "out").exists()


D2020 = "https://json-schema.org/draft/2020-12/schema"


def _object(title: str, properties: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    return {"$schema": D2020, "title": title, "type": "object",
            "properties": properties or {"x": {"type": "string"}}, **more}  # fmt: skip


# Two good files and one broken file of each kind a collection has; each broken one with the
# rule generate says it with. c.json and b.json are referenced: e.json and g.json are refused
# for that (REF_REFUSED), at the reference.
BROKEN = {
    "b.json": "JSON",  # not JSON
    "c.json": "REF_RESOLVES",  # a reference to a file that is not there
    "d.json": "ID_UNIQUE",  # a.json's $id
    "e.json": "REF_REFUSED",  # references c.json
    "f.json": "NO_REMOTE_REF",  # a URL no mapping leads to
    "g.json": "REF_REFUSED",  # references b.json, which cannot be read
    "h.json": "DRAFT",  # an unknown $schema
    "i.json": "JSON",  # a value no validator reads (a compiled check refuses it)
}


def _collection(root: Path) -> Path:
    """A project whose schema folder holds two good files and one broken file of each kind."""
    schemas = root / "schemas"
    schemas.mkdir(parents=True)
    documents: dict[str, Any] = {
        "a.json": _object("A", **{"$id": "https://example.test/a.json"}),
        "good.json": _object("Good", {"a": {"$ref": "a.json"}}),
        "c.json": _object("C", {"n": {"$ref": "nope.json"}}),
        # Its own #/$defs reference reads its own $defs (a.json has none): ID_UNIQUE says it once.
        "d.json": _object(
            "D",
            {"d": {"$ref": "#/$defs/Day"}},
            **{"$id": "https://example.test/a.json", "$defs": {"Day": {}}},
        ),
        "e.json": _object("E", {"c": {"$ref": "c.json"}}),
        "f.json": _object("F", {"r": {"$ref": "https://example.org/schemas/x.json"}}),
        "g.json": _object("G", {"b": {"$ref": "b.json"}}),
        "h.json": {**_object("H"), "$schema": "https://example.test/my-draft"},
        "i.json": _object("I", {"s": {"type": "string", "minLength": -1}}),
    }
    for name, document in documents.items():
        (schemas / name).write_text(json.dumps(document, indent=2) + "\n")
    (schemas / "b.json").write_text('{"title": "B", "type": \n')
    (root / "pyproject.toml").write_text(BASE)
    return root


def _refusals(err: str) -> tuple[dict[str, set[str]], str]:
    """The refused files with their rules, and the summary, from what a command printed."""
    *lines, summary = err.strip().split("\n")
    found: dict[str, set[str]] = {}
    for line in lines:
        name = Path(line.split(":", 1)[0]).name
        found.setdefault(name, set()).add(line.rsplit("(", 1)[1].rstrip(")"))
    return found, summary


def test_generate_and_check_refuse_every_broken_file_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _collection(tmp_path)
    code, _ = run(root, "generate")
    err = capsys.readouterr().err
    assert code == 2
    refused, summary = _refusals(err)
    assert refused == {name: {rule} for name, rule in BROKEN.items()}
    assert summary == (
        "error: 8 of 10 schema files in schemas/ are refused (8 reasons above): no contract is "
        "generated while one is; to generate the others, leave these out: maverick-codegen init "
        "--exclude-refused lists them in [tool.maverick-codegen] exclude"
    )
    lines = err.split("\n")
    assert f"{root}/schemas/b.json:2:1: malformed JSON: Expecting value (JSON)" in lines
    assert (
        f"{root}/schemas/e.json:7:7: $ref 'c.json' names c.json, which is refused (its reasons are "
        "listed) at /properties/c/$ref (REF_REFUSED)"
    ) in lines
    assert not (root / "out").exists()
    code, _ = run(root, "check")  # check refuses the same files, for the same reasons
    assert code == 2
    assert capsys.readouterr().err == err
    # lint refuses the file it cannot read, and reports the others' problems as findings
    code, out = run(root, "lint")
    lint_err = capsys.readouterr().err
    assert code == 2
    assert (
        lint_err.split("\n")[0]
        == f"{root}/schemas/b.json:2:1: malformed JSON: Expecting value (JSON)"
    )
    assert lint_err.split("\n")[1].startswith("error: 1 schema file in schemas/ cannot be read")
    for name in ("c.json", "d.json", "f.json", "g.json", "h.json", "i.json"):
        assert f"schemas/{name}:" in out, name


def test_init_excludes_the_refused_files_and_the_rest_generates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _collection(tmp_path)
    (root / "pyproject.toml").unlink()
    monkeypatch.chdir(root)
    code, out = run(root, "init", "--exclude-refused")
    assert code == 0, capsys.readouterr().err
    written = (root / "pyproject.toml").read_text()
    table = tomllib.loads(written)["tool"]["maverick-codegen"]
    assert table["exclude"] == [f"schemas/{name}" for name in BROKEN]
    for name, rule in BROKEN.items():
        assert f'  "schemas/{name}",  # refused: {rule}\n' in written
    assert "8 of 10 schema files in schemas/ are refused today" in out
    assert run(root, "init", "--exclude-refused")[0] == 0  # again: the same bytes
    assert (root / "pyproject.toml").read_text() == written

    code, out = run(root, "generate")
    assert code == 0, capsys.readouterr().err
    assert [line for line in out.split("\n") if line.startswith("excluded:")] == [
        f"excluded: schemas/{name}" for name in BROKEN
    ]
    assert out.rstrip().endswith("2 contracts (2 regenerated): 8 written, 0 unchanged, "
                                 "0 removed; 8 schema files excluded")  # fmt: skip
    package = root / table["output_dir"]
    assert sorted(p.name for p in package.glob("*.py") if not p.name.startswith("_")) == [
        "a.py", "good.py"]  # fmt: skip
    code, out = run(root, "check")
    assert code == 0
    assert out.endswith("(8 files, by their records; 8 schema files excluded)\n")
    assert run(root, "lint")[0] in (0, 1)  # it reads what generate reads: nothing unreadable
    assert "cannot be read" not in capsys.readouterr().err
    code, out = run(root, "format", "--check")  # b.json is not JSON: format leaves it out too
    assert code == 1, capsys.readouterr().err
    assert "excluded: schemas/b.json\n" in out

    # c.json fixed: init takes it (and e.json, which references it) out of the list, and keeps
    # what the user wrote (a glob, with a comment); generate then adds their contracts.
    (root / "schemas/c.json").write_text(json.dumps(_object("C")))
    text = written.replace("exclude = [\n", 'exclude = [\n  "schemas/h*.json",  # mine\n')
    (root / "pyproject.toml").write_text(text)
    code, out = run(root, "init", "--exclude-refused")
    assert code == 0
    assert "no longer refused, so taken out of it: schemas/c.json, schemas/e.json" in out
    assert "and keeps your entry" in out
    assert tomllib.loads((root / "pyproject.toml").read_text())["tool"]["maverick-codegen"][
        "exclude"
    ] == ["schemas/h*.json", *(f"schemas/{n}" for n in ("b.json", "d.json", "f.json", "g.json",
                                                         "i.json"))]  # fmt: skip
    assert '  "schemas/h*.json",  # mine\n' in (root / "pyproject.toml").read_text()
    code, out = run(root, "generate")
    assert code == 0
    assert "excluded: schemas/h.json (by 'schemas/h*.json')" in out
    assert "4 contracts (2 regenerated)" in out


def test_a_reference_to_an_excluded_file_names_the_exclusion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _collection(tmp_path)
    for name in ("e.json", "g.json"):
        (root / "schemas" / name).unlink()
    (root / "pyproject.toml").write_text(
        BASE + 'exclude = ["schemas/b.json", "schemas/[c-d].json", "schemas/f.json", '
        '"schemas/h.json", "schemas/i.json", "schemas/a.json"]\n'
    )
    assert run(root, "generate")[0] == 2
    refused, summary = _refusals(capsys.readouterr().err)
    assert refused == {"good.json": {"REF_EXCLUDED"}}
    assert summary.startswith("error: 1 of 1 schema files in schemas/ is refused")
    assert run(root, "generate")[0] == 2
    assert (
        f"{root}/schemas/good.json:7:7: $ref 'a.json' names a.json, which "
        "[tool.maverick-codegen] exclude leaves out ('schemas/a.json'): exclude this file too, "
        "or take that one out of exclude at /properties/a/$ref (REF_EXCLUDED)\n"
    ) in capsys.readouterr().err


def test_an_unresolved_reference_names_its_uri_and_the_mapping_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reference resolved against the file's ``$id`` (as a catalog's schemas name each
    other): the message names the URL and the refs line; adding that line (and the document)
    is the fix."""
    _note(tmp_path / "schemas")
    bill = _object("Bill", {"note": {"$ref": "shared/note.json"}},
                   **{"$id": "https://schemas.example.test/v1/bill.json"})  # fmt: skip
    (tmp_path / "schemas/bill.json").write_text(json.dumps(bill, indent=2))
    (tmp_path / "pyproject.toml").write_text(BASE)
    assert run(tmp_path, "generate")[0] == 2
    err = capsys.readouterr().err
    assert (
        "$ref 'shared/note.json' names no schema file: it resolves to "
        "https://schemas.example.test/v1/shared/note.json (against the $id of this file), which "
        "no file of the schema folder has as $id, and shared/note.json is not in the schema "
        'folder; add the file, or map it to a local copy: add "https://schemas.example.test/v1/'
        'shared/" = "vendor/schemas.example.test/v1/shared" to [tool.maverick-codegen.refs] (a '
        "folder relative to pyproject.toml) and put the document at "
        "vendor/schemas.example.test/v1/shared/note.json"
    ) in err
    _note(tmp_path / "vendor/schemas.example.test/v1/shared")
    (tmp_path / "pyproject.toml").write_text(
        BASE + '[tool.maverick-codegen.refs]\n"https://schemas.example.test/v1/shared/" = '
        '"vendor/schemas.example.test/v1/shared"\n'
    )
    code, out = run(tmp_path, "generate")
    assert code == 0, capsys.readouterr().err
    assert "2 contracts (2 regenerated)" in out


def test_an_internal_error_names_the_file_being_generated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug (here, a KeyError planted where each contract's inputs are digested) is an error
    naming the schema file, never a traceback that names none."""
    from codegen.generate import plan

    _note(tmp_path / "schemas")
    (tmp_path / "pyproject.toml").write_text(BASE)

    def broken(tree: object, schema: object, config: object) -> str:
        raise KeyError("planted")

    monkeypatch.setattr(plan, "contract_inputs", broken)
    monkeypatch.delenv("MAVERICK_CODEGEN_DEBUG", raising=False)
    assert run(tmp_path, "generate")[0] == 2
    err = capsys.readouterr().err
    note = tmp_path / "schemas/note.json"
    assert err.startswith(
        f"{note}:1:1: internal error in generate, reading {note}: KeyError: 'planted' "
        "(test_adopt.py:"
    ), err
    assert "Traceback" not in err
    assert err.rstrip().endswith("(INTERNAL)")


def test_breaking_and_changelog_leave_out_what_generate_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both sides of the comparison are read as generate reads them: an unreadable file that
    exclude leaves out stops neither; a file excluded since is a contract deleted."""
    _note(tmp_path / "schemas")
    (tmp_path / "schemas/old.json").write_text(json.dumps(_object("Old")))
    (tmp_path / "schemas/broken.json").write_text("{")
    (tmp_path / "pyproject.toml").write_text(BASE + 'exclude = ["schemas/broken.json"]\n')
    commit_all(tmp_path)
    code, out = run(tmp_path, "breaking", "--against", "HEAD")
    assert code == 0, capsys.readouterr().err
    assert out.startswith("excluded: schemas/broken.json\n")
    (tmp_path / "pyproject.toml").write_text(
        BASE + 'exclude = ["schemas/broken.json", "schemas/old.json"]\n'
    )
    code, out = run(tmp_path, "breaking", "--against", "HEAD")
    assert code == 1
    assert "(CONTRACT_DELETED)" in out
    code, out = run(tmp_path, "changelog", "--against", "HEAD", "--format", "json")
    assert code == 0
    assert json.loads(out)["bump"] == "major"
    assert capsys.readouterr().err == (
        "excluded: schemas/broken.json\nexcluded: schemas/old.json\n"
    )
