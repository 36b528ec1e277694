"""The outputs for readers that are not the Python package.

* :mod:`.export` (with :mod:`.export_docs`, :mod:`.export_ids`, :mod:`.documents`): the export
  folder, every schema as an exact, identified draft 2020-12 document;
* :mod:`.bundle`: the self-contained structured-output form of a contract; :mod:`.a2a`: the
  A2A AgentCard skills of the MCP tools;
* :mod:`.npm` (with :mod:`.typescript`, :mod:`.ts_names`, :mod:`.ts_schema`, :mod:`.ts_text`,
  :mod:`.ajv_limits`): the npm package, its TypeScript declarations and its Ajv validator;
* :mod:`.docs`: the Markdown catalog of every contract.

May import the core, :mod:`codegen.generate.files`, :mod:`~codegen.generate.contract` and
:mod:`~codegen.generate.rules`; never :mod:`codegen.generate.models` or the plan.
"""
