"""The corpus of real schemas (tests/corpus/) through maverick-codegen and plain
datamodel-code-generator: per source, schemas, generated, refused, documents, agree, disagree,
crash.

maverick-codegen: ``generate`` once per source folder, as tests/test_corpus.py runs it
(tests/_corpus.py). datamodel-code-generator: ``datamodel_code_generator.generate`` with pydantic
v2 output (``DataModelType.PydanticV2BaseModel``, its other options left as they are) on each
file alone, read from a folder holding its source's files (so that a reference by relative path
finds its file), in a process of its own that generates, then validates every document, in
120 s at most (past it, the file is a crash); a reference by URL is refused, since nothing here
touches the network (``_get_text_from_url`` raises). Its model is the root class, which it is
asked to name (``class_name``); a file it refuses (raises) counts as refused, a module that does
not import as a crash.
Both models are judged in JSON mode (``TypeAdapter(model).validate_json``) against
python-jsonschema reading the file as written, by its own draft, with ECMA-262 patterns (the
files the corpus lists as refused have no such judge: their documents are not counted).

With a FOLDER in SchemaStore's layout (``schemas/json/NAME.json``, ``test/NAME/``,
``negative_test/NAME/``: tests/_schemastore.py), every schema of it instead, one by one: for
maverick-codegen, a project holding the schema and the schemas of the folder it references,
every SchemaStore URL mapped to the folder (``[tool.maverick-codegen.refs]``); for plain
datamodel-code-generator, the file where it lies (its relative references find their files).
Each schema's documents: its test and negative test documents, 10 seeded edits of each (half a
value of another type, a key removed, an unknown key added; half closer to valid, a value
swapped for another of the documents' or a number or string nudged: ``tests._schemastore.edits``),
and up to ``--drawn`` documents
hypothesis-jsonschema draws from it (at most 10 s; the same ones for both generators), each
judged by python-jsonschema (the schema's own draft, ECMA-262 patterns). Schemas run in
``--jobs`` worker processes (2 by default), each generator within ``--timeout`` seconds per
schema (past it, the schema is listed as such). The table: schemas generated, refused (by
rule), failed inside the generator (``internal``: a refusal naming no rule a user can act on,
or ``GENERATOR``), crashed, past the time limit; documents of each kind agreeing, disagreeing,
crashing the model; apart, the documents SchemaStore's own verdict (Ajv) or python-jsonschema
with Python's ``re`` decide otherwise than the truth.

Usage: python bench/bench_corpus.py [--source SOURCE ...]
       python bench/bench_corpus.py FOLDER [--only NAME ...] [--jobs 2] [--timeout 600]
           [--drawn 10] [--generator maverick|plain] [--json FILE [--resume]]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import importlib
import io
import json
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import datamodel_code_generator as dmcg  # noqa: E402
import pydantic  # noqa: E402
from datamodel_code_generator.parser.jsonschema import JsonSchemaParser  # noqa: E402

from codegen.cli import main as cli_main  # noqa: E402  (the repository root is on the path only now)
from codegen.core.config import load_config  # noqa: E402
from codegen.core.ecma import tree_registry, validator_at  # noqa: E402
from codegen.core.loader import load_tree  # noqa: E402
from tests import _corpus, _schemastore  # noqa: E402

TIMEOUT = 120  # seconds for plain datamodel-code-generator on one file
DRAW_SECONDS = 10.0  # for hypothesis-jsonschema's documents of one schema of a folder


def _no_network(self: Any, url: str) -> str:
    raise RuntimeError(f"{url}: nothing is fetched from the network")


def oracles(workdir: Path) -> dict[str, Callable[[Any], bool]]:
    """python-jsonschema's verdict of each file the loader reads (per source folder)."""

    found: dict[str, Callable[[Any], bool]] = {}
    for source, files in _corpus.sources().items():
        group = [f for f in files if f not in _corpus.REFUSED]
        if not group:
            continue
        project, _ = _corpus._project(workdir / "oracle", source, group)
        config = load_config(project / "pyproject.toml")
        tree = load_tree(project / "schemas", options=config.loading)
        registry = tree_registry(tree)
        for schema in tree.files:
            found[schema.rel.as_posix()] = validator_at(registry, schema).is_valid
    return found


PLAIN_ROOT = "PlainRootModel"  # the name plain datamodel-code-generator gives the root class


def plain_generate(path: Path) -> Any:
    """Plain datamodel-code-generator on ``path``: pydantic v2 output, its options left as they
    are but ``class_name``, which names the root class :data:`PLAIN_ROOT` (found by that name:
    a class named from the title may be followed by others, which a guess by the module's last
    class took for the root)."""
    return dmcg.generate(
        path,
        input_file_type=dmcg.InputFileType.JsonSchema,
        output_model_type=dmcg.DataModelType.PydanticV2BaseModel,
        class_name=PLAIN_ROOT,
    )


