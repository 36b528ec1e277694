"""What changed between two versions of the schemas, per contract, and the semver bump it implies.

:func:`changelog` is the public entry point (``maverick-codegen changelog`` and the npm
package's version check call it): it sorts the breaking check's findings
(:func:`codegen.breaking.table.compare`) by category and adds what the check does not report
(additions, deprecations, documentation, found by :mod:`codegen.breaking.changes`). Each entry
has a kind, and each kind implies a bump:

============== ======= ===========================================================
kind           bump    what
============== ======= ===========================================================
removed        major   a ``CODEGEN`` finding: a contract, class, property, ``$id``,
                       title or file removed or renamed (generated code breaks)
tightened      major   a ``DATA_BACKWARD`` finding: old documents are now refused
unproven       major   a change the check could not prove compatible (``CHANGE_UNPROVEN``,
                       or a finding of no known category): possibly breaking
widened        minor   a ``DATA_FORWARD`` finding: new documents old readers refuse
added          minor   a contract, property, definition or enum value was added
deprecated     minor   a contract, property or definition was marked ``"deprecated": true``
documentation  patch   descriptions, titles of non-class nodes, examples, ``$comment``
changed        patch   a ``default``, or a rewrite accepting the same documents
============== ======= ===========================================================

The whole change takes the highest bump of its entries; no entry at all is ``none``.
:func:`next_version` applies a bump to a semver version (see its docstring for ``0.x``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from codegen.breaking import changes, gitref
from codegen.breaking.table import Side, compare
from codegen.core.loader import LoadOptions, SchemaTree, load_tree
from codegen.core.report import Finding

__all__ = [
    "BUMPS",
    "KINDS",
    "KIND_BUMPS",
    "UNPROVEN_RULE",
    "Bump",
    "Changelog",
    "Entry",
    "Kind",
    "changelog",
    "kind_of",
    "next_version",
    "sides_at",
]

Bump = Literal["none", "patch", "minor", "major"]
Kind = Literal[
    "removed", "tightened", "unproven", "widened", "added", "deprecated", "documentation", "changed"
]
BUMPS: tuple[Bump, ...] = get_args(Bump)
"""The bumps, from the smallest to the largest."""
KINDS: tuple[Kind, ...] = get_args(Kind)
"""The kinds of entries, the most severe first (the order of the changelog)."""
KIND_BUMPS: Mapping[Kind, Bump] = {
    "removed": "major",
    "tightened": "major",
    "unproven": "major",
    "widened": "minor",
    "added": "minor",
    "deprecated": "minor",
    "documentation": "patch",
    "changed": "patch",
}
UNPROVEN_RULE = "CHANGE_UNPROVEN"
"""The rule of a finding the check could not decide: a possible break, never compatible."""


@dataclass(frozen=True, order=True)
class Entry:
    """One change of one contract: where (``path:line:column``, ``pointer``) and what.

    ``witness`` is a document (canonical JSON text) that separates the two versions of a
    data finding, when the check found one; ``categories`` are the finding's (empty for
    additions, deprecations and documentation, which break nothing).
    """

    contract: str
    kind: Kind
    path: str
    line: int
    column: int
    pointer: str
    rule: str
    message: str
    categories: tuple[str, ...] = ()
    witness: str | None = None

    @property
    def bump(self) -> Bump:
        return KIND_BUMPS[self.kind]


def _highest(bumps: Iterable[Bump]) -> Bump:
    return max(bumps, key=BUMPS.index, default="none")


@dataclass(frozen=True)
class Changelog:
    """Every entry, sorted by contract, kind (most severe first) and place."""

    entries: tuple[Entry, ...]

    @property
    def bump(self) -> Bump:
        """The bump the whole change implies: the highest of its entries', else ``none``."""
        return _highest(e.bump for e in self.entries)

    def contracts(self) -> dict[str, tuple[Entry, ...]]:
        """Contract title -> its entries, in the changelog's order."""
        grouped: dict[str, list[Entry]] = {}
        for entry in self.entries:
            grouped.setdefault(entry.contract, []).append(entry)
        return {name: tuple(found) for name, found in grouped.items()}

    def bump_of(self, contract: str) -> Bump:
        """The bump one contract's changes imply."""
        return _highest(e.bump for e in self.entries if e.contract == contract)


def kind_of(finding: Finding) -> Kind:
    """The kind of a breaking-check finding, by its categories (an undecided one: unproven)."""
    if "CODEGEN" in finding.categories:
        return "removed"
    if finding.rule == UNPROVEN_RULE:
        return "unproven"
    if "DATA_BACKWARD" in finding.categories:
        return "tightened"
    if "DATA_FORWARD" in finding.categories:
        return "widened"
    return "unproven"


