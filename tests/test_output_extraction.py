"""validate_output on the edge cases of extraction: one table, each row's exact outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from maverick.exceptions import OutputValidationError
from maverick.output._fences import find_json_block, line_col, scan_fences
from maverick.output._validate import validate_output
from tests._output_models import Findings, Report, agent_output, fenced, finding, report

ANSWER = report(2)
OTHER = report(1, summary="the draft")
BODY = json.dumps(ANSWER, indent=2)


def ok(data: Any = ANSWER, model: type[BaseModel] = Report) -> BaseModel:
    return model.model_validate(data)


def indented(body: str, spaces: str, info: str = "json") -> str:
    lines = [spaces + "```" + info, *(spaces + line for line in body.splitlines()), spaces + "```"]
    return "Result:\n" + "\n".join(lines) + "\n"


CASES = [
    # raw, model, expected (a model instance, or the stage of the error), validate_output kwargs
    pytest.param("", Report, "extraction", {}, id="empty output"),
    pytest.param(" \n\t\r\n", Report, "extraction", {}, id="whitespace only"),
    pytest.param("No findings, all good.", Report, "extraction", {}, id="no block"),
    pytest.param(
        'Here it is: {"summary": "x", "findings": []}',
        Report,
        "extraction",
        {},
        id="JSON in prose is never taken",
    ),
    pytest.param(fenced(BODY, info=""), Report, "extraction", {}, id="untagged block only"),
    pytest.param(fenced(BODY, info="jsonc"), Report, "extraction", {}, id="jsonc is not json"),
    pytest.param(fenced(BODY, info="JSON"), Report, ok(), {}, id="```JSON"),
    pytest.param(fenced(BODY, info="Json"), Report, ok(), {}, id="```Json"),
    pytest.param(fenced(BODY, fence="~~~"), Report, ok(), {}, id="~~~json"),
    pytest.param(fenced(BODY, info="json {.answer}"), Report, ok(), {}, id="json with attributes"),
    pytest.param(fenced(BODY, info="  json  "), Report, ok(), {}, id="json with spaces around"),
    pytest.param(fenced(BODY, fence="`````"), Report, ok(), {}, id="five-backtick json fence"),
    pytest.param(
        "Example of the format:\n````markdown\n```json\n"
        + json.dumps(OTHER)
        + "\n```\n````\n\nThe answer:\n"
        + fenced(BODY),
        Report,
        ok(),
        {},
        id="4-backtick outer block holding a ```json example",
    ),
    pytest.param(
        "````markdown\n```json\n" + BODY + "\n```\n````\n",
        Report,
        "extraction",
        {},
        id="a ```json inside a longer outer block only is content",
    ),
    pytest.param(
        agent_output(report(1, summary="wrap code in ```json fences``` and ~~~ too")),
        Report,
        ok(report(1, summary="wrap code in ```json fences``` and ~~~ too")),
        {},
        id="JSON string value containing ```",
    ),
    pytest.param(
        agent_output(report(1, summary="line one\n```\nline three")),
        Report,
        ok(report(1, summary="line one\n```\nline three")),
        {},
        id="JSON string value with an escaped newline and ```",
    ),
    pytest.param(
        agent_output(ANSWER, before="First:\n```python\nprint('{}')\n```\n\n"),
        Report,
        ok(),
        {},
        id="```python block before the answer",
    ),
    pytest.param(
        agent_output(ANSWER, before="Intro.\n", after="\nHope this helps! Ask me anything.\n"),
        Report,
        ok(),
        {},
        id="trailing prose",
    ),
    pytest.param(
        agent_output(ANSWER, after="\nTo apply:\n```bash\nmake fix\n```\n"),
        Report,
        ok(),
        {},
        id="a ```bash block after the answer",
    ),
    pytest.param("Result:\n```json\n" + BODY + "\n", Report, "extraction", {}, id="unclosed fence"),
    pytest.param(
        "```json\n" + BODY + "\n``` done\n",
        Report,
        "extraction",
        {},
        id="a closing fence followed by text does not close",
    ),
    pytest.param(
        "```json\n" + BODY + "\n```  \t\n", Report, ok(), {}, id="closing fence + spaces, tabs"
    ),
    pytest.param("````json\n" + BODY + "\n`````\n", Report, ok(), {}, id="longer closing fence"),
    pytest.param(
        "````json\n" + BODY + "\n```\n",
        Report,
        "extraction",
        {},
        id="shorter closing fence does not close",
    ),
    pytest.param(
        "~~~json\n" + BODY + "\n```\n",
        Report,
        "extraction",
        {},
        id="closing fence of the other character does not close",
    ),
    pytest.param("```json\n```\n", Report, "json_parse", {}, id="empty json block"),
    pytest.param(
        agent_output({"summary": "x"}), Report, "validation", {}, id="valid JSON, wrong shape"
    ),
    pytest.param(
        agent_output([finding(0), finding(1)]),
        Findings,
        ok([finding(0), finding(1)], Findings),
        {},
        id="top-level array",
    ),
    pytest.param(
        agent_output([finding(0)]), Report, "validation", {}, id="top-level array, object wanted"
    ),
    pytest.param(
        agent_output(OTHER, after="\nActually:\n") + fenced(BODY),
        Report,
        ok(),
        {},
        id="duplicate blocks: the last wins",
    ),
    pytest.param(
        fenced("{not json") + fenced(BODY), Report, ok(), {}, id="an invalid draft, then the answer"
    ),
    pytest.param(
        fenced(BODY) + fenced('{"summary": 1}'),
        Report,
        "validation",
        {},
        id="the last block wins even when invalid",
    ),
    pytest.param(
        agent_output(ANSWER, before="Intro\r\n").replace("\n", "\r\n"),
        Report,
        ok(),
        {},
        id="CRLF text",
    ),
    pytest.param(
        agent_output(ANSWER, before="Intro\n").replace("\n", "\r"),
        Report,
        ok(),
        {},
        id="lone-CR text",
    ),
    pytest.param("\ufeff" + fenced(BODY), Report, ok(), {}, id="BOM"),
    pytest.param(("\ufeff" + fenced(BODY)).encode(), Report, ok(), {}, id="BOM in bytes"),
    pytest.param(fenced(BODY).encode(), Report, ok(), {}, id="UTF-8 bytes"),
    pytest.param(indented(BODY, " "), Report, ok(), {}, id="fence indented 1 space"),
    pytest.param(indented(BODY, "  "), Report, ok(), {}, id="fence indented 2 spaces"),
    pytest.param(indented(BODY, "   "), Report, ok(), {}, id="fence indented 3 spaces"),
    pytest.param(
        indented(BODY, "    "), Report, "extraction", {}, id="4 spaces: indented code, no fence"
    ),
    pytest.param(indented(BODY, "\t"), Report, "extraction", {}, id="tab-indented fence"),
    pytest.param(
        "Done:\n\n```json\n" + BODY + "\n```\n\n\t```json\n{}\n\t```\n",
        Report,
        ok(),
        {},
        id="a tab-indented fence after the answer is not a block",
    ),
    pytest.param(
        "```json`\n" + BODY + "\n```\n",
        Report,
        "extraction",
        {},
        id="backtick in a backtick fence's info: no fence",
    ),
    pytest.param(
        agent_output(report(1, summary="a\u2028b\u0085c\x0cd")),
        Report,
        ok(report(1, summary="a\u2028b\u0085c\x0cd")),
        {},
        id="U+2028, NEL and form feed are not line breaks",
    ),
    pytest.param(
        fenced('{"summary": "x", "findings": [], "metadata": {"x": NaN}}'),
        Report,
        "json_parse",
        {},
        id="NaN",
    ),
    pytest.param(
        fenced(BODY.replace('"confidence": 0.5', '"confidence": Infinity', 1)),
        Report,
        "json_parse",
        {},
        id="Infinity",
    ),
    pytest.param(
        fenced(BODY.replace('"confidence": 0.5', '"confidence": -Infinity', 1)),
        Report,
        "json_parse",
        {},
        id="-Infinity",
    ),
    pytest.param(
        fenced('{"summary": "x", "findings": [], "metadata": {"x": ' + "[" * 100_000 + "}}"),
        Report,
        "json_parse",
        {},
        id="nesting bomb",
    ),
    pytest.param(
        fenced(BODY.replace('"confidence": 0.5', '"confidence": 1e999999', 1)),
        Report,
        "json_parse",
        {},
        id="huge number 1e999999",
    ),
    pytest.param(
        fenced('{"summary": "x", "findings": [], "metadata": {"n": ' + "1" * 100_001 + "}}"),
        Report,
        "json_parse",
        {},
        id="huge number of 100,001 digits",
    ),
    pytest.param(
        b"Intro \xff\n" + fenced(BODY).encode(), Report, "extraction", {}, id="invalid UTF-8 bytes"
    ),
    pytest.param(
        fenced('{"summary": "\ud800", "findings": []}'),
        Report,
        "json_parse",
        {},
        id="lone surrogate",
    ),
    pytest.param(
        fenced('{"summary": "\\ud800", "findings": []}'),
        Report,
        "json_parse",
        {},
        id="escaped lone surrogate",
    ),
    pytest.param(fenced(BODY), Report, "extraction", {"max_bytes": 100}, id="size limit"),
    pytest.param(
        fenced(BODY).encode(), Report, "extraction", {"max_bytes": 100}, id="size limit, bytes"
    ),
]


@pytest.mark.parametrize(("raw", "model", "expected", "kwargs"), CASES)
def test_edge_cases(
    raw: str | bytes, model: type[BaseModel], expected: BaseModel | str, kwargs: dict[str, Any]
) -> None:
    if isinstance(expected, str):
        with pytest.raises(OutputValidationError) as info:
            validate_output(raw, model, **kwargs)
        assert info.value.stage == expected
        assert info.value.expected_model == model.__name__
    else:
        result = validate_output(raw, model, **kwargs)
        assert type(result) is model
        assert result == expected


def test_unclosed_fence_is_reported_as_truncation() -> None:
    raw = "Intro\n\n```json\n" + BODY
    with pytest.raises(OutputValidationError) as info:
        validate_output(raw, Report)
    error = info.value
    assert error.stage == "extraction"
    assert "truncated" in error.parse_error
    assert "opened at line 3 was never closed" in error.parse_error
    assert (error.line, error.column) == (3, 1)


def test_no_json_block_message_names_the_other_blocks() -> None:
    raw = "```python\nx = 1\n```\n\n```\n{}\n```\n" + "~~~yaml\na: 1\n~~~\n" * 3
    with pytest.raises(OutputValidationError) as info:
        validate_output(raw, Report)
    message = info.value.parse_error
    assert "no ```json fenced block" in message
    assert "```python at line 1" in message
    assert "untagged ``` at line 5" in message
    assert "~~~yaml at line 8" in message
    assert "and more" in message


def test_no_block_at_all_message() -> None:
    with pytest.raises(OutputValidationError) as info:
        validate_output("just prose", Report)
    assert "no fenced block at all" in info.value.parse_error


@pytest.mark.parametrize("spaces", [1, 2, 3])
def test_indented_fence_content_is_dedented(spaces: int) -> None:
    text = indented('{\n  "a": 1\n}', " " * spaces)
    [block] = scan_fences(text)
    assert block.indent == spaces
    assert block.content == '{\n  "a": 1\n}\n'
    assert block.is_json


def test_dedent_follows_commonmark_for_tabs_and_short_indents() -> None:
    # Up to N columns removed; a tab straddling the limit leaves its remaining columns.
    text = "  ```\n\tx\n y\n    z\n  ```\n"
    [block] = scan_fences(text)
    assert block.content == "  x\ny\n  z\n"


def test_block_offsets_point_into_the_text() -> None:
    text = "ab\r\n  ~~~~json x\r\n{}\r\n  ~~~~~ \r\ntail"
    [block] = scan_fences(text)
    assert block.fence == "~~~~"
    assert block.info == "json x"
    assert block.lang == "json"
    assert (block.line, block.column) == (2, 3)
    assert block.raw_content == "{}\r\n"
    assert text[block.end :] == "\r\ntail"
    assert block.closed


def test_speculation_falls_back_to_the_exact_scan() -> None:
    """First json opener + last fence-looking line span two blocks: not JSON, so scan again."""
    text = fenced(json.dumps(OTHER)) + "prose\n" + fenced(BODY)
    guess = find_json_block(text, speculative=True)
    assert not guess.exact
    exact = find_json_block(text)
    assert guess.block is not None
    assert exact.block is not None
    assert guess.block.content_start < exact.block.content_start
    assert validate_output(text, Report) == ok()


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        ("abc", 0, (1, 1)),
        ("abc", 3, (1, 4)),
        ("a\nb", 2, (2, 1)),
        ("a\r\nb", 3, (2, 1)),
        ("a\r\nb", 2, (1, 2)),  # the "\n" of a "\r\n" is on the line it ends
        ("a\rb\rc", 4, (3, 1)),
        ("a\u2028b\nc", 2, (1, 3)),
    ],
)
def test_line_col(text: str, offset: int, expected: tuple[int, int]) -> None:
    assert line_col(text, offset) == expected
