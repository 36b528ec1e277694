"""The error types of the generator; only the CLI turns them into text on a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CodegenError", "Location", "Refused", "SchemaError"]


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

    def describe(self) -> str:
        """The error as the command line prints it."""
        return f"error: {self}" if self.location is None else str(self)


class SchemaError(CodegenError):
    """A schema file is malformed, unsafe or uses a construct the generator cannot reproduce."""


class Refused(CodegenError):
    """Schema files a job refuses, each with every reason one run found (``errors``, sorted by
    file and place), and a summary: the CLI prints them all, then the summary (exit 2)."""

    def __init__(self, errors: Sequence[CodegenError], summary: str) -> None:
        super().__init__(summary, None, "REFUSED")
        self.errors = sorted(errors, key=_place)

    @property
    def files(self) -> list[Path]:
        """The refused files, each once, in order."""
        return list(dict.fromkeys(e.location.path for e in self.errors if e.location))

    def describe(self) -> str:
        return "".join(f"{error.describe()}\n" for error in self.errors) + f"error: {self.message}"


def _place(error: CodegenError) -> tuple[str, int, int, str]:
    where = error.location
    if where is None:
        return ("", 0, 0, error.message)
    return (str(where.path), where.line, where.column, error.message)
