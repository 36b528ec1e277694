"""``maverick-codegen lint`` on projects of every draft: each file judged by its own draft.

``tests/fixtures/lint_drafts/<project>/`` holds a project (``pyproject.toml`` and its schemas):
a draft-07, a draft-04 and a 2019-09 one, and one whose references fail in every way the loader
knows, beside a URL mapping that works. None configures the lint, so the default rules run
(every rule but this repository's house rules): each test asserts the exact findings, and that
``generate`` refuses where lint reports a refusal.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from codegen.core.errors import SchemaError
from codegen.core.loader import load_tree
from tests.conftest import run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lint_drafts"


def lint(tmp_path: Path, name: str) -> tuple[int, list[str]]:
    """Lint a copy of the project ``name``: the exit code and each finding's text line."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    code, out = run(root, "lint", "--format", "json")
    findings = json.loads(out)
    return code, [
        f"{f['path']}:{f['line']}:{f['column']}: {f['message']} ({f['rule']})" for f in findings
    ]


def test_a_draft_07_project(tmp_path: Path) -> None:
    code, findings = lint(tmp_path, "draft07")
    assert code == 1
    assert findings == [
        "schemas/item.json:10:7: not a valid draft-07 schema (http://json-schema.org/draft-07/"
        "schema): -1 is less than the minimum of 0; write it as that draft's metaschema says, or "
        "name the draft it is written in with $schema (METASCHEMA_VALID)",
        # Judged as draft-07 reads the pattern: ECMA-262.
        'schemas/item.json:17:3: default {"sku": "a"} does not validate: at /sku: \'a\' does not '
        "match '^[A-Z]-\\\\d$'; correct the default or the schema (DEFAULT_VALID)",
        "schemas/order.json:12:7: 'minimum' beside $ref is ignored: in draft-07, $ref ignores "
        'every keyword beside it (and so does generate); to apply both, write "allOf": '
        '[{"$ref": ...}, {"minimum": ...}], or set $schema to 2019-09 or later '
        "(REF_SIBLING_IGNORED)",
        "schemas/order.json:16:7: 'x-internal' is an extension keyword, which JSON Schema does "
        "not define: generate (and every validator) ignores it; if another tool reads it, keep "
        "it and turn SUPPORTED_CONSTRUCT off for this file ([tool.maverick-codegen.lint] ignore) "
        "(SUPPORTED_CONSTRUCT)",
        "schemas/order.json:40:3: '$defs' is a keyword of 2019-09, 2020-12, not of draft-07, "
        "which ignores it (and so does generate): use definitions (SUPPORTED_CONSTRUCT)",
        # Example 0 has quantity 2: valid, since draft-07's $ref ignores the minimum beside it.
        # Example 1 breaks the array form of draft-07's dependencies.
        "schemas/order.json:52:5: example 1 does not validate: 'reason' is a dependency of "
        "'rush'; correct the example or the schema (EXAMPLES_VALID)",
    ]


def test_a_draft_04_project(tmp_path: Path) -> None:
    code, findings = lint(tmp_path, "draft04")
    assert code == 1
    assert findings == [
        # The metaschema and the loader refuse one value: reported once, as the loader says.
        "schemas/price.json:12:7: exclusiveMaximum must be a boolean in draft-04 "
        "(METASCHEMA_VALID)",
        "schemas/price.json:15:7: 'const' is a keyword of draft-06, draft-07, 2019-09, 2020-12, "
        "not of draft-04, which ignores it (and so does generate): use an enum of one value "
        "(SUPPORTED_CONSTRUCT)",
        # draft-04's boolean exclusiveMinimum; draft-04's integer refuses 1.0; the third example
        # is valid: draft-04 ignores const.
        "schemas/price.json:26:5: example 0 does not validate: at /amount: 0 is less than or "
        "equal to the minimum of 0; correct the example or the schema (EXAMPLES_VALID)",
        "schemas/price.json:29:5: example 1 does not validate: at /count: 1.0 is not of type "
        "'integer'; correct the example or the schema (EXAMPLES_VALID)",
    ]


def test_a_draft_2019_09_project(tmp_path: Path) -> None:
    """$recursiveAnchor, $recursiveRef, $anchor and 2019-09's items and additionalItems are
    2019-09's own: no finding; 2020-12's $dynamicRef and prefixItems are not."""
    code, findings = lint(tmp_path, "draft2019")
    assert code == 1
    assert findings == [
        "schemas/tree.json:34:7: '$dynamicRef' is a keyword of 2020-12, not of 2019-09, which "
        "ignores it (and so does generate): use $recursiveRef (2019-09), or $schema 2020-12 "
        "(SUPPORTED_CONSTRUCT)",
        "schemas/tree.json:38:7: 'prefixItems' is a keyword of 2020-12, not of 2019-09, which "
        "ignores it (and so does generate): use items holding a list, and additionalItems for "
        "the rest (SUPPORTED_CONSTRUCT)",
        # The recursive reference reaches the nested tree; a list of items closes the array.
        "schemas/tree.json:61:5: example 1 does not validate: at /children/0/value: 'x' is not "
        "of type 'integer'; correct the example or the schema (EXAMPLES_VALID)",
        "schemas/tree.json:70:5: example 2 does not validate: at /tags: Additional items are "
        "not allowed ('b' was unexpected); correct the example or the schema (EXAMPLES_VALID)",
    ]


