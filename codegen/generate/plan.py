"""Render every generated file in memory: ``generate``, ``check`` and ``export`` share this.

The plan is a pure function of the configuration, the schema files and the pinned tools and
writes nothing. It renders one :class:`~codegen.generate.targets.Output` per target of the
configuration (the Python package, and when configured the Markdown catalog and the export
folder), each ``{path relative to the target's folder: text}``.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2

from codegen import __version__
from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree, load_tree
from codegen.core.scratch import scratch_dir
from codegen.generate._dmcg import (
    HEADER_PLACEHOLDER,
    WORKER_MIN_FILES,
    Generator,
    dmcg_version,
)
from codegen.generate.bundle import structured_output_schema
from codegen.generate.contract import Contract
from codegen.generate.docs import render_docs
from codegen.generate.export import check_ids_mirror_files, render_export
from codegen.generate.fmt import format_python, ruff_version
from codegen.generate.postprocess import (
    TYPES_MODULE,
    edit_module,
    nested_classes,
    use_missing,
    use_tuples,
)
from codegen.generate.predicate_runtime import RUNTIME
from codegen.generate.predicates import compile_predicates
from codegen.generate.rules import rule_messages
from codegen.generate.skeleton import Skeleton, build_skeleton
from codegen.generate.support import check_supported
from codegen.generate.targets import EXPORT_INDEX, GENERATED_MARK, Output, targets_of
from codegen.generate.validators import ModuleChecks, module_checks

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
    def outputs(self) -> tuple[Output, ...]:
        render: dict[str, Callable[[], Mapping[PurePosixPath, str]]] = {
            "code": lambda: self.files,
            "docs": self._docs_files,
            "export": lambda: self.export_files,
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


@cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("codegen.generate", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _digest(parts: Iterable[SchemaFile], extra: str = "") -> str:
    sha = hashlib.sha256(f"{__version__}|{dmcg_version()}|{ruff_version()}|{extra}".encode())
    for schema in parts:
        sha.update(b"\0" + schema.rel.as_posix().encode() + b"\0" + schema.digest_text)
    return sha.hexdigest()


def _header(source: str, digest: str) -> str:
    return (
        _templates()
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


def _names_digest(config: Config) -> str:
    """The agent and tool tables as they enter the registry's hash (no tools: as before)."""
    tools = f"|tools={sorted(config.tools.items())!r}" if config.tools else ""
    if config.tool_inputs:
        tools += f"|inputs={sorted(config.tool_inputs.items())!r}"
    return repr(sorted(config.agents.items())) + tools


def _literal(value: Any, indent: str = "") -> str:
    """A JSON value as a Python literal, laid out as ruff would (sorted keys, one per line)."""
    inner = indent + "    "
    if isinstance(value, dict) and value:
        items = (f"{inner}{json.dumps(k)}: {_literal(value[k], inner)},\n" for k in sorted(value))
        return "{\n" + "".join(items) + indent + "}"
    if isinstance(value, list) and value:
        return "[\n" + "".join(f"{inner}{_literal(v, inner)},\n" for v in value) + indent + "]"
    if value is None or isinstance(value, bool):
        return repr(value)
    return json.dumps(value)


def _package_inits(
    config: Config, tree: SchemaTree, contracts: list[Contract], header: str
) -> dict[PurePosixPath, str]:
    template = _templates().get_template("package_init.py.j2")
    folders: dict[PurePosixPath, list[Contract]] = {}
    for contract in contracts:
        for depth in range(len(contract.schema.rel.parts)):
            folders.setdefault(PurePosixPath(*contract.schema.rel.parts[:depth]), [])
        folders[contract.schema.rel.parent].append(contract)
    files = {}
    for folder, members in folders.items():
        if folder == PurePosixPath("."):
            continue
        imports = _export_imports(members, lambda c: "." + c.schema.rel.stem)
        files[folder / "__init__.py"] = template.render(
            header=header,
            docstring=f"Contracts generated from schemas/{folder.as_posix()}/.",
            imports=imports,
            names=sorted(item["name"] for item in imports),
        )
    return files


def _export_imports(
    contracts: Iterable[Contract], module: Callable[[Contract], str]
) -> list[dict[str, str]]:
    return [
        {"module": module(c), "name": name}
        for c in sorted(contracts, key=lambda c: c.name)
        for name in c.exports
    ]


