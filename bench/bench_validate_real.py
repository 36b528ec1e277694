"""Validation speed and exactness on real schemas: ours, datamodel-code-generator's models,
jsonschema-rs, fastjsonschema and python-jsonschema, from one run.

CORPUS_DIR is a folder in the SchemaStore layout: ``schemas/json/NAME.json``, each with its
documents in ``test/NAME/`` (and ``negative_test/NAME/``), JSON, YAML or TOML. Each document
is read into a JSON value (YAML dates stay strings, TOML dates are written in ISO form) and
given to every validator as the same JSON text; one that is no JSON value (NaN, several YAML
documents, a JSON file that does not parse) is counted apart.

Per schema:

* **ours**: ``maverick-codegen generate`` on a project holding the file alone (a URL of
  ``json.schemastore.org`` or ``www.schemastore.org`` read from ``CORPUS_DIR/schemas/json``,
  ``[tool.maverick-codegen.refs]``), the contract's class: ``TypeAdapter(model).validate_json``;
* **dcg**: plain datamodel-code-generator (``generate(..., PydanticV2BaseModel)``, its other
  options as they are) on the file in the corpus folder, in a process of its own (SchemaStore
  URLs read from the folder, any other URL refused), its root class as bench/bench_corpus.py
  finds it: ``TypeAdapter(model).validate_json``;
* **jsonschema-rs**: ``validator_for(schema, validate_formats=False, offline)`` with the same
  local retriever: ``is_valid(json.loads(text))``;
* **fastjsonschema** (draft-04 to -07 only): ``compile(schema, use_formats=False,
  use_default=False)``: ``validate(json.loads(text))``;
* **python-jsonschema**, the truth: the file's own draft, ``format`` an annotation, ECMA-262
  patterns and exact ``multipleOf`` (``codegen.core.ecma``, as the project's corpus tests
  judge): ``is_valid(json.loads(text))``.

Each document is validated ``--repeat`` times by each validator (python-jsonschema a tenth of
that, its time scaled: printed so), schema by schema, in five rounds in which the validators of
the schema take turns; a validator's time is the processor time of its quickest round
(``time.thread_time``: every validator runs in this thread; the time other processes take on
a shared machine is not counted), times five (a busy machine slows some rounds down, never
one up). The table sums the schemas every
validator handles (fastjsonschema's row: the drafts it takes, against ours on the same
schemas); a wrong document is one decided otherwise than python-jsonschema decides it (an
exception other than a refusal counts). Then the ten schemas where ours is slowest relative to
dcg's models, and the time to import and build every model of the corpus (each in a fresh
process, its processor time). Nothing is asserted about time.

Generated code is kept in ``--workdir`` (default: a temporary folder) and reused: ours is
generated again (incrementally: only what the generator or the schema changed), dcg's only
when the schema or datamodel-code-generator's version changed; ``--keep-generated`` measures
the models there as they are (another version's, to compare two generators in one table).

Needs the ``bench`` extra (``pip install -e '.[bench]'``: jsonschema-rs, fastjsonschema).

Usage: python bench/bench_validate_real.py CORPUS_DIR [--workdir DIR] [--repeat N]
       [--only NAME ...] [--jobs N]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import hashlib
import importlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datamodel_code_generator as dmcg
import fastjsonschema
import jsonschema_rs
import pydantic
import yaml
from datamodel_code_generator.parser.jsonschema import JsonSchemaParser
from referencing import Registry, Resource
from referencing.jsonschema import specification_with

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_corpus import PLAIN_ROOT, plain_generate, root_model, write_plain  # noqa: E402  (bench/ is the script's folder)

from codegen.cli import main as codegen_main  # noqa: E402  (the repository root is on the path only now)
from codegen.core.config import load_config  # noqa: E402
from codegen.core.ecma import ECMA_VALIDATORS  # noqa: E402
from codegen.core.loader import load_tree  # noqa: E402

GENERATE_TIMEOUT = 300  # seconds to generate one schema's models, either generator
SCHEMASTORE = ("https://json.schemastore.org/", "https://www.schemastore.org/")
VALIDATORS = ("ours", "dcg", "jsonschema-rs", "fastjsonschema", "python-jsonschema")
LABELS = {
    "ours": "maverick-codegen's models (validate_json)",
    "dcg": "plain datamodel-code-generator's models",
    "jsonschema-rs": "jsonschema-rs (is_valid(json.loads(text)))",
    "fastjsonschema": "fastjsonschema (draft-04 to 07)",
    "python-jsonschema": "python-jsonschema",
}
TRUTH_SHARE = 10  # python-jsonschema validates each document repeat / TRUTH_SHARE times


# -- The corpus --------------------------------------------------------------------------------


class _YamlLoader(yaml.SafeLoader):
    """YAML's safe loader that keeps dates as the strings they are written as."""


_YamlLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in _YamlLoader.yaml_implicit_resolvers.copy().items()
}


def _plain(value: Any) -> Any:
    """A TOML value as JSON: dates and times in ISO form."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return value


def read_document(path: Path) -> str | None:
    """The document as JSON text, or None when it is no JSON value."""
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix == ".json":
            value = json.loads(text)
        elif path.suffix in (".yaml", ".yml"):
            value = yaml.load(text, Loader=_YamlLoader)
        elif path.suffix == ".toml":
            value = _plain(tomllib.loads(text))
        else:
            return None
        return json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (ValueError, TypeError, yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return None


@dataclass
class Schema:
    """One schema of the corpus and its documents (as JSON text)."""

    name: str
    path: Path
    documents: list[str] = field(default_factory=list)
    unreadable: int = 0

    @property
    def slug(self) -> str:
        return "s_" + re.sub(r"[^0-9a-zA-Z]+", "_", self.name).lower().strip("_")


def corpus(folder: Path, only: list[str] | None) -> list[Schema]:
    schemas = []
    for path in sorted((folder / "schemas" / "json").glob("*.json")):
        name = path.stem
        if only and name not in only:
            continue
        tests = [folder / kind / name for kind in ("test", "negative_test")]
        files = sorted(f for t in tests if t.is_dir() for f in t.rglob("*") if f.is_file())
        if not files:
            continue
        schema = Schema(name, path)
        for file in files:
            text = read_document(file)
            if text is None:
                schema.unreadable += 1
            else:
                schema.documents.append(text)
        schemas.append(schema)
    slugs: dict[str, int] = {}
    for schema in schemas:
        slugs[schema.slug] = slugs.get(schema.slug, 0) + 1
    clash = [s.name for s in schemas if slugs[s.slug] > 1]
    if clash:
        raise SystemExit(f"schema names that read as one module: {clash}")
    return schemas


def local_document(corpus_dir: Path, uri: str) -> Any:
    """A SchemaStore URL read from the corpus folder; any other URL refused."""
    for prefix in SCHEMASTORE:
        if uri.startswith(prefix):
            path = corpus_dir / "schemas" / "json" / uri[len(prefix) :].split("#", maxsplit=1)[0]
            return json.loads(path.read_text(encoding="utf-8-sig"))
    raise LookupError(f"{uri}: nothing is fetched from the network")


# -- Generation, in worker processes -----------------------------------------------------------


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise _Timeout(f"past {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _first_line(exc: BaseException) -> str:
    return traceback.format_exception_only(exc)[-1].strip()[:300]


def _generate_ours(corpus_dir: Path, workdir: Path, schema: Schema) -> dict[str, Any]:

    project = workdir / "ours" / schema.slug
    (project / "schemas").mkdir(parents=True, exist_ok=True)
    for path in siblings(schema.path):
        target = project / "schemas" / path.name
        if not target.exists() or target.read_bytes() != path.read_bytes():
            shutil.copyfile(path, target)
    folder = (corpus_dir / "schemas" / "json").resolve()
    refs = "".join(f'"{prefix}" = "{folder}"\n' for prefix in SCHEMASTORE)
    config = (
        f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{schema.slug}"\n'
        f'package = "{schema.slug}"\n\n[tool.maverick-codegen.refs]\n{refs}'
    )
    if (
        not (project / "pyproject.toml").exists()
        or (project / "pyproject.toml").read_text() != config
    ):
        (project / "pyproject.toml").write_text(config, encoding="utf-8")
    stderr = io.StringIO()
    try:
        with (
            _deadline(GENERATE_TIMEOUT),
            contextlib.redirect_stderr(stderr),
            warnings.catch_warnings(),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            code = codegen_main(["--config", str(project / "pyproject.toml"), "generate"])
    except (Exception, _Timeout) as exc:  # a crash of the generator is a result here
        return {"status": "crashed", "detail": _first_line(exc)}
    if code != 0:
        detail = (stderr.getvalue().strip().splitlines() or [f"exit {code}"])[0][:300]
        return {"status": "refused", "detail": detail}
    loaded = load_config(project / "pyproject.toml")
    tree = load_tree(project / "schemas", options=loaded.loading)
    file = next(f for f in tree.files if f.rel.as_posix() == schema.path.name)
    module = ".".join((schema.slug, *file.module_parts))
    return {"status": "generated", "module": module, "class": file.title, "draft": file.draft.name}


def siblings(path: Path) -> list[Path]:
    """The file and every file of its folder it references by relative path, transitively
    (a file without ``$id`` knows them by path only): the project's schema folder."""
    found, todo = [path], [path]
    while todo:
        text = todo.pop().read_text(encoding="utf-8-sig")
        for ref in re.findall(r'"\$ref"\s*:\s*"([^"#:]+)(?:#[^"]*)?"', text):
            other = path.parent / ref
            if "/" not in ref and other.is_file() and other not in found:
                found.append(other)
                todo.append(other)
    return found