def write_plain(code: Any, folder: Path) -> None:
    """What :func:`plain_generate` returned, as a package in ``folder``: one module
    (``__init__.py``), or several (a mapping of path parts to text, when the generator splits
    the definitions across modules; the package's ``__init__`` exports the root)."""
    files = code if isinstance(code, dict) else {("__init__.py",): code}
    for parts, text in files.items():
        path = folder.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(text), encoding="utf-8")


def root_model(module: Any) -> Any:
    """A module :func:`plain_generate` wrote: its root class."""
    found = getattr(module, PLAIN_ROOT, None)
    if found is None:
        raise LookupError(f"no class {PLAIN_ROOT}: the root was not generated as one")
    return found


def _plain_one(source: str, rel: str) -> None:
    """In a process of its own: plain datamodel-code-generator on ``source``/``rel``, its model
    on every document of ``rel``; prints the status and the verdicts as JSON."""
    JsonSchemaParser._get_text_from_url = _no_network  # type: ignore[method-assign]
    sys.setrecursionlimit(10_000)  # the plain generator recurses deeply on some files
    folder = Path(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = plain_generate(folder / rel)
    except Exception as exc:  # its refusal: it raises on what it does not take
        detail = traceback.format_exception_only(exc)[-1].strip()
        print(json.dumps({"status": "refused", "detail": detail}))
        return
    write_plain(code, folder / "plain_model")
    sys.path.insert(0, str(folder))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = root_model(importlib.import_module("plain_model"))
    except Exception as exc:
        detail = traceback.format_exception_only(exc)[-1].strip()
        print(json.dumps({"status": "crashed", "detail": f"import failed: {detail}"}))
        return
    outcome = _corpus.judge(rel, model, lambda document: True)
    verdicts = [[accepted, error] for _, accepted, error in outcome.verdicts]
    print(json.dumps({"status": "generated", "verdicts": verdicts}))


def run_plain(
    workdir: Path, judges: dict[str, Callable[[Any], bool]], only: list[str] | None = None
) -> list[_corpus.Outcome]:
    """Plain datamodel-code-generator on each corpus file alone (of the sources ``only``),
    every document judged."""
    outcomes = []
    for index, entry in enumerate(_corpus.manifest()):
        rel = entry["file"]
        if only and entry["source"] not in only:
            continue
        folder = workdir / "plain" / f"p{index}"
        shutil.copytree(_corpus.CORPUS / "schemas" / entry["source"], folder / entry["source"])
        command = [sys.executable, __file__, "--one", str(folder), rel]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=TIMEOUT, check=False
            )
            result = json.loads(done.stdout.strip().splitlines()[-1])
        except subprocess.TimeoutExpired:
            outcomes.append(_corpus.Outcome(rel, "crashed", f"past {TIMEOUT} s"))
            continue
        except (ValueError, IndexError):
            detail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            outcomes.append(_corpus.Outcome(rel, "crashed", detail))
            continue
        if result["status"] != "generated" or rel not in judges:
            outcomes.append(_corpus.Outcome(rel, result["status"], result.get("detail", "")))
            continue
        documents = json.loads((_corpus.CORPUS / "documents" / rel).read_text(encoding="utf-8"))
        verdicts = [
            (judges[rel](document), accepted, error)
            for document, (accepted, error) in zip(documents, result["verdicts"], strict=True)
        ]
        outcomes.append(_corpus.Outcome(rel, "generated", verdicts=verdicts))
    return outcomes


# ---------------------------------------------------------------- a folder in SchemaStore's layout
# A refusal a user can act on names one of these rules; any other (GENERATOR, none) is a failure
# of the generator's own machinery, counted with the crashes.
INTERNAL_RULES = ("", "GENERATOR")
_REFUSAL = re.compile(
    r"(?P<where>[^\n]+?:\d+:\d+): (?P<message>.+?)(?: \((?P<rule>[A-Z][A-Z0-9_]*)\))?"
)


