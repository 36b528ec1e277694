"""``maverick-codegen format``: the canonical layout, and nothing else, or a refusal.

The oracle reads JSON exactly: numbers as decimals (with their sign and kind), every object as
its list of members in order. A rewrite is possible exactly when ``json.dumps(json.loads(text))``
reads back as the same document: the formatter must then keep the document, and refuse
(``FORMAT_EXACT``, with a position) only when it is not.
"""

from __future__ import annotations

import io
import json
import os
import stat
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.cli import main
from codegen.core.errors import SchemaError
from codegen.core.jsonpos import JsonPositions
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.lint import formatter
from codegen.lint.engine import LintContext
from codegen.lint.layout import KEY_ORDER, json_formatted, key_order
from tests.conftest import REPO

# ------------------------------------------------------------------------------- the oracle


def exact(text: str) -> Any:
    """The document as written: objects as member lists, numbers as (kind, decimal, sign)."""

    def number(kind: str) -> Any:
        return lambda s: (kind, str(Decimal(s).normalize()))

    def constant(name: str) -> Any:
        raise ValueError(name)

    return json.loads(
        text,
        object_pairs_hook=lambda pairs: ("object", tuple(pairs)),
        parse_float=number("float"),
        parse_int=number("int"),
        parse_constant=constant,
    )


def same_document(before: str, after: str) -> bool:
    """Equal as written, except that top-level keys of KEY_ORDER may trade places."""
    (_, old), (_, new) = exact(before), exact(after)
    others = [key for key, _ in old if key not in KEY_ORDER]
    return sorted(old, key=repr) == sorted(new, key=repr) and others == [
        key for key, _ in new if key not in KEY_ORDER
    ]


def rewritable(text: str) -> bool:
    try:
        again = json.dumps(json.loads(text), ensure_ascii=False)
        again.encode("utf-8")
        return exact(again) == exact(text)
    except (ValueError, UnicodeEncodeError):
        return False


def layout_findings(path: Path, text: str) -> list[str]:
    schema = SchemaFile(path, PurePosixPath(path.name), text, json.loads(text), JsonPositions(text))
    ctx = LintContext(SchemaTree(path.parent, (schema,)), {})
    return [f.rule for check in (json_formatted, key_order) for f in check(ctx)]


# ------------------------------------------------------------------- documents, spelled out

SPECIAL_NUMBERS = ["1.0", "1", "-0.0", "-0", "0", "1E2", "1e+2", "1.50", "-1.5e-3", "1e400",
                   "-1e400", "1e-400", "0.1000000000000000000001", "12345678901234567890123456789",
                   "1.7976931348623157e308", "5e-324", "0.30000000000000004"]  # fmt: skip
SPECIAL_STRINGS = ["", "é", "日本", "😀", "\ud800", "a\udfffb", '"\\/', "\n\t\x00\x7f", "\u2028"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(SPECIAL_NUMBERS).map(lambda s: ("number", s)),
    st.text(max_size=8),
    st.sampled_from(SPECIAL_STRINGS),
)
keys = st.one_of(st.text(max_size=6), st.sampled_from([*KEY_ORDER, *SPECIAL_STRINGS]))
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(st.tuples(keys, inner), max_size=4, unique_by=lambda kv: kv[0]).map(
            lambda pairs: ("object", pairs)
        )
    ),
    max_leaves=20,
)
top_level = st.lists(
    st.tuples(keys, values), min_size=0, max_size=10, unique_by=lambda kv: kv[0]
).map(lambda pairs: ("object", pairs))


def spell_string(value: str, draw: Any) -> str:
    """A JSON string literal for ``value``, each character plain or escaped at random."""
    parts = ['"']
    for char in value:
        code = ord(char)
        if char in '"\\' or code < 0x20 or 0xD800 <= code <= 0xDFFF or draw(st.booleans()):
            if code > 0xFFFF:
                high, low = divmod(code - 0x10000, 0x400)
                parts.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04X}")
            else:
                parts.append(f"\\u{code:04x}")
        else:
            parts.append(char)
    return "".join(parts) + '"'


