"""The core every job shares: configuration, errors, the schema loader, positions, findings.

``config`` reads ``[tool.maverick-codegen]`` (its tables in ``config_tables``); ``errors`` holds
the one error type with a location; ``loader`` parses the schema folder with positions and
checks every ``$ref``; ``jsonpos`` maps JSON pointers to lines and columns; ``report`` renders
findings (text, json, github). Modules here import the standard library, third-party packages
and each other only: never a job package (``generate``, ``lint``, ``breaking``) nor the CLI.
"""
