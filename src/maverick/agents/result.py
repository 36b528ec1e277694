"""``AgentResult`` and ``AgentUsage``: the generic agent result, kept for compatibility.

.. deprecated::
    ``AgentResult`` carries an opaque ``output: str``. Every agent now returns its own typed
    contract (see :mod:`maverick.agents.contracts`); use that instead. These frozen
    dataclasses stay importable so that existing callers keep working (FR-010).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from maverick.exceptions import AgentError

__all__ = ["AgentResult", "AgentUsage"]


@dataclass(frozen=True, slots=True)
class AgentUsage:
    """Usage statistics of one agent run.

    .. deprecated:: Typed contracts carry their own usage (e.g. ``ReviewResult.usage``).
    """

    input_tokens: int
    output_tokens: int
    total_cost_usd: float | None = None
    duration_ms: int = 0

    def __post_init__(self) -> None:
        for name in ("input_tokens", "output_tokens", "duration_ms"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if self.total_cost_usd is not None and self.total_cost_usd < 0:
            raise ValueError(f"total_cost_usd must be >= 0, got {self.total_cost_usd}")

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class AgentResult:
    """The outcome of an agent run as opaque text.

    .. deprecated:: Use the agent's typed contract (``FixerResult``, ``ReviewResult``, ...)
       from :mod:`maverick.agents.contracts`.

    A failed result must carry at least one error.
    """

    success: bool
    output: str
    usage: AgentUsage
    metadata: Mapping[str, Any] = field(default_factory=dict)
    errors: Sequence[AgentError] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not self.success and not self.errors:
            raise ValueError("a failed AgentResult needs at least one error")

    @classmethod
    def success_result(
        cls, output: str, usage: AgentUsage, metadata: Mapping[str, Any] | None = None
    ) -> AgentResult:
        return cls(success=True, output=output, usage=usage, metadata=dict(metadata or {}))

    @classmethod
    def failure_result(
        cls,
        errors: Sequence[AgentError],
        usage: AgentUsage,
        output: str = "",
        metadata: Mapping[str, Any] | None = None,
    ) -> AgentResult:
        return cls(
            success=False,
            output=output,
            usage=usage,
            metadata=dict(metadata or {}),
            errors=tuple(errors),
        )
