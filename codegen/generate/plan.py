"""Render every generated file in memory: ``generate``, ``check`` and ``export`` share this.

The plan is a pure function of the configuration, the schema files and the pinned tools and
writes nothing. It renders one :class:`~codegen.generate.targets.Output` per target of the
configuration (the Python package, and when configured the Markdown catalog and the export
folder), each ``{path relative to the target's folder: text}``.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree, load_tree
from codegen.core.scratch import scratch_dir
from codegen.generate._dmcg import WORKER_MIN_FILES, Generator
from codegen.generate.assemble import Validators, assemble_modules
from codegen.generate.bundle import structured_output_schema
from codegen.generate.contract import Contract
from codegen.generate.docs import render_docs
from codegen.generate.export import check_ids_mirror_files, render_export
from codegen.generate.fmt import format_python
from codegen.generate.header import digest, header, templates
from codegen.generate.npm import render_npm
from codegen.generate.package import names_digest, package_inits, registry_files
from codegen.generate.predicates import compile_predicates
from codegen.generate.rules import rule_messages
from codegen.generate.skeleton import build_skeleton
from codegen.generate.support import check_supported
from codegen.generate.targets import EXPORT_INDEX, GENERATED_MARK, Output, targets_of

__all__ = ["HEADER_MARK", "Plan", "build_plan", "is_generated"]

HEADER_MARK = f"# {GENERATED_MARK}"


@dataclass(frozen=True)
class Plan:
    """Everything ``generate`` would write.

    ``files`` are the Python modules, by path relative to the output folder. ``outputs`` pairs
    every target of the configuration with its files (the modules included). ``export_files``
    is the export, which ``export --out`` can write anywhere. Both are rendered on first use:
    a project without an export or a catalog never pays for them.
    """

    config: Config
    tree: SchemaTree
    contracts: tuple[Contract, ...]
    files: Mapping[PurePosixPath, str]
    output_schemas: Mapping[str, dict[str, Any]]

    @cached_property
    def export_files(self) -> Mapping[PurePosixPath, str]:
        source = f"{self.config.display(self.config.schema_dir)}/"
        return render_export(self.tree, self.contracts, self.output_schemas, source)

    @cached_property
    def npm_files(self) -> Mapping[PurePosixPath, str]:
        """The npm package (``[tool.maverick-codegen.export]``); empty when not configured."""
        if self.config.npm is None:
            return {}
        source = f"{self.config.display(self.config.schema_dir)}/"
        return render_npm(self.config.npm, self.tree, self.contracts, self.export_files, source)

    @cached_property
    def outputs(self) -> tuple[Output, ...]:
        render: dict[str, Callable[[], Mapping[PurePosixPath, str]]] = {
            "code": lambda: self.files,
            "docs": self._docs_files,
            "export": lambda: self.export_files,
            "npm": lambda: self.npm_files,
        }
        return tuple(Output(t, render[t.name]()) for t in targets_of(self.config))

    def _docs_files(self) -> Mapping[PurePosixPath, str]:
        docs_file = self.config.docs_file
        if docs_file is None:
            return {}
        text = _docs(self.config, docs_file, self.tree, self.contracts)
        return {PurePosixPath(docs_file.name): text}


def is_generated(text: str) -> bool:
    """Whether a file carries our header (only such files are ever replaced or removed)."""
    return text.startswith(HEADER_MARK)


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
        check_supported(schema)
        rules = rule_messages(schema.data)
        agents = tuple(sorted(a for a, t in config.agents.items() if t == schema.title))
        contracts.append(
            Contract(
                schema=schema,
                module=".".join((config.package, *schema.module_parts)),
                schema_file=config.display(schema.path),
                agents=agents,
                rules=rules,
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


def build_plan(config: Config) -> Plan:
    """Load, check and render everything; raises :class:`CodegenError` on bad input."""
    # A large tree's classes are generated in a worker process, started first: its import of
    # the generator overlaps the loading below, and its run the checks and rendering after it.
    large = sum(1 for _ in config.schema_dir.rglob("*.json")) >= WORKER_MIN_FILES
    with Generator(in_worker=large) as generator:
        tree = load_tree(config.schema_dir)
        contracts = _with_tools(config, _contracts(config, tree))
        skeleton = build_skeleton(tree)
        with scratch_dir("maverick-skeleton-") as folder:
            for rel, document in skeleton.documents.items():
                path = Path(folder) / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(document), encoding="utf-8")
            single = contracts[0].schema.module_parts if len(contracts) == 1 else None
            generator.submit(
                Path(folder),
                single_module=(*single[:-1], single[-1] + ".py") if single else None,
                shown=config.schema_dir,
            )
            check_ids_mirror_files(tree)  # consumers resolve relative $ref by $id
            all_header = header(
                f"{config.display(config.schema_dir)}/ and [tool.maverick-codegen]",
                digest(tree.files, names_digest(config)),
            )
            own = package_inits(config, tree, contracts, all_header)
            output_schemas = {
                # An agent's form is what the Claude CLI accepts; a tool's is exact.
                c.name: structured_output_schema(tree, c.schema, for_cli=bool(c.agents))
                for c in contracts
                if c.agents or c.tools or c.tool_inputs
            }
            own.update(registry_files(contracts, config, output_schemas, all_header))
            with ThreadPoolExecutor(max_workers=1) as pool:
                # ruff runs in its own process: format our files while the generator works (on
                # one thread: a worker generating a large tree has the other core).
                own_formatted = pool.submit(format_python, own, threads=1)
                # Every schema object compiles, referenced or not: an unknown keyword anywhere
                # is refused.
                definitions = [(s, p) for s in tree.files for p in _definitions(s)]
                compile_predicates(tree, definitions, readable=False)
                validators = Validators(tree, skeleton)
                if generator.in_worker:  # the usual module: one contract's classes
                    for contract in contracts:
                        validators.of([contract])
                modules = generator.result()
                assembled = assemble_modules(tree, skeleton, contracts, modules, validators)
                files = format_python(assembled)
                files.update(own_formatted.result())
    return Plan(config, tree, tuple(contracts), files, output_schemas)


def _docs(config: Config, docs_file: Path, tree: SchemaTree, contracts: Sequence[Contract]) -> str:
    export = None
    if config.export_dir is not None:
        index = config.export_dir / EXPORT_INDEX
        export = {
            "display": f"{config.display(config.export_dir)}/",
            "link": PurePosixPath(os.path.relpath(index, docs_file.parent)).as_posix(),
        }
    return render_docs(
        templates(),
        tree,
        contracts,
        agents=config.agents.items(),
        docs_file=docs_file,
        source=f"{config.display(config.schema_dir)}/",
        export=export,
    )


def _definitions(schema: SchemaFile) -> list[str]:
    """The pointers of a file's root and of each of its ``$defs`` entries."""
    defs = schema.data.get("$defs")
    names = list(defs) if isinstance(defs, dict) else []
    return ["", *(f"/$defs/{escape_pointer(name)}" for name in names)]
