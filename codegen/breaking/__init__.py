"""``maverick-codegen breaking`` and ``changelog``: what changed between two schema versions.

``table`` holds the rule table, the categories and :func:`~codegen.breaking.table.compare`;
``pairs`` holds the two versions and pairs their contracts, ``walk`` their nodes;
``contract_checks`` and ``node_checks`` hold the CODEGEN checks of one pair (names generated
code uses); ``data`` asks the inclusion engine (``engine``, with ``strings`` for patterns) both
directions of each changed pair, ``explain`` words each break and ``witness`` judges its
document against both schemas and the generated model; ``gitref`` reads the schema folder at a
git revision; ``changelog``, ``changes`` and ``changelog_format`` build the changelog and the
semver bump. Modules here import the core and the generator, never ``lint`` or the CLI.
"""
