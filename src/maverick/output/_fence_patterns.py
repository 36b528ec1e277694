"""The compiled patterns that find fenced code blocks (:mod:`maverick.output._fences`).

How they stay linear and fast. No Python code runs per line, and none per block in the common
cases: all the work is done by a few compiled patterns, on a copy of the text whose line
breaks are all ``\\n`` (same offsets). Each pattern is anchored on a line break and uses only
possessive quantifiers, so the engine never backtracks beyond the line it is on. One match
takes a whole block (opening line, content lines, closing line: the closing fence is found by
a backreference to the opening run); after a block that is not json, the same match goes on
through the lines and the "simple" blocks (fence runs of three to sixteen characters, needing no
backreference) that follow, until the next json block or other fence, so that a text of
250,000 fences costs a handful of matches. And `maverick.output._fences.find_json_block` does
not even read the content of the json answer in the common case (see there).
"""

from __future__ import annotations

import functools
import operator
import re

__all__ = [
    "CLOSING_LINE",
    "FENCE_LIKE",
    "FENCE_LIKE_SPAN",
    "FIRST_WORD",
    "IS_JSON",
    "JSON_INFO",
    "PATTERNS",
    "Patterns",
]

# The patterns run on a scan copy, where every line break is a "\n". Keep capturing groups out
# of possessive repetitions: CPython 3.11's re gets their spans wrong (or raises SystemError,
# "The span of capturing group is wrong"); the repetitions below hold none.
# At a line break or at the end of the text (cheaper for the engine than (?=\n|\Z)).
_EOL = r"(?!.)"
# A json info string, right after the fence run: spaces and tabs, the four letters in any
# ASCII case, then whitespace or the end. [jJ]... rather than (?i), which would also match the
# Kelvin sign and the long s.
_JSON_WORD = r"[ \t]*+[jJ][sS][oO][nN](?!\S)"
_INFO = {"`": r"[^`\n]*+", "~": r"[^\n]*+"}
_SIMPLE_RUN_MAX = 16


def _opener(p: str, char: str, *, json: bool | None) -> str:
    """The opening line of a fence from its run on, in groups ``{p}run`` and ``{p}info``.

    ``json``: True for json openers only; False or None for any opener. Where json openers
    are tried first (in an earlier alternative), the other alternatives need no check.
    """
    c = re.escape(char)
    look = rf"(?={_JSON_WORD})" if json else ""
    return rf"(?P<{p}run>{c}{{3,}}+){look}(?P<{p}info>{_INFO[char]}){_EOL}"


def _rest(p: str, char: str) -> str:
    """The content lines and the closing fence (group ``{p}close``) of the block whose run is
    group ``{p}run``. Content lines: a line break, then a line that is not a closing fence."""
    c = re.escape(char)
    closer = rf"[ ]{{0,3}}+(?P={p}run){c}*+[ \t]*+{_EOL}"
    return rf"(?:\n(?!{closer})[^\n]*+)*+(?P<{p}close>\n{closer})?"


def _simple_blocks(char: str) -> str:
    """A block, json or not, whose fence run is 3 to `_SIMPLE_RUN_MAX` chars long, matched with
    no group and no backreference: one branch per run length, nested so that the engine reads
    the run once, one character per level."""
    c = re.escape(char)
    pattern = ""
    for run in range(_SIMPLE_RUN_MAX, 2, -1):
        closer = rf"[ ]{{0,3}}+{c}{{{run},}}+[ \t]*+{_EOL}"
        rest = rf"(?!{c}){_INFO[char]}{_EOL}(?:\n(?!{closer})[^\n]*+)*+(?:\n{closer})?"
        pattern = rf"(?:{rest}|{c}{pattern})" if pattern else rest
    return c * 3 + pattern


# What may follow a non-json block in the same match: lines that cannot be fences, and simple
# blocks that are not json. It stops before a json opening fence, before a longer fence, and
# before a line that looks like a fence but is none (e.g. "```a`"): the search resumes there.
_FOLLOWERS = (
    r"(?:\n(?:(?![ ]{0,3}+(?:```|~~~))[^\n]*+|[ ]{0,3}+(?![`~]++"
    + _JSON_WORD
    + r")(?:"
    + _simple_blocks("`")
    + "|"
    + _simple_blocks("~")
    + r")))*+"
)

# A block that is not json, and what follows it.
_OTHERS = (
    "(?:"
    + _opener("b", "`", json=False)
    + _rest("b", "`")
    + "|"
    + _opener("t", "~", json=False)
    + _rest("t", "~")
    + ")"
    + _FOLLOWERS
)

Patterns = tuple[re.Pattern[str], re.Pattern[str]]


def _compile(*alternatives: str) -> Patterns:
    """The alternatives after up to three spaces, anchored at the start of the text and after
    a ``\\n`` (a pattern starting with a literal character is searched for much faster than
    one starting with a character class)."""
    body = r"[ ]{0,3}+(?:" + "|".join(alternatives) + ")"
    return re.compile(r"\A" + body), re.compile(r"\n" + body)


class _Compiled:
    """The big patterns, compiled on first use (that takes tens of milliseconds)."""

    @functools.cached_property
    def each(self) -> Patterns:
        """Every block, one match each (for `scan_fences`)."""
        return _compile(
            _opener("b", "`", json=None) + _rest("b", "`"),
            _opener("t", "~", json=None) + _rest("t", "~"),
        )

    @functools.cached_property
    def json_blocks(self) -> Patterns:
        """Every json block, one match each, its group ``json`` set; the other blocks and
        lines in bulk."""
        return _compile(
            "(?P<json>"
            + _opener("jb", "`", json=True)
            + _rest("jb", "`")
            + "|"
            + _opener("jt", "~", json=True)
            + _rest("jt", "~")
            + ")",
            _OTHERS,
        )

    @functools.cached_property
    def forward(self) -> Patterns:
        """The opening line only of each json block, its group ``json`` set; the other blocks
        and lines in bulk."""
        return _compile(
            "(?P<json>" + _opener("jb", "`", json=True) + "|" + _opener("jt", "~", json=True) + ")",
            _OTHERS,
        )


PATTERNS = _Compiled()
# Truthy for the matches of a json block: filters matches without a Python call per match.
IS_JSON = operator.methodcaller("group", "json")

# Any line that could be a fence in some state: at most three spaces, then three fence chars.
FENCE_LIKE = re.compile(r"\n[ ]{0,3}+(?:```|~~~)")
FENCE_LIKE_SPAN = 7  # the longest match of FENCE_LIKE
CLOSING_LINE = re.compile(r"[ ]{0,3}+(`{3,}+|~{3,}+)[ \t]*+(?![^\r\n])")
JSON_INFO = re.compile(_JSON_WORD)
FIRST_WORD = re.compile(r"\S*")
