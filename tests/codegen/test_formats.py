"""``[tool.maverick-codegen] formats``: annotated by default, asserted when the project asks.

* The key: ``"annotate"`` (the default) or ``"assert"``; any other value, or a value of another
  type, exits 2 naming pyproject.toml, the key and the allowed values.
* Asserted: a format the models do not check is refused at generate time, naming the file, the
  JSON pointer and the format; the formats whose Python type holds every valid string (uuid,
  ipv4, ipv6) are typed so, and decide every string of the suite's format tests as the suite
  does, in JSON and Python mode, and dump back the text they read; a date-time stays a checked
  string (Python's datetime has no leap second). A consumer's code reads the typed fields under
  ``mypy --strict``.
* Annotated: the fields stay ``str`` and accept every string; the format is in the field's
  description and the catalog.
* ``breaking``: adding a format is no finding when annotated, never passed when asserted; a
  change elsewhere keeps its own finding; switching the setting is seen against a git revision.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pydantic
import pytest

from codegen.breaking.pairs import Side
from codegen.breaking.table import compare
from codegen.core.config import load_config
from codegen.core.errors import CodegenError
from codegen.core.formats import ASSERTED, format_check, format_examples
from codegen.core.load_options import LoadOptions
from codegen.core.loader import load_tree
from tests import _corpus, _suite
from tests.conftest import git, mypy_strict, run

D2020 = "https://json-schema.org/draft/2020-12/schema"
TYPED = {"uuid": "JsonUUID", "ipv4": "JsonIPv4Address", "ipv6": "JsonIPv6Address"}
EVENT = {
    "$schema": D2020,
    "$id": "https://example.com/event.json",
    "title": "Event",
    "type": "object",
    "properties": {
        "when": {"type": "string", "format": "date-time", "description": "When it happened."},
        "id": {"type": "string", "format": "uuid"},
        "host": {"type": "string", "format": "ipv4"},
        "peers": {"type": "array", "items": {"type": "string", "format": "ipv6"}},
        "tag": {"format": "uuid"},
    },
    "required": ["when", "id"],
    "additionalProperties": False,
}


def _project(root: Path, formats: str | None, schemas: dict[str, Any], package: str) -> Path:
    for rel, data in schemas.items():
        path = root / "schemas" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    said = f'formats = "{formats}"\n' if formats is not None else ""
    (root / "pyproject.toml").write_text(
        f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
        f'package = "{package}"\ndocs_file = "docs/contracts.md"\n{said}',
        encoding="utf-8",
    )
    return root


@pytest.fixture
def imported() -> Iterator[list[tuple[str, str]]]:
    """Packages imported by a test (folder, package), forgotten after it."""
    found: list[tuple[str, str]] = []
    yield found
    for folder, package in found:
        sys.path.remove(folder)
        for name in [m for m in sys.modules if m.split(".")[0] == package]:
            del sys.modules[name]


def _import(imported: list[tuple[str, str]], root: Path, module: str) -> Any:
    sys.path.insert(0, str(root / "out"))
    imported.append((str(root / "out"), module.split(".", maxsplit=1)[0]))
    return importlib.import_module(module)


# ---------------------------------------------------------------------------- the key


def test_formats_defaults_to_annotate_and_takes_assert(tmp_path: Path) -> None:
    for formats, asserted in ((None, False), ("annotate", False), ("assert", True)):
        root = _project(tmp_path / str(formats), formats, {"event.json": EVENT}, "p")
        assert load_config(root / "pyproject.toml").loading.asserts_formats is asserted


@pytest.mark.parametrize("value", ['"asserts"', '"Assert"', "true", '["assert"]'])
def test_another_value_is_an_error_naming_the_file_the_key_and_the_values(
    tmp_path: Path, value: str
) -> None:
    root = _project(tmp_path, None, {"event.json": EVENT}, "p")
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text() + f"formats = {value}\n", encoding="utf-8")
    with pytest.raises(CodegenError) as raised:
        load_config(toml)
    error = raised.value
    assert error.rule == "CONFIG"
    assert error.location is not None
    assert (error.location.path, error.location.line) == (toml, 6)  # at the key
    assert "pyproject.toml" in error.message
    assert "formats must be one of 'annotate', 'assert'" in error.message
    code, _ = run(root, "generate")
    assert code == 2


# ---------------------------------------------------------------------------- asserted


@pytest.mark.parametrize(
    ("format_", "message"),
    [("date_time", "format 'date_time' is not asserted"), (7, "format must be a string")],
)
def test_a_format_the_models_do_not_check_is_refused_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], format_: Any, message: str
) -> None:
    schema = json.loads(json.dumps(EVENT))
    schema["properties"]["when"]["format"] = format_
    root = _project(tmp_path, "assert", {"event.json": schema}, "p")
    code, _ = run(root, "generate")
    assert code == 2
    err = capsys.readouterr().err
    assert "schemas/event.json:" in err
    assert "at /properties/when/format" in err
    assert message in err
    assert "(FORMAT)" in err
    assert not (root / "out").exists()  # nothing half-written
    # Annotated, the same schema generates: a format is an annotation.
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text().replace('"assert"', '"annotate"'), encoding="utf-8")
    assert run(root, "generate")[0] == 0


def _strings(format_: str) -> list[tuple[str, bool]]:
    """Every string case of the suite's tests of ``format_`` (both drafts), with its verdict."""
    found = []
    for folder in ("draft7/optional/format", "draft2020-12/optional/format"):
        for group in _suite.groups([format_], folder):
            found += [(c.data, c.valid) for c in group.cases if isinstance(c.data, str)]
    return found


