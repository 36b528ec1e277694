"""The identity of each exported document: its ``$id``, and how a reference names another.

Every exported document has an absolute ``$id`` (:class:`ExportIds`):

* a file of the schema folder with a ``$id`` keeps it (draft-04's ``id`` too; a relative one
  is read against the file's path URI below; an empty fragment is dropped);
* a file without ``$id`` is identified by its path: ``https://maverick-codegen.invalid/
  <package>/<path in the schema folder>``, e.g. ``https://maverick-codegen.invalid/
  shop_contracts/orders/order.json`` (``.invalid`` is reserved by RFC 2606: no such host can
  ever be reached, so nothing is fetched, and the package keeps two projects' ids apart);
* a document reached outside the schema folder (``tree.external``: a URL mapping, a
  metaschema) is exported at ``schemas/~remote/<host>/<path>`` (``.json`` added when the URL's
  path does not end so) and identified by that path the same way; ``index.json`` pairs it with
  the URL it was reached by.

A reference of the internal form names its target by relative path and JSON pointer
(:mod:`codegen.core.rewrite`); :meth:`ExportIds.link` keeps it as written when it resolves
against the exported document's ``$id`` to the target's ``$id`` (every file's ``$id``
mirroring its path, as this project's do), else writes the target's ``$id`` with the pointer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath
from urllib.parse import quote, unquote, urldefrag, urljoin

from codegen.core.errors import SchemaError
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["ID_HOST", "ExportIds", "export_path", "fragment", "id_base"]

ID_HOST = "https://maverick-codegen.invalid/"
_FRAGMENT_SAFE = "/~!$&'()*+,;=:@"  # RFC 3986 pchar besides unreserved, "?" and "/"


def id_base(package: str) -> str:
    """The URI the ids of files without ``$id`` (and of external documents) are made below."""
    return f"{ID_HOST}{quote(package, safe='')}/"


def export_path(schema: SchemaFile) -> PurePosixPath:
    """Where a document is exported, below the export's ``schemas/``: its path in the schema
    folder, or for an external document ``~remote/<host>/<path>`` (ending in ``.json``)."""
    rel = schema.rel
    return rel if rel.suffix == ".json" else rel.with_name(rel.name + ".json")


def fragment(pointer: str) -> str:
    """A JSON pointer as a URI fragment (``#`` and all)."""
    return "#" + quote(pointer, safe=_FRAGMENT_SAFE)


class ExportIds(Mapping[PurePosixPath, str]):
    """The exported ``$id`` of every document of a tree, by its relative path."""

    def __init__(self, tree: SchemaTree, package: str) -> None:
        base = id_base(package)
        ids: dict[PurePosixPath, str] = {}
        owners: dict[str, SchemaFile] = {}
        for schema in (*tree.files, *tree.external):
            by_path = base + quote(export_path(schema).as_posix(), safe="/~")
            own = schema.data.get("$id")
            exported = by_path
            if not schema.external and isinstance(own, str) and own:
                exported = urldefrag(urljoin(by_path, own))[0]
            if exported in owners:
                raise SchemaError(
                    f"the export would identify {schema.rel} and {owners[exported].rel} both "
                    f"as {exported}: give one another $id",
                    schema.loc("/$id" if "$id" in schema.data else ""),
                    "ID_UNIQUE",
                )
            owners[exported] = schema
            ids[schema.rel] = exported
        self._ids = ids
        self._by_id = {exported: rel for rel, exported in ids.items()}

    def __getitem__(self, rel: PurePosixPath) -> str:
        return self._ids[rel]

    def __iter__(self) -> Iterator[PurePosixPath]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def link(self, home: SchemaFile, written: str | None, target: SchemaFile, pointer: str) -> str:
        """The reference, in the exported document of ``home``, to ``pointer`` of ``target``:
        ``written`` itself when it reads so already."""
        if written is not None and self._names(home, written) == (target.rel, pointer):
            return written
        if target is home:
            return fragment(pointer) if pointer else "#"
        return self._ids[target.rel] + (fragment(pointer) if pointer else "")

    def _names(self, home: SchemaFile, written: str) -> tuple[PurePosixPath, str] | None:
        uri, part = urldefrag(urljoin(self._ids[home.rel], written))
        rel = self._by_id.get(uri)
        return None if rel is None else (rel, unquote(part))
