"""The machinery that plans, writes and records generated files, whatever they hold.

* :mod:`.units`: which contracts a generation regenerates (their inputs against the records on
  disk, :mod:`.reuse`), and how a large set is split between worker processes;
* :mod:`.targets`: the output folders, and which files below each one are generated;
* :mod:`.header` and :mod:`.records`: the header every generated file opens with and the record
  (inputs and body digests) it carries, and each folder's manifest;
* :mod:`.fmt`: formatting generated Python with the pinned ruff;
* :mod:`.writer`: writing a plan's outputs atomically; :mod:`.drift`: comparing them with disk.

May import the core, :mod:`codegen.generate.contract` and :mod:`codegen.generate.rules`; never
the models, the consumers' outputs or the plan, which all build on it.
"""
