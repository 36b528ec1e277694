"""The fence scanner against markdown-it-py, used as a CommonMark oracle (and only here).

Documents are generated line by line from pieces chosen to hit the rules: fence runs of two
to six backticks or tildes, zero to five spaces or a tab before them, info strings with and
without ``json`` (in several cases), with a backtick, trailing spaces and tabs; content lines
that look like shorter, longer or other fences, backticks mid-line, indented lines, blank lines;
and ``\\n``, ``\\r\\n`` and ``\\r`` line breaks, with or without a final one.

Restrictions, and why:
- no block quotes, list items or HTML blocks (no line starts with ``>``, ``-``, ``*``, ``+``,
  a digit followed by ``.`` or ``)``, or ``<``): the scanner deliberately works at the top level
  only (see `maverick.output._fences`), and inside those containers CommonMark moves or hides
  fences;
- no link reference definitions (no ``[``): they can swallow following lines as a title;
- no NUL character: markdown-it replaces it with U+FFFD before parsing;
- no last line made only of spaces and tabs without a line break after it: markdown-it drops
  such a line (a quirk of its line splitter), CommonMark and the scanner keep it.
Everything else, tabs and indented code blocks included, is left to chance: an indented code
block cannot hold a fence (its lines are indented four columns or more, a fence at most three),
so the two must agree on them too.

markdown-it normalizes line breaks to ``\\n`` and keeps the info string untrimmed; both sides
are brought to that form before comparing. An unclosed fence runs to the end of the document
in both.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from maverick.output._fences import find_json_block, is_json_info, scan_fences

MD = MarkdownIt("commonmark")

INDENTS = ["", "", "", " ", "  ", "   ", "    ", "     ", "\t", " \t", "  \t "]
INFOS = [
    "",
    "",
    "json",
    "JSON",
    "Json",
    " json ",
    "json {.answer}",
    "json\t",
    "jsonc",
    "json5",
    "python",
    "a`b",
    "json`",
    "~~~",
    "```",
    " \t",
    "\x0bjson",
    "js on",
]
TAILS = ["", "", " ", "\t", "  \t", " x"]
PLAIN = [
    "",
    "",
    "text",
    '{"a": 1}',
    '  "b": "```"',
    "    indented",
    "\tx",
    "x ``` y",
    "`",
    "``",
    "~~",
    "a```",
    " ~~~x",
    "  \t",
    "\u2028",
    "\x0c",
]
BREAKS = ["\n", "\n", "\n", "\r\n", "\r"]


@st.composite
def fence_lines(draw: st.DrawFn) -> str:
    char = draw(st.sampled_from("`~"))
    # Runs up to 16 are matched in bulk after a block, longer ones one block at a time.
    run = char * draw(st.one_of(st.integers(2, 6), st.sampled_from([15, 16, 17, 18])))
    return (
        draw(st.sampled_from(INDENTS)) + run + draw(st.sampled_from(INFOS + TAILS))
        if draw(st.booleans())
        else draw(st.sampled_from(INDENTS)) + run + draw(st.sampled_from(TAILS))
    )


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = draw(
        st.lists(
            st.one_of(fence_lines(), st.sampled_from(PLAIN), st.text("ab `~{}\t", max_size=8)),
            max_size=14,
        )
    )
    text = ""
    for line in lines:
        text += line + draw(st.sampled_from(BREAKS))
    if text and draw(st.booleans()):
        text = text[:-1] if not text.endswith("\r\n") else text[:-2]
        # markdown-it drops a last line made only of spaces and tabs when no line break ends
        # it (its line splitter skips leading whitespace before looking for the end): keep
        # the final break in that case.
        if re.search(r"(?:^|[\r\n])[ \t]+\Z", text):
            text += "\n"
    return text


def normalize(text: str) -> str:
    return re.sub(r"\r\n?", "\n", text)


def oracle(text: str) -> list[tuple[str, str]]:
    return [(t.info.strip(" \t"), t.content) for t in MD.parse(text) if t.type == "fence"]


def ours(text: str) -> list[tuple[str, str]]:
    return [(block.info, normalize(block.content)) for block in scan_fences(text)]


def last_json(blocks: list[tuple[str, str]]) -> tuple[str, str] | None:
    json_blocks = [block for block in blocks if is_json_info(block[0])]
    return json_blocks[-1] if json_blocks else None


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(documents())
@example("```json\n{}\n```\n")
@example("````\n```json\n{}\n```\n````\n")
@example("  ```json\n  {\n\t}\n  ```")
@example(" ```\r\n\tx\r\n ```")
@example("```\n```json\n{}\n```\n")
@example("~~~json\n```\n~~~\n")
@example("\t```json\n{}\n```\n")
def test_blocks_agree_with_markdown_it(text: str) -> None:
    expected = oracle(text)
    got = ours(text)
    assert got == expected
    # The last json block, by the exact and the speculative search alike.
    exact = find_json_block(text)
    assert exact.exact
    want = last_json(expected)
    if want is None:
        assert exact.block is None
    else:
        assert exact.block is not None
        assert (exact.block.info, normalize(exact.block.content)) == want
    guess = find_json_block(text, speculative=True)
    if guess.exact:
        assert guess.block == exact.block
    else:
        # A guess: right whenever its raw content has no fence-looking line (true of JSON).
        assert guess.block is not None
        fence_like = re.search(r"(?:^|[\r\n]) {0,3}(?:```|~~~)", guess.block.raw_content)
        if fence_like is None:
            assert guess.block == exact.block


@pytest.mark.parametrize(
    "char", [chr(c) for c in (*range(0x21), 0x85, 0xA0, 0x1680, 0x2000, 0x2028, 0x3000, 0xFEFF)]
)
def test_json_word_boundary_matches_str_split(char: str) -> None:
    """The regex's idea of "the first word is json" is the same as `is_json_info`'s."""
    info = f"json{char}x"
    text = f"```{info}\n{{}}\n```\n"
    blocks = scan_fences(text)
    if not blocks:  # the character ended the line, or a backtick made it no fence
        return
    assert blocks[0].is_json == is_json_info(blocks[0].info)
    found = find_json_block(text)
    assert (found.block is not None) == is_json_info(blocks[0].info)
