"""validate_output's error model: stages, positions, field errors, limits, logging, chunks."""

from __future__ import annotations

import json
import logging
import weakref
from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Discriminator, Field, RootModel

import maverick.output._finite as finite_module
from maverick.exceptions import FieldError, MaverickError, OutputValidationError
from maverick.output._validate import (
    DEFAULT_MAX_BYTES,
    ChunkedOutputs,
    ChunkError,
    validate_output,
    validate_outputs,
)
from tests._output_models import Finding, Findings, Report, agent_output, fenced, finding, report

LOGGER = "maverick.agents.output"


def failure(
    raw: str | bytes, model: type[BaseModel] = Report, **kwargs: Any
) -> OutputValidationError:
    with pytest.raises(OutputValidationError) as info:
        validate_output(raw, model, **kwargs)
    return info.value


def with_metadata(raw_json: str) -> str:
    """A Report body whose metadata is the given JSON text, verbatim."""
    return '{"summary": "x", "findings": [], "metadata": ' + raw_json + "}"


# --- stages and positions --------------------------------------------------------------------


def test_error_is_a_maverick_error_with_its_data() -> None:
    error = failure(agent_output({"summary": "x"}))
    assert isinstance(error, MaverickError)
    assert error.expected_model == "Report"
    assert error.stage == "validation"
    assert "validation stage for Report" in str(error)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_json_syntax_error_position_is_in_the_raw_text(newline: str) -> None:
    raw = newline.join(
        ["Intro", "", "```json", "{", '  "summary": "x",', '  "findings": [1,, 2]', "}", "```", ""]
    )
    error = failure(raw)
    assert error.stage == "json_parse"
    assert error.parse_error == "invalid JSON: expected value"
    assert (error.line, error.column) == (6, 18)  # the second comma
    assert error.field_errors == (FieldError((), error.field_errors[0].message, "json_invalid"),)


def test_json_error_column_counts_characters_not_bytes() -> None:
    raw = 'Intro\n\n```json\n{\n  "summary": "héllo wörld", "findings": [1,, 2]\n}\n```\n'
    error = failure(raw)
    assert (error.line, error.column) == (5, 44)


def test_json_error_position_in_an_indented_block() -> None:
    raw = 'x\n  ```json\n  {"summary": "x",\n    "findings": [,]}\n  ```\n'
    error = failure(raw)
    assert (error.line, error.column) == (4, 18)


@pytest.mark.parametrize(
    ("body", "reason", "position"),
    [
        ('{"summary": "a", "findings": []}\n{"x": 1}', "trailing characters", (3, 1)),
        ('{"summary": "a", "findings": [],}', "trailing comma", (2, 33)),
        ('{"summary": "a", "findings": [', "EOF while parsing a list", (2, 31)),
        ("", "EOF while parsing a value", (2, 1)),
    ],
)
def test_json_parse_errors(body: str, reason: str, position: tuple[int, int]) -> None:
    error = failure("```json\n" + body + "\n```\n")
    assert error.stage == "json_parse"
    assert error.parse_error == f"invalid JSON: {reason}"
    assert (error.line, error.column) == position


def test_validation_errors_carry_paths_and_the_block_position() -> None:
    bad = report(3)
    bad["findings"][1]["line"] = 0
    bad["findings"][2]["severity"] = "blocker"
    bad["extra"] = True
    error = failure("Some prose.\n\n  ```json\n" + json.dumps(bad) + "\n  ```\n")
    assert error.stage == "validation"
    assert (error.line, error.column) == (3, 3)
    assert [(e.path, e.type) for e in error.field_errors] == [
        (("findings", 1, "line"), "greater_than_equal"),
        (("findings", 2, "severity"), "literal_error"),
        (("extra",), "extra_forbidden"),
    ]
    assert error.field_errors[0].location == "/findings/1/line"
    assert "3 validation error(s)" in error.parse_error
    assert "/findings/1/line: Input should be greater than or equal to 1" in error.parse_error


def test_validation_error_summary_is_bounded() -> None:
    bad = report(20)
    for item in bad["findings"]:
        item["line"] = -1
    error = failure(agent_output(bad))
    assert len(error.field_errors) == 20
    assert "and 15 more" in error.parse_error


