"""What the four tools share: their failures, their budgets, argument checks and file reading.

Every call runs under a :class:`Budget`: a deadline (``Limits.time_budget`` seconds after the
call arrived) and a number of bytes it may read (``Limits.read_budget``). The tools check it
between files and between blocks of a file (:meth:`Budget.check`, :meth:`Budget.charge`);
past either limit the call ends with :class:`BudgetExceeded`, which becomes an error result.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass

__all__ = [
    "BINARY_PROBE",
    "MAX_FILE_BYTES",
    "MAX_SEARCH_FILE_BYTES",
    "MAX_TEXT",
    "OPEN_FLAGS",
    "Budget",
    "BudgetExceeded",
    "Limits",
    "ToolFailure",
    "boolean",
    "is_binary",
    "line_text",
    "read_file",
    "string",
]

MAX_FILE_BYTES = 1024 * 1024  # get_file refuses larger files
MAX_SEARCH_FILE_BYTES = 16 * 1024 * 1024  # search and check_patterns skip larger files
MAX_TEXT = 200  # a match's or violation's line is cut to this many characters
BINARY_PROBE = 8192  # a NUL byte in the first bytes makes a file binary (as grep decides)
# Opened so that a file swapped for a link (or a FIFO) after the walk is never followed/waited on.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class ToolFailure(Exception):
    """Raised inside a tool for a bad input; the message becomes the error result's ``error``."""


class BudgetExceeded(ToolFailure):
    """The call ran past its time budget or read past its size budget."""


@dataclass(frozen=True)
class Limits:
    """What one call may spend: ``time_budget`` seconds, ``read_budget`` bytes read."""

    time_budget: float = 10.0
    read_budget: int = 256 * 1024 * 1024

    def __post_init__(self) -> None:
        if not self.time_budget > 0:
            raise ValueError(f"time_budget must be positive, not {self.time_budget!r}")
        if self.read_budget < 1:
            raise ValueError(f"read_budget must be positive, not {self.read_budget!r}")


class Budget:
    """The budget of one call, started when the call arrived (``started``, monotonic)."""

    __slots__ = ("deadline", "left", "limits", "tool")

    def __init__(self, tool: str, limits: Limits, started: float | None = None) -> None:
        self.tool = tool
        self.limits = limits
        self.deadline = (time.monotonic() if started is None else started) + limits.time_budget
        self.left = limits.read_budget

    def timed_out_message(self) -> str:
        return f"{self.tool} ran past its time budget of {self.limits.time_budget:g} s"

    def check(self) -> None:
        """Raise :class:`BudgetExceeded` once the deadline has passed."""
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(self.timed_out_message())

    def charge(self, size: int) -> None:
        """Count ``size`` bytes read; raise :class:`BudgetExceeded` past the size budget."""
        self.left -= size
        if self.left < 0:
            mib = self.limits.read_budget / (1024 * 1024)
            raise BudgetExceeded(
                f"{self.tool} ran past its size budget: it may read {mib:g} MiB in one call; "
                "narrow path or file_pattern"
            )


def string(value: object, what: str, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise ToolFailure(f"{what} must be a string, not {type(value).__name__}")
    if not empty and not value:
        raise ToolFailure(f"{what} is required")
    return value


def boolean(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ToolFailure(f"{what} must be true or false, not {value!r}")
    return value


def line_text(line: str) -> str:
    return line.strip()[:MAX_TEXT]


def is_binary(data: bytes | bytearray) -> bool:
    return data.find(b"\0", 0, BINARY_PROBE) >= 0


def read_file(path: str, budget: Budget, limit: int = MAX_SEARCH_FILE_BYTES) -> bytes | None:
    """The bytes of the regular file ``path`` (never through a link), or None when it is
    larger than ``limit`` or cannot be read. The bytes are charged to ``budget``."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        size = status.st_size
        if not stat.S_ISREG(status.st_mode) or size > limit:
            return None
        chunks, total = [], 0
        while chunk := os.read(fd, max(size + 1 - total, 65536)):
            total += len(chunk)
            if total > limit:  # it grew since fstat
                return None
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    budget.charge(total)
    return b"".join(chunks)
