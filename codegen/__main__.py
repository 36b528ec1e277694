"""``python -m codegen``: same as the ``maverick-codegen`` console script."""

from codegen.cli import main

raise SystemExit(main())
