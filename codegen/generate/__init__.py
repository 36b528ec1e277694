"""Generation: schemas in, every generated file out (``generate``, ``check``, ``export``).

The pipeline, one module per step::

    support (refuse what the model cannot reproduce) -> rules (compile cross-field rules)
      -> plan (datamodel-code-generator via _dmcg, postprocess, fmt; contract, docs, export,
         bundle render the rest in memory) -> writer (write) | drift (check) | export

``targets`` says which files of each output folder are generated. Modules here import the
core and each other, never ``lint``, ``breaking`` or the CLI; :mod:`codegen.generate.contract`
holds the plan's data type so that the renderers never import the plan back.
"""