def _no_network_dcg(corpus_dir: Path) -> None:
    def fetch(self: Any, url: str) -> str:
        return json.dumps(local_document(corpus_dir, url))

    JsonSchemaParser._get_text_from_url = fetch  # type: ignore[method-assign]


def _dcg_key(schema: Schema) -> str:
    digest = hashlib.sha256(schema.path.read_bytes()).hexdigest()
    # The options and the layout it is written in (a package) belong to the key: a change
    # of either regenerates.
    return f"{digest} {dmcg.get_version()} class_name={PLAIN_ROOT} as-package"


def _generate_dcg(corpus_dir: Path, workdir: Path, schema: Schema) -> dict[str, Any]:
    folder = workdir / "dcg" / schema.slug.replace("s_", "d_", 1)
    status = folder / "status.json"
    key = _dcg_key(schema)
    if status.exists():
        found: dict[str, Any] = json.loads(status.read_text(encoding="utf-8"))
        if found.get("key") == key:
            return found
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    result: dict[str, Any]
    try:
        with _deadline(GENERATE_TIMEOUT), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = plain_generate(schema.path)
        write_plain(code, folder)
        result = {"status": "generated", "module": folder.name}
    except (Exception, _Timeout, RecursionError) as exc:  # its refusal: it raises
        result = {"status": "refused", "detail": _first_line(exc)}
    status.write_text(json.dumps({**result, "key": key}), encoding="utf-8")
    return result


def _worker(kind: str, corpus_dir: Path, workdir: Path, names: list[str]) -> None:
    """Generate each schema of ``names``: one JSON line (its name first) per schema."""
    sys.setrecursionlimit(10_000)  # both generators recurse deeply on some schemas
    if kind == "dcg":
        _no_network_dcg(corpus_dir)
    run = _generate_ours if kind == "ours" else _generate_dcg
    for name in names:
        print(json.dumps({"start": name}), flush=True)
        schema = Schema(name, corpus_dir / "schemas" / "json" / f"{name}.json")
        print(json.dumps({"name": name, **run(corpus_dir, workdir, schema)}), flush=True)


