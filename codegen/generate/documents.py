"""The documents the plan writes for each contract, each derived once.

A contract's schema document goes to the package data and to the export as the same text; an
agent's or tool's contract also has a self-contained form (:mod:`codegen.generate.bundle`),
which the package data, the export and the A2A skills share.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from codegen.core.loader import SchemaTree
from codegen.generate.bundle import structured_output_schema
from codegen.generate.contract import Contract
from codegen.generate.records import dump

__all__ = ["Documents"]


class Documents(Mapping[str, dict[str, Any]]):
    """The self-contained form of each agent and tool contract, by name, derived on first use;
    and each contract's schema document as written to the package data and the export
    (:meth:`text`, dumped once for both)."""

    def __init__(self, tree: SchemaTree, contracts: Sequence[Contract]) -> None:
        self._tree = tree
        self._contracts = {c.name: c for c in contracts if c.agents or c.tools or c.tool_inputs}
        self._forms: dict[str, dict[str, Any]] = {}
        self._texts: dict[str, str] = {}

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
        if contract.name not in self._texts:
            self._texts[contract.name] = dump(contract.schema.data)
        return self._texts[contract.name]
