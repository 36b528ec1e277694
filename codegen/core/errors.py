"""The error types of the generator; only the CLI turns them into text on a terminal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["CodegenError", "Location", "SchemaError"]


@dataclass(frozen=True, slots=True)
class Location:
    """Where a problem is: a file, a 1-based line and column, and a JSON pointer in it."""

    path: Path
    line: int = 1
    column: int = 1
    pointer: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class CodegenError(Exception):
    """A failure the user must fix (bad input or usage); the CLI exits with status 2."""

    def __init__(self, message: str, location: Location | None = None, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.rule = rule

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        pointer = f" at {self.location.pointer}" if self.location and self.location.pointer else ""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{where}{self.message}{pointer}{rule}"


class SchemaError(CodegenError):
    """A schema file is malformed, unsafe or uses a construct the generator cannot reproduce."""