def _judge(model: Any, judge: _schemastore.Oracle, documents: list[tuple[str, Any, Any]]) -> Any:
    """Each document through ``model`` (JSON mode) and the oracle: rows of (kind, truth,
    python-jsonschema with ``re``, SchemaStore's verdict, the model's, the error, index)."""
    adapter = pydantic.TypeAdapter(model)
    rows = []
    for index, (kind, expected, document) in enumerate(documents):
        truth, standard = judge.decide(document)
        error = ""
        try:
            adapter.validate_json(json.dumps(document))
            accepted: bool | None = True
        except pydantic.ValidationError:
            accepted = False
        except Exception as exc:  # anything else from a model is a crash
            accepted, error = None, traceback.format_exception_only(exc)[-1].strip()[:300]
        rows.append([kind, truth, standard, expected, accepted, error, index])
    return rows


def _documents(folder: _schemastore.Folder, name: str, drawn_file: Path, drawn: int) -> Any:
    """The documents of ``name``: its tests, seeded edits of each, drawn ones (drawn once, kept
    in ``drawn_file`` for the other generator). Rows of (kind, SchemaStore's verdict, document)."""
    tests = folder.documents(name)
    found: list[tuple[str, Any, Any]] = [(k, k == "test", d) for k, _, d in tests]
    found += [("edit", None, d) for d in _schemastore.edits(name, [d for _, _, d in tests])]
    if not drawn_file.exists():
        schema = json.loads((folder.schemas / f"{name}.json").read_text(encoding="utf-8"))
        documents, why = _schemastore.drawn(schema, drawn, _schemastore.seed_of(name), DRAW_SECONDS)
        drawn_file.write_text(json.dumps({"documents": documents, "why": why}), encoding="utf-8")
    kept = json.loads(drawn_file.read_text(encoding="utf-8"))
    found += [("drawn", None, d) for d in kept["documents"]]
    return found, kept["why"]


