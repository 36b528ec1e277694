"""The catalog's diagram: which contracts reference which, as a Mermaid flowchart.

One node per contract, grouped by folder (a ``subgraph`` each); an arrow from a contract to
each other contract its file references (``$ref``, a ``$dynamicRef``'s static target), marked
*extends* when the target is one of its ``allOf`` bases. GitHub and mkdocs-material (through
``pymdownx.superfences``) draw a ```` ```mermaid ```` fence. Mermaid refuses to draw more
than 500 arrows or 50,000 characters by default: past either the catalog says so instead of
holding a diagram no reader sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codegen.core.loader import SchemaFile, SchemaTree

if TYPE_CHECKING:
    from codegen.generate.contract import Contract

__all__ = ["MAX_EDGES", "MAX_TEXT", "Diagram", "diagram", "edges"]

# Mermaid's defaults (maxEdges, maxTextSize): past them it draws an error, not the graph.
MAX_EDGES = 500
MAX_TEXT = 50_000


@dataclass(frozen=True)
class Diagram:
    """The flowchart's source (without the fence), or why there is none."""

    source: str | None
    edges: int
    omitted: str = ""


def _node(name: str) -> str:
    """A node id no Mermaid keyword (``end``, ``graph``, ``style``...) can take: contract
    names are identifiers, so a prefix is enough."""
    return f"c_{name}"


def _label(text: str) -> str:
    """``text`` inside a quoted Mermaid label (a folder name may hold a double quote)."""
    return text.replace('"', "#quot;")


def _bases(tree: SchemaTree, schema: SchemaFile) -> set[str]:
    return {
        tree.resolve(schema, entry["$ref"])[0].rel.as_posix()
        for entry in schema.data.get("allOf") or []
        if isinstance(entry, dict) and isinstance(entry.get("$ref"), str)
    }


def edges(tree: SchemaTree, contracts: Sequence[Contract]) -> list[tuple[str, str, bool]]:
    """``(from, to, extends)`` per contract file referencing another, sorted by name."""
    by_rel = {c.schema.rel: c.name for c in contracts}
    found = []
    for contract in contracts:
        bases = _bases(tree, contract.schema)
        for target in tree.references(contract.schema):
            name = by_rel.get(target.rel)
            if name is not None and name != contract.name:
                found.append((contract.name, name, target.rel.as_posix() in bases))
    return sorted(found)


def diagram(tree: SchemaTree, contracts: Sequence[Contract], source: str) -> Diagram:
    """The flowchart of ``contracts`` (``source``: the schema folder as shown, ``schemas/``)."""
    arrows = edges(tree, contracts)
    if len(arrows) > MAX_EDGES:
        return Diagram(None, len(arrows), f"{len(arrows)} references, past Mermaid's {MAX_EDGES}")
    folders: dict[str, list[str]] = {}
    for contract in contracts:
        folder = contract.schema.rel.parent.as_posix()
        shown = source if folder == "." else f"{source}{folder}/"
        folders.setdefault(shown, []).append(contract.name)
    lines = ["flowchart LR"]
    for number, (shown, names) in enumerate(sorted(folders.items())):
        lines.append(f'  subgraph g{number} ["{_label(shown)}"]')
        lines.extend(f'    {_node(n)}["{n}"]' for n in sorted(names))
        lines.append("  end")
    for start, end, extends in arrows:
        arrow = "-->|extends|" if extends else "-->"
        lines.append(f"  {_node(start)} {arrow} {_node(end)}")
    text = "\n".join(lines)
    if len(text) > MAX_TEXT:
        return Diagram(None, len(arrows), f"{len(text):,} characters, past Mermaid's {MAX_TEXT:,}")
    return Diagram(text, len(arrows))
