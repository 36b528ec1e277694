"""Which contracts a generation regenerates, and how a large set is split between workers.

A contract's module depends only on its closure (its file and every file it references), so
an edit regenerates the edited contract and the contracts that reference it: their inputs
(:func:`~codegen.core.inputs.contract_inputs`) changed, nobody else's did.

One exception: files that reference each other in a circle. datamodel-code-generator moves
the classes of each such circle into a shared module (``_internal.py``, ``_internal_1.py``...,
numbered over the whole tree) that the contracts' own modules, and every module using them,
import. So the contracts on a circle, the contracts that reach one and any contract whose
module is called ``_internal*`` form one *group*, regenerated together whenever one of them
is; the shared modules record the inputs of the whole group (:func:`group_inputs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import PurePosixPath

from codegen.core.graphs import components
from codegen.core.inputs import view_inputs
from codegen.core.loader import SchemaTree
from codegen.generate.contract import Contract
from codegen.generate.files.reuse import FileSet

__all__ = [
    "cyclic_group",
    "group_inputs",
    "is_shared_module",
    "module_path",
    "partition",
    "to_regenerate",
]

SHARED = "_internal"


def module_path(contract: Contract) -> PurePosixPath:
    """The path of a contract's module below the output folder."""
    return _module_path(contract.schema.module_parts)


@lru_cache(maxsize=1 << 16)
def _module_path(parts: tuple[str, ...]) -> PurePosixPath:
    return PurePosixPath(*parts[:-1], parts[-1] + ".py")


def is_shared_module(rel: PurePosixPath) -> bool:
    """Whether ``rel`` may be a shared module of the generator (``_internal*.py``)."""
    return rel.suffix == ".py" and rel.name.startswith(SHARED)


def _circles(tree: SchemaTree) -> set[PurePosixPath]:
    """The files on a circle of references between files."""
    edges = {f.rel: [t.rel for t in tree.references(f)] for f in tree.files}
    return {rel for held in components(edges, edges) if len(held) > 1 for rel in held}


def cyclic_group(tree: SchemaTree, contracts: Sequence[Contract]) -> list[Contract]:
    """The contracts regenerated together (see the module's docstring); empty without circles."""
    circles = _circles(tree)
    if not circles:
        return []
    return [
        c
        for c in contracts
        if c.schema.rel.stem.startswith(SHARED)
        or any(f.rel in circles for f in tree.closure(c.schema))
    ]


def group_inputs(group: Iterable[Contract], inputs: Mapping[str, str]) -> str:
    """The inputs of the group's shared modules: every member's inputs."""
    return view_inputs("group", sorted((c.name, inputs[c.name]) for c in group))


def to_regenerate(
    contracts: Sequence[Contract],
    inputs: Mapping[str, str],
    files: FileSet,
    group: Sequence[Contract],
    shared_inputs: str,
) -> list[Contract]:
    """The contracts whose module cannot be taken from the previous generation as it is."""
    stale = [c for c in contracts if not files.reused(module_path(c), inputs[c.name])]
    if group:
        shared = [rel for rel in files.previous.texts if is_shared_module(rel)]
        members = {c.name for c in group}
        if (
            not shared
            or not all(files.reused(rel, shared_inputs) for rel in shared)
            or any(c.name in members for c in stale)
        ):
            stale = [c for c in contracts if c.name in members or c in stale]
    return stale


def partition(
    tree: SchemaTree, contracts: Sequence[Contract], group: Sequence[Contract], parts: int
) -> list[list[Contract]]:
    """``contracts`` in at most ``parts`` sets whose closures overlap little and weigh about
    the same (a closure's files are what a worker generates); the group stays in one set.

    The contracts are ordered depth first from the files that reference nothing, through the
    files that reference them, so that a contract sits beside those sharing its references;
    the order is cut where the larger of the two closures is smallest.
    """
    position = {rel: i for i, rel in enumerate(_dependents_first(tree))}
    members = {c.name for c in group}
    units: list[list[Contract]] = [[c] for c in contracts if c.name not in members]
    together = [c for c in contracts if c.name in members]
    if together:
        units.append(together)
    if parts < 2 or len(units) < 2:
        return [list(contracts)]
    units.sort(key=lambda unit: min(position[c.schema.rel] for c in unit))
    closures = [{f.rel for c in unit for f in tree.closure(c.schema)} for unit in units]

    def sizes(items: list[set[PurePosixPath]]) -> list[int]:
        union: set[PurePosixPath] = set()
        found = []
        for closure in items:
            union |= closure
            found.append(len(union))
        return found

    left, right = sizes(closures), sizes(closures[::-1])[::-1]
    cut = min(range(1, len(units)), key=lambda k: max(left[k - 1], right[k]))
    return [[c for unit in units[:cut] for c in unit], [c for unit in units[cut:] for c in unit]]


def _dependents_first(tree: SchemaTree) -> list[PurePosixPath]:
    """Every file, depth first from the files that reference nothing through their
    dependents (the files that reference them)."""
    dependents: dict[PurePosixPath, list[PurePosixPath]] = {f.rel: [] for f in tree.files}
    for schema in tree.files:
        for target in tree.references(schema):
            dependents[target.rel].append(schema.rel)
    order: list[PurePosixPath] = []
    seen: set[PurePosixPath] = set()
    roots = [f.rel for f in tree.files if not tree.references(f)]
    for root in [*roots, *(f.rel for f in tree.files)]:
        pending = [root]
        while pending:
            node = pending.pop()
            if node not in seen:
                seen.add(node)
                order.append(node)
                pending.extend(reversed(dependents[node]))
    return order
