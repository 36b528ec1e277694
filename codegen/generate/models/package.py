"""The package's own files: the registry, the ``__init__`` of every folder, the JSON runtime
(``_types``) and the package data (each contract's schema document and self-contained form,
which the registry reads on first use).

Each Python file is rendered from a template, never by the generator, and from a *view*: the
JSON data naming everything the file shows (:class:`OwnFile`). A view's digest is the file's
inputs (:func:`~codegen.core.inputs.view_inputs`): the registry is rendered again when a
contract is added, removed or renamed, not when a description changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import PurePosixPath
from typing import Any

from codegen.core.config import Config
from codegen.core.formats import FORMAT_TYPES, FORMATS
from codegen.core.inputs import view_inputs
from codegen.generate.contract import Contract
from codegen.generate.files.header import header, templates
from codegen.generate.models.checks.predicate_runtime import RUNTIME
from codegen.generate.models.postprocess import TYPES_MODULE

__all__ = ["DATA", "OwnFile", "data_path", "own_files"]

DATA = "_data"
"""The package data folder: ``schemas/<path>`` and ``structured-output/<path>``, as in the
export."""

_REGISTRY = ("AGENT_CONTRACTS", "CONTRACTS", "ContractInfo", "canonical_schema", "output_format")
_MADE_FROM = "the contracts' names and files, [tool.maverick-codegen]"


def data_path(folder: str, contract: Contract) -> PurePosixPath:
    """Where a document of ``contract`` is in the package data (``folder``: ``schemas`` or
    ``structured-output``)."""
    return _data_path(folder, contract.schema.rel)


@lru_cache(maxsize=1 << 17)
def _data_path(folder: str, rel: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(DATA, folder) / rel


@dataclass(frozen=True)
class OwnFile:
    """One of the package's own Python files: its path, template and view."""

    rel: PurePosixPath
    template: str
    view: dict[str, Any]

    @cached_property
    def inputs(self) -> str:
        return view_inputs(self.template, self.view)

    def render(self) -> str:
        """The file's text, not yet formatted nor sealed."""
        top = header(self.view["source"], self.inputs, _MADE_FROM)
        template = templates().get_template(self.template)
        if self.template == "types.py.j2":
            formats = FORMATS + FORMAT_TYPES if self.view.get("formats") else ""
            return template.render(header=top, runtime=RUNTIME + formats, formats=bool(formats))
        return template.render(header=top, **self.view)


def _exports(contracts: Iterable[Contract], module: str) -> list[dict[str, str]]:
    """Each public class of ``contracts`` with its module (``module``: ``folder`` or ``package``
    relative)."""
    found = []
    for contract in sorted(contracts, key=lambda c: c.name):
        parts = contract.schema.module_parts
        where = "." + (parts[-1] if module == "folder" else ".".join(parts))
        found += [{"module": where, "name": name} for name in contract.exports]
    return found


def _init(source: str, docstring: str, imports: list[dict[str, str]], eager: list[str]) -> Any:
    return {
        "source": source,
        "docstring": docstring,
        "eager": [{"module": "._registry", "name": name} for name in eager],
        "imports": imports,
        "names": sorted([*eager, *(item["name"] for item in imports)]),
    }


def own_files(config: Config, contracts: list[Contract]) -> list[OwnFile]:
    """The registry, ``_types`` and every ``__init__``, each with its view."""
    source = f"{config.display(config.schema_dir)}/ and [tool.maverick-codegen]"
    ordered = sorted(contracts, key=lambda c: c.name)
    registry = {
        "source": source,
        "contracts": [
            {
                "name": c.name,
                "schema_id": c.schema_id,
                "schema_file": c.schema_file,
                "agents": list(c.agents),
                "module": "." + ".".join(c.schema.module_parts),
            }
            for c in ordered
        ],
        "agents": sorted(config.agents.items()),
        "tools": sorted(config.tools.items()),
        "tool_inputs": sorted(config.tool_inputs.items()),
        "structured": [c.name for c in ordered if c.agents or c.tools or c.tool_inputs],
    }
    names = list(_REGISTRY)
    if config.tools:
        names += ["TOOL_CONTRACTS", "tool_output_schema"]
    if config.tool_inputs:
        names += ["TOOL_INPUT_CONTRACTS", "tool_input_schema"]
    top = _init(
        source,
        "Every generated contract, and the registry. Generated from the schema folder: never "
        "edit; change a schema, then run `maverick-codegen generate`.",
        _exports(ordered, "package"),
        sorted(names),
    )
    # formats = "assert": the format checks too (a project that annotates has none).
    types = {"source": source, **({"formats": True} if config.loading.asserts_formats else {})}
    files = [
        OwnFile(PurePosixPath("_registry.py"), "registry.py.j2", registry),
        OwnFile(PurePosixPath(f"{TYPES_MODULE}.py"), "types.py.j2", types),
        OwnFile(PurePosixPath("__init__.py"), "package_init.py.j2", top),
    ]
    # Each package folder (a module path's folders) and the schema folder it comes from.
    folders: dict[PurePosixPath, list[Contract]] = {}
    written: dict[PurePosixPath, PurePosixPath] = {}
    for contract in contracts:
        parts, rel = contract.schema.module_parts, contract.schema.rel.parts
        for depth in range(len(parts)):
            folders.setdefault(PurePosixPath(*parts[:depth]), [])
            written.setdefault(PurePosixPath(*parts[:depth]), PurePosixPath(*rel[:depth]))
        folders[PurePosixPath(*parts[:-1])].append(contract)
    for folder, members in sorted(folders.items()):
        if folder == PurePosixPath("."):
            continue
        docstring = f"Contracts generated from schemas/{written[folder].as_posix()}/."
        view = _init(source, docstring, _exports(members, "folder"), [])
        files.append(OwnFile(folder / "__init__.py", "package_init.py.j2", view))
    return files