def test_every_reference_problem_at_once_and_a_url_mapping_honoured(tmp_path: Path) -> None:
    code, findings = lint(tmp_path, "refs")
    absent = tmp_path / "refs/vendor/absent.json"
    mapped = os.path.relpath(absent) if absent.is_relative_to(Path.cwd()) else absent
    assert code == 1
    assert findings == [
        "schemas/bill.json:11:7: remote $ref 'https://elsewhere.test/x.json' is refused: it is "
        "the $id of no file of the schema folder, and nothing is fetched from the network; map "
        'it to a local copy: add "https://elsewhere.test/" = "vendor/elsewhere.test" to '
        "[tool.maverick-codegen.refs] (a folder relative to pyproject.toml) and put the "
        "document at vendor/elsewhere.test/x.json (NO_REMOTE_REF)",
        "schemas/bill.json:14:7: $ref '../outside.json' escapes the schema folder: move what it "
        "names inside, or name it by a URL that [tool.maverick-codegen.refs] maps "
        "(REF_INSIDE_TREE)",
        "schemas/bill.json:17:7: $ref 'missing.json' names no schema file: it resolves to "
        "https://example.test/schemas/missing.json (against the $id of this file), which no file "
        "of the schema folder has as $id, and missing.json is not in the schema folder; add the "
        'file, or map it to a local copy: add "https://example.test/schemas/" = '
        '"vendor/example.test/schemas" to [tool.maverick-codegen.refs] (a folder relative to '
        "pyproject.toml) and put the document at vendor/example.test/schemas/missing.json "
        "(REF_RESOLVES)",
        "schemas/bill.json:20:7: $ref '#/$defs/nope': '/$defs/nope' does not exist in bill.json "
        "(REF_RESOLVES)",
        "schemas/bill.json:23:7: $ref '#nowhere': no anchor 'nowhere' in bill.json (REF_RESOLVES)",
        "schemas/bill.json:26:7: $ref 'https://vendor.test/schemas/absent.json': "
        "[tool.maverick-codegen.refs] 'https://vendor.test/schemas/' maps it to "
        f"{mapped}, which does not exist (REF_RESOLVES)",
        "schemas/bill.json:29:7: $ref 'parts/line.json' names parts/line.json by path but "
        "https://example.test/schemas/parts/line.json by the $id of this file, and no file has "
        "that $id: give every file an $id that mirrors its path (REF_RESOLVES)",
        # The mapped document (vendor/money.json) judges the example: minimum 0.
        "schemas/bill.json:36:5: example 1 does not validate: at /price: -1 is less than the "
        "minimum of 0; correct the example or the schema (EXAMPLES_VALID)",
        "schemas/parts/line.json:8:7: $ref 'part.json' names parts/part.json by path but "
        "https://example.test/schemas/part.json by the $id of this file, and no file has that "
        "$id: give every file an $id that mirrors its path (REF_RESOLVES)",
    ]


