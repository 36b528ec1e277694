"""What the plan knows of each contract: the data type that every renderer imports.

:mod:`codegen.generate.plan` builds one :class:`Contract` per schema file; the renderers
(:mod:`codegen.generate.docs`, :mod:`codegen.generate.export`) and the lint read them. This
module imports only the core, so that nothing that renders imports the plan back.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.core.errors import SchemaError
from codegen.core.loader import SchemaFile, SchemaTree

__all__ = ["Contract", "declared_properties"]


@dataclass(frozen=True)
class Contract:
    """One schema file and what is generated from it."""

    schema: SchemaFile
    module: str
    schema_file: str
    agents: tuple[str, ...]
    rules: tuple[str, ...]  # the messages (descriptions) of its own cross-field rules
    # MCP tools returning it ([tool.maverick-codegen.tools]); like an agent contract, a tool
    # contract gets a self-contained form (its MCP outputSchema) in the registry and export.
    tools: tuple[str, ...] = ()
    # MCP tools whose arguments it describes (``input`` in that table): it gets the form too.
    tool_inputs: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.schema.title

    @property
    def schema_id(self) -> str:
        return self.schema.schema_id

    @property
    def exports(self) -> tuple[str, ...]:
        """The public classes of its module: the contract and its titled ``$defs`` entries."""
        defs = self.schema.data.get("$defs") or {}
        titles = sorted(
            d["title"]
            for d in defs.values()
            if isinstance(d, dict) and isinstance(d.get("title"), str)
        )
        return (self.name, *titles)


def declared_properties(tree: SchemaTree, schema: SchemaFile) -> set[str]:
    """The properties a contract declares, its bases' (``allOf`` ``$ref``) included."""
    names = set(schema.data.get("properties") or {})
    for entry in schema.data.get("allOf") or []:
        if isinstance(entry, dict) and "$ref" in entry:
            base, pointer = tree.resolve(schema, entry["$ref"])
            if pointer:
                raise SchemaError(
                    "an allOf base must reference a whole contract file",
                    schema.loc("/allOf"),
                    "SUPPORTED_CONSTRUCT",
                )
            names |= declared_properties(tree, base)
    return names
