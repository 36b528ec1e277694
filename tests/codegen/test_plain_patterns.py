"""A pattern that says a plain string test (``^L$``, ``^(A|B)$``, ``.*``...) is compiled to it,
and the test decides as ECMA-262's search (regress, u flag) does, for every pattern and string:
anchors that ``$`` in Python would read otherwise (a final newline), escapes, empty
alternatives, characters of more than one UTF-16 code unit."""

from __future__ import annotations

from typing import Any

import regress
from hypothesis import example, given, settings
from hypothesis import strategies as st

from codegen.generate.models.checks.plain_patterns import plain_test
from tests.codegen.test_model_shapes import _Project

# Literal pieces: plain characters, escaped syntax characters, and characters that must leave
# a pattern to the regular expression (a surrogate, one outside the BMP).
_PIECES = st.sampled_from(
    ["a", "b", "ab", "-", "_", "/", ":", "é", "\\.", "\\$", "\\^", "\\\\", "\\/", "\\|", "\\(",
     "\\*", "😀", "\ud800", ".", "*", "[a]", "\\d"]
)  # fmt: skip
_LITERALS = st.lists(_PIECES, max_size=3).map("".join)
_PATTERNS = st.builds(
    lambda start, alternatives, group, end: (
        ("^" if start else "")
        + (f"{group}{'|'.join(alternatives)})" if group else "|".join(alternatives))
        + ("$" if end else "")
    ),
    st.booleans(),
    st.lists(_LITERALS, min_size=1, max_size=3),
    st.sampled_from(["", "(", "(?:", "(?="]),
    st.booleans(),
)
_STRINGS = st.lists(
    st.sampled_from(["a", "b", "ab", ".", "$", "^", "\\", "/", "|", "(", "*", "é", "\n", "😀", ""]),
    max_size=5,
).map("".join)


def _decide(expression: str, text: str, constants: dict[str, Any]) -> bool:
    return bool(eval(expression, {**constants}, {"x": text}))


def _compiled(source: str) -> tuple[str | None, dict[str, Any]]:
    constants: dict[str, Any] = {}

    def define(expression: str, prefix: str) -> str:
        name = f"{prefix}{len(constants)}"
        constants[name] = eval(expression)
        return name

    return plain_test(source, "x", define), constants


@settings(max_examples=600, deadline=None)
@given(_PATTERNS, st.lists(_STRINGS, min_size=1, max_size=8))
@example("^(?:default|mac|windows)$", ["mac", "mac\n", "macx", "", "windows"])
@example("^ab$", ["ab\n", "ab", "\nab"])
@example("ab\\$", ["ab$", "ab", "xab$y"])
@example("\\\\$", ["a\\", "a\\$"])
@example("^(a|)$", ["", "a", "b"])
def test_a_plain_test_decides_as_the_regular_expression(source: str, texts: list[str]) -> None:
    try:
        regex = regress.Regex(source, "u")
    except (regress.RegressError, UnicodeEncodeError):  # no pattern regress reads with u:
        assert _compiled(source)[0] is None  # the compiler refuses it, or reads it by Annex B
        return
    expression, constants = _compiled(source)
    if expression is None:
        return
    for text in texts:
        assert _decide(expression, text, constants) is (regex.find(text) is not None), (
            source,
            text,
            expression,
        )


def test_the_plain_forms_are_recognized() -> None:
    said = {
        "^mac$": "x == 'mac'",
        "^a\\.b": "x.startswith('a.b')",
        "\\.json$": "x.endswith('.json')",
        "x-": "'x-' in x",
        ".*": "True",
        "": "True",
        "^(?:a|b)$": "x in _S0",
        "^(a|b)": "x.startswith(('a', 'b'))",
    }
    for source, expression in said.items():
        assert _compiled(source)[0] == expression, source
    for source in ("^a|b$", "^a+$", "^(?=a)", "^😀$", "^[ab]$", "(a|b)", "\\d"):
        assert _compiled(source)[0] is None, source


def test_generated_models_test_plain_patterns_without_a_regular_expression(
    tmp_path: Any,
) -> None:
    schema = {
        "title": "Keys",
        "type": "object",
        "properties": {"file": {"type": "string", "pattern": "\\.json$"}},
        "patternProperties": {"^(default|mac)$": {"type": "string", "pattern": "^Ctrl\\+"}},
        "additionalProperties": False,
    }
    project = _Project(tmp_path / "plain", {"keys.json": schema})
    try:
        source = (tmp_path / "plain" / "out" / project.package / "keys.py").read_text()
        assert "_regex(" not in source, source
        assert 'endswith(".json")' in source, source
        documents = [{"file": "a.json"}, {"file": "a.json\n"}, {"file": "a.jsonx"},
                     {"mac": "Ctrl+A"}, {"mac": "ctrl+A"}, {"linux": "Ctrl+A"}, {"default": 1},
                     {}]  # fmt: skip
        project.judge_all("Keys", documents)
        assert project.judge.findings == [], project.judge.report()
    finally:
        project.close()
