"""The header every generated Python file opens with, and the templates files render from.

The header names the sources of the file and carries its record
(:mod:`codegen.generate.files.records`): the digest of what it was made from and, once the text is
final and :func:`~codegen.generate.files.records.seal` fills it in, the digest of its body.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from codegen import __version__
from codegen.core.inputs import generator_digest, version
from codegen.generate.files.records import BODY_PLACEHOLDER
from codegen.generate.files.targets import GENERATED_MARK

if TYPE_CHECKING:
    import jinja2

__all__ = ["header", "made_with", "templates"]


@cache
def templates() -> jinja2.Environment:
    """The templates (jinja2 is imported on first use: a module's header needs none), one
    environment per process, which compiles each template once."""
    import jinja2  # noqa: PLC0415

    return jinja2.Environment(
        loader=jinja2.PackageLoader("codegen.generate", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def made_with() -> str:
    """The generator and the pinned tools, as a record's inputs line names them."""
    return (
        f"maverick-codegen {__version__} sha256:{generator_digest()[:12]}, "
        f"datamodel-code-generator {version('datamodel-code-generator')}, ruff {version('ruff')}"
    )


def header(source: str, inputs: str, made_from: str) -> str:
    """The header of a file generated from ``source``: ``inputs`` is the digest of what it was
    made from, which ``made_from`` names (the generator and tools are added)."""
    return (
        f"# {GENERATED_MARK} from {source}. DO NOT EDIT.\n"
        f"# Inputs: sha256:{inputs} ({made_from}; {made_with()})\n"
        f"# Body: sha256:{BODY_PLACEHOLDER}\n"
        "# Change the schema or the generator instead, then run `maverick-codegen generate`."
    )
