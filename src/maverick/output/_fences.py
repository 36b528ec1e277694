"""Find fenced code blocks in agent output, the CommonMark way, in linear time.

The rules are those of CommonMark fenced code blocks (spec 0.31, section 4.5) at the top level
of a document:

- an opening fence is a run of at least three backticks or at least three tildes, indented by
  at most three *spaces* (a tab counts as four columns, so a tab-indented run is never a fence);
  the rest of the line is the info string, trimmed of spaces and tabs, and after a backtick
  fence it may not contain a backtick (else the line is not a fence at all);
- the block ends at the first closing fence: a run of the same character at least as long as
  the opening one, indented by at most three spaces and followed only by spaces or tabs; any
  other line in between, fence-looking or not, is content (so a shorter or different fence
  inside a longer outer one is content);
- if the opening fence is indented by N spaces, up to N columns of indentation are removed
  from each content line (`FencedBlock.content`);
- lines end at ``\\n``, ``\\r\\n`` or ``\\r`` and nowhere else (not at ``\\v``, ``\\f``,
  ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 or U+2029, unlike `str.splitlines`);
- a block whose closing fence never comes runs to the end of the document (``closed=False``);
  `maverick.output._validate` reports an unclosed *json* block as truncated output.

Not modelled: container blocks (block quotes, list items) and HTML blocks; a fence inside a
list item is seen at its own indentation, and a fence inside an HTML block is taken as a
fence. Info strings are kept raw: backslash escapes and entities are not decoded.

A *json* block is one whose info string starts with the word ``json`` in any ASCII case,
followed by whitespace or nothing: ```` ```json ````, ```` ```JSON ````, ``~~~json``,
```` ```json {.answer} ````; not ``json5``, ``jsonc`` or ``json{.answer}``.

The patterns that find the blocks, and how they stay linear, are in
:mod:`maverick.output._fence_patterns`.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from maverick.output._fence_patterns import (
    CLOSING_LINE,
    FENCE_LIKE,
    FENCE_LIKE_SPAN,
    FIRST_WORD,
    IS_JSON,
    JSON_INFO,
    PATTERNS,
    Patterns,
)

__all__ = [
    "FencedBlock",
    "JsonBlockSearch",
    "find_json_block",
    "is_json_info",
    "line_col",
    "scan_fences",
]

_DIAGNOSTIC_BLOCKS = 3


def is_json_info(info: str) -> bool:
    """Whether an info string marks a json block: it starts with the word ``json``, in any
    ASCII case, followed by whitespace or nothing."""
    return JSON_INFO.match(info) is not None


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in code points) of ``offset`` in ``text``.

    Lines end at ``\\n``, ``\\r\\n`` or ``\\r``. An offset on a line break belongs to the line
    the break ends. Linear, at C speed (`str.count`, `str.rfind`).
    """
    offset = max(0, min(offset, len(text)))
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        offset -= 1  # inside a "\r\n": on the same line as its "\r"
    line = 1 + text.count("\n", 0, offset)
    if "\r" in text:
        line += text.count("\r", 0, offset) - text.count("\r\n", 0, offset)
    start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
    return line, offset - start + 1


@dataclass(frozen=True, slots=True)
class FencedBlock:
    """One fenced code block of a text, located by offsets into that text (``source``).

    ``start`` is the start of the opening fence's line; ``content_start``/``content_end``
    delimit the content lines, each with its line break (empty content: both equal);
    ``end`` is the end of the closing fence's line, before its line break, or the end of the
    text when the block is not closed.
    """

    fence: str
    info: str
    indent: int
    start: int
    content_start: int
    content_end: int
    end: int
    closed: bool
    source: str = field(repr=False, compare=False)

    @property
    def lang(self) -> str:
        """The first word of the info string: up to the first whitespace ('' when none)."""
        m = FIRST_WORD.match(self.info)
        return "" if m is None else m.group()

    @property
    def is_json(self) -> bool:
        return is_json_info(self.info)

    @property
    def line(self) -> int:
        """The 1-based line of the opening fence."""
        return line_col(self.source, self.start)[0]

    @property
    def column(self) -> int:
        """The 1-based column of the opening fence's first character."""
        return self.indent + 1

    @property
    def raw_content(self) -> str:
        """The content exactly as in the text: indentation and line breaks untouched."""
        return self.source[self.content_start : self.content_end]

    @property
    def content(self) -> str:
        """The content as CommonMark defines it: up to ``indent`` columns of indentation removed
        from each line, and every line break made a ``\\n``."""
        return _content(self.raw_content, self.indent)


