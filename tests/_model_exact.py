"""The suite's schemas as generated models, and the documents they are tried on.

``tests/test_model_exact.py`` proves that a generated model never does more or less than its
schema: on any JSON input it raises nothing but ``pydantic.ValidationError``, and every dump of
a document it accepted is accepted again, by the schema and by the model.

* :func:`build`: every group of the JSON-Schema-Test-Suite (every draft; ``tests/_suite.py``)
  as a contract, generated in a few projects rather than one each: per draft, groups are put
  together while their ``$id`` values do not collide, and those with a dynamic reference
  (whose tree types no ``$ref``) apart from the others. A group whose internal form (what the
  generator reads, identity and annotations aside) is another's, of any draft, is generated
  once: its cases join the first one's.
* :func:`documents`: what each model is tried on: the suite's cases of every group it stands
  for; documents hypothesis-jsonschema draws from the group's schema where it can (it reads
  draft-04 to draft-07 and resolves no remote reference; where it fails, the suite's cases
  are drawn instead), each followed by a mutation (:data:`tests._conformance.MUTATIONS`); and
  :data:`JSON_TEXTS` with :func:`json_values`, JSON of every type. Seeds are fixed and
  Hypothesis is derandomized: a failure replays.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import hypothesis.strategies as st
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis_jsonschema import from_schema

from codegen.cli import main
from codegen.core.config import load_config
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import SchemaFile, SchemaTree, load_tree
from tests import _suite
from tests._conformance import MUTATIONS, install_hypothesis_jsonschema_shim
from tests._separation import _restore_constants

EXAMPLES = 2  # hypothesis draws per model; each gives a document and a mutation of it
REFUSED = {"vocabulary"}  # a $schema naming a metaschema of its own: refused by generate
# JSON texts that Python values do not write: numbers as JSON spells them, escapes, nesting.
JSON_TEXTS = (
    "1.0", "-0", "-0.0", "1E2", "1e-400", "123456789012345678901234567890", "0.1",
    '"\\u0000"', '"\\ud83d\\ude00"', '{"a": 1, "a": "x"}', '{"": null}',
    "[" * 30 + "]" * 30, '{"a":' * 30 + "1" + "}" * 30,
)  # fmt: skip
# Deeper than python-jsonschema can follow a recursive schema: only what the model raises is
# judged (past 200 levels pydantic's JSON parser refuses the text).
DEEP_TEXTS = tuple(
    o * n + "1" + c * n for n in (150, 199, 250) for o, c in (("[", "]"), ('{"a":', "}"))
)


@dataclass
class Subject:
    """One generated model: a group of the suite, and every case it stands for."""

    group: _suite.Group
    package: str
    schema: SchemaFile
    cases: list[Any] = field(default_factory=list)
    stands_for: int = 1  # groups, of every draft, whose internal form is this one's


@dataclass
class Project:
    root: Path
    package: str
    subjects: list[Subject]
    oracle: Any = None  # the registry of the project's tree, as written


def _ids(node: Any, base: str, found: set[str]) -> set[str]:
    """Every identifier a schema declares (``$id``, draft-04's ``id``), resolved against the
    base it is written in (fragments aside)."""
    if isinstance(node, dict):
        for key in ("$id", "id"):
            if isinstance(node.get(key), str) and not node[key].startswith("#"):
                base = urldefrag(urljoin(base, node[key])).url
                found.add(base)
        for value in node.values():
            _ids(value, base, found)
    elif isinstance(node, list):
        for value in node:
            _ids(value, base, found)
    return found


def _batches(groups: list[_suite.Group]) -> list[list[_suite.Group]]:
    """Groups put together while their identifiers do not collide."""
    batches: list[tuple[set[str], list[_suite.Group]]] = []
    for group in groups:
        ids = _ids(group.contract(), "", set())
        for taken, members in batches:
            if not taken & ids:
                taken.update(ids)
                members.append(group)
                break
        else:
            batches.append((ids, [group]))
    return [members for _, members in batches]


def _dynamic(tree: SchemaTree, schema: SchemaFile) -> bool:
    """Whether a file reaches a dynamic reference (its own, or in a file it references, a
    metaschema included): the generator then types no ``$ref`` of its tree."""
    seen, pending = {schema.rel}, [schema]
    while pending:
        current = pending.pop()
        if any(current.dynamic.values()):
            return True
        for ref in current.file_refs:
            target = tree.resolve(current, ref)[0]
            if target.rel not in seen:
                seen.add(target.rel)
                pending.append(target)
    return False


_IDENTITY = ("$schema", "$id", "title", "description")


def _key(schema: SchemaFile) -> str | None:
    """What the generator reads of a file that references no other: its internal form, identity
    aside, and whether ``1.0`` is an integer where it names the type (None: a file that
    references another, never shared)."""
    if schema.file_refs:
        return None
    body = {k: v for k, v in schema.data.items() if k not in _IDENTITY}
    text = json.dumps(body, sort_keys=True)
    return text + str(schema.draft.float_integers) if '"integer"' in text else text


def _write(root: Path, package: str, groups: list[_suite.Group]) -> None:
    for group in groups:
        path = root / "schemas" / group.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(group.contract(), indent=2) + "\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(groups[0].config(package), encoding="utf-8")


def build(workdir: Path) -> list[Project]:
    """Every group's model, generated (see the module's docstring)."""
    projects: list[Project] = []
    kept: dict[str, Subject] = {}
    for folder in _suite.DRAFTS:
        groups = [g for g in _suite.groups(folder=folder) if g.keyword not in REFUSED]
        for index, batch in enumerate(_batches(groups)):
            package = f"exact_{_suite.snake(folder).replace('-', '_')}_{index}"
            _write(workdir / "staging" / package, package, batch)
            config = load_config(workdir / "staging" / package / "pyproject.toml")
            tree = load_tree(workdir / "staging" / package / "schemas", options=config.loading)
            registry = tree_registry(tree)
            plain = Project(workdir / package, package, [], registry)
            dynamic = Project(workdir / f"{package}_d", f"{package}_d", [], registry)
            for group in batch:
                schema = next(f for f in tree.files if f.rel.as_posix() == group.rel)
                cases = [case.data for case in group.cases]
                if _dynamic(tree, schema):
                    dynamic.subjects.append(Subject(group, dynamic.package, schema, cases))
                    continue
                key = _key(schema)
                if key is not None and key in kept:
                    kept[key].cases += cases
                    kept[key].stands_for += 1
                    continue
                plain.subjects.append(Subject(group, plain.package, schema, cases))
                if key is not None:
                    kept[key] = plain.subjects[-1]
            for project in (plain, dynamic):
                if project.subjects:
                    _write(project.root, project.package, [s.group for s in project.subjects])
                    projects.append(project)
    for project in projects:
        stderr, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(stderr):
            code = main(["--config", str(project.root / "pyproject.toml"), "generate"], out)
        assert code == 0, f"{project.root}: {stderr.getvalue()}"
    return projects


def oracle(project: Project, subject: Subject) -> Any:
    """The ECMA-262 validator of the subject's schema, by its own draft, as written."""
    return validator_at(project.oracle, subject.schema, "")


