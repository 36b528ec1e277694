"""Findings of ``lint`` and ``breaking``, and their three renderings: text, json, github.

A finding is a value: a rule id, a message and where it is (a display path, line, column and
JSON pointer). The cores return findings; the renderers return text; only the CLI prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from codegen.core.errors import Location

__all__ = ["FORMATS", "Finding", "render"]


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One problem found by a rule, located in a file (``path`` as shown to the user)."""

    path: str
    line: int
    column: int
    rule: str
    message: str
    pointer: str = ""
    categories: tuple[str, ...] = ()
    witness: str | None = field(default=None, compare=False)
    """A document that shows the finding (``breaking``: canonical JSON text), if any."""

    @classmethod
    def at(
        cls,
        where: Location,
        rule: str,
        message: str,
        *,
        path: str | None = None,
        categories: tuple[str, ...] = (),
        witness: str | None = None,
    ) -> Finding:
        """A finding at ``where``; ``path`` replaces the location's path for display."""
        shown = path if path is not None else str(where.path)
        return cls(
            shown, where.line, where.column, rule, message, where.pointer, categories, witness
        )


def _text(findings: Sequence[Finding]) -> str:
    return "".join(
        f"{f.path}:{f.line}:{f.column}: {f.message} ({f.rule})\n"
        + (f"    witness: {f.witness}\n" if f.witness is not None else "")
        for f in findings
    )


def _as_json(finding: Finding) -> dict[str, object]:
    data = asdict(finding)
    if finding.witness is None:
        del data["witness"]
    else:
        data["witness"] = json.loads(finding.witness)
    return data


def _json(findings: Sequence[Finding]) -> str:
    return json.dumps([_as_json(f) for f in findings], indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: one ``::error`` annotation per finding."""
    return "".join(
        f"::error file={_escape_property(f.path)},line={f.line},col={f.column},"
        f"title={_escape_property(f.rule)}::{_escape_data(f.message)}"
        f"{_escape_data(' Witness: ' + f.witness) if f.witness is not None else ''}\n"
        for f in findings
    )


FORMATS: Mapping[str, Callable[[Sequence[Finding]], str]] = {
    "text": _text,
    "json": _json,
    "github": _github,
}


def render(findings: Iterable[Finding], fmt: str) -> str:
    """The findings, sorted by place, in output format ``fmt`` (a key of :data:`FORMATS`)."""
    return FORMATS[fmt](sorted(findings))
