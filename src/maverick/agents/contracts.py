"""Every agent output type, and the tools to parse raw agent output into them: one import.

::

    from maverick.agents.contracts import (
        FixerResult, FixResult, ImplementationResult, ReviewResult, GroupedReviewResult,
        FixOutcome, validate_output, OutputValidationError,
    )

The contract classes are generated from ``schemas/`` (see :mod:`maverick.contracts`); this
module adds the hand-written runtime pieces: :func:`validate_output` and
:func:`validate_outputs`, :class:`OutputValidationError`, and the deprecated
:class:`AgentResult` / :class:`AgentUsage` kept for compatibility. It never imports
claude-agent-sdk.
"""

from __future__ import annotations

from maverick import contracts as _generated
from maverick.agents.result import AgentResult, AgentUsage
from maverick.contracts import *  # noqa: F403  (every generated contract, listed in its __all__)
from maverick.exceptions import FieldError, OutputValidationError
from maverick.output import ChunkedOutputs, ChunkError, validate_output, validate_outputs

__all__ = [  # noqa: PLE0604  (the generated names come from the generated package's __all__)
    *_generated.__all__,
    "AgentResult",
    "AgentUsage",
    "ChunkError",
    "ChunkedOutputs",
    "FieldError",
    "OutputValidationError",
    "validate_output",
    "validate_outputs",
]
