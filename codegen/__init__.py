"""maverick-codegen: JSON Schema files in, Pydantic v2 contract modules and their registry out.

The pipeline, one module per step::

    config -> load (parse, locate, check refs) -> rules (compile cross-field rules)
           -> plan (render every output in memory) -> write | check (drift) | export

Only :mod:`codegen.cli` prints. Every user-facing failure is a :class:`codegen.errors.CodegenError`
carrying a file, a line and column, a JSON pointer and the rule that was broken.
"""

__version__ = "0.1.0"