@dataclass(frozen=True, slots=True)
class JsonBlockSearch:
    """The outcome of `find_json_block`.

    ``block``: the last json block, or None. ``exact``: False when ``block`` is a guess that
    holds only if its raw content turns out to be JSON (see `find_json_block`). When there is
    no json block: ``first_others``, the first few other blocks, and ``more_others``, whether
    there are more, for error messages.
    """

    block: FencedBlock | None
    exact: bool
    first_others: tuple[FencedBlock, ...] = ()
    more_others: bool = False


def _scan_copy(text: str) -> str:
    """``text`` with each ``\\r`` made a ``\\n``: same length, same offsets, same fences.

    A ``\\r\\n`` becomes two breaks around an empty line, and an empty line neither opens nor
    closes a fence; offsets are taken back to ``text`` to measure line breaks.
    """
    return text.replace("\r", "\n") if "\r" in text else text


def _matches(scan: str, patterns: Patterns) -> Iterator[re.Match[str]]:
    """Successive matches in a scan copy, from its start."""
    first = patterns[0].match(scan)
    rest = patterns[1].finditer(scan, 0 if first is None else first.end())
    return rest if first is None else itertools.chain((first,), rest)


def _break_len(text: str, pos: int) -> int:
    """Length of the line break at ``pos`` (0 at the end of the text)."""
    if pos >= len(text):
        return 0
    return 2 if text.startswith("\r\n", pos) else 1


def _block_from_match(text: str, m: re.Match[str]) -> FencedBlock:
    """The block starting a match (a json match of the forward pattern: its opening line only)."""
    groups = m.re.groupindex
    p = next(p for p in ("jb", "jt", "b", "t") if p + "run" in groups and m.start(p + "run") >= 0)
    line_start = m.start() + (text[m.start()] in "\r\n")
    opener_end = m.end(p + "info")
    close_start = m.start(p + "close") if p + "close" in groups else -1
    closed = close_start >= 0
    return FencedBlock(
        fence=m.group(p + "run"),
        info=m.group(p + "info").strip(" \t"),
        indent=m.start(p + "run") - line_start,
        start=line_start,
        content_start=opener_end + _break_len(text, opener_end),
        # The closing group starts at the "\n" just before the closing line.
        content_end=close_start + 1 if closed else len(text),
        end=m.end(p + "close") if closed else len(text),
        closed=closed,
        source=text,
    )


def scan_fences(text: str) -> list[FencedBlock]:
    """Every fenced code block of ``text``, in order. Linear time."""
    return [_block_from_match(text, m) for m in _matches(_scan_copy(text), PATTERNS.each)]


def _no_json_block(text: str, scan: str) -> JsonBlockSearch:
    head = [
        _block_from_match(text, m)
        for m in itertools.islice(_matches(scan, PATTERNS.each), _DIAGNOSTIC_BLOCKS + 1)
    ]
    return JsonBlockSearch(
        None, True, tuple(head[:_DIAGNOSTIC_BLOCKS]), len(head) > _DIAGNOSTIC_BLOCKS
    )


def _exact_json_block(text: str) -> JsonBlockSearch:
    scan = _scan_copy(text)
    last = collections.deque(filter(IS_JSON, _matches(scan, PATTERNS.json_blocks)), maxlen=1)
    if not last:
        return _no_json_block(text, scan)
    return JsonBlockSearch(_block_from_match(text, last[0]), True)


