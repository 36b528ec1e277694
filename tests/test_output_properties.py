"""Properties of validate_output: it never raises anything else, and it finds the answer."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maverick.exceptions import OutputValidationError
from maverick.output._validate import validate_output
from tests._output_models import Findings, Report

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --- any text ---------------------------------------------------------------------------------

PIECES = [
    "```",
    "````",
    "~~~",
    "```json",
    "~~~JSON",
    "```json {x}",
    "   ```",
    "    ```",
    "\t```",
    "```json`",
    "\n",
    "\r\n",
    "\r",
    "\u2028",
    "\ufeff",
    "\ud800",
    "\x00",
    " ",
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    ",",
    '"summary"',
    '"findings"',
    "NaN",
    "-Infinity",
    "1e999",
    "9" * 30,
    "null",
    '{"summary": "s", "findings": []}',
    '[{"file": "f", "line": 1, "severity": "info", "message": "m"}]',
]

any_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), max_size=40).map("".join),
)
any_bytes = st.one_of(
    st.binary(max_size=200),
    any_text.map(lambda text: text.encode("utf-8", "surrogatepass")),
)


@SETTINGS
@given(st.one_of(any_text, any_bytes), st.sampled_from([Report, Findings]))
def test_any_input_gives_a_model_or_an_output_validation_error(
    raw: str | bytes, model: type[Report] | type[Findings]
) -> None:
    error: OutputValidationError | None = None
    try:
        result = validate_output(raw, model)
    except OutputValidationError as exc:
        error = exc
    if error is None:
        assert isinstance(result, model)
    else:
        assert error.stage in ("extraction", "json_parse", "validation")
        assert error.line is None or error.line >= 1
        assert error.column is None or error.column >= 1
    lenient = validate_output(raw, model, strict=False)
    assert lenient is None or isinstance(lenient, model)


# --- a valid answer in any surrounding markdown -------------------------------------------------

strings = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["```", "```json\n{}\n```", "~~~", "line\r\nbreak", "\u2028", "NaN"]),
)
finite = st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | finite | strings,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(strings, children, max_size=3)
    ),
    max_leaves=8,
)
findings = st.fixed_dictionaries(
    {
        "file": strings,
        "line": st.integers(1, 10**9),
        "severity": st.sampled_from(["critical", "major", "minor", "info"]),
        "message": strings,
        "confidence": finite,
        "suggestion": st.none() | strings,
    }
)
reports = st.fixed_dictionaries(
    {
        "summary": strings,
        "findings": st.lists(findings, max_size=4),
        "metadata": st.dictionaries(strings, json_values, max_size=3),
    }
)

# A prose line never starts with a space, a backtick or a tilde: it cannot be a fence.
prose_lines = st.builds(
    lambda head, rest: head + rest,
    st.sampled_from(list("aZ#>-*1<[|")),
    st.text(st.characters(exclude_characters="\r\n"), max_size=30),
)


def closes(line: str, char: str, length: int) -> bool:
    return re.fullmatch(rf" {{0,3}}{re.escape(char)}{{{length},}}[ \t]*", line) is not None


@st.composite
def other_blocks(draw: st.DrawFn, *, json_allowed: bool) -> list[str]:
    """A closed fenced block that is not json (or, when allowed, an earlier json draft)."""
    char = draw(st.sampled_from("`~"))
    length = draw(st.integers(3, 6))
    infos = ["", "python", "markdown", "jsonc", "text json"]
    if char == "~":
        infos.append("a ` b")
    if json_allowed:
        infos.append("json")
    info = draw(st.sampled_from(infos))
    content = draw(
        st.lists(
            st.one_of(
                prose_lines,
                st.sampled_from(["", "```", "```json", "~~~", "````", "    ~~~~~~", '{"a": 1}']),
            ),
            max_size=4,
        )
    )
    content = [line for line in content if not closes(line, char, length)]
    indent = " " * draw(st.integers(0, 3))
    closing = " " * draw(st.integers(0, 3)) + char * draw(st.integers(length, length + 2))
    return [indent + char * length + info, *content, closing + draw(st.sampled_from(["", " \t"]))]


@st.composite
def prose(draw: st.DrawFn, *, json_allowed: bool) -> list[str]:
    lines: list[str] = []
    for part in draw(
        st.lists(
            st.one_of(
                prose_lines.map(lambda line: [line]),
                st.just([""]),
                other_blocks(json_allowed=json_allowed),
            ),
            max_size=5,
        )
    ):
        lines.extend(part)
    return lines


@st.composite
def documents(draw: st.DrawFn) -> tuple[dict[str, Any], str | bytes]:
    data = draw(reports)
    body = json.dumps(
        data,
        indent=draw(st.sampled_from([None, 2, "\t"])),
        ensure_ascii=draw(st.booleans()),
    )
    char = draw(st.sampled_from("`~"))
    length = draw(st.integers(3, 5))
    indent = " " * draw(st.integers(0, 3))
    info = draw(st.sampled_from(["json", "JSON", "Json", "json {.answer}", " json "]))
    answer = [
        indent + char * length + info,
        *(indent + line for line in body.split("\n")),
        " " * draw(st.integers(0, 3)) + char * draw(st.integers(length, length + 2)),
    ]
    lines = [*draw(prose(json_allowed=True)), *answer, *draw(prose(json_allowed=False))]
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    if draw(st.booleans()):
        text = "\ufeff" + text
    encodable = not re.search("[\ud800-\udfff]", text)  # prose may hold lone surrogates
    return data, (text.encode() if encodable and draw(st.booleans()) else text)


@SETTINGS
@given(documents())
def test_a_valid_answer_is_recovered_exactly(document: tuple[dict[str, Any], str | bytes]) -> None:
    data, raw = document
    expected = Report.model_validate(data)
    assert validate_output(raw, Report) == expected
    assert validate_output(raw, Report, strict=False) == expected


@SETTINGS
@given(documents(), st.integers(0, 400))
def test_a_cut_answer_is_never_taken_for_a_good_one(
    document: tuple[dict[str, Any], str | bytes], cut: int
) -> None:
    """Output cut anywhere inside the answer is an error (or, if the cut is after it, the
    answer itself): never something else."""
    data, raw = document
    text = raw.decode() if isinstance(raw, bytes) else raw
    cut_text = text[: max(0, len(text) - cut)]
    result = validate_output(cut_text, Report, strict=False)
    assert result is None or result == Report.model_validate(data)