def build_plan(config: Config) -> Plan:
    """Load, check and render everything; raises :class:`CodegenError` on bad input."""
    # A large tree's classes are generated in a worker process, started first: its import of
    # the generator overlaps the loading below, and its run the checks and rendering after it.
    large = sum(1 for _ in config.schema_dir.rglob("*.json")) >= WORKER_MIN_FILES
    with Generator(in_worker=large) as generator:
        tree = load_tree(config.schema_dir)
        contracts = _with_tools(config, _contracts(config, tree))
        check_ids_mirror_files(tree)  # consumers resolve relative $ref by $id
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
            all_header = _header(
                f"{config.display(config.schema_dir)}/ and [tool.maverick-codegen]",
                _digest(tree.files, _names_digest(config)),
            )
            own = _package_inits(config, tree, contracts, all_header)
            output_schemas = {
                # An agent's form is what the Claude CLI accepts; a tool's is exact.
                c.name: structured_output_schema(tree, c.schema, for_cli=bool(c.agents))
                for c in contracts
                if c.agents or c.tools or c.tool_inputs
            }
            own.update(_registry_files(contracts, config, output_schemas, all_header))
            with ThreadPoolExecutor(max_workers=1) as pool:
                # ruff runs in its own process: format our files while the generator works.
                own_formatted = pool.submit(format_python, own)
                # Every schema object compiles, referenced or not: an unknown keyword anywhere
                # is refused.
                definitions = [(s, p) for s in tree.files for p in _definitions(s)]
                compile_predicates(tree, definitions, readable=False)
                checks = _Checks(tree, skeleton)
                if generator.in_worker:  # the usual module: one contract's classes
                    for contract in contracts:
                        checks.of([contract])
                modules = generator.result()
                files = format_python(_postprocess(tree, skeleton, contracts, modules, checks))
                files.update(own_formatted.result())
    return Plan(config, tree, tuple(contracts), files, output_schemas)


class _Checks:
    """The validators of a module, by the contracts whose classes it holds (computed once)."""

    def __init__(self, tree: SchemaTree, skeleton: Skeleton) -> None:
        self.tree = tree
        self.skeleton = skeleton
        self._done: dict[tuple[str, ...], ModuleChecks] = {}

    def of(self, owners: Sequence[Contract]) -> ModuleChecks:
        key = tuple(c.name for c in owners)
        if key not in self._done:
            schemas = [c.schema for c in owners]
            self._done[key] = module_checks(self.tree, self.skeleton, schemas)
        return self._done[key]


def _docs(config: Config, docs_file: Path, tree: SchemaTree, contracts: Sequence[Contract]) -> str:
    export = None
    if config.export_dir is not None:
        index = config.export_dir / EXPORT_INDEX
        export = {
            "display": f"{config.display(config.export_dir)}/",
            "link": PurePosixPath(os.path.relpath(index, docs_file.parent)).as_posix(),
        }
    return render_docs(
        _templates(),
        tree,
        contracts,
        agents=config.agents.items(),
        docs_file=docs_file,
        source=f"{config.display(config.schema_dir)}/",
        export=export,
    )


def _title(schema: SchemaFile, pointer: str) -> str:
    """The class name of a class node: its title (the file's for its root)."""
    return str(resolve_pointer(schema.data, pointer).get("title") or schema.title)


def _missing_fields(
    skeleton: Skeleton, owners: list[Contract], code: str
) -> dict[str, dict[str, bool]]:
    """Class name -> JSON name -> whether null stays a value, for its fields that default to
    ``MISSING``; the nested classes of inline objects are found through the fields that hold
    them."""
    fields: dict[str, dict[str, bool]] = {}
    for contract in owners:
        schema = contract.schema
        rel = schema.rel.as_posix()
        for (owner_rel, pointer), names in skeleton.missing.items():
            if owner_rel == rel:
                fields.setdefault(_title(schema, pointer), {}).update(names)
        for (owner_rel, pointer), entries in skeleton.nested_missing.items():
            if owner_rel != rel:
                continue
            for path, names in entries:
                nested = nested_classes(code, _title(schema, pointer), path)
                if nested is not None:
                    fields.setdefault(nested, {}).update(names)
    return fields


def _tuple_fields(skeleton: Skeleton, owners: list[Contract]) -> dict[str, dict[str, str]]:
    """Class name -> JSON name -> the ``tuple[...]`` type of each exact tuple field."""
    fields: dict[str, dict[str, str]] = {}
    for contract in owners:
        schema = contract.schema
        for (rel, pointer), names in skeleton.tuples.items():
            if rel == schema.rel.as_posix():
                node = resolve_pointer(schema.data, pointer)
                fields[str(node.get("title") or schema.title)] = dict(names)
    return fields


