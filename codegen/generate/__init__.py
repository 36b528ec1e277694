"""Generation: schemas in, every generated file out (``generate``, ``check``, ``export``).

The pipeline, one module per step::

    units (which contracts changed: their inputs against the records on disk, ``reuse``)
      -> support (refuse what no model can decide)
      -> skeleton (the keywords whose strict Pydantic form is exact) -> modules -> _dmcg
         (classes, in one or two worker processes for a large set)
      -> predicates + tidy (every other keyword, as guard clauses) -> validators (one per class)
      -> plan (assemble + postprocess put header and validators into the generator's modules,
         package renders the registry and the package files, fmt formats; contract, docs,
         export, bundle, a2a render the rest in memory; every file rendered or reused, sealed
         with its record) -> writer (write) | drift (check: records, else diff) | export

``rules`` finds the cross-field rules (and their messages) that validators check one by one;
``targets`` says which files of each output folder are generated; ``header`` renders the header
of every generated file and ``records`` the record it carries and each folder's manifest.
Modules here import the core and each other, never ``lint``, ``breaking`` or the CLI;
:mod:`codegen.generate.contract` holds the plan's data type so that the renderers never import
the plan back.
"""
