"""``maverick-codegen breaking``: incompatible changes between two versions of the schemas.

``table`` holds the rule table, the categories and :func:`~codegen.breaking.table.compare`;
``walk`` pairs contracts and nodes of the two versions; ``contract_checks`` and
``node_checks`` hold the small checks of one pair; ``gitref`` reads the schema folder at a git
revision. Modules here import the core and the generator's rule finder
(``codegen.generate.rules``), never ``lint`` or the CLI.
"""
