"""Render the Markdown catalog of every contract (``docs_file``) from the schema tree.

One section per contract: its agents, ``$id`` and file, its fields (type, required or
default, description), the fields and rules it inherits, its cross-field rules (their
descriptions), enum values, the types defined in its ``$defs`` and an example. Types read
as a consumer writes them: ``string | null``, ``array of [FileChange](#filechange)``.
A diagram of which contracts reference which (Mermaid, :mod:`.diagram`) follows the contents.
A link never leaves the catalog's folder (a schema file or the export outside it is named,
not linked), so the folder can be published as it is: as the ``docs_dir`` of a documentation
site, whose build refuses a link to a page it does not hold.
The text is a pure function of the schemas, so ``check`` compares it like generated code.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codegen.core.errors import CodegenError
from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.consumers.diagram import diagram
from codegen.generate.files.header import made_with, templates
from codegen.generate.files.records import BODY_PLACEHOLDER
from codegen.generate.files.targets import GENERATED_MARK

if TYPE_CHECKING:
    import jinja2

    from codegen.generate.contract import Contract

__all__ = ["CATALOG_TEMPLATE", "catalog_templates", "folder_link", "render_docs", "type_text"]

_CONSTRAINTS = (
    "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minItems", "maxItems",
)  # fmt: skip


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    presence: str
    description: str


@dataclass(frozen=True)
class TypeDoc:
    """A titled ``$defs`` entry shown under its contract."""

    name: str
    anchor: str
    type: str
    description: str
    values: str


@dataclass(frozen=True)
class Inherited:
    base: str  # a Markdown link
    fields: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class ContractDoc:
    name: str
    anchor: str
    summary: str
    description: str
    agents: tuple[str, ...]
    schema_id: str
    file: str
    link: str | None  # to the schema file, when it is inside the catalog's folder
    type: str
    values: str
    fields: tuple[FieldDoc, ...]
    inherited: tuple[Inherited, ...]
    rules: tuple[str, ...]
    defs: tuple[TypeDoc, ...]
    example: str


def anchor(title: str) -> str:
    """The anchor GitHub gives the heading ``title`` (our titles are identifiers)."""
    return title.lower()


def _link(title: str) -> str:
    return f"[{title}](#{anchor(title)})"


def _values(node: Any) -> str:
    values = node.get("enum") if isinstance(node, dict) else None
    if not isinstance(values, list):
        return ""
    return ", ".join(f"`{v}`" if isinstance(v, str) else f"`{json.dumps(v)}`" for v in values)


def type_text(tree: SchemaTree, schema: SchemaFile, node: Any) -> str:
    """How a consumer would write the type of ``node`` (a subschema of ``schema``)."""
    if node is True or node == {}:
        return "any"
    if node is False:
        return "nothing"
    if "$ref" in node:
        target, pointer = tree.resolve(schema, node["$ref"])
        title = target.title
        if pointer:
            found = resolve_pointer(target.data, pointer)
            title = found.get("title", pointer) if isinstance(found, dict) else pointer
        return _link(title)
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "enum" in node and "type" not in node:
        return " | ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    if "anyOf" in node:
        return " | ".join(type_text(tree, schema, branch) for branch in node["anyOf"])
    kinds = node.get("type", [])
    parts = []
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        if kind == "array" and "items" in node:
            parts.append(f"array of {_group(type_text(tree, schema, node['items']))}")
        elif kind == "object" and isinstance(node.get("additionalProperties"), dict):
            inner = _group(type_text(tree, schema, node["additionalProperties"]))
            parts.append(f"object with {inner} values")
        else:
            parts.append(str(kind))
    text = " | ".join(parts) or "any"
    constraints = [f"{key} {json.dumps(node[key])}" for key in _CONSTRAINTS if key in node]
    if isinstance(node.get("format"), str):
        constraints.append(f"format {node['format']}")
    return f"{text} ({', '.join(constraints)})" if constraints else text


def _group(text: str) -> str:
    return f"({text})" if " | " in text else text


def _presence(schema: SchemaFile, name: str, node: Any) -> str:
    if name in (schema.data.get("required") or []):
        return "required"
    if isinstance(node, dict) and "default" in node:
        return f"default `{json.dumps(node['default'])}`"
    return "optional"


def _description(node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    text = str(node.get("description", ""))
    values = _values(node)
    if values and "type" in node:
        text = f"{text} One of: {values}." if text else f"One of: {values}."
    return f"**Deprecated.** {text}" if node.get("deprecated") is True else text


def _bases(tree: SchemaTree, schema: SchemaFile) -> list[SchemaFile]:
    return [
        tree.resolve(schema, entry["$ref"])[0]
        for entry in schema.data.get("allOf") or []
        if isinstance(entry, dict) and "$ref" in entry
    ]


def _inherited(
    tree: SchemaTree, schema: SchemaFile, by_title: dict[str, Contract]
) -> list[Inherited]:
    found = []
    for base in _bases(tree, schema):
        names = ", ".join(f"`{n}`" for n in base.data.get("properties") or {})
        found.append(Inherited(_link(base.title), names, _rules(by_title[base.title])))
        found.extend(_inherited(tree, base, by_title))
    return found


def _rules(contract: Contract) -> tuple[str, ...]:
    """The messages (descriptions) of a contract's own cross-field rules."""
    return contract.rules


