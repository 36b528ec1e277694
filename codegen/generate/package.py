"""The package's own files: the registry, the schemas as literals, the JSON runtime, the
``__init__`` of every folder. Each is rendered from a template, never by the generator.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any

from codegen.core.config import Config
from codegen.core.loader import SchemaTree
from codegen.generate.contract import Contract
from codegen.generate.header import templates
from codegen.generate.postprocess import TYPES_MODULE
from codegen.generate.predicate_runtime import RUNTIME

__all__ = ["names_digest", "package_inits", "registry_files"]


def names_digest(config: Config) -> str:
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


def package_inits(
    config: Config, tree: SchemaTree, contracts: list[Contract], header: str
) -> dict[PurePosixPath, str]:
    template = templates().get_template("package_init.py.j2")
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


def registry_files(
    contracts: list[Contract],
    config: Config,
    output_schemas: Mapping[str, dict[str, Any]],
    header: str,
) -> dict[PurePosixPath, str]:
    env = templates()
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
