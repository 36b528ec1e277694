"""Render the export for consumers that are not Python: plain JSON files, no Python needed.

The export folder holds, all written with sorted keys, two-space indent and a final newline:

- ``schemas/<path>.json``: each canonical schema document, at its path in the schema folder
  (so relative ``$ref`` resolve by file as well as by ``$id``);
- ``bundle.json``: one draft 2020-12 compound document embedding every schema under
  ``$defs``, keyed by ``$id``. Each embedded resource keeps its ``$id`` and ``$schema`` and
  its ``$ref`` are untouched: they resolve against the embedded resource's ``$id``, as the
  JSON Schema specification's bundling guidance says;
- ``structured-output/<path>.json``: for each agent or tool contract, the self-contained
  object schema the Claude CLI accepts as structured output (:mod:`codegen.generate.bundle`),
  which is also an MCP tool's ``outputSchema``;
- ``a2a-skills.json`` (when tools are configured): the AgentCard ``skills`` fragment of the
  MCP tools (:mod:`codegen.generate.a2a`);
- ``index.json``: contract, agent and tool names to ``$id`` and files, and the folder's manifest
  (:mod:`codegen.generate.records`): every file generated (how :mod:`codegen.generate.targets`
  recognises them: JSON has no comments) with its record, and the inputs of the generation.

Relative references resolve by ``$id`` only if each file's ``$id`` mirrors its path in the
schema folder; :func:`check_ids_mirror_files` refuses a tree where they do not.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from codegen import __version__
from codegen.core.errors import SchemaError
from codegen.core.loader import DRAFT_2020_12, SchemaTree, iter_subschemas
from codegen.generate.a2a import A2A_SKILLS, a2a_skills
from codegen.generate.records import dump
from codegen.generate.reuse import FileSet
from codegen.generate.targets import GENERATED_MARK

if TYPE_CHECKING:
    from codegen.generate.contract import Contract

__all__ = [
    "BUNDLE",
    "SCHEMAS",
    "STRUCTURED_OUTPUT",
    "check_ids_mirror_files",
    "dump",
    "render_export",
]

BUNDLE = "bundle.json"
SCHEMAS = "schemas"
# Not a Python identifier, so no schema folder can ever be called that.
STRUCTURED_OUTPUT = "structured-output"


def check_ids_mirror_files(tree: SchemaTree) -> None:
    """Refuse a ``$ref`` that names a different file by path than by ``$id``.

    Consumers resolve ``"$ref": "file_change.json"`` against the ``$id`` of the schema that
    holds it (the bundle has no file paths); it must land on the ``$id`` of the file it names.
    """
    for schema in tree.files:
        for ref in schema.file_refs:
            target, _ = tree.resolve(schema, ref)
            if target.external:
                continue  # reached through a URL mapping: its $id is the URL itself
            by_id = urljoin(schema.schema_id, ref.partition("#")[0])
            if by_id != target.schema_id:
                pointer = next(
                    p for p, node in iter_subschemas(schema.data) if node.get("$ref") == ref
                )
                raise SchemaError(
                    f"$ref {ref!r} names {target.rel} by path but {by_id} by $id, whose $id is "
                    f"{target.schema_id}: give every file an $id that mirrors its path",
                    schema.loc(f"{pointer}/$ref"),
                    "ID_MIRRORS_PATH",
                )


def render_export(
    files: FileSet,
    contracts: Iterable[Contract],
    forms: Mapping[str, dict[str, Any]],
    inputs: Mapping[str, str],
    source: str,
    *,
    text: Callable[[Contract], str] | None = None,
) -> dict[str, Any]:
    """Add every file of the export but its index to ``files`` (a contract's files are made
    from ``inputs[name]``, the rest from ``inputs[""]``, the whole tree); returns the index's
    content (its manifest fields aside). ``text`` gives a contract's document as :func:`dump`
    writes it, when the caller has it already."""
    ordered = sorted(contracts, key=lambda c: c.schema.rel)
    contracts_index: dict[str, dict[str, Any]] = {}
    agents_index: dict[str, dict[str, Any]] = {}
    tools_index: dict[str, dict[str, Any]] = {}
    for contract in ordered:
        rel = PurePosixPath(SCHEMAS) / contract.schema.rel
        made = inputs[contract.name]
        files.add(
            rel, made, partial(text, contract) if text else partial(dump, contract.schema.data)
        )
        entry: dict[str, Any] = {
            "$id": contract.schema_id,
            "agents": list(contract.agents),
            "file": rel.as_posix(),
            "source": contract.schema_file,
        }
        if contract.tools:
            entry["tools"] = list(contract.tools)
        if contract.tool_inputs:
            entry["tool_inputs"] = list(contract.tool_inputs)
        if contract.agents or contract.tools or contract.tool_inputs:
            structured = PurePosixPath(STRUCTURED_OUTPUT) / contract.schema.rel
            files.add(structured, made, partial(_form, forms, contract.name))
            entry["structured_output"] = structured.as_posix()
        contracts_index[contract.name] = entry
        for agent in contract.agents:
            agents_index[agent] = _named(contract, entry)
        for tool in contract.tools:
            tools_index.setdefault(tool, {}).update(_named(contract, entry))
        for tool in contract.tool_inputs:
            tools_index.setdefault(tool, {})["input"] = _named(contract, entry)
    comment = f"{GENERATED_MARK} from {source}. DO NOT EDIT."
    texts = {c.schema_id: files.texts[PurePosixPath(SCHEMAS) / c.schema.rel] for c in ordered}
    files.add(PurePosixPath(BUNDLE), inputs[""], partial(_bundle, texts, comment))
    skills = any(c.tools for c in ordered)
    if skills:
        files.add(PurePosixPath(A2A_SKILLS), inputs[""], lambda: _skills(ordered, forms, comment))
    return {
        "$comment": (
            f"{comment} Every file of this folder that is generated is listed in files, "
            "with its record."
        ),
        "generator": f"maverick-codegen {__version__}",
        "bundle": BUNDLE,
        "contracts": contracts_index,
        "agents": dict(sorted(agents_index.items())),
        **({"tools": dict(sorted(tools_index.items()))} if tools_index else {}),
        **({"a2a_skills": A2A_SKILLS} if skills else {}),
    }


def _form(forms: Mapping[str, dict[str, Any]], name: str) -> str:
    return dump(forms[name])


_DEFS = "@@maverick-codegen-defs@@"


def _bundle(texts: Mapping[str, str], comment: str) -> str:
    """The bundle of the documents ``texts`` holds (``$id`` -> :func:`dump` of it), exactly as
    :func:`dump` writes it: each document's text is indented into place, not dumped again."""
    outline = dump(
        {
            "$comment": comment,
            "$schema": DRAFT_2020_12,
            "description": (
                "Every contract, embedded under $defs by its $id (a compound document): "
                "validate against a contract by referencing its $id."
            ),
            "$defs": _DEFS,
        }
    )
    entries = [
        f"    {json.dumps(key, ensure_ascii=False)}: "
        + texts[key].removesuffix("\n").replace("\n", "\n    ")
        for key in sorted(texts)
    ]
    defs = "{\n" + ",\n".join(entries) + "\n  }" if entries else "{}"
    return outline.replace(json.dumps(_DEFS), defs, 1)


def _skills(ordered: Sequence[Contract], forms: Mapping[str, dict[str, Any]], comment: str) -> str:
    return dump(
        {
            "$comment": comment,
            "description": (
                "The skills of an A2A AgentCard for the MCP tools, one per tool; "
                "inputSchema and outputSchema are not AgentSkill fields."
            ),
            "skills": a2a_skills(ordered, forms),
        }
    )


def _named(contract: Contract, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The index entry of an agent or tool name: its contract, files and ``$id``."""
    return {
        "$id": contract.schema_id,
        "contract": contract.name,
        "file": entry["file"],
        "structured_output": entry["structured_output"],
    }
