"""Real schemas in SchemaStore's layout, fuzzed: what ``bench/bench_corpus.py`` and
``tests/test_corpus_schemastore.py`` share.

A folder in SchemaStore's layout holds ``schemas/json/NAME.json`` (the schemas as their authors
wrote them), ``test/NAME/`` (documents SchemaStore's CI accepts) and ``negative_test/NAME/``
(documents it refuses), in JSON, YAML or TOML. The truth for every document is
python-jsonschema reading the schema as written, by its own draft, ``format`` an annotation
(:func:`oracle`: the schemas of the folder under their ``$id``, under their SchemaStore URLs and
by file name, with patterns read as ECMA-262 and ``multipleOf`` exact, as
:mod:`codegen.core.ecma` reads them); SchemaStore's verdict and python-jsonschema's own reading
of patterns (Python's ``re``) are kept beside it, counted apart.

The documents of a schema: its test documents, :data:`EDITS` seeded edits of each (:func:`edits`:
half small ones, a value of another JSON type, a key or item removed, an unknown key added; half
closer to valid, a value swapped for another of the documents' values, a number or a string
nudged, an item repeated or dropped), and documents hypothesis-jsonschema draws from the
schema when it takes it (:func:`drawn`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import math
import random
import re
import shutil
import signal
import tomllib
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012

from codegen.core.drafts import DEFAULT_DRAFT, draft_of
from codegen.core.ecma import ECMA_VALIDATORS

# The hosts SchemaStore serves its schemas from: a reference to NAME.json there is the folder's.
HOSTS = ("https://json.schemastore.org/", "https://www.schemastore.org/")
EDITS = 10  # seeded edits of each test document
KINDS = ("test", "negative", "edit", "drawn")


# ------------------------------------------------------------------------------- the folder
@dataclass(frozen=True)
class Folder:
    """A folder in SchemaStore's layout."""

    root: Path

    @property
    def schemas(self) -> Path:
        return self.root / "schemas" / "json"

    def names(self) -> list[str]:
        """Every schema's name (its file name without ``.json``), sorted."""
        return sorted(p.stem for p in self.schemas.glob("*.json"))

    def documents(self, name: str) -> list[tuple[str, str, Any]]:
        """(kind, file name, document) of each test (``test``) and negative test
        (``negative``) document of ``name`` that reads as JSON data, sorted by name."""
        found = []
        for kind, sub in (("test", "test"), ("negative", "negative_test")):
            folder = self.root / sub / name
            for path in sorted(folder.iterdir()) if folder.is_dir() else ():
                document = read_document(path)
                if document is not _UNREADABLE:
                    found.append((kind, path.name, document))
        return found


_UNREADABLE = object()


class _JsonLoader(yaml.SafeLoader):
    """YAML read as JSON data: dates and times stay strings (a JSON document has no dates)."""


_JsonLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _as_json(value: Any) -> Any:
    """A parsed YAML or TOML value as the JSON document it stands for (keys as strings, dates
    and times as their ISO text); a value JSON cannot hold (NaN, infinity) raises."""
    if isinstance(value, dict):
        return {_key(k): _as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("not a JSON number")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise ValueError(f"not JSON data: {type(value).__name__}")


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


def read_document(path: Path) -> Any:
    """The JSON data of a test document (JSON, YAML or TOML), else ``_UNREADABLE``."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            return json.loads(text)
        if path.suffix in (".yaml", ".yml"):
            return _as_json(yaml.load(text, Loader=_JsonLoader))  # a safe loader
        if path.suffix == ".toml":
            return _as_json(tomllib.loads(text))
    except (ValueError, yaml.YAMLError, UnicodeDecodeError, RecursionError):
        pass
    return _UNREADABLE


# ------------------------------------------------------------------------------- references
def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _base(name: str, document: Any) -> str:
    own = document.get("$id", document.get("id")) if isinstance(document, dict) else None
    here = f"{HOSTS[0]}{name}.json"
    return urljoin(here, own) if isinstance(own, str) else here


def sibling(uri: str) -> str | None:
    """The name of the folder's schema a URI (without fragment) names, if any."""
    for host in HOSTS:
        if uri.startswith(host) and "/" not in uri[len(host) :]:
            return uri[len(host) :].removesuffix(".json")
    return None


def closure(folder: Folder, name: str) -> list[str]:
    """``name`` and every schema of the folder it reaches by reference (relative to its base,
    or by a SchemaStore URL), sorted."""
    return _reach(folder, name)[0]


def unresolved(folder: Folder, name: str) -> list[str]:
    """The references of ``name`` and the schemas it reaches that name no schema of the
    folder (another SchemaStore schema the folder lacks, a web URL)."""
    return _reach(folder, name)[1]


def _reach(folder: Folder, name: str) -> tuple[list[str], list[str]]:
    seen: set[str] = set()
    lacking: set[str] = set()
    pending = [name]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        if not (folder.schemas / f"{current}.json").is_file():
            lacking.add(f"{current}.json")
            continue
        seen.add(current)
        document = json.loads((folder.schemas / f"{current}.json").read_text(encoding="utf-8"))
        base = _base(current, document)
        for ref in _refs(document):
            if ref.startswith("#"):
                continue
            found = sibling(urldefrag(urljoin(base, ref)).url)
            relative = urldefrag(ref).url
            if found is None and "/" not in relative and relative.endswith(".json"):
                found = relative.removesuffix(".json")  # by path, beside the file
            if found is not None:
                pending.append(found)
            else:
                lacking.add(urldefrag(urljoin(base, ref)).url)
    return sorted(seen), sorted(lacking)


def project(folder: Folder, name: str, where: Path, package: str) -> Path:
    """A maverick-codegen project for schema ``name``: the schemas of its :func:`closure` in
    its schema folder, and every SchemaStore URL mapped to the folder. Returns the project."""
    schemas = where / "schemas"
    schemas.mkdir(parents=True)
    for member in closure(folder, name):
        shutil.copyfile(folder.schemas / f"{member}.json", schemas / f"{member}.json")
    refs = "".join(f'"{host}" = {json.dumps(str(folder.schemas))}\n' for host in HOSTS)
    (where / "pyproject.toml").write_text(
        f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
        f'package = "{package}"\n\n[tool.maverick-codegen.refs]\n{refs}',
        encoding="utf-8",
    )
    return where


# ------------------------------------------------------------------------------- the oracle
def _resource(document: Any) -> Resource[Any]:
    return Resource.from_contents(document, default_specification=DRAFT202012)


def registry(folder: Folder) -> Callable[[str], Resource[Any]]:
    """A ``retrieve`` callable: the folder's schemas by SchemaStore URL and by ``$id``."""
    by_id: dict[str, str] = {}
    for path in sorted(folder.schemas.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document, dict):
            by_id.setdefault(_base(path.stem, document).rstrip("#"), path.stem)
    cache: dict[str, Resource[Any]] = {}

    def retrieve(uri: str) -> Resource[Any]:
        name = sibling(uri) or by_id.get(uri)
        if name is None or not (folder.schemas / f"{name}.json").is_file():
            raise NoSuchResource(ref=uri)
        if name not in cache:
            text = (folder.schemas / f"{name}.json").read_text(encoding="utf-8")
            cache[name] = _resource(json.loads(text))
        return cache[name]

    return retrieve


@dataclass
class Oracle:
    """python-jsonschema's verdicts on one schema: ECMA-262 patterns (the truth) and Python's
    ``re`` (its own reading, kept apart)."""

    ecma: Any
    standard: Any

    def decide(self, document: Any) -> tuple[bool | None, bool | None]:
        return _verdict(self.ecma, document), _verdict(self.standard, document)


def _verdict(validator: Any, document: Any) -> bool | None:
    try:
        return bool(validator.is_valid(document))
    except Exception:  # the judge cannot decide (a pattern it refuses, a reference)
        return None


def oracle(folder: Folder, name: str, retrieve: Callable[[str], Resource[Any]]) -> Oracle:
    """The judges of schema ``name``, which reaches the folder through ``retrieve``."""
    document = json.loads((folder.schemas / f"{name}.json").read_text(encoding="utf-8"))
    draft = draft_of(document, DEFAULT_DRAFT)
    uri = f"{HOSTS[0]}{name}.json"
    reg: Registry[Any] = Registry(retrieve=retrieve).with_resource(uri, _resource(document))  # type: ignore[call-arg]
    standard = jsonschema.validators.validator_for(document, default=None)
    standard = standard or jsonschema.validators.validator_for({"$schema": draft.uri})
    return Oracle(
        ECMA_VALIDATORS[draft.name]({"$ref": uri}, registry=reg),
        standard({"$ref": uri}, registry=reg),
    )


# ------------------------------------------------------------------------------- documents
def seed_of(text: str) -> int:
    return sum(ord(c) * (i + 1) for i, c in enumerate(text))


def edits(name: str, documents: list[Any], count: int = EDITS) -> list[Any]:
    """``count`` seeded edits of each document (seeded by the schema's name): half of them
    small ones (``mutate``: a value of another type, a key removed, an unknown key added), half
    closer to valid (``harder``: a value swapped for another of the documents' values, a number
    or string nudged, an item repeated or dropped; a second edit on top three times in ten)."""
    from tests.corpus.documents import harder, mutate, values

    rng = random.Random(seed_of(name))
    pool = [value for document in documents for value in values(document)]
    found = []
    for document in documents:
        for index in range(count):
            if index % 2 == 0:
                found.append(mutate(document, rng))
                continue
            edited = harder(document, rng, pool)
            found.append(harder(edited, rng, pool) if rng.random() < 0.3 else edited)
    return found


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the main thread after ``seconds``, and every half second after
    that until the block ends (a library that catches the first goes on otherwise; Unix)."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def drawn(schema: Any, count: int, seed: int, seconds: float) -> tuple[list[Any], str]:
    """Up to ``count`` documents hypothesis-jsonschema draws from ``schema`` (seeded, at most
    ``seconds``), and why there are none when it does not take the schema."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis_jsonschema import from_schema

    from tests._conformance import install_hypothesis_jsonschema_shim

    install_hypothesis_jsonschema_shim()
    found: list[Any] = []
    if count <= 0:
        return found, "none asked for"
    try:
        with warnings.catch_warnings(), _deadline(seconds):
            warnings.simplefilter("ignore")
            strategy = from_schema(schema)

            # Generation only: a draw past the time limit fails the test, and shrinking it
            # would draw on and on.
            @settings(max_examples=count, database=None, derandomize=True, deadline=None,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
            @given(strategy)
            def collect(document: Any) -> None:
                if document not in found:
                    found.append(document)

            random.seed(seed)
            collect()
    except Exception as exc:  # hypothesis-jsonschema does not take this schema, or too slowly
        if isinstance(exc, TimeoutError) or "TimeoutError" in str(exc):
            return found, f"past {seconds:g} s"
        return found, re.sub(r"\s+", " ", f"{type(exc).__name__}: {exc}")[:120]
    return found, ""
