"""The documents the plan writes for each contract, each derived once.

A contract's schema document, in the draft 2020-12 form the export writes
(:mod:`codegen.generate.consumers.export_docs`), goes to the package data and to the export as the
same text (an external document of the tree to the export only); an agent's or tool's contract also
has a self-contained form (:mod:`codegen.generate.consumers.bundle`), which the package data, the
export and the A2A skills share.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.consumers.bundle import structured_output_schema
from codegen.generate.consumers.export_docs import ExportDocuments
from codegen.generate.consumers.export_ids import ExportIds
from codegen.generate.contract import Contract
from codegen.generate.files.records import dump

__all__ = ["Documents"]


class Documents(Mapping[str, dict[str, Any]]):
    """The self-contained form of each agent and tool contract, by name, derived on first use;
    and each contract's schema document as written to the package data and the export
    (:meth:`text`, dumped once for both)."""

    def __init__(self, tree: SchemaTree, contracts: Sequence[Contract], package: str) -> None:
        self._tree = tree
        self._contracts = {c.name: c for c in contracts if c.agents or c.tools or c.tool_inputs}
        self._forms: dict[str, dict[str, Any]] = {}
        self._texts: dict[str, str] = {}
        self._exported = ExportDocuments(tree, package)

    @property
    def tree(self) -> SchemaTree:
        return self._tree

    @property
    def ids(self) -> ExportIds:
        """The exported ``$id`` of every document of the tree, by relative path."""
        return self._exported.ids

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in self._forms:
            contract = self._contracts[name]
            # An agent's form is what the Claude CLI accepts; a tool's is exact.
            self._forms[name] = structured_output_schema(
                self._tree, contract.schema, for_cli=bool(contract.agents)
            )
        return self._forms[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._contracts)

    def __len__(self) -> int:
        return len(self._contracts)

    def text(self, contract: Contract) -> str:
        """The contract's schema document as written out (:func:`dump`)."""
        return self.document_text(contract.schema)

    def document_text(self, schema: SchemaFile) -> str:
        """The exported document of ``schema`` (a contract, or an external document) as
        written out (:func:`dump`)."""
        key = schema.rel.as_posix()
        if key not in self._texts:
            self._texts[key] = dump(self._exported.document(schema))
        return self._texts[key]
