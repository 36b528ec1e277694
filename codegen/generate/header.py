"""The header every generated file opens with, and the templates the package files render from.

The header names the sources of the file and a digest of them and of the pinned tools, so that
``check`` can tell a stale file without generating anything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache

import jinja2

from codegen import __version__
from codegen.core.loader import SchemaFile
from codegen.generate._dmcg import dmcg_version
from codegen.generate.fmt import ruff_version

__all__ = ["digest", "header", "templates"]


@cache
def templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("codegen.generate", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def digest(parts: Iterable[SchemaFile], extra: str = "") -> str:
    sha = hashlib.sha256(f"{__version__}|{dmcg_version()}|{ruff_version()}|{extra}".encode())
    for schema in parts:
        sha.update(b"\0" + schema.rel.as_posix().encode() + b"\0" + schema.digest_text)
    return sha.hexdigest()


def header(source: str, digest: str) -> str:
    return (
        templates()
        .get_template("header.py.j2")
        .render(
            source=source,
            digest=digest,
            codegen_version=__version__,
            dmcg_version=dmcg_version(),
            ruff_version=ruff_version(),
        )
        .rstrip("\n")
    )
