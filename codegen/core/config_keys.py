"""The keys each table of ``[tool.maverick-codegen]`` knows: one check for every table.

A key no table knows is an error with where it is written (``pyproject.toml:line:col``), the
key, a did-you-mean when a known key is close (``default_draf`` -> ``default_draft``) and the
keys the table has: a misspelt setting is never silently ignored.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping

from codegen.core.errors import CodegenError, Location

__all__ = ["check_keys", "did_you_mean"]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the known word closest to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:
        close = [k for k in known if k.lower() == word.lower().replace("-", "_")]
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_keys(
    what: str,
    table: Mapping[str, object],
    known: Iterable[str],
    locate: Callable[[str], Location],
) -> None:
    """Raise :class:`CodegenError` (rule ``CONFIG``) at the first key of ``table`` that is not
    ``known``. ``what`` names the table in the message (``[tool.maverick-codegen.lint]``);
    ``locate`` tells where a key of it is written."""
    keys = tuple(known)
    for key in table:
        if key not in keys:
            raise CodegenError(
                f"{what} has no key {key!r}{did_you_mean(key, keys)}; its keys are "
                f"{', '.join(keys)}",
                locate(key),
                "CONFIG",
            )
