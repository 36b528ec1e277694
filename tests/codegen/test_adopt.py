"""Adopting a collection of schemas as it is: every mistake and every refusal in one run.

A misspelt setting is an error with its line; ``generate``, ``check`` and ``lint`` list every
file they refuse with its reasons; ``exclude`` (which ``init --exclude-refused`` writes) lets
the rest generate, naming each file it leaves out; an unresolved reference says the URI it
resolved to and the ``[tool.maverick-codegen.refs]`` line that would map it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run

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