def spell(node: Any, draw: Any, indent: str, depth: int = 0) -> str:
    """JSON text for a drawn node, in a layout (and number spellings) drawn at random."""
    if isinstance(node, tuple) and node[0] == "number":
        return str(node[1])
    if isinstance(node, str):
        return spell_string(node, draw)
    if isinstance(node, bool) or node is None:
        return json.dumps(node)
    if isinstance(node, int):
        return str(node)
    if isinstance(node, float):
        text = repr(node)
        return draw(st.sampled_from([text, text.upper(), f"{Decimal(text):E}"]))
    inner, outer = "\n" + indent * (depth + 1), "\n" + indent * depth
    if isinstance(node, list):
        items = [spell(item, draw, indent, depth + 1) for item in node]
        return (
            "["
            + "".join(f"{inner}{i}," for i in items).rstrip(",")
            + (outer if items else "")
            + "]"
        )
    members = [
        f"{spell_string(k, draw)}{draw(st.sampled_from([':', ': ', ' :']))}"
        f"{spell(v, draw, indent, depth + 1)}"
        for k, v in node[1]
    ]
    return (
        "{"
        + "".join(f"{inner}{m}," for m in members).rstrip(",")
        + (outer if members else "")
        + "}"
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_format_keeps_the_document_or_refuses_exactly_when_it_cannot(data: st.DataObject) -> None:
    node = data.draw(top_level)
    indent = data.draw(st.sampled_from(["", " ", "  ", "    ", "\t"]))
    text = spell(node, data.draw, indent)
    if data.draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    text += data.draw(st.sampled_from(["", "\n", "\n\n", "  "]))
    path = Path("schemas/doc.json")
    if not rewritable(text):
        with pytest.raises(SchemaError, match="cannot be reformatted exactly") as refused:
            formatter.format_text(path, text.encode("utf-8"))
        assert refused.value.rule == "FORMAT_EXACT"
        assert refused.value.location is not None
        assert refused.value.location.pointer in JsonPositions(text)._scan[1]
        return
    before, after = formatter.format_text(path, text.encode("utf-8"))
    assert before == text
    assert same_document(text, after)
    assert layout_findings(path, after) == []
    # ... and the rules pass exactly on the files format leaves alone
    assert (after == text) == (layout_findings(path, text) == [])
    assert formatter.format_text(path, after.encode("utf-8")) == (after, after)  # idempotent


@pytest.mark.parametrize(
    ("text", "where", "reason"),
    [
        ('{"a": 1e400}', "1:7", "1e400 is beyond the range of a double"),
        ('{"a": [1,\n  1e-400]}', "2:3", "1e-400 is not exactly a double: it would become 0.0"),
        ('{"a": 0.1000000000000000000001}', "1:7", "would become 0.1"),
        ('{"a": {"b": -0}}', "1:13", "-0 would be written as 0"),
        ('{"\\ud800": 1}', "1:2", "lone surrogate \\ud800"),
    ],
)
def test_what_cannot_be_kept_is_refused_with_its_place(text: str, where: str, reason: str) -> None:
    with pytest.raises(SchemaError) as caught:
        formatter.format_text(Path("s.json"), text.encode())
    assert str(caught.value).startswith(f"s.json:{where}: cannot be reformatted exactly")
    assert reason in str(caught.value)
    assert caught.value.rule == "FORMAT_EXACT"


def test_duplicate_keys_are_refused_where_the_second_one_is_written() -> None:
    text = '{\n  "a": {"x": 1,\n   "x": 2}, "b": 1}'
    with pytest.raises(SchemaError) as caught:
        formatter.format_text(Path("s.json"), text.encode())
    assert str(caught.value) == "s.json:3:4: malformed JSON: duplicate key 'x' at /a/x (JSON)"


def test_what_can_be_kept_is_kept_as_written() -> None:
    text = '{"a": [1.0, 1, -0.0, 1E2, 1.50, 123456789012345678901234567890, "\\u00e9\\/"]}'
    _, after = formatter.format_text(Path("s.json"), text.encode())
    assert json.loads(after)["a"] == [
        1.0,
        1,
        -0.0,
        100.0,
        1.5,
        123456789012345678901234567890,
        "é/",
    ]
    assert "1.0,\n    1,\n    -0.0,\n    100.0,\n    1.5,\n" in after


def test_every_schema_of_this_project_is_already_canonical() -> None:
    for path in sorted((REPO / "schemas").rglob("*.json")):
        before, after = formatter.format_text(path, path.read_bytes())
        assert before == after, path


def test_no_json_object_in_this_repository_changes_its_document() -> None:
    skip = {"node_modules", ".venv", ".git"}
    checked = 0
    for path in sorted(REPO.rglob("*.json")):
        if skip.intersection(path.relative_to(REPO).parts):
            continue
        text = path.read_text(encoding="utf-8")
        if not text.lstrip().startswith("{"):
            continue
        before, after = formatter.format_text(path, text.encode())
        assert same_document(before, after), path
        checked += 1
    assert checked > 100


# ------------------------------------------------------------------------------ the command


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out"\npackage = "out"\n'
    )
    for rel, text in files.items():
        (tmp_path / "schemas" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "schemas" / rel).write_text(text)
    return tmp_path