def test_typed_formats_decide_as_the_suite_and_dump_the_text_they_read(
    tmp_path: Path, imported: list[tuple[str, str]]
) -> None:
    root = _project(tmp_path, "assert", {"event.json": EVENT}, "typed_formats")
    assert _corpus._generate(root) == (0, "")
    text = (root / "out/typed_formats/event.py").read_text(encoding="utf-8")
    assert "id: Annotated[JsonUUID, " in text
    assert "host: Annotated[JsonIPv4Address | MISSING" in text
    assert "peers: list[JsonIPv6Address] | MISSING" in text
    assert "when: Annotated[StrictStr" in text  # a leap second is no datetime: a checked string
    assert "tag: Annotated[Any | MISSING" in text  # any JSON value: not a string type
    event = _import(imported, root, "typed_formats.event").Event
    base = {"when": "1998-12-31T23:59:60Z", "id": "2eb8aa08-aa98-11ea-b4aa-73b441d16380"}
    wrong = []
    checked = 0
    fields = (("uuid", "id"), ("ipv4", "host"), ("ipv6", "peers"), ("uuid", "tag"))
    for format_, field in fields:
        for value, valid in _strings(format_):
            document = base | {field: [value] if field == "peers" else value}
            for mode in ("json", "python"):
                try:
                    if mode == "json":
                        model = event.model_validate_json(json.dumps(document))
                    else:
                        model = event.model_validate(document)
                except pydantic.ValidationError:
                    accepted = False
                else:
                    accepted = True
                    # The text read is the text dumped (an upper-case UUID stays upper-case).
                    assert json.loads(model.model_dump_json(exclude_unset=True)) == document
                checked += 1
                if accepted != valid:
                    wrong.append((format_, mode, value, valid))
    assert wrong == []
    assert checked == 2 * sum(len(_strings(format_)) for format_, _ in fields)
    # A value of another type passes a format, as the specification says: where the schema
    # admits it (tag), it is accepted; a date-time is decided exactly (RFC 3339, not lenient).
    assert event.model_validate_json(json.dumps(base | {"tag": 12})).tag == 12
    for bad in ("2020-01-01", "1998-12-31T23:58:60Z", "2020-01-01T00:00:00"):
        with pytest.raises(pydantic.ValidationError):
            event.model_validate_json(json.dumps(base | {"when": bad}))
    # Python mode takes the plain types too, and dumps a string the schema accepts.
    made = event(when="2020-01-01T00:00:00Z", id=UUID(int=1))
    assert json.loads(made.model_dump_json(exclude_unset=True))["id"] == str(UUID(int=1))


U = "2eb8aa08-aa98-11ea-b4aa-73b441d16380"
# Checks beside a typed format read the text, never the value Python would write.
BESIDE = {
    "$schema": D2020,
    "$id": "https://example.com/beside.json",
    "title": "Beside",
    "type": "object",
    "properties": {
        "uids": {
            "type": "array",
            "uniqueItems": True,
            "items": {"type": "string", "format": "uuid"},
        },
        "pin": {"type": "string", "format": "uuid", "enum": [U]},
        "short": {"type": "string", "format": "ipv6", "maxLength": 3},
    },
}
BESIDE_CASES = [
    ({"uids": [U, U.upper()]}, True),  # two strings: unique, though one UUID
    ({"uids": [U, U]}, False),
    ({"pin": U.upper()}, False),  # the enum names the lower-case text only
    ({"pin": U}, True),
    ({"short": "::1"}, True),
    ({"short": "0::1"}, False),  # four characters, though Python writes it "::1"
]


def test_checks_beside_a_typed_format_read_the_text(
    tmp_path: Path, imported: list[tuple[str, str]]
) -> None:
    root = _project(tmp_path, "assert", {"beside.json": BESIDE}, "beside_formats")
    assert _corpus._generate(root) == (0, "")
    beside = _import(imported, root, "beside_formats.beside").Beside
    for document, valid in BESIDE_CASES:
        for model in (
            lambda d: beside.model_validate_json(json.dumps(d)),
            beside.model_validate,
        ):
            try:
                made = model(document)
            except pydantic.ValidationError:
                assert not valid, document
            else:
                assert valid, document
                assert json.loads(made.model_dump_json(exclude_unset=True)) == document


