"""The npm package: its configuration, ``export --npm``, the drift check, the version policy.

What a consumer does with the package (pack, install, compile, validate) is
``tests/consumers/test_npm_package.py``; this module checks the generator's side on the
``inheritance_rules`` golden case, whose ``expected/npm/`` is the package's exact expected text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.breaking import release
from codegen.breaking.release import Release
from tests.codegen.test_export import files_below
from tests.conftest import GOLDEN, git, run

NPM = "expected/npm"
TABLE = '[tool.maverick-codegen.export]\nname = "@golden/contracts"\nversion = "1.0.0"\n'


def configure(project: Path, table: str) -> None:
    """Replace the golden case's ``[tool.maverick-codegen.export]`` with ``table``."""
    toml = project / "pyproject.toml"
    text = toml.read_text()
    toml.write_text(text[: text.index("[tool.maverick-codegen.export]")] + table)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (TABLE + 'scope = "x"\n', "has no key 'scope'"),
        ('[tool.maverick-codegen.export]\nname = "a"\n', "needs version"),
        (TABLE.replace('"@golden/contracts"', '"Golden Contracts"'), "is not an npm package name"),
        (TABLE.replace('"1.0.0"', '"1.0"'), "must be MAJOR.MINOR.PATCH"),
        (TABLE.replace('"1.0.0"', '"1.0.0-rc.1"'), "must be MAJOR.MINOR.PATCH"),
        (TABLE + 'npm_dir = "schemas/npm"\n', "npm_dir and schema_dir must not be inside"),
        (TABLE + 'npm_dir = "expected/export"\n', "npm_dir and export_dir must not be inside"),
        (TABLE + 'npm_dir = "."\n', "must be a folder below the project"),
        (TABLE + "license = 3\n", "license must be a non-empty string"),
        (TABLE + 'ajv_strict = "yes"\n', "ajv_strict must be true or false"),
    ],
)
def test_the_table_is_checked(
    make_project: Callable[[str], Path],
    capsys: pytest.CaptureFixture[str],
    table: str,
    message: str,
) -> None:
    project = make_project("inheritance_rules")
    configure(project, table)
    assert run(project, "generate")[0] == 2
    err = capsys.readouterr().err
    assert message in err
    assert f"{project / 'pyproject.toml'}:" in err  # pyproject.toml:line:col


def test_ajv_options_follow_the_table_and_the_schemas(
    make_project: Callable[[str], Path], tmp_path: Path
) -> None:
    """Strict mode only when asked (its style checks refuse some valid schemas); only own
    properties when a schema names one every JavaScript object inherits."""
    project = make_project("inheritance_rules")
    golden = (GOLDEN / "inheritance_rules" / NPM / "validate.js").read_text()
    assert "  strict: false,\n" in golden
    assert "ownProperties" not in golden
    configure(project, TABLE + "ajv_strict = true\n")
    problem = project / "schemas/tools/problem.json"
    document = json.loads(problem.read_text())
    document["properties"]["constructor"] = {"type": "string"}
    problem.write_text(json.dumps(document, indent=2))
    git(project, "init", "-q")
    assert run(project, "export", "--npm", str(tmp_path / "pkg"))[0] == 0
    validate = (tmp_path / "pkg/validate.js").read_text()
    assert "  strict: true,\n  allErrors: true,\n  allowUnionTypes: true,\n" in validate
    assert "  ownProperties: true,\n" in validate
    assert "\nstrict, `pattern` as ECMA-262" in (tmp_path / "pkg/README.md").read_text()


def test_export_npm_writes_what_generate_writes_and_is_deterministic(
    make_project: Callable[[str], Path], tmp_path: Path
) -> None:
    project = make_project("inheritance_rules")
    git(project, "init", "-q")
    code, out = run(project, "export", "--npm", str(tmp_path / "pkg"))
    assert code == 0, out
    assert files_below(tmp_path / "pkg") == files_below(GOLDEN / "inheritance_rules" / NPM)
    assert not (project / "expected/export").exists()  # --npm alone writes the package only
    assert "version 1.0.0: no release tag v<version> yet" in out
    code, out = run(project, "export", "--npm", str(tmp_path / "pkg"))
    assert "0 written, 14 unchanged, 0 removed" in out
    assert (
        run(project, "export", "--out", str(tmp_path / "x"), "--npm", str(tmp_path / "y"))[0] == 0
    )
    assert (tmp_path / "x/index.json").is_file()
    assert (tmp_path / "y/package.json").is_file()