# ------------------------------------------------------------------ documents
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=10,
)
_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@functools.cache
def json_values(count: int = 12) -> tuple[Any, ...]:
    """JSON values of every type (nested ones too), drawn once."""
    drawn: list[Any] = []

    @settings(_SETTINGS, max_examples=count)
    @given(value=_JSON)
    def draw(value: Any) -> None:
        drawn.append(value)

    draw()
    return tuple(drawn)


def draw(strategy: st.SearchStrategy[Any], examples: int) -> list[Any]:
    """Documents drawn from ``strategy`` (hypothesis-jsonschema's too), each followed by one of
    :data:`tests._conformance.MUTATIONS` of it; derandomized."""
    install_hypothesis_jsonschema_shim()
    _restore_constants()
    drawn: list[Any] = []

    @settings(_SETTINGS, max_examples=examples)
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        document = data.draw(strategy, label="document")
        drawn.append(document)
        mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        drawn.append(mutation(data, json.loads(json.dumps(document)), []))

    one()
    return drawn


def documents(subject: Subject, examples: int = EXAMPLES) -> tuple[list[Any], bool]:
    """What a subject's model is tried on (the texts of :data:`JSON_TEXTS` aside), and whether
    hypothesis-jsonschema could draw from its schema."""
    schema = subject.group.schema
    if isinstance(schema, dict):
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    cases = st.sampled_from(subject.cases)
    fixed = [*subject.cases, *json_values()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fixed + draw(st.one_of(from_schema(schema), cases), examples), True
        except Exception:  # hypothesis-jsonschema's refusals, whatever they are
            return fixed + draw(cases, examples), False