def test_raw_output_is_cut_and_its_length_kept() -> None:
    raw = "x" * 2000 + "\n" + agent_output({"summary": 1})
    error = failure(raw)
    assert error.raw_output == raw[:500]
    assert error.raw_length == len(raw)


# --- numbers pydantic's JSON parser accepts by default ----------------------------------------


def test_pydantic_accepts_nan_and_infinity_by_default() -> None:
    """Why validate_output must do something: the JSON parser takes NaN and Infinity."""
    data = report(1)
    body = json.dumps(data).replace('"confidence": 0.5', '"confidence": NaN')
    assert Report.model_validate_json(body).findings[0].confidence != 0.5  # nan, accepted
    body = json.dumps(data).replace('"confidence": 0.5', '"confidence": 1e999')
    assert Report.model_validate_json(body).findings[0].confidence == float("inf")


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999999", "-1e400"])
@pytest.mark.parametrize(
    "where",
    [
        "float field in a nested model",
        "Any value in a dict",
        "Any value deep in a list",
        "array root",
    ],
)
def test_non_finite_numbers_are_rejected(token: str, where: str) -> None:
    model: type[BaseModel] = Report
    if where == "float field in a nested model":
        body = json.dumps(report(2)).replace('"confidence": 0.5', f'"confidence": {token}', 1)
        path: tuple[str | int, ...] = ("findings", 0, "confidence")
    elif where == "Any value in a dict":
        body = with_metadata('{"score": ' + token + "}")
        path = ("metadata", "score")
    elif where == "Any value deep in a list":
        body = with_metadata('{"a": [1, {"b": [' + token + "]}]}")
        path = ("metadata", "a")
    else:
        model = Findings
        body = json.dumps([finding(0)]).replace('"confidence": 0.5', f'"confidence": {token}')
        path = (0, "confidence")
    error = failure(fenced(body), model)
    assert error.stage == "json_parse"
    assert "non-finite number" in error.parse_error
    assert [e.path for e in error.field_errors] == [path]


def test_nan_as_a_string_is_fine() -> None:
    data = report(1, summary="NaN Infinity", metadata={"x": "NaN"})
    assert validate_output(agent_output(data), Report).summary == "NaN Infinity"


def test_big_integers_within_the_parser_limit_stay_integers() -> None:
    digits = "9" * 400
    body = with_metadata('{"n": ' + digits + "}")
    assert validate_output(fenced(body), Report).metadata["n"] == int(digits)
    # ... but not where a float is expected: as a float it would be infinite.
    body = json.dumps(report(1)).replace('"confidence": 0.5', f'"confidence": {digits}')
    assert failure(fenced(body)).stage == "json_parse"


def test_huge_numbers_are_json_parse_errors() -> None:
    body = with_metadata('{"n": ' + "1" * 100_001 + "}")
    error = failure(fenced(body))
    assert error.stage == "json_parse"
    assert error.parse_error == "invalid JSON: number out of range"


class Money(BaseModel):
    amount: Decimal
    ratio: float | None = None
    unit: Literal["EUR", "USD"] = "EUR"


@pytest.mark.parametrize("token", ["NaN", "Infinity"])
def test_decimal_and_optional_float_refuse_non_finite(token: str) -> None:
    assert failure(fenced('{"amount": ' + token + "}"), Money).stage == "json_parse"
    assert failure(fenced('{"amount": 1, "ratio": ' + token + "}"), Money).stage == "json_parse"
    assert validate_output(fenced('{"amount": 1e5}'), Money).amount == Decimal("1e5")


# --- nesting, encoding, size ------------------------------------------------------------------


def test_nesting_bomb_is_a_json_parse_error_not_a_recursion_error() -> None:
    error = failure(fenced("[" * 100_000), Findings)
    assert error.stage == "json_parse"
    assert error.parse_error == "invalid JSON: recursion limit exceeded"


def test_deep_but_reasonable_nesting_is_fine() -> None:
    depth = 100
    body = with_metadata('{"deep": ' + "[" * depth + "1" + "]" * depth + "}")
    value: Any = validate_output(fenced(body), Report).metadata["deep"]
    for _ in range(depth):
        value = value[0]
    assert value == 1