def _last_fence_like_line(scan: str, lo: int) -> int:
    """Start of the last line at or after offset ``lo`` (a line start) of a scan copy that
    looks like a fence, or -1.

    A line looks like a fence when it starts with at most three spaces and three backticks or
    tildes: a superset of opening and closing fences in any state. Searched backwards from
    the end in growing windows, so a short tail costs little.
    """
    hi = len(scan)
    window = 4096
    while hi > lo:
        start = max(lo, hi - window)
        # A match starts at the break before its line (the break before `lo` is at lo - 1).
        # Matches starting at hi - 1 or later were looked for by the previous window.
        end = min(len(scan), hi + FENCE_LIKE_SPAN)
        last = collections.deque(FENCE_LIKE.finditer(scan, max(start - 1, 0), end), maxlen=1)
        if last:
            return last[0].start() + 1
        hi = start
        window *= 4
    return -1


def _speculative_json_block(text: str) -> JsonBlockSearch | None:
    scan = _scan_copy(text)
    opener = next(filter(IS_JSON, _matches(scan, PATTERNS.forward)), None)
    if opener is None:
        # The forward scan went through the whole text: no json block at all, exactly.
        return _no_json_block(text, scan)
    guess = _block_from_match(text, opener)  # its content and end still to be found
    if guess.content_start == len(text):
        return None  # the opening line is the last line: not closed
    closing = _last_fence_like_line(scan, guess.content_start)
    if closing < 0:
        return None
    closer = CLOSING_LINE.match(text, closing)
    run = guess.fence
    if closer is None or closer.group(1)[0] != run[0] or len(closer.group(1)) < len(run):
        return None
    block = dataclasses.replace(guess, content_end=closing, end=closer.end(), closed=True)
    return JsonBlockSearch(block, False)


def find_json_block(text: str, *, speculative: bool = False) -> JsonBlockSearch:
    """The last json block of ``text``.

    When several blocks are json, the last one is the answer: agents are asked to end with
    their JSON answer, and may quote an example or a draft before it.

    Exact (``speculative=False``): one pass over the whole text, in linear time.

    Speculative: find the first json opening fence with an exact forward scan (which stops
    there: the json content is not read), take the last fence-looking line of the text as its
    closing fence, and return that block with ``exact=False``. The caller must then check
    that its raw content parses as JSON: a JSON text has no line starting with a backtick or
    a tilde (line breaks are not allowed inside JSON strings), so if it parses, no line of it
    can close or open a fence, the closing line really is the first closing fence, nothing
    after it looks like a fence, and the guess is exactly what the exact scan finds. If it
    does not parse, ask again with ``speculative=False``. When no guess can be made (no
    fence-looking line after the opening one, or one that does not close it), the exact scan
    is done at once; when the forward scan finds no json opening fence, its answer is exact.
    """
    if speculative:
        found = _speculative_json_block(text)
        if found is not None:
            return found
    return _exact_json_block(text)


_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")


def _content(raw: str, indent: int) -> str:
    """Remove up to ``indent`` columns of leading spaces and tabs from each line of ``raw``,
    and end each line with ``\\n``.

    A tab advances to the next multiple of four columns; a tab that would overshoot is
    replaced by the spaces left over, as CommonMark (and markdown-it) do.
    """
    if indent == 0:
        return raw.replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    for m in _LINE.finditer(raw):
        line, brk = m.group(1), m.group(2)
        if not line and not brk:
            continue
        col = 0
        i = 0
        while i < len(line) and col < indent and line[i] in " \t":
            col += 4 - col % 4 if line[i] == "\t" else 1
            i += 1
        out.append(" " * (col - indent) + line[i:] if col > indent else line[i:])
        if brk:
            out.append("\n")
    return "".join(out)
