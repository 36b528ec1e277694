"""The judges of the breaking check's differential proof: documents, the oracle, the models.

* :func:`generated_sides` writes every pair's old versions into one project and its new
  versions into another, runs one ``generate`` on each and imports both packages: 200 pairs
  cost two generations.
* :class:`Side` is one version of one pair: its schema tree, the ECMA-262 oracle
  (:mod:`codegen.core.ecma`) and the generated model of each contract.
* :func:`candidates` are the documents searched for one that separates the two versions,
  for each contract the change reaches: the pair's probes (the draw's value pools, or the
  hand-written documents), small objects of each version's required properties
  (:mod:`tests._small_documents`), and documents hypothesis-jsonschema generates from the
  old and from the new contract, each also with one of the conformance test's mutations
  (:data:`tests._conformance.MUTATIONS`).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pydantic
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis_jsonschema import _canonicalise, from_schema

from codegen.cli import main
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas, load_tree
from codegen.generate.rules import find_rules
from tests._conformance import (
    MUTATIONS,
    draft7_generation_schema,
    install_hypothesis_jsonschema_shim,
)
from tests._evolution import BACKWARD, Pair, changed_files, layout
from tests._small_documents import small_documents

__all__ = ["Generated", "Side", "affected", "candidates", "generated_sides", "separates"]


@dataclass
class Side:
    """One version ("old" or "new") of one pair: its tree, oracles and generated models."""

    tree: SchemaTree
    package: Any  # the generated package holding every pair's models of this version

    @cached_property
    def _registry(self) -> Any:
        return tree_registry(self.tree)

    @cached_property
    def _oracles(self) -> dict[str, Any]:
        return {s.title: validator_at(self._registry, s) for s in self.tree.files}

    def accepts(self, title: str, document: Any) -> bool:
        """The oracle's verdict: each file as written, by its own draft, with ECMA-262
        patterns and exact ``multipleOf``."""
        return bool(self._oracles[title].is_valid(document))

    @cached_property
    def _subschemas(self) -> dict[tuple[str, str], Any]:
        return {}

    def subschema_accepts(self, file: SchemaFile, pointer: str, value: Any) -> bool:
        """The oracle's verdict on ``value`` for the subschema at ``pointer`` of ``file``."""
        key = (str(file.rel), pointer)
        if key not in self._subschemas:
            self._subschemas[key] = validator_at(self._registry, file, pointer)
        return bool(self._subschemas[key].is_valid(value))

    @cached_property
    def _adapters(self) -> dict[str, pydantic.TypeAdapter[Any]]:
        return {
            s.title: pydantic.TypeAdapter(getattr(self.package, s.title)) for s in self.tree.files
        }

    def model_accepts(self, title: str, text: str) -> bool:
        """The generated model's verdict on JSON text (as the runtime reads agent output)."""
        try:
            self._adapters[title].validate_json(text)
        except pydantic.ValidationError:
            return False
        return True


@dataclass
class Generated:
    """Both generated projects: the folder of each and the imported packages."""

    roots: dict[str, Path]
    packages: dict[str, Any] = field(default_factory=dict)

    def side(self, pair: Pair, version: str) -> Side:
        tree = load_tree(self.roots[version] / "schemas" / pair.home)
        return Side(tree, self.packages[version])


@contextlib.contextmanager
def generated_sides(workdir: Path, pairs: Sequence[Pair]) -> Iterator[Generated]:
    """Generate all old versions in one project and all new ones in another; import both."""
    generated = Generated({v: workdir / v for v in ("old", "new")})
    packages = {v: f"evolution_{v}_{id(generated)}" for v in generated.roots}
    for version, root in generated.roots.items():
        config = layout(root, pairs, version, packages[version])
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            code = main(["--config", str(config), "generate"], io.StringIO())
        assert code == 0, f"generate of the {version} versions failed:\n{stderr.getvalue()}"
    for root in generated.roots.values():
        sys.path.insert(0, str(root / "out"))
    try:
        for version, package in packages.items():
            generated.packages[version] = importlib.import_module(package)
        yield generated
    finally:
        for root in generated.roots.values():
            sys.path.remove(str(root / "out"))
        for name in [m for m in sys.modules if m.split(".")[0] in packages.values()]:
            del sys.modules[name]


