"""Generation: schemas in, every generated file out (``generate``, ``check``, ``export``).

Three rooms, each a package that says what it owns, and the plan that uses them all::

    contract, rules    the plan's data type (one Contract per schema file) and the cross-field
                       rules of a schema object: the vocabulary every room shares
    files/             the machinery: which contracts changed (units, reuse), which files of an
                       output folder are generated (targets), the header and record each file
                       carries (header, records), formatting (fmt), writing (writer), the drift
                       check (drift)
    models/            the Python models: types/ (the keywords whose strict Pydantic form is
                       exact: the skeleton), checks/ (every other keyword, as compiled guard
                       clauses: predicates, validators), and the assembly of both into the
                       generator's modules and the package (modules, assemble, postprocess,
                       class_order, deferred, package, _dmcg)
    consumers/         everything for readers that are not the Python package: the export,
                       the structured-output bundles, the npm package and its TypeScript
                       declarations, the Markdown catalog
    plan               renders every output in memory from the rooms above; writer writes it,
                       drift compares it, export writes it elsewhere; plan_tree keeps this
                       process's last tree (--watch) and counts the worker processes
    refusals           every file the plan refuses, with every reason, in one run (and what
                       ``init --exclude-refused`` writes to ``exclude``)

Imports point one way: ``plan -> models | consumers -> files -> contract, rules -> core``
(``models`` and ``consumers`` never import each other; ``models.types`` never imports
``models.checks``). Nothing here imports ``lint``, ``breaking`` or the CLI;
``tests/test_architecture.py`` holds these rules.
"""