def _summary(text: str) -> str:
    first = text.split(". ", maxsplit=1)[0].rstrip(".")
    return first + "." if first else ""


def _contract_doc(
    tree: SchemaTree, contract: Contract, docs_dir: Path, by_title: dict[str, Contract]
) -> ContractDoc:
    schema = contract.schema
    data = schema.data
    fields = tuple(
        FieldDoc(
            name,
            type_text(tree, schema, node),
            _presence(schema, name, node),
            _description(node),
        )
        for name, node in (data.get("properties") or {}).items()
    )
    defs = tuple(
        TypeDoc(
            node["title"],
            anchor(node["title"]),
            type_text(tree, schema, {k: v for k, v in node.items() if k != "enum"}),
            str(node.get("description", "")),
            _values(node),
        )
        for node in (data.get("$defs") or {}).values()
        if isinstance(node, dict) and isinstance(node.get("title"), str)
    )
    examples = data.get("examples") or []
    description = str(data.get("description", ""))
    return ContractDoc(
        name=contract.name,
        anchor=anchor(contract.name),
        summary=_summary(description),
        description=description,
        agents=contract.agents,
        schema_id=contract.schema_id,
        file=contract.schema_file,
        link=folder_link(schema.path, docs_dir),
        type=type_text(tree, schema, {k: v for k, v in data.items() if k != "enum"}),
        values=_values(data),
        fields=fields,
        inherited=tuple(_inherited(tree, schema, by_title)),
        rules=_rules(contract),
        defs=defs,
        example=json.dumps(examples[0], indent=2, ensure_ascii=False) if examples else "",
    )


def folder_link(path: Path, docs_dir: Path) -> str | None:
    """The relative link from the catalog to ``path``, or None when it would leave the
    catalog's folder."""
    if not path.resolve().is_relative_to(docs_dir.resolve()):
        return None
    return Path(os.path.relpath(path, docs_dir)).as_posix()


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


CATALOG_TEMPLATE = "contracts.md.j2"
# The diagram's heading ("References between contracts") as an anchor.
DIAGRAM_ANCHOR = "references-between-contracts"


@cache
def catalog_templates() -> jinja2.Environment:
    """The catalog's templates (blocks trimmed, the ``cell`` filter), one per process."""
    env = templates().overlay(trim_blocks=True, lstrip_blocks=True)
    env.filters["cell"] = _cell
    return env


def render_docs(
    tree: SchemaTree,
    contracts: Sequence[Contract],
    *,
    agents: Iterable[tuple[str, str]],
    docs_file: Path,
    source: str,
    export: Mapping[str, str] | None,
    inputs: str,
) -> str:
    """The catalog's Markdown text; links are relative to ``docs_file``'s folder. ``inputs``
    goes into its record (:mod:`codegen.generate.files.records`), whose body digest is a
    placeholder until the text is sealed."""
    by_title = {c.name: c for c in contracts}
    docs_dir = docs_file.parent
    ordered = sorted(contracts, key=lambda c: c.schema.rel)
    docs = [_contract_doc(tree, c, docs_dir, by_title) for c in ordered]
    anchors = Counter(["agents", "contents", DIAGRAM_ANCHOR, *(d.anchor for d in docs)])
    anchors.update(t.anchor for d in docs for t in d.defs)
    clash = sorted(a for a, n in anchors.items() if n > 1)
    if clash:
        raise CodegenError(f"two sections of {docs_file.name} would share the anchor #{clash[0]}")
    groups: dict[str, list[ContractDoc]] = {}
    for contract, doc in zip(ordered, docs, strict=True):
        folder = contract.schema.rel.parent
        groups.setdefault(source + ("" if folder.name == "" else f"{folder}/"), []).append(doc)
    return (
        catalog_templates()
        .get_template(CATALOG_TEMPLATE)
        .render(
            mark=GENERATED_MARK,
            source=source,
            inputs=inputs,
            made_with=made_with(),
            body=BODY_PLACEHOLDER,
            contracts=docs,
            groups=sorted(groups.items()),
            agents=sorted((agent, by_title[title]) for agent, title in agents),
            link=_link,
            export=export,
            formats=tree.asserts_formats,
            diagram=diagram(tree, ordered, source),
        )
    )
