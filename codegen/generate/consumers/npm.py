"""Render the npm package: the export, typed for TypeScript and validated by Ajv.

The package holds, besides ``package.json`` (name and version from
``[tool.maverick-codegen.export]``, an ``exports`` map, ``types``, Ajv as its dependency):

- ``schemas/<path>.json``: the export's canonical schema files, byte for byte;
- ``types/<path>.d.ts``: one declaration module per schema file
  (:mod:`codegen.generate.consumers.typescript`), and ``index.d.ts`` exporting every type;
- ``validate.js`` and ``validate.d.ts``: ``validate`` and ``isValid``, which judge a document
  with Ajv 2020 from ``bundle.js`` (the export's compound document: every schema in draft
  2020-12, whatever its own draft) as the Python models do, and the ``contracts``, ``agents``
  and ``tools`` tables; ``index.js`` re-exports them. A tree where Ajv would decide otherwise
  than the models is refused (:mod:`codegen.generate.consumers.ajv_limits`);
- ``README.md``, and ``maverick-codegen.json``: the manifest that lists every generated file
  with its record (:mod:`codegen.generate.files.records`; ``package.json`` cannot carry the
  generated mark; every other file carries it too).

The ``.d.ts`` and ``.js`` files open with the generated mark. The same inputs give the same
bytes: nothing here reads the clock or the disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any

from codegen import __version__
from codegen.core.errors import SchemaError
from codegen.core.formats import regular_formats
from codegen.core.loader import SchemaTree, iter_subschemas
from codegen.core.npm_config import NpmSettings
from codegen.generate.consumers.ajv_limits import (
    annex_b_patterns,
    check_ajv_decides,
    own_properties,
)
from codegen.generate.consumers.export import BUNDLE, SCHEMAS
from codegen.generate.consumers.export_ids import ExportIds, export_path
from codegen.generate.consumers.ts_names import class_names, module_path
from codegen.generate.consumers.ts_text import js_string, property_key
from codegen.generate.consumers.typescript import declaration_module
from codegen.generate.contract import Contract
from codegen.generate.files.header import templates
from codegen.generate.files.targets import GENERATED_MARK, NPM_MANIFEST

__all__ = ["AJV_FORMATS_VERSION", "AJV_VERSION", "API_NAMES", "render_npm"]

# The Ajv the package depends on; tests/consumers/typescript pins a version inside this range.
AJV_VERSION = "^8.20.0"
# ajv-formats, a dependency when formats = "assert" (tests/consumers/typescript pins it too).
AJV_FORMATS_VERSION = "^3.0.1"
# What index.d.ts exports beside the contracts' types: no class may take these names.
API_NAMES = ("validate", "isValid", "contracts", "agents", "tools",
             "Contracts", "ContractName", "ContractError", "Validated")  # fmt: skip
TYPES = PurePosixPath("types")


def _js(declarations: PurePosixPath) -> str:
    """How a module imports a declaration file: ``./types/a/b.js`` for ``types/a/b.d.ts``."""
    return f"./{declarations.as_posix().removesuffix('.d.ts')}.js"


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render_npm(
    settings: NpmSettings,
    tree: SchemaTree,
    contracts: Iterable[Contract],
    export_files: Mapping[PurePosixPath, str],
    source: str,
    *,
    ids: ExportIds,
) -> tuple[dict[PurePosixPath, str], dict[str, Any]]:
    """Every file of the package but its manifest, by path relative to its folder, and the
    manifest's content (its files and records are added by
    :func:`~codegen.generate.files.records.manifest_document`). ``ids`` are the exported ids."""
    ordered = sorted(contracts, key=lambda c: c.schema.rel)
    check_ajv_decides(tree)
    names = class_names(tree)
    for (rel, pointer), name in names.items():
        if name in API_NAMES:
            raise SchemaError(
                f"class name {name!r} is a name the npm package's index exports: rename it",
                tree.by_rel[PurePosixPath(rel)].loc(f"{pointer}/title"),
                "TITLE_IS_CLASS_NAME",
            )
    header = f"// {GENERATED_MARK} from {source} and [tool.maverick-codegen.export]. DO NOT EDIT."
    files: dict[PurePosixPath, str] = {}
    exported: dict[str, tuple[str, ...]] = {}
    for contract in ordered:
        own = f"// {GENERATED_MARK} from {contract.schema_file}. DO NOT EDIT."
        path = TYPES / module_path(contract.schema)
        files[path], exported[_js(path)] = declaration_module(tree, names, contract.schema, own)
    files.update({rel: text for rel, text in export_files.items() if rel.parts[0] == SCHEMAS})
    bundle = export_files[PurePosixPath(BUNDLE)]
    parsed = f"export default JSON.parse({js_string(bundle)});"  # no literal: __proto__ is data
    files[PurePosixPath("bundle.js")] = f"{header}\n{parsed}\n"
    inherited = own_properties(tree)
    annex_b = annex_b_patterns(tree)
    files.update(
        _api(
            ordered, header, exported, ids, strict=settings.ajv_strict, own=inherited,
            annex_b=annex_b, formats=tree.asserts_formats,
        )
    )  # fmt: skip
    files[PurePosixPath("README.md")] = _readme(settings, tree, ordered, source)
    files[PurePosixPath("package.json")] = _dump(
        _package_json(settings, source, files, tree.asserts_formats)
    )
    manifest = {
        "$comment": (
            f"{GENERATED_MARK} from {source}. DO NOT EDIT. "
            "Every file of this package that is generated is listed in files, with its record."
        ),
        "generator": f"maverick-codegen {__version__}",
    }
    return files, manifest


def _api(
    ordered: list[Contract],
    header: str,
    exported: Mapping[str, tuple[str, ...]],
    ids: ExportIds,
    *,
    strict: bool,
    own: bool,
    annex_b: bool = False,
    formats: bool = False,
) -> dict[PurePosixPath, str]:
    """``validate.js``, ``validate.d.ts``, ``index.js`` and ``index.d.ts``; ``strict`` and
    ``own`` are Ajv's ``strict`` and ``ownProperties`` options; ``annex_b``: a pattern is
    valid only without the u flag (Ajv then compiles each pattern with the flag, and one it
    refuses without); ``formats``: formats are asserted (Ajv with ajv-formats, and the
    grammars the models use where ajv-formats decides otherwise)."""
    table = {
        c.name: {"id": ids[c.schema.rel], "schema": f"{SCHEMAS}/{export_path(c.schema).as_posix()}"}
        for c in ordered
    }
    agents = {a: c.name for c in ordered for a in c.agents}
    tools: dict[str, dict[str, str]] = {}
    for contract in ordered:
        for tool in contract.tools:
            tools.setdefault(tool, {})["output"] = contract.name
        for tool in contract.tool_inputs:
            tools.setdefault(tool, {})["input"] = contract.name
    tools = {name: dict(sorted(tools[name].items(), reverse=True)) for name in sorted(tools)}
    agents = dict(sorted(agents.items()))
    module = {c.name: _js(TYPES / module_path(c.schema)) for c in ordered}
    validate_js = (
        templates()
        .get_template("npm_validate.js.j2")
        .render(
            header=header,
            strict=strict,
            own_properties=own,
            annex_b=annex_b,
            formats=json.dumps(regular_formats(), indent=2) if formats else "",
            contracts=json.dumps(table, indent=2, ensure_ascii=False),
            agents=json.dumps(agents, indent=2, ensure_ascii=False),
            tools=json.dumps(tools, indent=2, ensure_ascii=False),
        )
    )
    validate_dts = (
        templates()
        .get_template("npm_validate.d.ts.j2")
        .render(
            header=header,
            imports=[
                f"import type {{ {c.name} }} from {js_string(module[c.name])};" for c in ordered
            ],
            names=[c.name for c in ordered],
            contracts=[
                (c.name, {k: js_string(v) for k, v in table[c.name].items()}) for c in ordered
            ],
            agents=[(property_key(a), js_string(c)) for a, c in agents.items()],
            tools=[
                (property_key(t), [(k, js_string(c)) for k, c in entry.items()])
                for t, entry in tools.items()
            ],
        )
    )
    functions = "agents, contracts, isValid, tools, validate"
    index_dts = [header]
    for module_js, names in exported.items():
        index_dts.append(f"export type {{ {', '.join(names)} }} from {js_string(module_js)};")
    index_dts += [
        f'export {{ {functions} }} from "./validate.js";',
        'export type { ContractError, ContractName, Contracts, Validated } from "./validate.js";',
    ]
    return {
        PurePosixPath("validate.js"): validate_js,
        PurePosixPath("validate.d.ts"): validate_dts,
        PurePosixPath("index.js"): f'{header}\nexport {{ {functions} }} from "./validate.js";\n',
        PurePosixPath("index.d.ts"): "\n".join(index_dts) + "\n",
    }


def _readme(settings: NpmSettings, tree: SchemaTree, ordered: list[Contract], source: str) -> str:
    rows = []
    for contract in ordered:
        users = [f"agent `{a}`" for a in contract.agents]
        users += [f"tool `{t}` (result)" for t in contract.tools]
        users += [f"tool `{t}` (arguments)" for t in contract.tool_inputs]
        rows.append(
            {
                "name": contract.name,
                "schema": f"{SCHEMAS}/{contract.schema.rel.as_posix()}",
                "users": ", ".join(users),
            }
        )
    example = next((c for c in ordered if c.agents), ordered[0]).name
    return (
        templates()
        .get_template("npm_readme.md.j2")
        .render(
            mark=GENERATED_MARK,
            source=source,
            name=settings.name,
            description=_description(settings, source),
            example=example,
            rows=rows,
            strict=settings.ajv_strict,
            notes=_notes(tree),
        )
    )


def _notes(tree: SchemaTree) -> list[str]:
    """What ``validate`` cannot decide as the models do, said in the package's README."""
    integers = sorted(
        schema.rel.as_posix()
        for schema in (*tree.files, *tree.external)
        if not schema.draft.float_integers
        and any(
            node.get("type") == "integer"
            or (isinstance(node.get("type"), list) and "integer" in node["type"])
            for _, node in iter_subschemas(schema.data)
        )
    )
    notes = []
    if tree.asserts_formats:
        notes.append(
            "`format` is asserted, as the models assert it (the project's `formats = "
            '"assert"`): `date`, `time`, `ipv4` and `ipv6` with '
            "[ajv-formats](https://ajv.js.org/packages/ajv-formats.html), every other format "
            "with the grammar the models use."
        )
    if integers:
        notes.append(
            "Draft-04's `integer` refuses `1.0`, and so do the models, but JavaScript cannot "
            "tell `1.0` from `1` (`JSON.parse` reads both as the number 1): `validate` accepts "
            f"`1.0` where these draft-04 schemas say `integer`: "
            f"{', '.join(f'`{r}`' for r in integers)}."
        )
    return notes