@pytest.mark.parametrize("name", ["draft07", "draft04", "refs"])
def test_generate_refuses_where_lint_reports(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``generate`` stops at one of the places lint reports, all at once; a problem of the
    loader is reported with the loader's own message (lint's REF_RESOLVES stands for the
    loader's REF and ID_MIRRORS_PATH, METASCHEMA_VALID for a value its draft cannot read)."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    _, linted = lint(tmp_path / "lint", name)
    findings = [f.replace(str(tmp_path / "lint" / name), str(root)) for f in linted]
    capsys.readouterr()
    assert run(root, "generate")[0] == 2
    *errors, summary = capsys.readouterr().err.strip().split("\n")
    assert summary.startswith("error: "), summary
    assert " refused (" in summary, summary
    for error in errors:
        where, _, message = error.partition(": ")
        if error.endswith("(REF_REFUSED)"):  # a reference to a refused file: not lint's concern
            continue
        assert [f for f in findings if f.startswith(where.removeprefix(f"{root}/") + ":")], error
        if name != "draft07":  # there, the generator's own check of minLength speaks first
            message = message.rsplit(" at /", 1)[0]
            assert any(message in f for f in findings), (error, findings)
    # Every problem lint reports as the loader's is one generate refuses, in the same run.
    reported = {e.partition(": ")[0].removeprefix(f"{root}/") for e in errors}
    loader = ("(REF_RESOLVES)", "(NO_REMOTE_REF)", "(REF_INSIDE_TREE)", "(DRAFT_KNOWN)")
    assert {f.partition(": ")[0] for f in findings if f.endswith(loader)} <= reported


def test_an_unknown_schema_is_a_finding_and_the_file_is_read_on(tmp_path: Path) -> None:
    root = tmp_path / "refs"
    shutil.copytree(FIXTURES / "draft07", root)
    order = root / "schemas/order.json"
    order.write_text(order.read_text().replace("draft-07/schema#", "draft-08/schema#"))
    code, out = run(root, "lint")
    assert code == 1
    assert (
        "schemas/order.json:2:3: unknown $schema 'http://json-schema.org/draft-08/schema#': use "
        "one of the JSON Schema drafts' metaschema URIs (draft-04 to 2020-12); lint read it as "
        "2020-12 (default_draft) (DRAFT_KNOWN)"
    ) in out
    # Read as 2020-12 (the default_draft): definitions is only kept there for compatibility.
    assert "schemas/order.json:34:3: 'definitions' is draft-07's name for $defs" in out


def test_a_malformed_identifier_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    root = tmp_path / "draft2019"
    shutil.copytree(FIXTURES / "draft2019", root)
    tree = root / "schemas/tree.json"
    data = json.loads(tree.read_text())
    data["properties"]["value"]["$id"] = 7
    data["properties"]["tags"]["properties"] = 5
    tree.write_text(json.dumps(data, indent=2) + "\n")
    code, out = run(root, "lint")
    assert code == 1
    assert "schemas/tree.json:10:7: $id must be a string (METASCHEMA_VALID)" in out
    assert "schemas/tree.json:26:7: properties must be an object (METASCHEMA_VALID)" in out
    # Examples whose judging needs the malformed identifier cannot be judged, and say so.
    assert "schemas/tree.json:54:5: example 0 could not be checked (AttributeError" in out
    with pytest.raises(SchemaError, match=r"\$id must be a string"):
        load_tree(root / "schemas")


def test_keywords_of_other_drafts_in_a_2020_12_file(tmp_path: Path) -> None:
    """2020-12's identifiers are no findings there; draft-07's keywords are, with what to use."""
    root = tmp_path / "p"
    (root / "schemas").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
    )
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/schemas/node.json",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": True},
        "$dynamicAnchor": "node",
        "title": "Node",
        "type": "object",
        "properties": {
            "next": {"$dynamicRef": "#node"},
            "inner": {"$id": "inner.json", "$anchor": "in", "type": "string"},
            "pair": {"type": "array", "prefixItems": [{}], "additionalItems": False},
            "limit": {"type": "integer", "maximun": 3},
        },
        "dependencies": {"next": ["inner"]},
        "definitions": {"Spare": {"type": "string"}},
    }
    (root / "schemas/node.json").write_text(json.dumps(document, indent=2) + "\n")
    _, out = run(root, "lint", "--format", "json")
    found = [
        (f["line"], f["message"]) for f in json.loads(out) if f["rule"] == "SUPPORTED_CONSTRUCT"
    ]
    assert found == [
        (24, "'additionalItems' is a keyword of draft-04, draft-06, draft-07, 2019-09, not of "
             "2020-12, which ignores it (and so does generate): use items beside prefixItems"),
        (28, "'maximun' is not a keyword of 2020-12: generate ignores it; did you mean "
             "'maximum'?"),
        (31, "'dependencies' is a keyword of draft-04, draft-06, draft-07, not of 2020-12, which "
             "ignores it (and so does generate): use dependentRequired (lists of names) or "
             "dependentSchemas (schemas)"),
        (36, "'definitions' is draft-07's name for $defs, which 2020-12 keeps in its metaschema "
             "only for compatibility: use $defs (generate reads it as $defs)"),
    ]  # fmt: skip


def test_a_problem_in_a_mapped_document_is_shown_where_that_document_is(tmp_path: Path) -> None:
    root = tmp_path / "refs"
    shutil.copytree(FIXTURES / "refs", root)
    money = root / "vendor/money.json"
    data = json.loads(money.read_text())
    data["not"] = {"$ref": "#/nope"}
    money.write_text(json.dumps(data, indent=2) + "\n")
    _, out = run(root, "lint")
    assert (
        "vendor/money.json:7:5: $ref '#/nope': '/nope' does not exist in "
        "~remote/vendor.test/schemas/money.json (REF_RESOLVES)"
    ) in out.splitlines()


def test_an_embedded_resource_of_another_draft_is_a_finding(tmp_path: Path) -> None:
    root = tmp_path / "draft2019"
    shutil.copytree(FIXTURES / "draft2019", root)
    tree = root / "schemas/tree.json"
    data = json.loads(tree.read_text())
    data["$defs"] = {"old": {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "old"}}
    tree.write_text(json.dumps(data, indent=2) + "\n")
    _, out = run(root, "lint")
    assert (
        "schemas/tree.json:79:7: an embedded resource in another draft "
        "('http://json-schema.org/draft-07/schema#') than its file's (2019-09) is not supported: "
        "write it in 2019-09, or as a file of its own (DRAFT_KNOWN)"
    ) in out.splitlines()
