"""The subcommands of ``maverick-codegen``: a module each (``init`` with ``init_exclude``), and
``common`` for what several share.

Each module defines its options (``*_options(parser)``) and what it runs
(``run_*(args, config, out) -> int``; ``init``, which writes the configuration,
``run_init(args, out)``). :mod:`codegen.cli` names them by module and function and imports only
the one that runs, so that ``check`` on an unchanged tree loads no more than a comparison of
records needs. They print and choose the exit code (0 clean, 1 findings or drift, 2 usage or
input errors, raised as ``CodegenError``); the work is done by :mod:`codegen.generate`,
:mod:`codegen.lint` and :mod:`codegen.breaking`, which never print.
"""