def test_export_npm_needs_the_table_a_free_folder_and_git(
    make_project: Callable[[str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project("single_file")  # no [tool.maverick-codegen.export]
    assert run(project, "export", "--npm", str(tmp_path / "pkg"))[0] == 2
    assert "export --npm needs a [tool.maverick-codegen.export] table" in capsys.readouterr().err
    project = make_project("inheritance_rules")
    assert run(project, "export", "--npm", str(project / "schemas/pkg"))[0] == 2
    assert "and schema_dir must not be inside one another" in capsys.readouterr().err
    both = str(tmp_path / "both")
    assert run(project, "export", "--out", both, "--npm", f"{both}/npm")[0] == 2
    assert "and the export folder must not be inside one another" in capsys.readouterr().err
    assert run(project, "export", "--npm", str(tmp_path / "pkg"))[0] == 2  # not a repository
    err = capsys.readouterr().err
    assert "export --npm reads the last release from the git tags v<version>" in err
    assert "is not inside a git repository" in err
    assert not (tmp_path / "pkg").exists()  # nothing was written


def test_check_catches_a_hand_edit_a_stale_file_and_a_foreign_one(
    make_project: Callable[[str], Path],
) -> None:
    project = make_project("inheritance_rules")
    assert run(project, "generate")[0] == 0
    assert run(project, "check")[0] == 0
    types = project / NPM / "types/tools/problem.d.ts"
    types.write_text(types.read_text().replace("line: number;", "line: string;"))
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {NPM}/types/tools/problem.d.ts" in out
    assert "-  line: string;\n+  line: number;" in out
    assert run(project, "generate")[0] == 0
    (project / NPM / "notes.txt").write_text("mine")
    code, out = run(project, "check")
    assert f"hand-written: {NPM}/notes.txt" in out
    (project / NPM / "notes.txt").unlink()
    # A version bump in the configuration changes package.json: the fast check sees it.
    assert run(project, "check")[0] == 0
    toml = project / "pyproject.toml"
    toml.write_text(toml.read_text().replace('version = "1.0.0"', 'version = "1.1.0"'))
    code, out = run(project, "check")
    assert code == 1
    assert f"changed: {NPM}/package.json" in out
    # A contract removed: its declarations and schema file are stale.
    assert run(project, "generate")[0] == 0
    (project / "schemas/tools/check_result.json").unlink()
    toml.write_text(toml.read_text().replace('checker = "CheckResult"', ""))
    code, out = run(project, "check")
    assert f"stale: {NPM}/types/tools/check_result.d.ts (its schema is gone)" in out
    assert f"stale: {NPM}/schemas/tools/check_result.json (its schema is gone)" in out


def test_every_generated_file_carries_the_mark_or_is_listed(
    make_project: Callable[[str], Path],
) -> None:
    folder = GOLDEN / "inheritance_rules" / NPM
    manifest = json.loads((folder / "maverick-codegen.json").read_text())
    assert manifest["$comment"].startswith("Code generated by maverick-codegen")
    assert sorted(manifest["files"]) == sorted(files_below(folder))
    for name in manifest["files"]:
        if name.endswith((".js", ".d.ts")):
            assert (folder / name).read_text().startswith("// Code generated by maverick-codegen")
    package = json.loads((folder / "package.json").read_text())
    assert package["name"] == "@golden/contracts"
    assert package["version"] == "1.0.0"
    assert package["exports"]["."] == {"types": "./index.d.ts", "default": "./index.js"}


def _repository(make_project: Callable[[str], Path], *tags: str) -> Path:
    project = make_project("inheritance_rules")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "release")
    for tag in tags:
        git(project, "tag", tag)
    return project


def test_the_last_release_is_the_tag_of_the_version_or_the_highest_below_it(
    make_project: Callable[[str], Path],
) -> None:
    project = _repository(make_project, "v0.9.0", "v1.2.0", "v1.10.1", "v2.0.0", "v1.3.0-rc.1", "x")
    assert release.last_release(project, "1.10.1") == Release("1.10.1", "v1.10.1")
    assert release.last_release(project, "1.10.0") == Release("1.2.0", "v1.2.0")  # not 1.10.1
    assert release.last_release(project, "1.9.9") == Release("1.2.0", "v1.2.0")
    assert release.last_release(project, "0.1.0") is None
    assert release.last_release(project, "3.0.0") == Release("2.0.0", "v2.0.0")


@pytest.mark.parametrize(
    "case",
    [
        ("1.2.0", ("none", "1.2.0"), None),  # the release itself, exported again
        ("1.2.0", ("patch", "1.2.1"), "version 1.2.0 is released (v1.2.0) and the schemas "
                                     "changed since, a patch change"),
        ("1.2.1", ("minor", "1.3.0"), "version 1.2.1 understates the changes since 1.2.0 "
                                     "(v1.2.0): a minor change needs 1.3.0 or later"),
        ("1.3.0", ("minor", "1.3.0"), None),
        ("1.9.0", ("major", "2.0.0"), "a major change needs 2.0.0 or later"),
        ("2.0.0", ("major", "2.0.0"), None),
        ("3.0.0", ("patch", "1.2.1"), None),  # more than needed is allowed
    ],
)  # fmt: skip
def test_a_version_that_understates_the_change_is_refused_naming_it(
    make_project: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    case: tuple[str, tuple[str, str], str | None],
) -> None:
    """The rule around the policy, with the policy (the changelog's bump) stood in for."""
    version, policy, refused = case
    project = _repository(make_project, "v1.2.0")
    configure(project, TABLE.replace('"1.0.0"', f'"{version}"'))
    asked: list[Release] = []

    def policy_of(
        repo: Path, since: Release, schema_dir: Path, shown: str, options: object = None
    ) -> tuple[str, ...]:
        asked.append(since)
        return (*policy, ["schemas/tools/problem.json:1:1: a change (RULE)"])

    monkeypatch.setattr(release, "required_version", policy_of)
    code, out = run(project, "export", "--npm", str(tmp_path / "pkg"))
    assert asked == [Release("1.2.0", "v1.2.0")]
    if refused is None:
        assert code == 0, out
        return
    assert code == 2
    err = capsys.readouterr().err
    assert refused in err
    assert "schemas/tools/problem.json:1:1: a change (RULE)" in err  # names the change
    assert err.startswith(f"{project / 'pyproject.toml'}:")  # at the configured version
    assert "(NPM_VERSION)" in err
    assert not (tmp_path / "pkg").exists()


def _edit_problem(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    schema = project / "schemas/tools/problem.json"
    document = json.loads(schema.read_text())
    change(document)
    schema.write_text(json.dumps(document, indent=2) + "\n")


def _export_at(project: Path, version: str, out: Path) -> int:
    configure(project, TABLE.replace('"1.0.0"', f'"{version}"'))
    code, printed = run(project, "export", "--npm", str(out))
    print(printed)
    return code


def test_the_changelog_decides_the_bump_since_the_tagged_release(
    make_project: Callable[[str], Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The policy itself, on a real repository: the changes since the tag v1.0.0, as the
    changelog bumps them (documentation patch, addition minor, removal major)."""
    project = _repository(make_project, "v1.0.0")
    out = tmp_path / "pkg"
    assert _export_at(project, "1.0.0", out) == 0  # the release itself, exported again
    assert "version 1.0.0: no change since 1.0.0 (v1.0.0)" in capsys.readouterr().out

    _edit_problem(project, lambda d: d.update(description="One problem found."))
    assert _export_at(project, "1.0.0", out) == 2
    err = capsys.readouterr().err
    assert "version 1.0.0 is released (v1.0.0) and the schemas changed since, a patch" in err
    assert "release them as 1.0.1" in err
    assert _export_at(project, "1.0.1", out) == 0

    _edit_problem(project, lambda d: d["properties"].update(hint={"type": "string"}))
    assert _export_at(project, "1.0.1", out) == 2
    err = capsys.readouterr().err
    assert "version 1.0.1 understates the changes since 1.0.0 (v1.0.0): a minor change " in err
    assert "needs 1.1.0 or later (schemas/tools/problem.json:" in err  # names the change
    assert _export_at(project, "1.1.0", out) == 0

    _edit_problem(project, lambda d: (d["properties"].pop("line"), d["required"].remove("line")))
    assert _export_at(project, "1.9.0", out) == 2
    err = capsys.readouterr().err
    assert "a major change needs 2.0.0 or later" in err
    assert "(PROPERTY_DELETED)" in err
    assert _export_at(project, "2.0.0", out) == 0
    assert json.loads((out / "package.json").read_text())["version"] == "2.0.0"
