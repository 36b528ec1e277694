"""Map JSON pointers to line and column in the text of a JSON document.

``json.loads`` gives no positions, so errors about a schema would only name the file. This
scanner walks an already-valid document once and records where every value (or, for an
object member, its key) starts, so that any message can say ``file:line:col``.
"""

from __future__ import annotations

import json
import re
from functools import cached_property
from typing import Any

__all__ = ["JsonPositions", "escape_pointer", "pointer_tokens", "resolve_pointer"]

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def escape_pointer(token: str | int) -> str:
    """Escape one reference token of a JSON pointer (RFC 6901)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_tokens(pointer: str) -> list[str]:
    """The unescaped reference tokens of a JSON pointer (RFC 6901)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value ``pointer`` names in ``document``; :class:`LookupError` if there is none."""
    node = document
    for token in pointer_tokens(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise LookupError(f"JSON pointer {pointer!r}: nothing at {token!r}")
    return node


class JsonPositions:
    """Positions of the values of one JSON text, looked up by JSON pointer."""

    def __init__(self, text: str) -> None:
        self._text = text

    @cached_property
    def _offsets(self) -> dict[str, int]:
        return self._scan[0]

    @cached_property
    def _scan(self) -> tuple[dict[str, int], dict[str, int]]:
        """Where each pointer starts (an object member: its key), and where each value does."""
        offsets: dict[str, int] = {}
        values: dict[str, int] = {}
        self._duplicates: list[tuple[str, int]] = []
        self._value(_WS.match(self._text, 0).end(), "", offsets, values)  # type: ignore[union-attr]
        return offsets, values

    def duplicate_keys(self) -> list[tuple[str, int, int]]:
        """Every repeated key of an object: its member's pointer, 1-based line and column."""
        self._scan  # noqa: B018  (the scan finds them)
        return [(pointer, *self.offset_line_col(i)) for pointer, i in self._duplicates]

    @cached_property
    def _line_starts(self) -> list[int]:
        starts = [0]
        for match in re.finditer(r"\r\n|\r|\n", self._text):
            starts.append(match.end())
        return starts

    def line_col(self, pointer: str) -> tuple[int, int]:
        """1-based line and column of ``pointer``, or of its nearest existing ancestor."""
        while pointer not in self._offsets and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        offset = self._offsets.get(pointer, 0)
        return self.offset_line_col(offset)

    def value_line_col(self, pointer: str) -> tuple[int, int]:
        """1-based line and column of the value at ``pointer`` (of an object member: not its
        key), or of its nearest existing ancestor."""
        values = self._scan[1]
        while pointer not in values and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        return self.offset_line_col(values.get(pointer, 0))

    def offset_line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        starts = self._line_starts
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - starts[lo] + 1

    def _skip(self, i: int) -> int:
        return _WS.match(self._text, i).end()  # type: ignore[union-attr]

    def _value(self, i: int, pointer: str, offsets: dict[str, int], values: dict[str, int]) -> int:
        offsets.setdefault(pointer, i)
        values[pointer] = i
        text = self._text
        char = text[i]
        if char == "{":
            i = self._skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key_match = _STRING.match(text, i)
                if key_match is None:
                    raise ValueError(f"expected a key at offset {i}")
                child = f"{pointer}/{escape_pointer(json.loads(key_match.group()))}"
                if child in offsets:
                    self._duplicates.append((child, i))
                offsets[child] = i
                i = self._skip(key_match.end())
                i = self._skip(i + 1)  # the colon
                i = self._skip(self._value(i, child, offsets, values))
                if text[i] == "}":
                    return i + 1
                i = self._skip(i + 1)  # the comma
        if char == "[":
            i = self._skip(i + 1)
            if text[i] == "]":
                return i + 1
            index = 0
            while True:
                i = self._skip(self._value(i, f"{pointer}/{index}", offsets, values))
                index += 1
                if text[i] == "]":
                    return i + 1
                i = self._skip(i + 1)
        match = _STRING.match(text, i) if char == '"' else _SCALAR.match(text, i)
        if match is None:
            raise ValueError(f"unexpected character at offset {i}")
        return match.end()
