"""What a contract is made from: its inputs, and digests of them.

One design, used by every job that must know whether a contract changed:

* :func:`closure_digest`: the contract's schema file and every file it references, directly
  or not (:meth:`~codegen.core.loader.SchemaTree.closure`), by relative path and bytes. Two
  versions of a contract with the same closure digest accept the same documents and generate
  the same names: ``breaking`` and ``changelog`` skip such a pair.
* :func:`generator_digest`: every file of the generator package (code and templates) and the
  versions of the pinned tools (datamodel-code-generator, ruff). A generated file made by
  another generator is stale even when its schemas did not change.

Incremental ``generate`` and ``check`` combine both with the configuration that shapes a
contract's outputs into the inputs a generated file records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from functools import cache
from importlib.metadata import version
from pathlib import Path, PurePosixPath

from codegen.core.loader import SchemaFile, SchemaTree

__all__ = [
    "closure_digest",
    "closure_digests",
    "files_digest",
    "generator_digest",
    "generator_sources",
]


def files_digest(files: Iterable[SchemaFile]) -> str:
    """A digest of schema files by relative path and text, in the order given."""
    sha = hashlib.sha256()
    for schema in files:
        sha.update(b"\0" + schema.rel.as_posix().encode() + b"\0" + schema.digest_text)
    return sha.hexdigest()


def closure_digest(tree: SchemaTree, schema: SchemaFile) -> str:
    """A digest of ``schema`` and every file it references, directly or not."""
    return files_digest(tree.closure(schema))


def closure_digests(tree: SchemaTree) -> dict[PurePosixPath, str]:
    """:func:`closure_digest` of every file of ``tree``, by relative path (each file's text
    is hashed once, however many closures hold it)."""
    own = {f.rel: hashlib.sha256(f.digest_text).digest() for f in tree.files}
    result = {}
    for schema in tree.files:
        sha = hashlib.sha256()
        for member in tree.closure(schema):
            sha.update(b"\0" + member.rel.as_posix().encode() + b"\0" + own[member.rel])
        result[schema.rel] = sha.hexdigest()
    return result


def generator_sources(package: Path) -> Iterator[Path]:
    """Every file of a package at any depth (code and templates), not caches."""
    for path in package.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


@cache
def generator_digest() -> str:
    """A digest of the generator's own files and of the pinned tools' versions."""
    import codegen  # noqa: PLC0415 - the package this module belongs to

    sha = hashlib.sha256()
    sha.update(f"{version('datamodel-code-generator')}|{version('ruff')}".encode())
    package = Path(codegen.__file__).parent
    for path in sorted(generator_sources(package)):
        sha.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0")
        sha.update(path.read_bytes())
    return sha.hexdigest()