def _generation_schema(tree: SchemaTree, title: str) -> dict[str, Any]:
    """What hypothesis-jsonschema generates candidates from (draft 7, Python patterns)."""
    schema = draft7_generation_schema(tree, title, merge_bases=True)
    for _, node in iter_subschemas(schema):
        if isinstance(node.get("pattern"), str):  # \p{L} is not Python: letters of any script
            node["pattern"] = node["pattern"].replace("\\p{L}", "[^\\W\\d_]")
    return schema


def _restore_constants() -> None:
    """hypothesis-jsonschema 0.23.1 hands out its shared ``FALSEY`` (``{"not": {}}``) and
    ``TRUTHY`` (``{}``) objects inside canonical schemas and later edits some in place, which
    changes what every later schema means (an object with required keys becomes "impossible").
    Both are restored before each generation."""
    _canonicalise.FALSEY.clear()
    _canonicalise.FALSEY["not"] = {}
    _canonicalise.TRUTHY.clear()


_DRAWN: dict[str, tuple[str, bool]] = {}  # what _generated returned, by what it read


def _generated(tree: SchemaTree, title: str, examples: int) -> tuple[list[Any], bool]:
    """Documents hypothesis-jsonschema generates from the contract, each also mutated, and
    whether it could generate from it.

    The draws are derandomized: the same schema, rules and count give the same documents, so
    a contract met again (an old version shared by several pairs) is drawn once."""
    rules = [rule for _, rule in find_rules(tree.by_title[title].data)]
    try:
        generation = _generation_schema(tree, title)
    except Exception:  # a schema the generation form cannot be made of: nothing is drawn
        return [], False
    key = json.dumps([generation, rules, examples], sort_keys=True)
    if key not in _DRAWN:
        drawn, ok = _draw(generation, examples, rules)
        _DRAWN[key] = json.dumps(drawn), ok
    text, ok = _DRAWN[key]
    return json.loads(text), ok


def _draw(generation: dict[str, Any], examples: int, rules: list[Any]) -> tuple[list[Any], bool]:
    install_hypothesis_jsonschema_shim()
    _restore_constants()
    drawn: list[Any] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=[HealthCheck.differing_executors],
    )
    @given(data=st.data())
    def draw(data: st.DataObject) -> None:
        document = data.draw(strategy, label="candidate")
        drawn.append(document)
        mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        drawn.append(mutation(data, json.loads(json.dumps(document)), rules))

    # A random schema may be one hypothesis-jsonschema cannot generate from (unsatisfiable,
    # a pattern Python's re does not read): its probes and the other side's documents remain.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            strategy = from_schema(generation)
            draw()
        except Exception:  # hypothesis's and hypothesis-jsonschema's refusals, whatever they are
            return drawn, False
    return drawn, True


def affected(pair: Pair, side: Side) -> list[str]:
    """The pair's contracts that reach a changed file (only those can be separated)."""
    changed = set(changed_files(pair))
    return [
        title
        for title in pair.contracts
        if changed & {str(f.rel) for f in side.tree.closure(side.tree.by_title[title])}
    ]


def candidates(pair: Pair, old: Side, new: Side, examples: int) -> tuple[list[Any], int]:
    """The documents tried on a pair (its probes, and generated ones from both versions of
    each contract the change reaches, smallest first), and how many of those schemas
    hypothesis-jsonschema could not generate from."""
    documents = list(pair.probes)
    failed = 0
    for side in (old, new):
        for title in affected(pair, side):
            documents += small_documents(side.tree, title, side.subschema_accepts)
            generated, ok = _generated(side.tree, title, examples) if examples else ([], True)
            documents += generated
            failed += not ok
    unique: dict[str, Any] = {}
    for document in documents:
        unique.setdefault(json.dumps(document, sort_keys=True), document)
    return sorted(unique.values(), key=lambda d: len(json.dumps(d))), failed


def separates(direction: str, old: Side, new: Side, title: str, document: Any) -> bool:
    """Whether the oracle says ``document`` separates the versions of ``title`` in
    ``direction``: DATA_BACKWARD, old accepts and new refuses; DATA_FORWARD, the reverse."""
    was, now = old.accepts(title, document), new.accepts(title, document)
    return (was and not now) if direction == BACKWARD else (now and not was)
