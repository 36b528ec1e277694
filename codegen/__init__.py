"""maverick-codegen: JSON Schema files in, Pydantic v2 contract modules and their registry out.

Packages by job; imports point one way, ``cli -> lint | breaking -> generate -> core``::

    core/      config, errors, loader (parse, locate, check refs), jsonpos, report
    generate/  files/ (plan, write, record), models/ (the Python models), consumers/ (export,
               npm, TypeScript, catalog); plan renders every output in memory
    lint/      the schema lint: a table of rules over the tree (reuses generate's checks)
    breaking/  the breaking-change check against a git revision (reuses generate's rules), and
               the npm package's version against the last release (release.py)
    cli.py     the command line: parses, and imports from commands/ (a module per subcommand)
               only the one that runs

Only the CLI prints. Every user-facing failure is a :class:`codegen.core.errors.CodegenError`
carrying a file, a line and column, a JSON pointer and the rule that was broken.
"""

__version__ = "0.1.0"