def test_a_consumer_reads_typed_format_fields_under_mypy_strict(tmp_path: Path) -> None:
    root = _project(tmp_path / "project", "assert", {"event.json": EVENT}, "typed_consumer")
    assert _corpus._generate(root) == (0, "")
    program = (
        "from ipaddress import IPv4Address, IPv6Address\n"
        "from uuid import UUID\n"
        "from pydantic import MISSING\n"
        "from typed_consumer.event import Event\n"
        "def key(event: Event) -> tuple[UUID, int, str]:\n"
        "    host: IPv4Address | None = None if event.host is MISSING else event.host\n"
        "    peers: list[IPv6Address] = [] if event.peers is MISSING else list(event.peers)\n"
        "    return event.id, len(peers) + (host.packed[0] if host else 0), event.when\n"
        "def version(event: Event) -> int:\n"
        "    return event.id.version or 0\n"
    )
    done = mypy_strict(program, root / "out", tmp_path)
    assert done.returncode == 0, done.stdout
    wrong = program.replace("tuple[UUID, int, str]", "tuple[str, int, str]")
    assert mypy_strict(wrong, root / "out", tmp_path).returncode == 1  # the types are real


# ---------------------------------------------------------------------------- annotated


def test_annotated_formats_stay_strings_and_are_documented(
    tmp_path: Path, imported: list[tuple[str, str]]
) -> None:
    root = _project(tmp_path, None, {"event.json": EVENT}, "annotated_formats")
    assert _corpus._generate(root) == (0, "")
    text = (root / "out/annotated_formats/event.py").read_text(encoding="utf-8")
    assert "id: Annotated[StrictStr, Field(description='Format: uuid.')]" in text.replace('"', "'")
    assert "When it happened. Format: date-time." in text
    assert "_format" not in text
    assert "_format" not in (root / "out/annotated_formats/_types.py").read_text()
    catalog = (root / "docs/contracts.md").read_text(encoding="utf-8")
    assert "| `when` | string (format date-time) | required | When it happened. |" in catalog
    assert "asserted" not in catalog
    event = _import(imported, root, "annotated_formats.event").Event
    for value, _ in _strings("uuid") + _strings("date-time"):
        document = {"when": value, "id": value}
        assert event.model_validate_json(json.dumps(document)).model_dump() == document


# ---------------------------------------------------------------------------- breaking


def _compare(tmp_path: Path, before: dict[str, Any], after: dict[str, Any], asserts: bool) -> Any:
    sides = []
    for name, schema in (("previous", before), ("current", after)):
        (tmp_path / name).mkdir(parents=True, exist_ok=True)
        (tmp_path / name / "event.json").write_text(json.dumps(schema), encoding="utf-8")
        options = LoadOptions(asserts_formats=asserts)
        sides.append(Side(load_tree(tmp_path / name, options=options), name))
    return [(f.rule, f.pointer) for f in compare(sides[0], sides[1])]


def test_breaking_reads_a_format_as_the_setting_says(tmp_path: Path) -> None:
    before = json.loads(json.dumps(EVENT))
    added = json.loads(json.dumps(EVENT))
    added["properties"]["host"]["format"] = "ipv6"  # another format
    added["properties"]["peers"]["items"].pop("format")  # a format removed
    added["properties"]["tag"]["type"] = "string"  # no format change
    assert _compare(tmp_path / "a", before, added, asserts=False) == [
        ("TYPE_NARROWED", "/properties/tag/type")
    ]
    found = _compare(tmp_path / "b", before, added, asserts=True)
    assert sorted(found) == [
        ("CONSTRAINT_LOOSENED", "/properties/host/format"),  # another format: both directions
        ("CONSTRAINT_LOOSENED", "/properties/peers/items/format"),  # removed: forward only
        ("CONSTRAINT_TIGHTENED", "/properties/host/format"),
        ("TYPE_NARROWED", "/properties/tag/type"),
    ]
    same = _compare(tmp_path / "c", before, before, asserts=True)
    assert same == []
    required = json.loads(json.dumps(EVENT))
    required["required"].append("host")  # a change elsewhere keeps its own finding
    assert _compare(tmp_path / "d", before, required, asserts=True) == [
        ("PROPERTY_MADE_REQUIRED", "/properties/host")
    ]


def test_the_witness_strings_of_each_format_are_of_it_or_not() -> None:
    check = format_check()
    for name in ASSERTED:
        assert all(check(name, text) for text in format_examples(name, inside=True))
        outside = format_examples(name, inside=False)
        assert outside
        assert not any(check(name, text) for text in outside)


def test_breaking_sees_a_switch_to_asserted_formats(tmp_path: Path) -> None:
    root = _project(tmp_path, None, {"event.json": EVENT}, "p")
    assert git(root, "init", "-q", "-b", "main").returncode == 0
    git(root, "add", "-A")
    assert git(root, "commit", "-qm", "first").returncode == 0
    assert run(root, "breaking")[0] == 0
    toml = root / "pyproject.toml"
    toml.write_text(toml.read_text() + 'formats = "assert"\n', encoding="utf-8")
    code, out = run(root, "breaking")
    assert code == 1, out
    assert 'The format of property "when" of Event' in out
    assert "(CONSTRAINT_TIGHTENED)" in out
    assert 'witness: {"id": "", "when": "\\u0000"}' in out
