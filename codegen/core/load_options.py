"""How a tree is read (:class:`LoadOptions`): the draft of a file without ``$schema``, where
URLs lead, which files no job reads, and whether ``format`` asserts. Light on purpose: the
configuration holds one, and a drift check by records imports nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from codegen.core.drafts import DEFAULT_DRAFT, Draft
from codegen.core.exclude import Exclude

__all__ = ["LoadOptions"]


@dataclass(frozen=True)
class LoadOptions:
    """How a tree is read: the draft of a file without ``$schema``, and where URLs lead."""

    default_draft: Draft = DEFAULT_DRAFT
    refs: tuple[tuple[str, Path], ...] = ()  # URL prefix -> local folder, longest first
    # Reads a mapped folder's document as a git revision holds it (None: read from disk).
    read: Callable[[Path], bytes | None] | None = field(default=None, compare=False)
    # [tool.maverick-codegen] exclude: the schema files no job reads.
    exclude: Exclude = field(default_factory=Exclude)
    # [tool.maverick-codegen] formats: whether ``format`` is an annotation (the
    # specification's default) or asserted (a string not of its format is invalid).
    asserts_formats: bool = False
