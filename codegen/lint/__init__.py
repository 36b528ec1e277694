"""``maverick-codegen lint``: the conventions of the schema folder as a table of rules.

``table`` holds the rule table; ``runner`` the rules a project selects and
:func:`~codegen.lint.runner.lint_tree`; ``engine`` reads the tree permissively and collects
every finding. The checks: ``structure`` (identity, references, descriptions, the content
model), ``generator`` (examples and defaults, and the generator's own support and rule checks,
called rather than re-implemented, and agent contracts), ``portable`` (where consumers that are
not the model would decide otherwise) and ``layout`` (JSON layout, key order). Modules here
import the core and the generator's checks (``codegen.generate``), never ``breaking`` or the
CLI.
"""
