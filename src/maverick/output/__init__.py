"""Parse any model's output: the last ```` ```json ```` block of a text, validated as a model.

::

    from maverick.output import validate_output, OutputValidationError

    result = validate_output(agent_text, FixerResult)

Nothing here is specific to agents, and nothing here needs claude-agent-sdk: the agent layer,
the MCP tools and any caller use the same runtime. `maverick.agents.contracts` re-exports it.

- ``_fences``: the CommonMark fence scanner that finds the last json block;
- ``_finite``: each model's validator, with non-finite numbers refused in the same pass;
- ``_failures``: what went wrong, as a stage, a message, a position and field errors;
- ``_validate``: `validate_output` and `validate_outputs`.
"""

from __future__ import annotations

from maverick.exceptions import FieldError, OutputValidationError
from maverick.output._validate import (
    DEFAULT_MAX_BYTES,
    ChunkedOutputs,
    ChunkError,
    validate_output,
    validate_outputs,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ChunkError",
    "ChunkedOutputs",
    "FieldError",
    "OutputValidationError",
    "validate_output",
    "validate_outputs",
]
