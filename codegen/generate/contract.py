"""What the plan knows of each contract: the data type that every renderer imports.

:func:`contracts_of` builds one :class:`Contract` per schema file for the plan; the renderers
(:mod:`codegen.generate.consumers.docs`, :mod:`codegen.generate.consumers.export`) and the lint
read them. This module imports only the core (and the rule finder), so that nothing that renders
imports the plan back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import PurePosixPath

from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location, SchemaError
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.rules import rule_messages

__all__ = ["Contract", "contracts_of", "declared_properties"]


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
        return (self.name, *sorted(t for p, t in self.schema.classes.items() if p))


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


def contracts_of(config: Config, tree: SchemaTree) -> list[Contract]:
    """One contract per schema file, with the agents and tools that name it; refuses an agent or
    tool naming a contract that no file defines."""
    return _with_tools(config, _contracts(config, tree))


def _contracts(config: Config, tree: SchemaTree) -> list[Contract]:
    by_title = tree.by_title
    for agent, title in config.agents.items():
        if title not in by_title:
            raise CodegenError(
                f"agent {agent!r} names contract {title!r}, which no schema file defines",
                Location(config.root / "pyproject.toml"),
                "AGENT_CONTRACT",
            )
    contracts = []
    for schema in tree.files:
        agents = tuple(sorted(a for a, t in config.agents.items() if t == schema.title))
        contracts.append(
            Contract(
                schema=schema,
                module=".".join((config.package, *schema.module_parts)),
                schema_file=PurePosixPath(config.shown_schema_dir, schema.rel).as_posix(),
                agents=agents,
                rules=rule_messages(schema.data),
            )
        )
    return contracts


def _with_tools(config: Config, contracts: list[Contract]) -> list[Contract]:
    """Each contract with the MCP tools that return it or take it as arguments."""
    titles = {c.name for c in contracts}
    returned_by: dict[str, list[str]] = {}
    taken_by: dict[str, list[str]] = {}
    for table, found in ((config.tools, returned_by), (config.tool_inputs, taken_by)):
        for tool, title in sorted(table.items()):
            if title not in titles:
                raise CodegenError(
                    f"tool {tool!r} names contract {title!r}, which no schema file defines",
                    Location(config.root / "pyproject.toml"),
                    "TOOL_CONTRACT",
                )
            found.setdefault(title, []).append(tool)
    return [
        dataclasses.replace(
            c,
            tools=tuple(returned_by.get(c.name, ())),
            tool_inputs=tuple(taken_by.get(c.name, ())),
        )
        for c in contracts
    ]
