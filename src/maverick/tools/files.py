"""get_file: the UTF-8 text of one file below the root, its size and its number of lines.

Refused with an error result: folders, files over :data:`~maverick.tools.base.MAX_FILE_BYTES`
(1 MiB), binary or non-UTF-8 files, and every file the secrets policy denies (the workspace
refuses those while resolving the path, before anything is opened).
"""

from __future__ import annotations

from typing import Any

from maverick.tools.base import MAX_FILE_BYTES, Budget, ToolFailure, is_binary, read_file, string
from maverick.tools.workspace import Workspace

__all__ = ["get_file"]


def get_file(workspace: Workspace, budget: Budget, path: object) -> dict[str, Any]:
    """The fields of the FileResult for one call."""
    path = string(path, "path")
    file = workspace.resolve(path)
    if file.is_dir():
        raise ToolFailure(f"Path is a directory, not a file: {path}")
    if not file.is_file():
        raise ToolFailure(f"Path is not a regular file: {path}")
    size = file.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ToolFailure(f"File too large: {path} is {size} bytes (limit {MAX_FILE_BYTES})")
    data = read_file(str(file), budget, MAX_FILE_BYTES)
    if data is None:
        raise ToolFailure(f"File cannot be read: {path}")
    if is_binary(data):
        raise ToolFailure(f"Binary file refused: {path}")
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolFailure(f"Not UTF-8 text: {path} ({exc.reason} at byte {exc.start})") from None
    lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
    return {
        "path": str(file),
        "content": content,
        "size": len(data),
        "lines": lines,
        "encoding": "utf-8",
    }
