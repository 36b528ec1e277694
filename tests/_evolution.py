"""Change pairs for the breaking check's differential proof (tests/test_breaking_differential.py).

A :class:`Pair` is two versions of a small schema folder (one contract, or a base contract
and one that extends or holds it) that differ by one change. Pairs come from two sources:

* drawn: a contract drawn by the differential test's draws (:mod:`tests._fuzz`: ``Draw``,
  ``ClassDraw``, ``BaseDraw``, ``FieldDraw``), then one keyword added, removed or changed at a
  random depth by :func:`tests._evolution_mutations.mutate`;
* hand-made (:mod:`tests._evolution_cases`): one or more per keyword, every case issue 16
  lists, the changes that leave the accepted set equal, and cross-file ``$ref`` and ``allOf``
  bases (the ToolResult pattern); and across drafts (:mod:`tests._evolution_drafts`): a
  contract rewritten or changed from one draft to another.

Every pair passes :func:`codegen.core.loader.load_tree` and the generator's support check
on both sides (a draw that does not is dropped, and the next seed is drawn). Seeds are fixed:
the same count gives the same pairs. :func:`layout` writes every pair's old (or new) side into
one project, each in its folder ``pNNN/`` with its own ``$id`` and titles, so that all old
versions are generated in one ``generate`` and all new versions in another.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from codegen.core.errors import CodegenError
from codegen.core.loader import iter_subschemas, load_tree
from codegen.generate.models.checks.support import check_supported
from tests._evolution_mutations import mutate
from tests._fuzz import BaseDraw, ClassDraw, Draw, FieldDraw

__all__ = [
    "BACKWARD",
    "FORWARD",
    "Pair",
    "all_pairs",
    "changed_files",
    "drawn_pairs",
    "folder",
    "layout",
    "loads",
]

BACKWARD, FORWARD = "DATA_BACKWARD", "DATA_FORWARD"
KINDS: tuple[type[Draw], ...] = (Draw, ClassDraw, BaseDraw, FieldDraw)
PROBES = 12  # documents a draw suggests per contract of a drawn pair


@dataclass(frozen=True)
class Pair:
    """Two versions of a schema folder (file name -> document) that differ by one change."""

    name: str  # unique: "Draw-17" or "hand: uniqueItems added"
    change: str  # the class of change, e.g. "uniqueItems added at depth 1"
    old: dict[str, dict[str, Any]]
    new: dict[str, dict[str, Any]]
    probes: tuple[Any, ...] = ()  # documents worth trying: the draw's pools, or written by hand
    equal: bool = False  # the accepted sets are equal by construction: no data finding at all
    # Directions a hand-made pair separates in: the search must find exactly these.
    expect: frozenset[str] | None = None
    home: str = ""  # its folder in a project (pNNN), set by all_pairs
    contracts: tuple[str, ...] = field(default=())  # titles of its contracts, set by all_pairs


def folder(index: int) -> str:
    return f"p{index:03d}"


def _placed(pair: Pair, index: int) -> Pair:
    """The pair with ``$id`` and every title made unique to folder ``pNNN`` of a project."""
    prefix = f"P{index:03d}"

    def rename(files: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        renamed = {}
        for name, original in files.items():
            document = copy.deepcopy(original)
            key = "id" if "id" in document and "$id" not in document else "$id"  # draft-04
            document[key] = f"https://evolution.example/{folder(index)}/{name}"
            for _, node in iter_subschemas(document):
                if isinstance(node.get("title"), str):
                    node["title"] = prefix + node["title"]
            renamed[name] = document
        return renamed

    old, new = rename(pair.old), rename(pair.new)
    titles = tuple(old[n]["title"] for n in sorted(old) if n in new)
    return replace(pair, old=old, new=new, home=folder(index), contracts=titles)


def loads(files: dict[str, dict[str, Any]]) -> bool:
    """Whether the folder loads and every file passes the generator's support check."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for name, document in files.items():
            (root / name).write_text(json.dumps(document, indent=2), encoding="utf-8")
        try:
            for schema in load_tree(root).files:
                check_supported(schema)
        except CodegenError:
            return False
    return True


def _documents(draw: Draw, contract: dict[str, Any]) -> list[Any]:
    """Documents the draw suggests for a contract: its own kind's (objects of the declared
    properties, class instances), or, for a changed contract that no longer has the shape its
    kind reads, the plain draw's (values, constants, objects of the declared names)."""
    try:
        return draw.documents(copy.deepcopy(contract), PROBES)
    except (KeyError, TypeError, AttributeError, IndexError):
        return Draw.documents(draw, copy.deepcopy(contract), PROBES)


def _drawn(kind: type[Draw], seed: int) -> Pair | None:
    draw = kind(seed)
    files = {"c000.json": draw.contract(0)}
    if issubclass(kind, BaseDraw):  # the base, and a contract that extends it or holds it
        files["c001.json"] = draw.contract(1)
    probes = [d for document in files.values() for d in _documents(draw, document)]
    target = "c000.json" if len(files) == 1 or draw.r.random() < 0.4 else "c001.json"
    changed, change, equal = mutate(draw, files[target])
    if json.dumps(changed, sort_keys=True) == json.dumps(files[target], sort_keys=True):
        return None
    probes += _documents(draw, changed)  # the new constants and property names
    where = "in the base" if target == "c000.json" and len(files) > 1 else ""
    change = f"{change} {where}".strip()
    return Pair(
        f"{kind.__name__}-{seed}", change, files, {**files, target: changed}, tuple(probes), equal
    )


def drawn_pairs(count: int, seed: int = 0) -> list[Pair]:
    """``count`` drawn pairs, the four draws in turn; seeds ``seed * 100_000 + attempt``."""
    pairs: list[Pair] = []
    attempt = 0
    while len(pairs) < count:
        kind = KINDS[attempt % len(KINDS)]
        pair = _drawn(kind, seed * 100_000 + attempt)
        attempt += 1
        if pair is not None and loads(pair.old) and loads(pair.new):
            pairs.append(pair)
    return pairs


def all_pairs(drawn: int, seed: int = 0) -> list[Pair]:
    """The hand-made pairs (across drafts too), then ``drawn`` drawn ones, each placed in its
    own folder."""
    from tests._evolution_cases import hand_pairs
    from tests._evolution_drafts import draft_pairs

    pairs = [*hand_pairs(), *draft_pairs(), *drawn_pairs(drawn, seed)]
    return [_placed(pair, index) for index, pair in enumerate(pairs)]


def layout(root: Path, pairs: Sequence[Pair], side: str, package: str) -> Path:
    """Write every pair's ``side`` ("old" or "new") below ``root/schemas/pNNN/`` and a
    ``pyproject.toml`` generating package ``package`` into ``root/out``; returns the config."""
    for pair in pairs:
        for name, document in getattr(pair, side).items():
            path = root / "schemas" / pair.home / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    config = root / "pyproject.toml"
    config.write_text(
        f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
        f'package = "{package}"\n',
        encoding="utf-8",
    )
    return config


def changed_files(pair: Pair) -> Iterator[str]:
    """The files whose document differs between the two sides."""
    for name in sorted(pair.old):
        if pair.old[name] != pair.new.get(name):
            yield name