def generate_all(
    kind: str, corpus_dir: Path, workdir: Path, schemas: list[Schema], jobs: int
) -> dict[str, dict[str, Any]]:
    """Each schema's generation by ``kind``, in ``jobs`` worker processes (one that dies is
    replaced, the schema it was on counted as crashed)."""
    results: dict[str, dict[str, Any]] = {}
    queues = [[s.name for s in schemas[i::jobs]] for i in range(jobs)]
    running: list[tuple[subprocess.Popen[str], list[str]]] = []

    def launch(names: list[str]) -> None:
        command = [sys.executable, __file__, "--worker", kind, str(corpus_dir), str(workdir)]
        process = subprocess.Popen(
            [*command, *names], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        running.append((process, names))

    for queue in queues:
        if queue:
            launch(queue)
    while running:
        process, names = running.pop(0)
        current = None
        assert process.stdout is not None
        for line in process.stdout:
            message = json.loads(line)
            if "start" in message:
                current = message["start"]
            else:
                results[message.pop("name")] = message
                current = None
        process.wait()
        if current is not None:
            results[current] = {"status": "crashed", "detail": f"exit {process.returncode}"}
        rest = [n for n in names if n not in results]
        if rest:
            launch(rest)
    return results


# -- Validators --------------------------------------------------------------------------------


def _draft_name(document: Any) -> str:
    declared = str(document.get("$schema", "")) if isinstance(document, dict) else ""
    for marker, name in (("draft-04", "draft-04"), ("draft-06", "draft-06"),
                         ("draft-07", "draft-07"), ("2019-09", "2019-09")):  # fmt: skip
        if marker in declared:
            return name
    return "2020-12"


def _base_uri(schema: Schema, document: Any) -> str:
    """The schema's own ``$id`` (draft-04: ``id``), else its SchemaStore URL."""
    if isinstance(document, dict):
        own = document.get("id" if _draft_name(document) == "draft-04" else "$id")
        if isinstance(own, str) and own.startswith("http"):
            return own.split("#")[0]
    return f"{SCHEMASTORE[0]}{schema.name}.json"


def _pydantic_check(model: Any) -> Callable[[str], bool]:
    validate = pydantic.TypeAdapter(model).validate_json

    def check(text: str) -> bool:
        try:
            validate(text)
        except pydantic.ValidationError:
            return False
        return True

    return check


def _rs_check(document: Any, base: str, retrieve: Callable[[str], Any]) -> Callable[[str], bool]:
    validator = jsonschema_rs.validator_for(
        document, validate_formats=False, retriever=retrieve, base_uri=base
    )
    is_valid, loads = validator.is_valid, json.loads
    return lambda text: bool(is_valid(loads(text)))


def _fast_check(document: Any, base: str, retrieve: Callable[[str], Any]) -> Callable[[str], bool]:
    draft = _draft_name(document)
    if draft not in ("draft-04", "draft-06", "draft-07"):
        raise LookupError(f"{draft}: not a draft fastjsonschema takes")
    own = dict(document)
    own.setdefault("id" if draft == "draft-04" else "$id", base)
    handlers = {"http": retrieve, "https": retrieve}
    validate = fastjsonschema.compile(
        own, handlers=handlers, use_default=False, use_formats=False, detailed_exceptions=False
    )
    refused, loads = fastjsonschema.JsonSchemaException, json.loads

    def check(text: str) -> bool:
        try:
            validate(loads(text))
        except refused:
            return False
        return True

    return check


def _truth_check(document: Any, base: str, retrieve: Callable[[str], Any]) -> Callable[[str], bool]:
    cls = ECMA_VALIDATORS[_draft_name(document)]
    specification = specification_with(cls.META_SCHEMA["$schema"])

    def resolve(uri: str) -> Resource[Any]:
        return Resource.from_contents(retrieve(uri), default_specification=specification)

    resource = specification.create_resource(document)
    registry: Registry[Any] = Registry(retrieve=resolve).with_resource(base, resource)
    is_valid, loads = cls({"$ref": base}, registry=registry).is_valid, json.loads
    return lambda text: bool(is_valid(loads(text)))


def build_validators(
    schema: Schema, corpus_dir: Path, ours: dict[str, Any], dcg: dict[str, Any]
) -> tuple[dict[str, Callable[[str], bool]], dict[str, str]]:
    """Each validator of ``schema`` as a function of JSON text -> accepted (a refusal is
    False; anything else raises), and why each missing one is missing."""
    document = json.loads(schema.path.read_text(encoding="utf-8-sig"))
    base = _base_uri(schema, document)
    found: dict[str, Callable[[str], bool]] = {}
    missing: dict[str, str] = {}

    def retrieve(uri: str) -> Any:
        return local_document(corpus_dir, uri)

    def model(generated: dict[str, Any], name: str) -> Any:
        module = importlib.import_module(generated["module"])
        return getattr(module, generated["class"]) if name == "ours" else root_model(module)

    makers: dict[str, Callable[[], Callable[[str], bool]]] = {
        "jsonschema-rs": lambda: _rs_check(document, base, retrieve),
        "fastjsonschema": lambda: _fast_check(document, base, retrieve),
        "python-jsonschema": lambda: _truth_check(document, base, retrieve),
    }
    for name, generated in (("ours", ours), ("dcg", dcg)):
        if generated.get("status") == "generated":
            makers[name] = functools.partial(
                lambda g, n: _pydantic_check(model(g, n)), generated, name
            )
        else:
            missing[name] = f"{generated.get('status')}: {generated.get('detail', '')}"
    for name in VALIDATORS:
        if name not in makers:
            continue
        try:
            with warnings.catch_warnings(), _deadline(GENERATE_TIMEOUT):
                warnings.simplefilter("ignore")
                found[name] = makers[name]()
        except (Exception, _Timeout, RecursionError) as exc:
            missing[name] = _first_line(exc)
    return found, missing


# -- The run -----------------------------------------------------------------------------------


@dataclass
class Result:
    """One schema: each validator's seconds and wrong documents, and why one is missing."""

    name: str
    documents: int
    seconds: dict[str, float] = field(default_factory=dict)
    wrong: dict[str, list[int]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


ROUNDS = 5  # each validator's time is the quickest of this many rounds, times the rounds


def measure(schema: Schema, checks: dict[str, Callable[[str], bool]], repeat: int) -> Result:
    """Each validator's verdicts (against python-jsonschema's) and time on ``schema``'s
    documents: :data:`ROUNDS` rounds, the validators taking turns in each, each document
    validated ``repeat / ROUNDS`` times a round; the quickest round counts (a busy machine
    slows some rounds, never speeds one up)."""
    result = Result(schema.name, len(schema.documents))
    truth = checks.get("python-jsonschema")
    expected: list[bool | None] = []
    for text in schema.documents:
        try:
            expected.append(truth(text) if truth else None)
        except Exception:  # an unresolvable reference: no truth
            result.missing["python-jsonschema"] = "raised on a document"
            return result
    for name, check in checks.items():
        wrong = []
        for index, text in enumerate(schema.documents):
            try:
                verdict: bool | None = check(text)
            except Exception:  # a crash is a wrong answer
                verdict = None
            if verdict != expected[index]:
                wrong.append(index)
        result.wrong[name] = wrong
    best: dict[str, float] = {}
    for _ in range(ROUNDS):
        for name, check in checks.items():
            share = TRUTH_SHARE if name == "python-jsonschema" else 1
            times = max(1, repeat // (ROUNDS * share))
            start = time.thread_time()
            for text in schema.documents:
                for _ in range(times):
                    try:
                        check(text)
                    except Exception:  # counted above
                        continue
            seconds = (time.thread_time() - start) * repeat / times
            best[name] = min(best.get(name, seconds), seconds)
    result.seconds = best
    return result


_BUILD = """
import importlib, sys, time, warnings
warnings.simplefilter("ignore")
sys.setrecursionlimit(10_000)
sys.path.insert(0, sys.argv[1])
start = time.process_time()
failed = 0
for name in sys.argv[2:]:
    try:
        module = importlib.import_module(name)
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__ == module.__name__:
                if hasattr(value, "model_rebuild"):
                    value.model_rebuild(force=True)
    except Exception:
        failed += 1
print(time.process_time() - start, failed)
"""


def import_and_build(folder: Path, modules: list[str]) -> tuple[float, int]:
    """Seconds to import every module and build every model class (fresh process), and how
    many modules failed."""
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, str(folder), *modules],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    seconds, failed = done.stdout.split()
    return float(seconds), int(failed)


def _link_packages(workdir: Path, schemas: list[Schema]) -> Path:
    """One folder on the path holding each of our packages (a link to its project's)."""
    folder = workdir / "ours-packages"
    folder.mkdir(exist_ok=True)
    for schema in schemas:
        link = folder / schema.slug
        target = (workdir / "ours" / schema.slug / "out" / schema.slug).resolve()
        if link.is_symlink() and link.resolve() != target:
            link.unlink()  # a workdir copied from another: its links name the other's models
        if not link.is_symlink() and target.exists():
            link.symlink_to(target, target_is_directory=True)
    return folder


def report(results: list[Result], repeat: int) -> None:
    everyone = ("ours", "dcg", "jsonschema-rs", "python-jsonschema")
    handled = [r for r in results if all(k in r.seconds for k in everyone)]
    docs = sum(r.documents for r in handled)
    print(
        f"\n{len(handled)} schemas every validator handles, {docs} documents, each validated "
        f"{repeat} times (python-jsonschema {max(1, repeat // TRUTH_SHARE)} times, scaled)\n"
    )
    ours = sum(r.seconds["ours"] for r in handled)
    print("| validator | time | relative to ours | wrong documents |")
    print("|---|---|---|---|")
    for name in VALIDATORS:
        rows = [r for r in handled if name in r.seconds]
        seconds = sum(r.seconds[name] for r in rows)
        base = sum(r.seconds["ours"] for r in rows)
        wrong = sum(len(r.wrong[name]) for r in rows)
        label = LABELS[name]
        if name == "fastjsonschema":
            label += f", {len(rows)} schemas"
        truth = " (the truth)" if name == "python-jsonschema" else ""
        ratio = f"{seconds / base:.2f}" if base else "-"  # no schema of its drafts
        print(f"| {label} | {seconds:.3f} s | {ratio} | {wrong}{truth} |")
    dcg = sum(r.seconds["dcg"] for r in handled)
    rs = sum(r.seconds["jsonschema-rs"] for r in handled)
    print(f"\nours / dcg's models: {ours / dcg:.2f}x; ours / jsonschema-rs: {ours / rs:.2f}x")
    ratios = sorted(handled, key=lambda r: r.seconds["ours"] / r.seconds["dcg"], reverse=True)
    over = [r for r in ratios if r.seconds["ours"] > 2 * r.seconds["dcg"]]
    exact = [r for r in over if not r.wrong["dcg"]]
    print(
        f"schemas where ours is slower than 2x dcg's models: {len(over)} ({len(exact)} where "
        "dcg's models decide every document right)"
    )
    print("\nthe ten slowest relative to dcg's models:")
    print(
        "| schema | documents | ours | dcg | ours / dcg | dcg wrong | jsonschema-rs | ours / rs |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in ratios[:10]:
        s = r.seconds
        print(
            f"| {r.name} | {r.documents} | {s['ours'] * 1000:.1f} ms | {s['dcg'] * 1000:.1f} ms "
            f"| {s['ours'] / s['dcg']:.2f} | {len(r.wrong['dcg'])} "
            f"| {s['jsonschema-rs'] * 1000:.1f} ms | {s['ours'] / s['jsonschema-rs']:.2f} |"
        )
    wrong_ours = [(r.name, r.wrong["ours"]) for r in results if r.wrong.get("ours")]
    if wrong_ours:
        print("\nours decides otherwise than python-jsonschema:")
        for name, indexes in wrong_ours:
            print(f"  {name}: documents {indexes}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", type=Path, help="a folder in the SchemaStore layout")
    parser.add_argument("--workdir", type=Path, help="keep the generated models here")
    parser.add_argument("--repeat", type=int, default=100, help="validations of each document")
    parser.add_argument("--only", action="append", help="only this schema (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="generating processes (default 2)")
    parser.add_argument("--json", type=Path, help="also write each schema's figures here")
    parser.add_argument(
        "--keep-generated",
        action="store_true",
        help="measure our models --workdir holds as they are (generated by an earlier run, "
        "maybe of another version of the generator): generate none",
    )
    return parser.parse_args()


def _kept(workdir: Path, schemas: list[Schema]) -> dict[str, dict[str, Any]]:
    """Our models as an earlier run left them in ``workdir``."""
    found: dict[str, dict[str, Any]] = {}
    for schema in schemas:
        project = workdir / "ours" / schema.slug
        if not (project / "out" / schema.slug / "_registry.py").exists():
            found[schema.name] = {"status": "refused", "detail": "not generated"}
            continue
        loaded = load_config(project / "pyproject.toml")
        tree = load_tree(project / "schemas", options=loaded.loading)
        file = next(f for f in tree.files if f.rel.as_posix() == schema.path.name)
        module = ".".join((schema.slug, *file.module_parts))
        found[schema.name] = {"status": "generated", "module": module, "class": file.title}
    return found


def _generate(
    args: argparse.Namespace, corpus_dir: Path, workdir: Path, schemas: list[Schema]
) -> dict[str, dict[str, dict[str, Any]]]:
    generated = {}
    for kind in ("ours", "dcg"):
        start = time.perf_counter()
        if kind == "ours" and args.keep_generated:
            generated[kind] = _kept(workdir, schemas)
        else:
            generated[kind] = generate_all(kind, corpus_dir, workdir, schemas, args.jobs)
        failed = [n for n, r in generated[kind].items() if r["status"] != "generated"]
        elapsed = time.perf_counter() - start
        done = len(schemas) - len(failed)
        print(f"{kind}: {done} generated, {len(failed)} not ({elapsed:.0f} s)")
    return generated


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        _worker(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5:])
        return
    args = _arguments()
    sys.setrecursionlimit(10_000)
    with contextlib.ExitStack() as stack:
        if args.workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-real-")))
        else:
            workdir = args.workdir.resolve()
            workdir.mkdir(parents=True, exist_ok=True)
        corpus_dir = args.corpus.resolve()
        schemas = corpus(corpus_dir, args.only)
        unreadable = sum(s.unreadable for s in schemas)
        documents = sum(len(s.documents) for s in schemas)
        print(
            f"{len(schemas)} schemas with test documents: {documents} documents "
            f"({unreadable} more that are no JSON value, left out)"
        )
        generated = _generate(args, corpus_dir, workdir, schemas)
        packages = _link_packages(workdir, schemas)
        modules = {
            kind: [r["module"] for r in generated[kind].values() if r["status"] == "generated"]
            for kind in ("ours", "dcg")
        }
        builds = {
            "ours": import_and_build(packages, modules["ours"]),
            "dcg": import_and_build(workdir / "dcg", modules["dcg"]),
        }
        sys.path[:0] = [str(packages), str(workdir / "dcg")]
        results = []
        for schema in schemas:
            checks, missing = build_validators(
                schema, corpus_dir, generated["ours"][schema.name], generated["dcg"][schema.name]
            )
            result = measure(schema, checks, args.repeat)
            result.missing.update(missing)
            results.append(result)
        report(results, args.repeat)
        if args.json:
            figures = [vars(r) for r in results]
            args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
        print("\nimport and build every model of the corpus (a fresh process):")
        for kind, (seconds, failed) in builds.items():
            print(f"  {kind}: {seconds:.2f} s ({len(modules[kind])} modules, {failed} failed)")
        print("\nwhy a validator is missing, by validator (schemas):")
        for name in VALIDATORS:
            whys = [(r.name, r.missing[name]) for r in results if name in r.missing]
            print(f"  {name}: {len(whys)}")
            if name == "ours":
                for schema_name, why in whys:
                    print(f"    {schema_name}: {why[:160]}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
