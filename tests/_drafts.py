"""The draft projects: one project of schemas per draft, generated, with documents to judge.

``tests/fixtures/drafts/`` holds four projects (``pyproject.toml`` and ``schemas/``): draft-07
(``definitions``, ``dependencies``, a list of ``items`` with ``additionalItems``, ``$ref``
beside a keyword it ignores, ``if``/``then``), draft-04 (``id``, boolean
``exclusiveMaximum``, ``integer``), 2019-09 (``$recursiveRef``/``$recursiveAnchor``,
``$anchor``, ``unevaluatedProperties``, ``dependentRequired``) and 2020-12
(``$dynamicRef``/``$dynamicAnchor``, documents reached by URL through
``[tool.maverick-codegen.refs]``). :func:`generated_projects` copies them to a temporary
folder, runs ``maverick-codegen generate`` on each (models, export, npm package) and imports
the models; :func:`documents` draws the documents every consumer judges, each with the
generated model's verdict: the examples, :data:`EXPLICIT` (each with the verdict it must get),
documents hypothesis-jsonschema draws for a contract without dynamic references, and mutations
of all of them (:data:`tests._conformance.MUTATIONS`).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import TypeAdapter

from codegen.core.config import load_config
from codegen.core.loader import SchemaTree, load_tree
from codegen.generate.rules import find_rules
from tests._conformance import (
    draft7_generation_schema,
    draw_with_mutations,
    install_hypothesis_jsonschema_shim,
    judge,
)
from tests._schema_harness import rules_with_bases
from tests.conftest import run

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafts"
DRAFTS = ("draft07", "draft04", "draft2019", "draft2020")
DRAWS = 40  # hypothesis draws per contract and source; each gives a document and a mutation

_LINE = {"sku": "AB-123", "qty": 1}
_ORDER = {"id": "A-1", "lines": [_LINE]}
_ADDRESS = {"street": "1 rue", "zip": "75001"}
_READING = {"sensor": "t1", "value": 1}
_MONEY = {"amount": "1", "currency": "EUR"}
_INVOICE = {"number": "INV-1", "total": _MONEY}
# (project, contract, document, valid?, why): what the drafts' own semantics decide.
EXPLICIT: list[tuple[str, str, Any, bool, str]] = [
    ("draft07", "Order", {**_ORDER, "billing": _ADDRESS}, True, "type beside $ref ignored"),
    ("draft07", "Order", {**_ORDER, "billing": "x"}, False, "an address, not a string"),
    ("draft07", "Order", {**_ORDER, "pair": ["x", 1, 2]}, False, "additionalItems false"),
    ("draft07", "Order", {**_ORDER, "pair": ["x"]}, True, "a shorter tuple"),
    ("draft07", "Order", {**_ORDER, "coupon": "SAVE"}, False, "coupon needs code"),
    ("draft07", "Order", {**_ORDER, "coupon": "SAV", "code": "Z"}, False, "code: coupon of 4"),
    ("draft07", "Order", {**_ORDER, "tags": ["gift"]}, False, "contains priority"),
    ("draft07", "Order", {**_ORDER, "tags": ["priority", "priority"]}, False, "unique"),
    ("draft07", "Order", {**_ORDER, "meta": {"Bad": 1}}, False, "propertyNames"),
    ("draft07", "Order", {**_ORDER, "channel": "store"}, False, "store needs billing"),
    ("draft07", "Order", {**_ORDER, "channel": None}, True, "null channel"),
    ("draft07", "Order", {**_ORDER, "total": 0}, False, "exclusiveMinimum 0"),
    ("draft07", "Order", {**_ORDER, "total": 1.1}, False, "multipleOf 0.25"),
    ("draft07", "Order", {**_ORDER, "lines": [{"sku": "ab-123", "qty": 1}]}, False, "pattern"),
    ("draft07", "Order", {**_ORDER, "branch": "feature/x"}, True, "Annex B pattern"),
    ("draft07", "Order", {**_ORDER, "branch": "a:b"}, False, "Annex B: \\: is :"),
    ("draft07", "Order", {**_ORDER, "branch": "release/😀"}, True, "code units"),
    ("draft07", "Address", {**_ADDRESS, "country": "DE"}, False, "const FR"),
    ("draft04", "Reading", {**_READING, "value": 1000}, False, "exclusiveMaximum true"),
    ("draft04", "Reading", {**_READING, "value": -273.15}, True, "minimum inclusive"),
    ("draft04", "Reading", {**_READING, "count": 0, "samples": []}, False, "exclusiveMinimum"),
    ("draft04", "Reading", {**_READING, "count": 1}, False, "count needs samples"),
    ("draft04", "Reading", {**_READING, "unit": "F"}, True, "enum beside $ref ignored"),
    ("draft04", "Reading", {**_READING, "unit": "X"}, False, "not a unit"),
    ("draft04", "Reading", {**_READING, "window": [1, 2, 3]}, False, "additionalItems"),
    ("draft04", "Reading", {**_READING, "window": [1.0, 2]}, False, "1.0 is no integer"),
    ("draft04", "Reading", {**_READING, "calibrated": True}, False, "calibrated needs by"),
    ("draft04", "Reading", {**_READING, "x": 1}, False, "additionalProperties"),
    ("draft04", "Sample", {"at": 1}, False, "a value or missing"),
    ("draft04", "Sample", {"at": 1.0, "v": 1}, False, "1.0 is no integer"),
    ("draft2019", "StrictNode", {"name": "a", "children": [{"name": "b", "x": 1}]}, False,
     "a strict node's children are strict"),
    ("draft2019", "Node", {"name": "a", "children": [{"name": "b", "x": 1}]}, True, "loose"),
    ("draft2019", "Node", {"name": "a", "children": [{"x": 1}]}, False, "a child's name"),
    ("draft2019", "StrictNode", {"name": "a", "children": [{"name": "b", "weight": -1}]}, False,
     "a child's weight"),
    ("draft2019", "Forest", {"trees": [{"name": "a", "children": [{"name": "b", "x": 1}]}]},
     False, "strict trees"),
    ("draft2019", "Forest", {"trees": [], "loose": {"name": "a", "children": [{"name": "b",
     "x": 1}]}}, True, "a loose tree"),
    ("draft2019", "Forest", {"trees": [], "label": "x" * 11}, False, "$anchor label"),
    ("draft2019", "Forest", {"trees": [], "pair": ["p", "q"]}, False, "additionalItems"),
    ("draft2019", "Forest", {"trees": [], "owner": "ann"}, False, "owner needs contact"),
    ("draft2019", "Forest", {"trees": [], "owner": "a", "contact": "c"}, False, "owner of 2"),
    ("draft2020", "StrictTree", {"data": 1, "children": [{"data": 2, "x": 1}]}, False,
     "a strict tree's children are strict"),
    ("draft2020", "Tree", {"data": 1, "children": [{"data": 2, "x": 1}]}, True, "loose"),
    ("draft2020", "Tree", {"data": 1, "children": [{"x": 1}]}, False, "a child's data"),
    ("draft2020", "Page", {"outline": {"data": 1, "children": [{"data": 2, "x": 1}]}}, False,
     "a strict outline"),
    ("draft2020", "Page", {"outline": {"data": 1}, "loose": {"data": 1, "children": [{"data": 2,
     "x": 1}]}}, True, "a loose tree"),
    ("draft2020", "Page", {"outline": {"data": 1}, "coords": [1, 2, 3]}, False, "items false"),
    ("draft2020", "Invoice", {**_INVOICE, "total": {"amount": "1.234", "currency": "EUR"}},
     False, "the vendor's amount"),
    ("draft2020", "Invoice", {**_INVOICE, "total": {"amount": "1", "currency": "GBP"}}, False,
     "the vendor's currencies"),
    ("draft2020", "Invoice", {**_INVOICE, "where": {"lat": 91, "lon": 0}}, False, "latitude"),
    ("draft2020", "Invoice", {**_INVOICE, "lines": [_MONEY] * 4}, False, "three lines"),
]  # fmt: skip


@dataclass(frozen=True, eq=False)
class Project:
    """One draft project generated in a temporary folder, its models imported."""

    name: str  # draft07...
    root: Path
    tree: SchemaTree
    contracts: dict[str, Any]  # the generated registry: name -> entry (``.model``)
    npm_name: str


@dataclass(frozen=True)
class Document:
    project: str
    contract: str
    kind: str
    document: Any
    valid: bool  # the generated model's verdict, from JSON text


@contextlib.contextmanager
def generated_projects(workdir: Path) -> Iterator[dict[str, Project]]:
    """Every draft project generated below ``workdir``, its models imported."""
    projects: dict[str, Project] = {}
    added: list[str] = []
    try:
        for name in DRAFTS:
            root = workdir / name
            shutil.copytree(FIXTURES / name, root)
            code, out = run(root, "generate")
            assert code == 0, f"generate failed on {name}:\n{out}"
            config = load_config(root / "pyproject.toml")
            sys.path.insert(0, str(config.output_dir.parent))
            added.append(str(config.output_dir.parent))
            module = importlib.import_module(config.package)
            tree = load_tree(config.schema_dir, options=config.loading)
            assert config.npm is not None
            projects[name] = Project(name, root, tree, module.CONTRACTS, config.npm.name)
        yield projects
    finally:
        for folder in added:
            sys.path.remove(folder)
        packages = {f"{name}_contracts" for name in DRAFTS}
        for module_name in [m for m in sys.modules if m.split(".")[0] in packages]:
            del sys.modules[module_name]


def _dynamic(tree: SchemaTree, name: str) -> bool:
    return any(schema.dynamic for schema in tree.closure(tree.by_title[name]))


def _drawn(project: Project, name: str, seeds: list[Any]) -> list[tuple[str, Any]]:
    rules = [rule for _, rule in find_rules(rules_with_bases(project.tree, name))]
    drawn = draw_with_mutations(st.sampled_from(seeds), rules, DRAWS, "seed")
    if not _dynamic(project.tree, name):  # hypothesis-jsonschema follows $ref only
        install_hypothesis_jsonschema_shim()
        strategy = from_schema(draft7_generation_schema(project.tree, name))
        drawn += draw_with_mutations(strategy, rules, DRAWS, "generated")
    return drawn


def documents(projects: dict[str, Project]) -> list[Document]:
    """Every document of every contract of the projects, once each, with the model's verdict;
    an explicit document must get the verdict :data:`EXPLICIT` gives it."""
    found: list[Document] = []
    for project in projects.values():
        for name in sorted(project.contracts):
            adapter: TypeAdapter[Any] = TypeAdapter(project.contracts[name].model)
            explicit = [(d, v, why) for p, n, d, v, why in EXPLICIT
                        if (p, n) == (project.name, name)]  # fmt: skip
            seeds = [*project.tree.by_title[name].data["examples"], *(d for d, _, _ in explicit)]
            candidates = [(f"explicit: {why}", d) for d, _, why in explicit]
            candidates += [("example", e) for e in project.tree.by_title[name].data["examples"]]
            candidates += _drawn(project, name, seeds)
            seen: set[str] = set()
            for kind, document in candidates:
                key = json.dumps(document, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    verdict = judge(adapter, document).from_json
                    found.append(Document(project.name, name, kind, document, verdict))
            for document, valid, why in explicit:
                assert judge(adapter, document).from_json is valid, (project.name, name, why)
    return found


def integral_floats_as_integers(document: Any) -> Any:
    """``document`` with every float that has no fraction written as an integer: what
    ``JSON.parse`` reads ``1.0`` as (draft-04's ``integer`` refuses ``1.0``, not ``1``)."""
    if isinstance(document, float) and document.is_integer():
        return int(document)
    if isinstance(document, list):
        return [integral_floats_as_integers(v) for v in document]
    if isinstance(document, dict):
        return {k: integral_floats_as_integers(v) for k, v in document.items()}
    return document
