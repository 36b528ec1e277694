"""search_codebase: the lines below a folder that hold a literal string or an RE2 expression.

Both kinds of query run on RE2 (``google-re2``), an automaton engine that never backtracks:
its time is linear in the text searched, whatever the expression, so a query such as
``(a+)+$`` cannot stall a call. The dialect is RE2's own
(https://github.com/google/re2/wiki/Syntax): Perl-like classes, groups, alternation and
counted repetition (at most 1000), with ``\\d``, ``\\w``, ``\\s`` and ``\\b`` on ASCII. What it
cannot express is refused by name: backreferences, lookahead and lookbehind, atomic groups,
possessive quantifiers, and ``\\Z`` (write ``$``). The search is line by line, as grep's: ``^``
and ``$`` match at every line's start and end, nothing matches a line break, and a pattern
holding one (``\\n``) is refused. A literal query is matched as given (RE2's literal mode).

Files are searched in blocks of lines, and the call's budget is checked between files and
between blocks: the block is small enough (for the expression's compiled size) that a call
past its deadline stops soon after it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from typing import Any

import re2
from re2 import _re2

from maverick.contracts import SearchMatch
from maverick.tools.base import (
    BINARY_PROBE,
    OPEN_FLAGS,
    Budget,
    ToolFailure,
    boolean,
    line_text,
    read_file,
)
from maverick.tools.base import string as string_argument
from maverick.tools.workspace import Select, Tally, Workspace

__all__ = [
    "DEFAULT_MAX_RESULTS",
    "DIALECT",
    "MAX_PROGRAM_SIZE",
    "MAX_RESULTS_LIMIT",
    "Query",
    "search_codebase",
]

DIALECT = "RE2 (https://github.com/google/re2/wiki/Syntax)"
DEFAULT_MAX_RESULTS = 100
MAX_RESULTS_LIMIT = 1000
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


class _Reader:
    """Reads the files of one call into one reusable buffer (no allocation per file)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.buffer = bytearray(_BUFFER)

    def read(self, path: str) -> tuple[bytes | bytearray, int] | None:
        """``(data, size)`` of the regular file ``path``, or None (see :func:`read_file`)."""
        try:
            fd = os.open(path, OPEN_FLAGS)
        except OSError:
            return None
        try:
            size = os.readv(fd, [self.buffer])
        except OSError:
            return None
        finally:
            os.close(fd)
        if size < _BUFFER:  # the whole file: a regular file reads short only at its end
            self.budget.charge(size)
            return self.buffer, size
        data = read_file(path, self.budget)  # larger than the buffer: read it whole
        return None if data is None else (data, len(data))


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


def _selector(file_pattern: str) -> Select:
    star, suffix = file_pattern[:1], file_pattern[1:]
    if star == "*" and "/" not in suffix and not any(c in suffix for c in "*?["):
        return lambda rel, name: name.endswith(suffix)  # "*.py": fnmatch's answer, faster
    glob = re.compile(fnmatch.translate(file_pattern)).match
    if "/" in file_pattern:
        return lambda rel, name: glob(rel) is not None
    return lambda rel, name: glob(name) is not None


def _max_results(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise ToolFailure(f"max_results must be an integer, not {limit!r}")
    if not 1 <= limit <= MAX_RESULTS_LIMIT:
        raise ToolFailure(f"max_results must be between 1 and {MAX_RESULTS_LIMIT}, not {limit}")
    return limit


def search_codebase(
    workspace: Workspace,
    budget: Budget,
    *,
    query: object,
    path: object = ".",
    file_pattern: object = "*.py",
    regex: object = False,
    max_results: object = DEFAULT_MAX_RESULTS,
) -> dict[str, Any]:
    """The fields of the SearchResult for one call (see the module's docstring)."""
    text = string_argument(query, "Query")
    path = string_argument(path, "path")
    file_pattern = string_argument(file_pattern, "file_pattern")
    compiled = Query.compile(text, boolean(regex, "regex"))
    limit = _max_results(max_results)
    folder = workspace.resolve(path)
    select = _selector(file_pattern)
    tally = Tally()
    if folder.is_dir():
        files = workspace.walk(folder, tally, select, budget)
    else:  # one file, named by the caller (file_pattern filters a folder's files)
        files = iter([(workspace.relative(folder), str(folder))])
    matches: list[SearchMatch] = []
    match_count = files_matched = 0
    reader = _Reader(budget)
    for rel, target in files:
        budget.check()
        read = reader.read(target)
        if read is None or read[0].find(b"\0", 0, min(read[1], BINARY_PROBE)) >= 0:
            continue  # unreadable, or binary
        data, size = read
        if size <= compiled.block and compiled.match(_UNANCHORED, data, 0, size)[0][0] < 0:
            continue  # one block, no match: the common case, asked once
        found = compiled.lines(data, size, budget)
        if not found:
            continue
        files_matched += 1
        match_count += len(found)
        for line_no, line in found[: limit - len(matches)]:
            text_ = line_text(line.decode("utf-8", errors="replace"))
            matches.append(SearchMatch(file=rel, line_number=line_no, text=text_))
    return {
        "query": text,
        "path": str(folder),
        "file_pattern": file_pattern,
        "matches": matches,
        "match_count": match_count,
        "file_count": files_matched,
        "truncated": match_count > len(matches),
        "secret_files_skipped": tally.secret_files,
    }