def test_invalid_utf8_names_the_byte_and_its_position() -> None:
    error = failure(b"line one\nab\xffcd\n" + fenced(json.dumps(report(1))).encode())
    assert error.stage == "extraction"
    assert "not valid UTF-8" in error.parse_error
    assert "0xff at offset 11" in error.parse_error
    assert (error.line, error.column) == (2, 3)
    assert error.raw_output.startswith("line one\nab\ufffdcd")


def test_truncated_utf8_sequence() -> None:
    error = failure(fenced(json.dumps(report(1))).encode() + b"\xc3")
    assert error.stage == "extraction"
    assert "unexpected end of data" in error.parse_error


def test_lone_surrogate_in_the_json_is_located() -> None:
    error = failure('p\n```json\n{"summary": "a\ud800b", "findings": []}\n```\n')
    assert error.stage == "json_parse"
    assert error.parse_error == "the JSON text is not valid Unicode: lone surrogate U+D800"
    assert (error.line, error.column) == (3, 15)


def test_lone_surrogate_in_the_prose_is_ignored() -> None:
    raw = "prose \udc80\n" + agent_output(report(1))
    assert validate_output(raw, Report) == Report.model_validate(report(1))


def test_size_limit_counts_utf8_bytes() -> None:
    answer = fenced("[]")
    small = "é" * 40 + "\n" + answer  # 40 characters, 80 bytes
    assert validate_output(small, Findings, max_bytes=100) == Findings([])
    error = failure("é" * 60 + "\n" + answer, Findings, max_bytes=100)
    assert error.stage == "extraction"
    assert "over the 100 limit" in error.parse_error
    assert error.raw_length == 61 + len(answer)
    assert failure(answer.encode(), Findings, max_bytes=5).stage == "extraction"
    assert DEFAULT_MAX_BYTES >= 1_000_000


def test_size_limit_is_checked_before_anything_else() -> None:
    raw = b"\xff" * 200  # not UTF-8 either: the size is what is reported
    error = failure(raw, max_bytes=100)
    assert "over the 100 limit" in error.parse_error
    assert error.raw_length == 200


# --- models: roots, shapes, results -----------------------------------------------------------


def test_result_is_exactly_what_model_validate_json_gives() -> None:
    data = report(3, metadata={"k": [1, 2.5, None, "s"]})
    body = json.dumps(data)
    result = validate_output(fenced(body), Report)
    expected = Report.model_validate_json(body)
    assert type(result) is Report
    assert result == expected
    assert result.model_fields_set == expected.model_fields_set
    assert type(result.findings[0]) is Finding


def test_root_model_array_contract() -> None:
    items = [finding(i) for i in range(3)]
    result = validate_output(agent_output(items), Findings)
    assert isinstance(result, Findings)
    assert [f.line for f in result.root] == [1, 2, 3]
    error = failure(agent_output(report(1)), Findings)
    assert error.stage == "validation"
    assert error.field_errors[0].type == "list_type"


class Cat(BaseModel):
    type: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    type: Literal["dog"]
    weight: float


class Node(BaseModel):
    """Recursive, a discriminated union, a field named "type", defaults that look like schemas."""

    type: str = "node"
    pet: Annotated[Cat | Dog, Discriminator("type")] | None = None
    children: list[Node] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=lambda: {"type": "float", "schema": "any"})


def test_schema_rewrite_keeps_unusual_models_intact() -> None:
    body = json.dumps(
        {"type": "root", "pet": {"type": "dog", "weight": 3.5}, "children": [{"children": [{}]}]}
    )
    result = validate_output(fenced(body), Node)
    assert result == Node.model_validate_json(body)
    assert result.children[0].children[0].config == {"type": "float", "schema": "any"}
    bad = body.replace("3.5", "NaN")
    assert failure(fenced(bad), Node).stage == "json_parse"
    deep = json.dumps({"children": [{"children": [{"pet": {"type": "dog", "weight": 1}}]}]})
    assert failure(fenced(deep.replace(": 1}", ": Infinity}")), Node).stage == "json_parse"
    assert failure(fenced('{"pet": {"type": "bird"}}'), Node).stage == "validation"


