"""Build tool results: the factories of seed 004, hand-written beside the generated models.

``create_success_result(SearchResult, "search_codebase", query=..., ...)`` returns a
``SearchResult`` (mypy sees the class passed in); ``create_error_result(FileResult,
"get_file", "File not found: x")`` an error result: ``success`` false, the message in
``error``, ``data`` null and every other field at its default. Both put ``tool_name``,
``timestamp`` (UTC, ISO 8601 ending in ``Z``) and, when measured, ``execution_time_ms`` in
``metadata``, and both validate through the generated model: a bad field raises pydantic's
``ValidationError``, never returns a half-built result.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from maverick.contracts import ToolResult

__all__ = ["RESERVED_METADATA", "create_error_result", "create_success_result", "utc_timestamp"]

ResultT = TypeVar("ResultT", bound=ToolResult)

# What the factories write into metadata themselves; a caller's own keys may not replace them.
RESERVED_METADATA = ("tool_name", "timestamp", "execution_time_ms")


def utc_timestamp(now: datetime | None = None) -> str:
    """``now`` (default: the current time) in UTC as ISO 8601 ending in ``Z``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def _checked_class(cls: object) -> None:
    if not (isinstance(cls, type) and issubclass(cls, ToolResult)):
        raise TypeError(
            f"{cls!r} is not a ToolResult class: the factories build only ToolResult and its "
            "subclasses (SearchResult, FileResult, ComplianceResult, DependencyResult, ...)"
        )


def _metadata(
    tool_name: str, execution_time_ms: int | None, extra: Mapping[str, Any] | None
) -> dict[str, Any]:
    if not isinstance(tool_name, str) or not tool_name:
        raise ValueError("tool_name must be a non-empty string")
    if execution_time_ms is not None and (
        isinstance(execution_time_ms, bool)
        or not isinstance(execution_time_ms, int)
        or execution_time_ms < 0
    ):
        raise ValueError(f"execution_time_ms must be a non-negative int, not {execution_time_ms!r}")
    clash = sorted(set(extra or {}) & set(RESERVED_METADATA))
    if clash:
        raise ValueError(f"metadata keys {clash} are set by the factory; pass them as arguments")
    metadata: dict[str, Any] = {"tool_name": tool_name, "timestamp": utc_timestamp()}
    if execution_time_ms is not None:
        metadata["execution_time_ms"] = execution_time_ms
    metadata.update(extra or {})
    return metadata


def create_success_result(
    cls: type[ResultT],
    tool_name: str,
    *,
    execution_time_ms: int | None = None,
    metadata: Mapping[str, Any] | None = None,
    **fields: Any,
) -> ResultT:
    """A successful ``cls`` result holding ``fields``, validated by the generated model.

    ``metadata`` adds the caller's own keys to the run's metadata. Raises ``TypeError`` when
    ``cls`` is not a ToolResult class or ``fields`` names ``success`` or ``error``, and
    pydantic's ``ValidationError`` when a field is not what the contract allows.
    """
    _checked_class(cls)
    for own in ("success", "error"):
        if own in fields:
            raise TypeError(f"create_success_result sets {own!r} itself")
    document = {"success": True, "metadata": _metadata(tool_name, execution_time_ms, metadata)}
    return cls.model_validate({**fields, **document})


def create_error_result(
    cls: type[ResultT],
    tool_name: str,
    error: str,
    *,
    execution_time_ms: int | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> ResultT:
    """An error ``cls`` result: success false, ``error`` set, every other field at its default.

    Raises ``TypeError`` when ``cls`` is not a ToolResult class and pydantic's
    ``ValidationError`` when ``error`` is empty (the contract requires a non-empty message).
    """
    _checked_class(cls)
    return cls.model_validate(
        {
            "success": False,
            "error": error,
            "metadata": _metadata(tool_name, execution_time_ms, metadata),
        }
    )