def _definitions(schema: SchemaFile) -> list[str]:
    """The pointers of a file's root and of each of its ``$defs`` entries."""
    defs = schema.data.get("$defs")
    names = list(defs) if isinstance(defs, dict) else []
    return ["", *(f"/$defs/{escape_pointer(name)}" for name in names)]


def _postprocess(
    tree: SchemaTree,
    skeleton: Skeleton,
    contracts: list[Contract],
    modules: Mapping[tuple[str, ...], str],
    checks: _Checks,
) -> dict[PurePosixPath, str]:
    """Each generated module with our header and its validators inserted."""
    sources: dict[PurePosixPath, str] = {}
    by_module = {
        (*c.schema.module_parts[:-1], c.schema.module_parts[-1] + ".py"): c for c in contracts
    }
    by_title = {c.name: c for c in contracts}
    shared: set[str] = set()
    internal = sorted(k for k in modules if k not in by_module)
    for key, generated in [
        *((k, modules[k]) for k in internal),
        *sorted((k, v) for k, v in modules.items() if k in by_module),
    ]:
        # Contracts that reference each other share one module (the generator's _internal.py,
        # which their own modules re-export): the validators go where the classes are.
        contract = by_module.get(key)
        if contract is not None:
            owners = [] if contract.name in shared else [contract]
        else:
            defined = {n.name for n in ast.parse(generated).body if isinstance(n, ast.ClassDef)}
            owners = [by_title[name] for name in sorted(defined & set(by_title))]
            for owner in owners:
                shared.add(owner.name)
        if contract is None and not owners:
            raise CodegenError(f"generator produced an unexpected module {'/'.join(key)}")
        named = owners if owners or contract is None else [contract]
        closure = {f.rel: f for c in named for f in tree.closure(c.schema)}
        source = ", ".join(f"schemas/{c.schema.rel}" for c in named)
        header = _header(source, _digest(closure[rel] for rel in sorted(closure)))
        code = generated.replace(HEADER_PLACEHOLDER, header, 1)
        depth = len(key)  # the module's package depth below the output folder
        where = Location(named[0].schema.path)  # only for errors in our own output
        code = edit_module(code, checks.of(owners), depth, where)
        code = use_missing(code, _missing_fields(skeleton, owners, code), where)
        code = use_tuples(code, _tuple_fields(skeleton, owners), depth, where)
        sources[PurePosixPath(*key)] = code
    missing = set(by_module) - set(modules)
    if missing:
        raise CodegenError(f"generator produced no module for {sorted(missing)}")
    return sources


def _registry_files(
    contracts: list[Contract],
    config: Config,
    output_schemas: Mapping[str, dict[str, Any]],
    header: str,
) -> dict[PurePosixPath, str]:
    env = _templates()
    ordered = sorted(contracts, key=lambda c: c.name)
    imports = [{"module": "." + ".".join(c.schema.module_parts), "name": c.name} for c in ordered]
    registry = env.get_template("registry.py.j2").render(
        header=header,
        imports=imports,
        contracts=ordered,
        agents=sorted(config.agents.items()),
        tools=sorted(config.tools.items()),
        tool_inputs=sorted(config.tool_inputs.items()),
    )
    schemas = env.get_template("schemas.py.j2").render(
        header=header,
        schemas=_literal({c.schema_id: c.schema.data for c in ordered}),
        output_schemas=_literal(dict(output_schemas)),
        tools=bool(config.tools),
    )
    registry_names = ("AGENT_CONTRACTS", "CONTRACTS", "ContractInfo", "canonical_schema")
    tool_names: tuple[str, ...] = ("TOOL_CONTRACTS", "tool_output_schema") if config.tools else ()
    if config.tool_inputs:
        tool_names += ("TOOL_INPUT_CONTRACTS", "tool_input_schema")
    top_imports = [
        *_export_imports(ordered, lambda c: "." + ".".join(c.schema.module_parts)),
        *(
            {"module": "._registry", "name": n}
            for n in (*registry_names, "output_format", *tool_names)
        ),
    ]
    top = env.get_template("package_init.py.j2").render(
        header=header,
        docstring=(
            "Every generated contract, and the registry. Generated from the schema folder: "
            "never edit; change a schema, then run `maverick-codegen generate`."
        ),
        imports=top_imports,
        names=sorted(item["name"] for item in top_imports),
    )
    return {
        PurePosixPath("_registry.py"): registry,
        PurePosixPath(f"{TYPES_MODULE}.py"): env.get_template("types.py.j2").render(
            header=header, runtime=RUNTIME
        ),
        PurePosixPath("_schemas.py"): schemas,
        PurePosixPath("__init__.py"): top,
    }