class Plain(RootModel[list[float]]):
    pass


def test_fallback_when_pydantic_core_refuses_the_rewritten_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise TypeError("no such argument")

    monkeypatch.setattr(finite_module, "SchemaValidator", refuse)
    monkeypatch.setattr(finite_module, "_VALIDATORS", weakref.WeakKeyDictionary())
    assert validate_output(fenced("[1.5, 2]"), Plain) == Plain([1.5, 2])
    error = failure("x\n```json\n[1.5,\n NaN]\n```\n", Plain)
    assert error.stage == "json_parse"
    assert (error.line, error.column) == (4, 2)
    # "NaN" in a string is no NaN.
    assert validate_output(fenced('{"summary": "NaN", "findings": []}'), Report).summary == "NaN"


# --- strict=False and logging -----------------------------------------------------------------

FAILURES = [
    pytest.param("", "extraction", id="empty"),
    pytest.param("```json\n{", "extraction", id="truncated"),
    pytest.param(fenced("{"), "json_parse", id="json"),
    pytest.param(fenced('{"summary": "x"}'), "validation", id="validation"),
    pytest.param(b"\xff", "extraction", id="utf-8"),
]


@pytest.mark.parametrize(("raw", "stage"), FAILURES)
def test_each_failure_logs_exactly_one_structured_record(
    raw: str | bytes, stage: str, caplog: pytest.LogCaptureFixture
) -> None:
    for strict in (True, False):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            if strict:
                with pytest.raises(OutputValidationError) as info:
                    validate_output(raw, Report)
                error = info.value
            else:
                assert validate_output(raw, Report, strict=False) is None
        records = [r for r in caplog.records if r.name == LOGGER]
        assert len(records) == 1
        record = records[0]
        assert record.levelno == logging.WARNING
        assert record.__dict__["expected_model"] == "Report"
        assert record.__dict__["stage"] == stage
        assert record.__dict__["raw_length"] == len(raw)
        assert record.__dict__["parse_error"]
        assert "line" in record.__dict__
        assert "column" in record.__dict__
        message = record.getMessage()
        assert f"Agent output rejected for Report at the {stage} stage" in message
        assert record.__dict__["parse_error"] in message
        if strict:
            assert record.__dict__["parse_error"] == error.parse_error


def test_success_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        validate_output(agent_output(report(2)), Report)
    assert [r for r in caplog.records if r.name == LOGGER] == []


def test_strict_false_returns_the_value_on_success() -> None:
    assert validate_output(agent_output(report(1)), Report, strict=False) == Report.model_validate(
        report(1)
    )


# --- chunked outputs --------------------------------------------------------------------------


def test_validate_outputs_keeps_good_chunks_and_reports_bad_ones(
    caplog: pytest.LogCaptureFixture,
) -> None:
    chunks = [
        agent_output([finding(0)]),
        "```json\n[",  # truncated
        agent_output([finding(1), finding(2)]),
        fenced('[{"file": "x"}]'),  # wrong shape
        agent_output([]),
    ]
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        outcome = validate_outputs(chunks, Findings)
    assert isinstance(outcome, ChunkedOutputs)
    assert not outcome.ok
    assert [len(r.root) for r in outcome.results] == [1, 2, 0]
    assert [(e.index, e.error.stage) for e in outcome.errors] == [
        (1, "extraction"),
        (3, "validation"),
    ]
    assert all(isinstance(e, ChunkError) for e in outcome.errors)
    assert len([r for r in caplog.records if r.name == LOGGER]) == 2


def test_validate_outputs_all_good_and_empty() -> None:
    outcome = validate_outputs((agent_output([finding(i)]) for i in range(3)), Findings)
    assert outcome.ok
    assert len(outcome.results) == 3
    assert validate_outputs([], Findings) == ChunkedOutputs((), ())
    assert validate_outputs([], Findings).ok


def test_chunked_outputs_is_frozen() -> None:
    outcome = validate_outputs([], Findings)
    with pytest.raises(AttributeError):
        outcome.results = ()  # type: ignore[misc]