def _maverick_one(
    folder: _schemastore.Folder, name: str, work: Path, drawn: int, package: str
) -> Any:
    """maverick-codegen on schema ``name`` (with the folder's schemas it references): its
    status, and each document judged."""
    project = _schemastore.project(folder, name, work / "project", package)
    stderr = io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stderr(stderr), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = cli_main(
                ["--config", str(project / "pyproject.toml"), "generate"], io.StringIO()
            )
    except Exception as exc:  # a traceback: the generator crashed
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(last.filename).name}:{last.lineno} ({last.name})"
        detail = traceback.format_exception_only(exc)[-1].strip()
        return {"status": "crashed", "detail": f"{detail[:400]} in {where}"}
    seconds = time.perf_counter() - start
    if code != 0:
        message = stderr.getvalue().strip()
        first = message.splitlines()[0] if message else f"exit {code}"
        m = _REFUSAL.fullmatch(first)
        rule = (m["rule"] or "") if m else ""
        status = "internal" if rule in INTERNAL_RULES else "refused"
        return {"status": status, "rule": rule, "detail": message[:600], "seconds": seconds}
    config = load_config(project / "pyproject.toml")
    tree = load_tree(project / "schemas", options=config.loading)
    schema = tree.by_rel[PurePosixPath(f"{name}.json")]
    sys.path.insert(0, str(project / "out"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = importlib.import_module(".".join((package, *schema.module_parts)))
            model = getattr(module, schema.title)
    except Exception as exc:
        detail = traceback.format_exception_only(exc)[-1].strip()
        return {"status": "crashed", "detail": f"import failed: {detail}"}
    judge = _schemastore.oracle(folder, name, _schemastore.registry(folder))
    documents, why = _documents(folder, name, work.parent / "drawn.json", drawn)
    rows = _judge(model, judge, documents)
    return {"status": "generated", "seconds": seconds, "rows": rows, "drawn": why}


def _plain_folder_one(
    folder: _schemastore.Folder, name: str, work: Path, drawn: int, package: str
) -> Any:
    """Plain datamodel-code-generator on schema ``name`` where it lies in the folder (its
    references by relative path find their files; nothing is fetched): status, verdicts."""
    JsonSchemaParser._get_text_from_url = _no_network  # type: ignore[method-assign]
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = plain_generate(folder.schemas / f"{name}.json")
    except Exception as exc:  # its refusal: it raises on what it does not take
        detail = traceback.format_exception_only(exc)[-1].strip()
        return {"status": "refused", "rule": type(exc).__name__, "detail": detail[:600]}
    seconds = time.perf_counter() - start
    package = "plain" + package.removeprefix("bench")
    write_plain(code, work / package)
    sys.path.insert(0, str(work))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = root_model(importlib.import_module(package))
    except Exception as exc:
        detail = traceback.format_exception_only(exc)[-1].strip()
        return {"status": "crashed", "detail": f"import failed: {detail}"}
    judge = _schemastore.oracle(folder, name, _schemastore.registry(folder))
    documents, why = _documents(folder, name, work.parent / "drawn.json", drawn)
    return {"status": "generated", "seconds": seconds, "rows": _judge(model, judge, documents),
            "drawn": why}  # fmt: skip


def _serve() -> None:
    """A worker process: reads one request per line (generator, folder, schema, work folder,
    drawn documents), answers each with one line of JSON. Each schema's package has a name of
    its own and is forgotten once judged."""
    sys.setrecursionlimit(10_000)  # deep models
    answers, sys.stdout = sys.stdout, sys.stderr  # what the generators print is not an answer
    for count, line in enumerate(sys.stdin):
        generator, root, name, work, drawn = json.loads(line)
        package = f"bench_model_{count}"
        run = _maverick_one if generator == "maverick" else _plain_folder_one
        before, path = set(sys.modules), list(sys.path)
        try:
            result = run(_schemastore.Folder(Path(root)), name, Path(work), drawn, package)
        finally:
            sys.path[:] = path
            for module in set(sys.modules) - before:
                if module.startswith(("bench_model_", "plain_model_")):
                    del sys.modules[module]
        answers.write(json.dumps({"name": name, **result}) + "\n")
        answers.flush()


class _Worker:
    """One worker process (:func:`_serve`), started again after a crash or a time limit."""

    RESTART = 40  # schemas per process: what the generators cache is let go

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.served = 0
        self.lines: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        self.stop()
        command = [sys.executable, __file__, "--serve"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1,
        )  # fmt: skip
        self.lines = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._pump, args=(self.process, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process, self.errors), daemon=True).start()
        self.served = 0
        return self.process

    @staticmethod
    def _pump(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    @staticmethod
    def _drain(process: subprocess.Popen[str], errors: list[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            errors.append(line)
            del errors[:-40]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def ask(self, request: list[Any], timeout: float) -> dict[str, Any]:
        process = self.process
        if process is None or process.poll() is not None or self.served >= self.RESTART:
            process = self._start()
        assert process.stdin is not None
        self.served += 1
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            return {"status": "timeout", "detail": f"past {timeout:g} s"}
        except BrokenPipeError:
            line = None
        if line is None:
            process.wait()
            tail = [e.strip() for e in self.errors if e.strip()][-3:]
            self.stop()
            detail = " | ".join(tail) or f"exit {process.returncode}"
            return {"status": "crashed", "detail": f"the process died: {detail}"[-600:]}
        result: dict[str, Any] = json.loads(line)
        return result


GENERATORS = {"maverick": "maverick-codegen", "plain": "datamodel-code-generator, pydantic v2"}


def _run_schema(
    args: argparse.Namespace, workers: queue.Queue[_Worker], name: str, work: Path
) -> dict[str, Any]:
    """Each generator on ``name`` in a worker process, within ``args.timeout`` each."""
    results: dict[str, Any] = {}
    worker = workers.get()
    try:
        for generator in args.generator:
            where = work / name / generator
            where.mkdir(parents=True)
            request = [generator, str(args.folder), name, str(where), args.drawn]
            start = time.perf_counter()
            results[generator] = worker.ask(request, args.timeout)
            results[generator]["wall"] = time.perf_counter() - start
    finally:
        workers.put(worker)
    shutil.rmtree(work / name, ignore_errors=True)
    return results


STATUSES = ("generated", "refused", "internal", "crashed", "timeout")


def _folder_table(results: dict[str, dict[str, Any]], generator: str) -> str:
    """Schemas by status, refusals by rule, and the documents of each kind."""
    statuses: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    docs: dict[str, Counter[str]] = {kind: Counter() for kind in _schemastore.KINDS}
    apart: Counter[str] = Counter()
    for result in (r[generator] for r in results.values() if generator in r):
        statuses[result["status"]] += 1
        if result["status"] == "refused":
            rules[result.get("rule") or "?"] += 1
        for kind, truth, standard, expected, accepted, _, _ in result.get("rows", ()):
            tally = docs[kind]
            tally["documents"] += 1
            if truth is None:
                tally["undecided"] += 1
                continue
            tally[
                "crash" if accepted is None else "agree" if accepted == truth else "disagree"
            ] += 1
            apart["re reads otherwise"] += standard is not None and standard != truth
            apart["SchemaStore says otherwise"] += expected is not None and expected != truth
    lines = [f"schemas {sum(statuses.values())}: "
             + ", ".join(f"{s} {statuses[s]}" for s in STATUSES)]  # fmt: skip
    if rules:
        lines.append("refused by rule: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))
    lines.append(f"{'documents':<10} " + " ".join(f"{c:>10}" for c in
                 ("documents", "agree", "disagree", "crash", "undecided")))  # fmt: skip
    total: Counter[str] = Counter()
    for kind, tally in docs.items():
        total.update(tally)
        lines.append(f"{kind:<10} " + " ".join(f"{tally[c]:>10}" for c in
                     ("documents", "agree", "disagree", "crash", "undecided")))  # fmt: skip
    lines.append(f"{'total':<10} " + " ".join(f"{total[c]:>10}" for c in
                 ("documents", "agree", "disagree", "crash", "undecided")))  # fmt: skip
    lines.append("counted apart (decided by the truth): "
                 + ", ".join(f"{k} {v}" for k, v in sorted(apart.items())))  # fmt: skip
    return "\n".join(lines)


def _folder_details(folder: Path, results: dict[str, dict[str, Any]], generator: str) -> str:
    lines = []
    for name, by in sorted(results.items()):
        result = by.get(generator)
        if result is None:
            continue
        if result["status"] != "generated":
            detail = re.sub(r"\s+", " ", result.get("detail", ""))[:240]
            lines.append(f"  {name}: {result['status']}: {detail}")
        wrong = [r for r in result.get("rows", ()) if r[1] is not None and r[4] != r[1]]
        for kind, truth, _, _, accepted, error, _ in wrong[:3]:
            said = error or ("accepts" if accepted else "refuses")
            lines.append(f"  {name}: {kind} document: python-jsonschema says "
                         f"{'valid' if truth else 'invalid'}, the model {said}")  # fmt: skip
        if len(wrong) > 3:
            lines.append(f"  {name}: ... {len(wrong) - 3} more documents disagree")
    return "\n".join(lines)


def run_folder(args: argparse.Namespace) -> None:
    folder = _schemastore.Folder(args.folder)
    names = args.only or folder.names()
    results: dict[str, dict[str, Any]] = {}
    if args.resume and args.json and args.json.exists():
        results = json.loads(args.json.read_text(encoding="utf-8"))
        names = [n for n in names if n not in results]
    start = time.perf_counter()
    workers: queue.Queue[_Worker] = queue.Queue()
    for _ in range(args.jobs):
        workers.put(_Worker())
    with (
        tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp,
        concurrent.futures.ThreadPoolExecutor(args.jobs) as pool,
    ):
        futures = {pool.submit(_run_schema, args, workers, n, Path(tmp)): n for n in names}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            if args.json:
                args.json.write_text(json.dumps(results), encoding="utf-8")
            print(f"[{done}/{len(names)}] {futures[future]}", file=sys.stderr, flush=True)
    while not workers.empty():
        workers.get().stop()
    elapsed = time.perf_counter() - start
    print(f"{args.folder}: {len(results)} schemas, {args.jobs} at a time, {elapsed:.0f} s\n")
    for generator in args.generator:
        print(f"{GENERATORS[generator]}\n{_folder_table(results, generator)}")
        print(_folder_details(args.folder, results, generator) + "\n")


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        _plain_one(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1:2] == ["--serve"]:
        _serve()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folder",
        nargs="?",
        type=Path,
        help="a folder in SchemaStore's layout (default: tests/corpus)",
    )
    parser.add_argument("--source", action="append", help="only this source folder (repeatable)")
    parser.add_argument("--only", action="append", help="only this schema of FOLDER (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="schemas at a time (default 2)")
    parser.add_argument(
        "--timeout", type=float, default=600, help="seconds per schema and generator"
    )
    parser.add_argument("--drawn", type=int, default=10, help="documents drawn per schema")
    parser.add_argument("--generator", action="append", choices=tuple(GENERATORS))
    parser.add_argument("--json", type=Path, help="keep every schema's result in this file")
    parser.add_argument("--resume", action="store_true", help="skip the schemas --json holds")
    args = parser.parse_args()
    args.generator = args.generator or list(GENERATORS)
    sys.setrecursionlimit(10_000)  # deep models
    if args.folder is not None:
        run_folder(args)
        return
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        for name, run in (
            ("maverick-codegen", lambda: _corpus.run_maverick(Path(tmp) / "maverick", args.source)),
            (
                "datamodel-code-generator, pydantic v2",
                lambda: run_plain(Path(tmp), oracles(Path(tmp)), args.source),
            ),
        ):
            start = time.perf_counter()
            outcomes = run()
            table, _ = _corpus.table(outcomes)
            print(f"{name} ({time.perf_counter() - start:.1f} s)\n{table}")
            for outcome in outcomes:
                if outcome.status != "generated" or outcome.problems():
                    detail = outcome.detail or "; ".join(outcome.problems())
                    print(f"  {outcome.rel}: {outcome.status}: {detail[:200]}")
            print()


if __name__ == "__main__":
    main()
