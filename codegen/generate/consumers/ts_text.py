"""TypeScript source text: type expressions, literals, property keys and doc comments.

:mod:`codegen.generate.consumers.typescript` decides what a schema's type is; this module writes it:
unions and intersections flattened, without repeats and parenthesised where precedence needs it
(``(A | B)[]``, ``(A | B) & C``), JSON values as literal types, names that are not identifiers
quoted, and descriptions as JSDoc comments that cannot end early.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "NEVER",
    "UNKNOWN",
    "TsType",
    "array_of",
    "doc_comment",
    "intersection",
    "js_string",
    "literal",
    "property_key",
    "union",
]

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


@dataclass(frozen=True)
class TsType:
    """A type expression; ``op`` is ``|`` or ``&`` when it is a union or an intersection."""

    text: str
    op: str = ""
    members: tuple[TsType, ...] = ()

    @property
    def grouped(self) -> str:
        """The text, parenthesised when it is a union or an intersection."""
        return f"({self.text})" if self.op else self.text


UNKNOWN = TsType("unknown")
NEVER = TsType("never")


def union(types: Iterable[TsType]) -> TsType:
    """``A | B``: ``unknown`` when a member is, ``never`` when there is none."""
    members: list[TsType] = []
    for kind in types:
        for member in kind.members if kind.op == "|" else (kind,):
            if member == UNKNOWN:
                return UNKNOWN
            if member != NEVER and member not in members:
                members.append(member)
    if not members:
        return NEVER
    if len(members) == 1:
        return members[0]
    return TsType(" | ".join(m.text for m in members), "|", tuple(members))


def intersection(types: Iterable[TsType]) -> TsType:
    """``A & B``: ``never`` when a part is, ``unknown`` when there is none."""
    parts: list[TsType] = []
    for kind in types:
        for part in kind.members if kind.op == "&" else (kind,):
            if part == NEVER:
                return NEVER
            if part != UNKNOWN and part not in parts:
                parts.append(part)
    if not parts:
        return UNKNOWN
    if len(parts) == 1:
        return parts[0]
    text = " & ".join(p.grouped if p.op == "|" else p.text for p in parts)
    return TsType(text, "&", tuple(parts))


def array_of(item: TsType) -> TsType:
    return TsType(f"{item.grouped}[]")


def js_string(text: str) -> str:
    """A string literal (JSON's form, which TypeScript and JavaScript read)."""
    return _json(text)


def _json(value: Any) -> str:
    """JSON text, non-ASCII characters as they are unless a lone surrogate needs an escape."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value)
    return text


def literal(value: Any) -> str:
    """The literal type of a JSON value (an object or array as the shape it has)."""
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return f"[{', '.join(literal(v) for v in value)}]"
    if not value:
        return "{ [key: string]: never }"
    return "{ " + " ".join(f"{property_key(k)}: {literal(v)};" for k, v in value.items()) + " }"


def property_key(name: str) -> str:
    """A property name as written in a type: bare when an identifier, else quoted."""
    return name if _IDENTIFIER.match(name) else js_string(name)


def doc_comment(node: Any, pad: str, *, default: bool = True) -> list[str]:
    """The JSDoc lines of a schema: its description, ``@default`` and ``@deprecated``."""
    if not isinstance(node, dict):
        return []
    lines: list[str] = []
    description = node.get("description")
    if isinstance(description, str) and description.strip():
        lines += description.strip().splitlines()
    if default and "default" in node:
        lines.append(f"@default {_json(node['default'])}")
    if node.get("deprecated") is True:
        lines.append("@deprecated")
    lines = [
        line.rstrip().replace("*/", "*\\/").encode("utf-8", "backslashreplace").decode()
        for line in lines
    ]
    if not lines:
        return []
    if len(lines) == 1:
        return [f"{pad}/** {lines[0]} */"]
    return [f"{pad}/**", *(f"{pad} * {line}".rstrip() for line in lines), f"{pad} */"]
