"""What a generated class's field types say: the part of each schema that is exact as types.

* :mod:`.skeleton` (with :mod:`.skeleton_data`, :mod:`.skeleton_shapes`,
  :mod:`.skeleton_wider`, :mod:`.skeleton_types` and :mod:`.exclusive`): split each schema into
  the keywords whose strict Pydantic form is exact, given to datamodel-code-generator, and the
  rest;
* :mod:`.defaults` (over :mod:`.schema_graph`): whether a model may fill in a default;
  :mod:`.null_refusal`: whether an optional property's field keeps ``None``;
* :mod:`.fields`: edits of the generated fields (``pydantic.MISSING`` for absent properties).

May import the core and :mod:`codegen.generate.rules`; never :mod:`codegen.generate.models.checks`
(the checks are what the types leave over, so they read the skeleton, not the reverse).
"""
