"""A :class:`~codegen.breaking.changelog.Changelog` as Markdown (for people) or JSON (for tools).

Markdown has a section per contract, as oasdiff's ``changelog`` has one per operation: each
entry names its kind, its location ``path:line:column``, the message and the rule, and a data
break its witness document. JSON holds the same, with stable keys (documented in
:func:`render_json`). Both are pure: the CLI prints them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from codegen.breaking.changelog import KIND_BUMPS, Changelog, Entry, Kind

__all__ = [
    "CHANGELOG_FORMATS",
    "JSON_FORMAT_VERSION",
    "Header",
    "entry_json",
    "render_json",
    "render_markdown",
]

JSON_FORMAT_VERSION = 1


@dataclass(frozen=True)
class Header:
    """What the changelog compares: the schema folder, the revision, the released version.

    ``versions`` is ``(released, next)`` when the version released at the revision is known.
    """

    schema_dir: str
    against: str
    versions: tuple[str, str] | None = None


_LABELS: Mapping[Kind, str] = {
    "removed": "Removed or renamed",
    "tightened": "Tightened",
    "unproven": "Possibly breaking",
    "widened": "Widened",
    "added": "Added",
    "deprecated": "Deprecated",
    "documentation": "Documentation",
    "changed": "Changed",
}
_LEGEND = (
    "Major: removed or renamed (generated code breaks), tightened (documents the previous "
    "version accepted are refused), possibly breaking (not proven compatible). "
    "Minor: widened (documents the previous version refused are accepted), added, deprecated. "
    "Patch: documentation, defaults and rewrites that accept the same documents."
)
_SPECIAL = re.compile(r"([\\`*<>|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def _text(message: str) -> str:
    """Plain text safe in Markdown: what would start code, emphasis or HTML is escaped."""
    return _SPECIAL.sub(r"\\\1", message)


def _code(text: str) -> str:
    """``text`` as an inline code span, however many backticks it holds."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _witness_line(entry: Entry) -> str:
    if entry.witness is None:
        return ""
    if "DATA_FORWARD" in entry.categories and "DATA_BACKWARD" not in entry.categories:
        said = "accepted by the current version, refused by the previous one"
    else:
        said = "accepted by the previous version, refused by the current one"
    return f"\n  - Witness, {said}: {_code(entry.witness)}"


def _label(entry: Entry) -> str:
    if entry.kind != "unproven":
        return _LABELS[entry.kind]
    if "DATA_BACKWARD" in entry.categories:
        return "Possibly breaking (may refuse documents the previous version accepted)"
    if "DATA_FORWARD" in entry.categories:
        return "Possibly breaking (may accept documents the previous version refused)"
    return _LABELS["unproven"]


def _entry_line(entry: Entry) -> str:
    where = _code(f"{entry.path}:{entry.line}:{entry.column}")
    rule = _code(entry.rule)
    return f"- **{_label(entry)}** {where} {_text(entry.message)} ({rule}){_witness_line(entry)}"


def _bump_line(log: Changelog, header: Header) -> str:
    line = f"Semver bump: **{log.bump}**"
    if header.versions is not None and log.bump != "none":
        line += f" ({header.versions[0]} -> {header.versions[1]})"
    return line + "."


def render_markdown(log: Changelog, header: Header) -> str:
    """The changelog as Markdown: the bump, a summary table, then a section per contract."""
    lines = [f"# Changelog of {header.schema_dir}/ since {header.against}", ""]
    grouped = log.contracts()
    if not grouped:
        lines += ["No change to the contracts: semver bump **none**.", ""]
        return "\n".join(lines)
    lines += [_bump_line(log, header), "", _LEGEND, "", "| Contract | Bump | Changes |"]
    lines.append("|---|---|---|")
    for name, entries in grouped.items():
        lines.append(f"| {_text(name)} | {log.bump_of(name)} | {len(entries)} |")
    for name, entries in grouped.items():
        lines += ["", f"## {_text(name)}", "", f"Semver bump: {log.bump_of(name)}.", ""]
        lines += [_entry_line(entry) for entry in entries]
    return "\n".join(lines) + "\n"


def entry_json(entry: Entry) -> dict[str, Any]:
    """One entry's JSON object (the keys :func:`render_json` documents)."""
    return {
        "kind": entry.kind,
        "bump": KIND_BUMPS[entry.kind],
        "contract": entry.contract,
        "path": entry.path,
        "line": entry.line,
        "column": entry.column,
        "pointer": entry.pointer,
        "rule": entry.rule,
        "message": entry.message,
        "categories": list(entry.categories),
        "witness": entry.witness,
    }


def render_json(log: Changelog, header: Header) -> str:
    """The changelog as one JSON object; every key is always present.

    ``format`` (1), ``schema_dir``, ``against``, ``bump`` (none, patch, minor, major),
    ``released`` and ``next_version`` (null unless the released version was given), and
    ``contracts``: a list of ``{contract, bump, entries}``; an entry holds ``kind``, ``bump``,
    ``contract``, ``path``, ``line``, ``column``, ``pointer``, ``rule``, ``message``,
    ``categories`` (a list) and ``witness``: the separating document as canonical JSON text,
    or null when there is none (a text, so that the document ``null`` stays distinct).
    """
    released, following = header.versions or (None, None)
    document = {
        "format": JSON_FORMAT_VERSION,
        "schema_dir": header.schema_dir,
        "against": header.against,
        "bump": log.bump,
        "released": released,
        "next_version": following,
        "contracts": [
            {
                "contract": name,
                "bump": log.bump_of(name),
                "entries": [entry_json(entry) for entry in entries],
            }
            for name, entries in log.contracts().items()
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


CHANGELOG_FORMATS: Mapping[str, Callable[[Changelog, Header], str]] = {
    "markdown": render_markdown,
    "json": render_json,
}