def _description(settings: NpmSettings, source: str) -> str:
    return settings.description or (
        f"The contracts of {source} as TypeScript types, with a validator that judges "
        "documents as the generated Python models do."
    )


def _package_json(
    settings: NpmSettings, source: str, files: Mapping[PurePosixPath, str], asserts_formats: bool
) -> dict[str, Any]:
    entries = sorted({p.parts[0] for p in files} | {NPM_MANIFEST})
    package: dict[str, Any] = {
        "name": settings.name,
        "version": settings.version,
        "description": _description(settings, source),
    }
    if settings.license is not None:
        package["license"] = settings.license
    package.update(
        {
            "type": "module",
            "types": "./index.d.ts",
            "exports": {
                ".": {"types": "./index.d.ts", "default": "./index.js"},
                "./validate": {"types": "./validate.d.ts", "default": "./validate.js"},
                "./types/*": {"types": "./types/*.d.ts"},
                "./schemas/*": "./schemas/*",
                "./package.json": "./package.json",
            },
            "files": [e for e in entries if e not in ("README.md", "package.json")],
            "sideEffects": False,
            "engines": {"node": ">=20"},
            "dependencies": {"ajv": AJV_VERSION}
            | ({"ajv-formats": AJV_FORMATS_VERSION} if asserts_formats else {}),
        }
    )
    return package
