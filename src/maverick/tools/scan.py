"""The search's engine: a query compiled by RE2, and the loop that searches a list of files.

Both kinds of query run on RE2 (``google-re2``), an automaton engine that never backtracks:
its time is linear in the text searched, whatever the expression, so a query such as
``(a+)+$`` cannot stall a call. The dialect is RE2's own
(https://github.com/google/re2/wiki/Syntax): Perl-like classes, groups, alternation and
counted repetition (at most 1000), with ``\\d``, ``\\w``, ``\\s`` and ``\\b`` on ASCII. What it
cannot express is refused by name: backreferences, lookahead and lookbehind, atomic groups,
possessive quantifiers, and ``\\Z`` (write ``$``). The search is line by line, as grep's: ``^``
and ``$`` match at every line's start and end, nothing matches a line break, and a pattern
holding one (``\\n``) is refused. A literal query is matched as given (RE2's literal mode).

A :class:`Scanner` searches files in the order given, each read into one reused buffer and
asked once as a whole; only a file that matches is checked for binary content and split into
lines, around its matches. The call's budget is checked between files and between blocks of
a file: the block is small enough (for the expression's compiled size) that a call past its
deadline stops soon after it. This module imports only :mod:`maverick.tools.base` and RE2:
the search's worker processes (:mod:`maverick.tools.searchers`) run it too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import re2
from re2 import _re2

from maverick.tools.base import (
    BINARY_PROBE,
    OPEN_FLAGS,
    Budget,
    ToolFailure,
    line_text,
    read_file,
)

__all__ = ["DIALECT", "MAX_PROGRAM_SIZE", "Hit", "Query", "Scanner"]

DIALECT = "RE2 (https://github.com/google/re2/wiki/Syntax)"
# Past this compiled size an expression is refused: RE2's slowest path costs time per byte in
# proportion to it, and the budget is only looked at between blocks.
MAX_PROGRAM_SIZE = 10_000
# Bytes times compiled size searched between two looks at the clock (about 0.1 s at worst).
_WORK_PER_BLOCK = 1 << 25
_MIN_BLOCK = 4096
_BUFFER = 1 << 20  # a file is read into this buffer when it fits (most do)
_UNANCHORED = _re2.RE2.Anchor.UNANCHORED

# RE2's parse errors for what Perl and Python have and RE2 does not, named for the caller.
_UNSUPPORTED = (
    (r"invalid escape sequence: \\[1-9]", "backreferences (\\1) are not in"),
    (r"invalid perl operator: \(\?P$", "named backreferences ((?P=name)) are not in"),
    (r"invalid perl operator: \(\?<?[=!]", "lookahead and lookbehind are not in"),
    (r"invalid perl operator: \(\?>", "atomic groups are not in"),
    (r"bad repetition operator: (?:[*+?]|\{[\d,]*\})\+", "possessive quantifiers are not in"),
    (r"invalid escape sequence: \\Z", "\\Z (write $ or \\z) is not in"),
)
# The escapes of a pattern, left to right (an escaped backslash is one): linear, as the
# caller's pattern is not to be trusted with a backtracking search either.
_ESCAPE = re.compile(r"\\(?:x\{0*[aA]\}|x0[aA]|012|.)", re.DOTALL)
_LINE_BREAKS = frozenset({"\\n", "\\x0a", "\\x0A", "\\012"})

# One file that matched: (its index in the call's file list, matching lines, the first of
# them as (line number, text), as many as the call's max_results still wanted).
Hit = tuple[int, int, list[tuple[int, str]]]


def _options(literal: bool) -> re2.Options:
    options = re2.Options()
    options.literal = literal
    options.never_nl = True  # line by line: nothing matches across a line break
    options.never_capture = True  # we need where a match starts, not its groups
    options.log_errors = False  # a bad pattern is an error result, not a line on stderr
    return options


@dataclass(frozen=True)
class Query:
    """One compiled query, searched with RE2's own ``Match`` (no Python layer per call)."""

    text: str
    regex: bool
    match: Any  # the compiled RE2 object's Match(anchor, text, pos, endpos) -> spans
    block: int  # bytes searched between two looks at the clock

    @classmethod
    def compile(cls, text: str, regex: bool) -> Query:
        """Compile ``text``; raise :class:`ToolFailure` for what RE2 cannot or will not run."""
        if "\n" in text or (regex and any(_is_line_break(e[0]) for e in _ESCAPE.finditer(text))):
            raise ToolFailure(
                f"Invalid query {_shown(text)}: the search matches within one line, and the query "
                "holds a line break (\\n)"
            )
        source = (f"(?m){text}" if regex else text).encode("utf-8", "surrogateescape")
        compiled = _re2.RE2(source, _options(literal=not regex))
        if not compiled.ok():
            raise ToolFailure(
                f"Invalid regular expression {_shown(text)}: {_reason(compiled.error())}"
            )
        size = compiled.ProgramSize()
        if size > MAX_PROGRAM_SIZE:
            raise ToolFailure(
                f"Invalid regular expression {_shown(text)}: too large (it compiles to {size} RE2 "
                f"instructions; the limit is {MAX_PROGRAM_SIZE}): use fewer or smaller "
                "repetitions"
            )
        return cls(text, regex, compiled.Match, max(_MIN_BLOCK, _WORK_PER_BLOCK // size))

    def lines(
        self, data: bytes | bytearray, size: int, budget: Budget
    ) -> list[tuple[int, bytes | bytearray]]:
        """``(line number, line)`` of every line of ``data[:size]`` holding a match, in order."""
        found: list[tuple[int, bytes | bytearray]] = []
        match = self.match
        line_no, counted, start = 1, 0, 0
        while start < size:
            end = data.find(b"\n", start + self.block, size)
            end = size if end < 0 else end + 1
            pos = start
            while pos < end:
                at = match(_UNANCHORED, data, pos, end)[0][0]
                if at < 0 or (at == end and (end < size or data[size - 1] == 10)):
                    # No match; or an empty one where the next line starts: the next block's,
                    # or the empty "line" after the last line break, which is no line.
                    break
                newline = data.rfind(b"\n", pos, at)
                line_start = newline + 1 if newline >= 0 else pos
                line_end = data.find(b"\n", at, end)
                line_end = end if line_end < 0 else line_end
                line_no += data.count(b"\n", counted, line_start)
                counted = line_start
                found.append((line_no, data[line_start:line_end]))
                pos = line_end + 1
            start = end
            budget.check()
        return found


class Scanner:
    """Searches files for one query under one budget, keeping at most ``limit`` lines' text.

    :meth:`scan` may be called several times (a worker gets its files in chunks); ``hits``
    gathers the files that matched, in the order scanned.
    """

    def __init__(self, query: Query, budget: Budget, limit: int) -> None:
        self.query = query
        self.budget = budget
        self.wanted = limit  # lines whose text is still kept
        self.hits: list[Hit] = []
        self._buffer = bytearray(_BUFFER)

    def scan(self, files: Iterable[tuple[int, str]]) -> None:
        """Search each ``(index, path to open)`` in turn; raise BudgetExceeded past a budget."""
        query, budget, buffer = self.query, self.budget, self._buffer
        match, block, check, charge = query.match, query.block, budget.check, budget.charge
        open_, readv, close = os.open, os.readv, os.close  # locals: looked up once
        for index, target in files:
            check()
            try:
                fd = open_(target, OPEN_FLAGS)
            except OSError:
                continue
            try:
                size = readv(fd, [buffer])
            except OSError:
                continue
            finally:
                close(fd)
            data: bytes | bytearray = buffer
            if size < _BUFFER:  # the whole file: a regular file reads short only at its end
                charge(size)
            else:  # larger than the buffer: read it whole (None: too large, or unreadable)
                whole = read_file(target, budget)
                if whole is None:
                    continue
                data, size = whole, len(whole)
            if size <= block and match(_UNANCHORED, data, 0, size)[0][0] < 0:
                continue  # one block, no match: the common case, asked once
            if data.find(b"\0", 0, min(size, BINARY_PROBE)) >= 0:
                continue  # binary
            self._keep(index, query.lines(data, size, budget))

    def _keep(self, index: int, found: list[tuple[int, bytes | bytearray]]) -> None:
        if not found:
            return
        kept = found[: self.wanted]
        self.wanted -= len(kept)
        texts = [(n, line_text(line.decode("utf-8", errors="replace"))) for n, line in kept]
        self.hits.append((index, len(found), texts))


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to 100 characters."""
    return repr(text) if len(text) <= 100 else repr(text[:100]) + "..."


def _is_line_break(escape: str) -> bool:
    return escape in _LINE_BREAKS or escape.startswith("\\x{")


def _reason(error: bytes | str) -> str:
    reason = error.decode("utf-8", "replace") if isinstance(error, bytes) else error
    for pattern, explanation in _UNSUPPORTED:
        if re.match(pattern, reason):
            return f"{explanation} the search's dialect, {DIALECT} ({reason})"
    return f"{reason}; the search speaks {DIALECT}"
