"""search_codebase: the lines below a folder that hold a literal string or an RE2 expression.

The query's dialect and the search's line semantics are :mod:`maverick.tools.scan`'s. The
folder is walked on the caller's thread (:meth:`Workspace.walk`, which applies the secrets
policy before any file is opened); a walk of at least :data:`PARALLEL_FROM` files is shared
among the idle worker processes of the server's :class:`~maverick.tools.searchers.Searchers`
as it goes, a smaller one (or one finding no idle worker) is searched on the thread. Either
way the files are reported in the walk's order: the result is the same.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from itertools import chain, islice
from typing import Any

from maverick.contracts import SearchMatch
from maverick.tools.base import Budget, ToolFailure, boolean
from maverick.tools.base import string as string_argument
from maverick.tools.scan import DIALECT, MAX_PROGRAM_SIZE, Hit, Query, Scanner
from maverick.tools.searchers import Searchers, WorkerLost
from maverick.tools.workspace import Select, Tally, Workspace

__all__ = [
    "DEFAULT_MAX_RESULTS",
    "DIALECT",
    "MAX_PROGRAM_SIZE",
    "MAX_RESULTS_LIMIT",
    "PARALLEL_FROM",
    "search_codebase",
]

DEFAULT_MAX_RESULTS = 100
MAX_RESULTS_LIMIT = 1000
PARALLEL_FROM = 512  # files: a smaller walk is searched on the caller's thread


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


def _walked(files: Iterator[tuple[str, str]], walked: list[tuple[str, str]]) -> Iterator[str]:
    """The paths to open of ``files``, each ``(relative path, path)`` kept in ``walked``."""
    for file in files:
        walked.append(file)
        yield file[1]


def _hits(
    query: Query,
    limit: int,
    budget: Budget,
    files: Iterator[tuple[str, str]],
    searchers: Searchers | None,
) -> tuple[list[Hit], list[tuple[str, str]]]:
    """The files that match, by index in the walk, and the walk (relative path, path)."""
    walked: list[tuple[str, str]] = []
    paths = _walked(files, walked)
    head = list(islice(paths, PARALLEL_FROM))
    workers = searchers.borrow() if searchers and len(head) == PARALLEL_FROM else []
    if workers:
        assert searchers is not None
        try:
            return searchers.search(workers, query, limit, budget, chain(head, paths)), walked
        except WorkerLost:  # a crashed worker: the whole search again, on this thread
            for _ in paths:
                pass
            head, paths = [path for _, path in walked], iter(())
    scanner = Scanner(query, budget, limit)
    scanner.scan(enumerate(chain(head, paths)))
    return scanner.hits, walked


def search_codebase(
    workspace: Workspace,
    budget: Budget,
    *,
    query: object,
    path: object = ".",
    file_pattern: object = "*.py",
    regex: object = False,
    max_results: object = DEFAULT_MAX_RESULTS,
    searchers: Searchers | None = None,
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
    hits, walked = _hits(compiled, limit, budget, files, searchers)
    matches: list[SearchMatch] = []
    match_count = 0
    for index, count, texts in hits:
        match_count += count
        rel = walked[index][0]
        for line_no, line in texts[: limit - len(matches)]:
            matches.append(SearchMatch(file=rel, line_number=line_no, text=line))
    return {
        "query": text,
        "path": str(folder),
        "file_pattern": file_pattern,
        "matches": matches,
        "match_count": match_count,
        "file_count": len(hits),
        "truncated": match_count > len(matches),
        "secret_files_skipped": tally.secret_files,
    }
