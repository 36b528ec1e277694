"""Render the export for consumers that are not Python: plain JSON files, no Python needed.

The export folder holds, all written with sorted keys, two-space indent and a final newline:

- ``schemas/<path>.json``: each schema document, at its path in the schema folder, as a draft
  2020-12 document whatever its own draft (:mod:`codegen.generate.consumers.export_docs`),
  identified by its exported ``$id`` (:mod:`codegen.generate.consumers.export_ids`: its own, or one
  made from its path); each document a reference reaches outside the schema folder (a URL mapping, a
  metaschema) too, at ``schemas/~remote/<host>/<path>``;
- ``bundle.json``: one draft 2020-12 compound document embedding every schema under
  ``$defs``, keyed by ``$id``. Each embedded resource keeps its ``$id`` and ``$schema``, and
  its ``$ref`` resolve against the embedded resource's ``$id``, as the JSON Schema
  specification's bundling guidance says;
- ``structured-output/<path>.json``: for each agent or tool contract, the self-contained
  object schema the Claude CLI accepts as structured output
  (:mod:`codegen.generate.consumers.bundle`), which is also an MCP tool's ``outputSchema``;
- ``a2a-skills.json`` (when tools are configured): the AgentCard ``skills`` fragment of the
  MCP tools (:mod:`codegen.generate.consumers.a2a`);
- ``index.json``: contract, agent and tool names to ``$id`` and files, each external document's
  URL to its ``$id`` and file, ``formats`` when the project asserts them (:data:`FORMATS_ASSERTED`:
  the documents say draft 2020-12, where ``format`` annotates by default), and the folder's
  manifest (:mod:`codegen.generate.files.records`):
  every file generated (how :mod:`codegen.generate.files.targets` recognises them: JSON has no
  comments) with its record, and the inputs of the generation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from codegen import __version__
from codegen.core.loader import DRAFT_2020_12
from codegen.generate.consumers.a2a import A2A_SKILLS, a2a_skills
from codegen.generate.consumers.export_ids import export_path
from codegen.generate.files.records import dump
from codegen.generate.files.reuse import FileSet
from codegen.generate.files.targets import GENERATED_MARK

if TYPE_CHECKING:
    from codegen.generate.consumers.documents import Documents
    from codegen.generate.contract import Contract

__all__ = ["BUNDLE", "SCHEMAS", "STRUCTURED_OUTPUT", "dump", "render_export"]

# index.json's "formats" when the project asserts them: the schemas say draft 2020-12, whose
# format is an annotation by default, so the index says how the contracts read it.
FORMATS_ASSERTED = {
    "mode": "assert",
    "note": (
        "format is asserted (as draft 2020-12's format-assertion vocabulary reads it): a string "
        "not of its format is invalid. Validate with format assertion on (Ajv: validateFormats "
        "with ajv-formats); a validator that only annotates accepts documents these contracts "
        "refuse."
    ),
}
BUNDLE = "bundle.json"
SCHEMAS = "schemas"
# Not a Python identifier, so no schema folder can ever be called that.
STRUCTURED_OUTPUT = "structured-output"


def render_export(
    files: FileSet,
    contracts: Iterable[Contract],
    documents: Documents,
    inputs: Mapping[str, str],
    source: str,
) -> dict[str, Any]:
    """Add every file of the export but its index to ``files`` (a contract's files are made
    from ``inputs[name]``, the rest from ``inputs[""]``, the whole tree); returns the index's
    content (its manifest fields aside). ``documents`` gives each document's text, each agent
    and tool contract's self-contained form and the exported ids."""
    ordered = sorted(contracts, key=lambda c: c.schema.rel)
    contracts_index: dict[str, dict[str, Any]] = {}
    agents_index: dict[str, dict[str, Any]] = {}
    tools_index: dict[str, dict[str, Any]] = {}
    for contract in ordered:
        rel = PurePosixPath(SCHEMAS) / export_path(contract.schema)
        made = inputs[contract.name]
        files.add(rel, made, partial(documents.document_text, contract.schema))
        entry: dict[str, Any] = {
            "$id": documents.ids[contract.schema.rel],
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
            files.add(structured, made, partial(_form, documents, contract.name))
            entry["structured_output"] = structured.as_posix()
        contracts_index[contract.name] = entry
        for agent in contract.agents:
            agents_index[agent] = _named(contract, entry)
        for tool in contract.tools:
            tools_index.setdefault(tool, {}).update(_named(contract, entry))
        for tool in contract.tool_inputs:
            tools_index.setdefault(tool, {})["input"] = _named(contract, entry)
    external: dict[str, dict[str, str]] = {}
    for schema in documents.tree.external:
        rel = PurePosixPath(SCHEMAS) / export_path(schema)
        files.add(rel, inputs[""], partial(documents.document_text, schema))
        external[schema.uri] = {"$id": documents.ids[schema.rel], "file": rel.as_posix()}
    comment = f"{GENERATED_MARK} from {source}. DO NOT EDIT."
    texts = {
        documents.ids[s.rel]: files.texts[PurePosixPath(SCHEMAS) / export_path(s)]
        for s in (*(c.schema for c in ordered), *documents.tree.external)
    }
    files.add(PurePosixPath(BUNDLE), inputs[""], partial(_bundle, texts, comment))
    skills = any(c.tools for c in ordered)
    if skills:
        skills_text = partial(_skills, ordered, documents, comment)
        files.add(PurePosixPath(A2A_SKILLS), inputs[""], skills_text)
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
        **({"external": dict(sorted(external.items()))} if external else {}),
        **({"a2a_skills": A2A_SKILLS} if skills else {}),
        **({"formats": FORMATS_ASSERTED} if documents.tree.asserts_formats else {}),
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
        "$id": entry["$id"],
        "contract": contract.name,
        "file": entry["file"],
        "structured_output": entry["structured_output"],
    }