def cli(root: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["--config", str(root / "pyproject.toml"), "format", *args], out=out)
    return code, out.getvalue()


UNFORMATTED = '{"title": "Order", "$schema": "x", "type": "object"}'
CANONICAL = '{\n  "$schema": "x",\n  "title": "Order",\n  "type": "object"\n}\n'


def test_check_lists_what_it_would_change_and_writes_nothing(tmp_path: Path) -> None:
    root = project(tmp_path, {"orders/order.json": UNFORMATTED, "ok.json": CANONICAL})
    code, out = cli(root, "--check")
    assert code == 1
    assert out.splitlines() == [
        "would reformat schemas/orders/order.json",
        "1 file would be reformatted, 1 already formatted",
    ]
    assert (root / "schemas/orders/order.json").read_text() == UNFORMATTED


def test_format_rewrites_in_place_keeping_the_mode(tmp_path: Path) -> None:
    root = project(tmp_path, {"orders/order.json": UNFORMATTED, "ok.json": CANONICAL})
    order = root / "schemas/orders/order.json"
    order.chmod(0o640)
    code, out = cli(root)
    assert code == 0, out
    assert "reformatted schemas/orders/order.json" in out
    assert order.read_text() == CANONICAL
    assert stat.S_IMODE(order.stat().st_mode) == 0o640
    assert cli(root, "--check")[0] == 0
    assert sorted(p.name for p in order.parent.iterdir()) == ["order.json"]


def test_files_and_folders_can_be_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path, {"a/one.json": UNFORMATTED, "b/two.json": UNFORMATTED})
    monkeypatch.chdir(root)
    assert main(["format", "schemas/a"], out=io.StringIO()) == 0
    assert (root / "schemas/a/one.json").read_text() == CANONICAL
    assert (root / "schemas/b/two.json").read_text() == UNFORMATTED


def test_bad_input_exits_2_naming_file_place_and_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(
        tmp_path,
        {"bad.json": '{"a": [1,\n  1e400]}', "broken.json": '{"a": 1,,}', "x.json": UNFORMATTED},
    )
    code, _ = cli(root)
    err = capsys.readouterr().err
    assert code == 2
    assert f"{root}/schemas/bad.json:2:3: cannot be reformatted exactly" in err
    assert "(FORMAT_EXACT)" in err
    assert f"{root}/schemas/broken.json:1:9: malformed JSON" in err
    assert (root / "schemas/bad.json").read_text() == '{"a": [1,\n  1e400]}'
    assert (root / "schemas/x.json").read_text() == CANONICAL  # the others are still formatted
    assert "Traceback" not in err
    code, _ = cli(root, str(root / "pyproject.toml"))
    assert code == 2
    assert "is not inside the schema folder schemas (FORMAT_INPUT)" in capsys.readouterr().err
    code, _ = cli(root, str(root / "schemas/nope.json"))
    assert code == 2
    assert "no such file or folder" in capsys.readouterr().err
    outside = root / "outside.json"
    outside.write_text(UNFORMATTED)
    (root / "schemas/link.json").symlink_to(outside)
    code, _ = cli(root)
    assert code == 2
    assert "link.json is not inside the schema folder schemas" in capsys.readouterr().err
    assert outside.read_text() == UNFORMATTED


def test_an_interrupted_write_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, {"order.json": UNFORMATTED})

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cli(root)
    assert [p.name for p in (root / "schemas").iterdir()] == ["order.json"]  # no temp file
    assert (root / "schemas/order.json").read_text() == UNFORMATTED