def _contract_of(previous: Side, current: Side) -> dict[str, str]:
    """Displayed path -> contract title (the current file's where both sides have the path)."""
    titles = {previous.shown(f): f.title for f in previous.tree.files}
    titles.update({current.shown(f): f.title for f in current.tree.files})
    return titles


def _from_finding(finding: Finding, titles: Mapping[str, str]) -> Entry:
    witness = finding.witness
    return Entry(
        titles.get(finding.path, finding.path),
        kind_of(finding),
        finding.path,
        finding.line,
        finding.column,
        finding.pointer,
        finding.rule,
        finding.message,
        finding.categories,
        witness if isinstance(witness, str) else None,
    )


def _from_change(change: changes.Change) -> Entry:
    where = change.file.loc(change.pointer)
    return Entry(
        change.contract,
        change.kind,
        change.side.shown(change.file),
        where.line,
        where.column,
        where.pointer,
        change.rule,
        change.message,
    )


def _order(entry: Entry) -> tuple[str, int, str, int, int, str, str]:
    return (entry.contract, KINDS.index(entry.kind), entry.path, entry.line, entry.column,
            entry.rule, entry.message)  # fmt: skip


def changelog(previous: Side, current: Side) -> Changelog:
    """What changed from ``previous`` to ``current``, per contract, with its bump.

    Raises nothing of its own: the sides are loaded trees (``load_tree`` refuses bad input).
    """
    titles = _contract_of(previous, current)
    entries = {_from_finding(f, titles) for f in compare(previous, current)}
    entries.update(_from_change(c) for c in changes.changes(previous, current))
    for change in changes.rewritten(previous, current, {e.contract for e in entries}):
        entries.add(_from_change(change))
    return Changelog(tuple(sorted(entries, key=_order)))


def sides_at(
    repo: Path,
    ref: str,
    schema_dir: Path,
    shown: str,
    options: LoadOptions | None = None,
    *,
    config: Path | None = None,
) -> tuple[Side, Side]:
    """The schemas at git revision ``ref`` and in the work tree: the changelog's two sides.

    ``shown`` is the schema folder as paths show it; ``config`` the configuration file, whose
    ``exclude`` at ``ref`` says what the previous side leaves out. A revision without the
    schema folder gives an empty previous side (every contract is then added). Raises
    :class:`~codegen.core.errors.CodegenError` for a revision that does not exist, schemas
    that do not load (at the revision or now) and a folder outside any git repository.
    """
    current = Side(load_tree(schema_dir, options=options), shown)
    previous = gitref.tree_at(repo, ref, schema_dir, shown, options, config=config)
    return Side(previous or SchemaTree(Path(ref), ()), shown), current


_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)


def next_version(version: str, bump: Bump) -> str:
    """The version that releases a change of ``bump`` after ``version`` (semver 2.0.0).

    The leftmost non-zero part of the version is its major part, as npm's and Cargo's caret
    ranges read it (semver leaves ``0.y.z`` open: "anything may change"): from ``1.2.3`` a
    major change gives ``2.0.0``, a minor one ``1.3.0``, a patch ``1.2.4``; from ``0.4.1`` a
    major change gives ``0.5.0`` and a minor or patch change ``0.4.2``; from ``0.0.3`` every
    change gives ``0.0.4``. Leaving ``0.x`` (``1.0.0``) is a decision, never a bump. A
    pre-release is released as npm's ``semver.inc`` does: ``2.0.0-rc.1`` with a major change
    gives ``2.0.0``, with a patch ``2.0.0`` as well, ``1.2.3-rc.1`` with a minor ``1.3.0``.
    ``none`` returns ``version`` unchanged; build metadata (``+build``) is dropped otherwise.
    Raises :class:`ValueError` for a version that is not semver or an unknown bump.
    """
    match = _SEMVER.fullmatch(version)
    if match is None:
        raise ValueError(f"{version!r} is not a semver version (MAJOR.MINOR.PATCH)")
    if bump not in BUMPS:
        raise ValueError(f"unknown bump {bump!r} (one of {', '.join(BUMPS)})")
    if bump == "none":
        return version
    parts = [int(match.group(i)) for i in (1, 2, 3)]
    pre = match.group(4) is not None
    leading = next((i for i, part in enumerate(parts) if part), 2)
    place = min(("major", "minor", "patch").index(bump) + leading, 2)
    # npm: a pre-release whose lower parts are zero is released as it is, not bumped past.
    if not (pre and all(part == 0 for part in parts[place + 1 :])):
        parts[place] += 1
    parts[place + 1 :] = [0] * (2 - place)
    return ".".join(map(str, parts))
