"""search_codebase's dialect and line semantics, and the secrets policy's batch decision.

RE2 is checked against Python's ``re`` line by line on expressions both read alike, with the
search's blocks made tiny so that block boundaries fall everywhere; the refusals name what
RE2 lacks; the policy's one-search-per-folder shortcut is checked against pathspec asked
path by path.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pathspec import GitIgnoreSpec

from maverick.tools import DEFAULT_DENY, CodebaseTools, Limits, SecretsPolicy
from maverick.tools.base import Budget
from maverick.tools.scan import MAX_PROGRAM_SIZE, Query

# Expressions RE2 and Python's re read alike (ASCII text, no newline in them).
SHARED = ["ab+c", "^a", "b$", "[^a]b", "a|bc", "^$", "c{2,3}", r"\bab", "a.c", "(?i)AB", "x*"]


@settings(max_examples=150, deadline=None)
@example(lines=["a", "", ""], expression="^$", block=1, final_newline=False)  # found by it
@given(
    lines=st.lists(st.text(alphabet="abcx ", max_size=12), max_size=30),
    expression=st.sampled_from(SHARED),
    block=st.integers(min_value=1, max_value=40),
    final_newline=st.booleans(),
)
def test_lines_agree_with_python_re(
    lines: list[str], expression: str, block: int, final_newline: bool
) -> None:
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    query = dataclasses.replace(Query.compile(expression, regex=True), block=block)
    data = text.encode()
    found = query.lines(data, len(data), Budget("search_codebase", Limits()))
    expected = [
        (n, line.encode())
        for n, line in enumerate(text.splitlines(), 1)
        if re.search(expression, line)
    ]
    assert [(n, bytes(line)) for n, line in found] == expected


def test_line_semantics(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("axx\nyyb\nab\n(a+)+$ literally\n")
    tools = CodebaseTools(tmp_path)

    def lines(query: str, regex: bool = True) -> list[int]:
        result = asyncio.run(tools.search_codebase(query, file_pattern="*.txt", regex=regex))
        assert result.success, result.error
        return [m.line_number for m in result.matches]

    assert lines("a[^q]*b") == [3]  # a negated class never crosses a line break
    assert lines(r"a\s*y") == []
    assert lines("(?s)a.*b") == [3]
    assert lines("^y+b$") == [2]
    assert lines("(a+)+$", regex=False) == [4]  # a literal query is literal
    assert lines("a.b", regex=False) == []


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (r"(a)\1", "backreferences (\\1) are not in the search's dialect, RE2"),
        ("(?P<x>a)(?P=x)", "named backreferences ((?P=name)) are not in"),
        ("a(?=b)", "lookahead and lookbehind are not in"),
        ("(?<!a)b", "lookahead and lookbehind are not in"),
        ("(?>a)", "atomic groups are not in"),
        ("a++", "possessive quantifiers are not in"),
        ("a{2}+", "possessive quantifiers are not in"),
        (r"a\Z", "\\Z (write $ or \\z) is not in"),
        ("a{1001}", "invalid repetition size: {1001}; the search speaks RE2"),
        (r"a\nb", "the query holds a line break (\\n)"),
        ("[\\x0A]", "the query holds a line break (\\n)"),
        (r"\w{1000}" * 4, f"too large (it compiles to 12004 RE2 instructions; the limit is "
                          f"{MAX_PROGRAM_SIZE})"),
    ],
)  # fmt: skip
def test_what_re2_cannot_say_is_refused(tmp_path: Path, query: str, message: str) -> None:
    result = asyncio.run(CodebaseTools(tmp_path).search_codebase(query, regex=True))
    assert result.success is False
    assert result.error is not None
    assert message in result.error


def test_an_escaped_backslash_before_n_is_no_line_break(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("path = 'C:\\\\new'\n")
    result = asyncio.run(CodebaseTools(tmp_path).search_codebase(r"\\\\new", regex=True))
    assert (result.success, result.match_count) == (True, 1)


PARTS = [".env", "env", "a", "id_rsa", "x.pem", "deploy", "credentials.json", "B.KEY", "n.tf"]


@settings(max_examples=200, deadline=None)
@given(
    paths=st.lists(
        st.lists(st.sampled_from(PARTS), min_size=1, max_size=4).map("/".join), max_size=12
    ),
    extra=st.lists(st.sampled_from(["deploy/", "!.env", "a/**/x.pem", "*.tf", "!b.key"])),
)
def test_the_batch_decision_is_pathspecs(paths: list[str], extra: list[str]) -> None:
    policy = SecretsPolicy(tuple(extra))
    spec = GitIgnoreSpec.from_lines([rule.lower() for rule in (*DEFAULT_DENY, *extra)])
    assert policy.denied(paths) == {p for p in paths if spec.match_file(p.lower())}
