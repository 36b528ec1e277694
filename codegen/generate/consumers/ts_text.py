"""TypeScript source text: type expressions, literals, property keys and doc comments.

:mod:`codegen.generate.consumers.typescript` decides what a schema's type is; this module writes it:
unions and intersections flattened, without repeats and parenthesised where precedence needs it
(``(A | B)[]``, ``(A | B) & C``), JSON values as literal types, names that are not identifiers
quoted, descriptions as JSDoc comments that cannot end early, object types from their fields, and
the ``import type`` lines of a module.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

__all__ = [
    "NEVER",
    "UNKNOWN",
    "Field",
    "TsType",
    "array_of",
    "doc_comment",
    "intersection",
    "js_string",
    "literal",
    "merge_fields",
    "property_key",
    "render_object",
    "type_imports",
    "union",
    "words_outside_objects",
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


@dataclass
class Field:
    """A property of an object type: its type, whether it is required, its schema."""

    kind: TsType
    required: bool
    doc: Any  # the property's schema, for its comment


def merge_fields(fields: dict[str, Field], more: Mapping[str, Field]) -> None:
    """Add ``more`` to ``fields``; a property declared by both holds both types."""
    for name, field in more.items():
        known = fields.get(name)
        if known is None:
            fields[name] = field
        else:
            fields[name] = Field(
                intersection([known.kind, field.kind]),
                known.required or field.required,
                field.doc if field.doc is not None else known.doc,
            )


def render_object(fields: Mapping[str, Field], index: TsType | None, depth: int) -> TsType:
    if not fields:
        return TsType(f"{{ [key: string]: {(index or NEVER).text} }}")
    pad = "  " * (depth + 1)
    lines = ["{"]
    for name, field in fields.items():
        lines += doc_comment(field.doc, pad)
        mark = "" if field.required else "?"
        lines.append(f"{pad}{property_key(name)}{mark}: {field.kind.text};")
    if index is not None:
        lines.append(f"{pad}[key: string]: {index.text};")
    lines.append(f"{'  ' * depth}}}")
    return TsType("\n".join(lines))


def type_imports(here: PurePosixPath, imports: Mapping[str, PurePosixPath]) -> list[str]:
    """The ``import type`` lines of the module of the schema file ``here``: each type name of
    ``imports`` from the module of its schema file."""
    lines = []
    for target in sorted(set(imports.values())):
        found = sorted(name for name, rel in imports.items() if rel == target)
        path = posixpath.relpath(target.as_posix(), here.parent.as_posix())
        path = path.removesuffix(".json") + ".js"
        path = path if path.startswith("../") else f"./{path}"
        lines.append(f"import type {{ {', '.join(found)} }} from {json.dumps(path)};")
    return lines


# An object type holding no other.
_OBJECT_TYPE = re.compile(r"\{[^{}]*\}")


def words_outside_objects(text: str) -> set[str]:
    """The names a type expression says outside its object types (where an alias may not
    name itself: ``type A = B | A`` is circular, ``type A = { a: A }`` is not)."""
    outside = _OBJECT_TYPE.sub("", text)
    while _OBJECT_TYPE.search(outside):
        outside = _OBJECT_TYPE.sub("", outside)
    return set(re.findall(r"[\w$]+", outside))
