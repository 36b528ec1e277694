"""The Python models: each schema file as Pydantic v2 classes that decide exactly as it does.

The pipeline::

    checks.support (refuse what no model can decide)
      -> types.skeleton (the keywords whose strict Pydantic form is exact) -> modules -> _dmcg
         (datamodel-code-generator's classes, in one or two worker processes for a large set)
      -> checks.predicates (every other keyword, as guard clauses) -> checks.validators (one
         per class)
      -> assemble + postprocess (header and validators into the generator's modules, deferred
         references for large graphs, class_order: each class after those it names)
      -> package (the registry, each folder's ``__init__``, the JSON runtime and the package
         data)

* :mod:`.types`: what the field types say (the skeleton, defaults, field edits);
* :mod:`.checks`: what they cannot say (predicates and the validators that call them);
* this package's own modules put the two together into the modules of the package.

May import the core, :mod:`codegen.generate.files`, :mod:`~codegen.generate.contract` and
:mod:`~codegen.generate.rules`; never :mod:`codegen.generate.consumers` or the plan.
"""
