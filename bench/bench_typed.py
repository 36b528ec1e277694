"""How much the generated models say: maverick-codegen beside plain datamodel-code-generator.

For each schema both generators take, the generated modules are read with ``ast`` (never
imported) and counted:

* ``fields``: every annotated field of a model class (``model_config`` and ``ClassVar`` aside),
  a root model's ``root`` included;
* ``vague``: a field whose type, ``Annotated``, ``None`` and ``MISSING`` set aside, holds ``Any``
  (or ``object``) in its union, or is only ``dict[str, Any]``, ``list[Any]`` (or an
  unparameterised ``dict`` or ``list``): a ``RootModel[Any]`` is one, a union of a class and
  ``list[Any]`` is not;
* ``typed``: the others;
* ``classes``: model classes (``Enum`` classes apart), ``enums``: the ``Enum`` classes;
* ``enum/Literal/format``: fields whose type names a ``Literal``, an ``Enum`` class or a format
  type (``datetime``, ``date``, ``time``, ``timedelta``, ``UUID``, the address and URL types).

maverick-codegen's modules of a schema are its file's module and every module of the package
it imports (relative imports, followed); plain datamodel-code-generator's are everything it
generates from the file (``DataModelType.PydanticV2BaseModel``, its other options as they are).

CORPUS_DIR is either ``tests/corpus`` (``sources.json``: maverick-codegen generates each source
folder once, as tests/test_corpus.py runs it; the other generator takes each file where it lies)
or a folder in SchemaStore's layout (``schemas/json/NAME.json``: each schema alone with the
schemas it references, as ``bench/bench_corpus.py`` runs it; ``--sample N`` takes every N-th
by name). Each generation runs in a process
of its own, within ``--timeout`` seconds; ``--jobs`` at a time.

Usage: python bench/bench_typed.py CORPUS_DIR [--only NAME ...] [--jobs 2] [--timeout 300]
           [--json FILE] [--plain-from FILE] [--maverick-from FILE] [--generator G]
           [--show NAME] [--sample N] [--typescript]

With ``--typescript``, the TypeScript declarations too: maverick-codegen's (the npm package's
``.d.ts`` modules of the schema and of every file it references) beside
json-schema-to-typescript's (``tests/consumers/typescript/compile-one.mjs``: the schema file,
its options as they are, after ``npm ci --prefix tests/consumers/typescript``), each counted
(:func:`tests._typed.count_declarations`): property signatures, and those typed ``unknown`` or
``any`` (or only containers of them), on the schemas both declared; and the same with each
signature (name and type) of a schema counted once, since json-schema-to-typescript writes a
shared definition out again wherever it is used.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import io
import json
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import datamodel_code_generator as dmcg  # noqa: E402
from datamodel_code_generator.parser.jsonschema import JsonSchemaParser  # noqa: E402

from codegen.cli import main as cli_main  # noqa: E402  (the repository root is on the path only now)
from codegen.core.config import load_config  # noqa: E402
from codegen.core.errors import SchemaError  # noqa: E402
from codegen.core.loader import load_tree  # noqa: E402
from codegen.generate.consumers.ts_names import class_names  # noqa: E402
from codegen.generate.consumers.typescript import declaration_module  # noqa: E402
from tests import _corpus, _schemastore  # noqa: E402
from tests._typed import count_declarations, count_modules  # noqa: E402

# One schema through json-schema-to-typescript (tests/consumers/typescript's dev dependency).
COMPILE_ONE = REPO / "tests" / "consumers" / "typescript" / "compile-one.mjs"
COLUMNS = ("schemas", "fields", "vague", "typed", "classes", "enums", "enum/Literal/format")


# ------------------------------------------------------------------------------- generating
def _maverick_modules(
    project: Path, package: str, rels: list[str], typescript: bool
) -> dict[str, Any]:
    """``generate`` in ``project``; each file of ``rels``: its module and every module of the
    package it imports, counted (with ``typescript``, its declarations too)."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = cli_main(["--config", str(project / "pyproject.toml"), "generate"], io.StringIO())
    if code != 0:
        return {"status": "refused", "detail": stderr.getvalue().strip()[:300]}
    config = load_config(project / "pyproject.toml")
    tree = load_tree(project / "schemas", options=config.loading)
    out = project / "out" / package
    counted = {}
    for rel in rels:
        schema = tree.by_rel.get(PurePosixPath(rel))
        if schema is None:
            continue
        start = out.joinpath(*schema.module_parts).with_suffix(".py")
        seen: set[Path] = set()
        pending = [start]
        while pending:
            path = pending.pop()
            if path in seen or not path.is_file() or path.name.startswith("_"):
                continue
            seen.add(path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level and node.module:
                    base = path.parent
                    for _ in range(node.level - 1):
                        base = base.parent
                    pending.append(base.joinpath(*node.module.split(".")).with_suffix(".py"))
        texts = [p.read_text(encoding="utf-8") for p in sorted(seen)]
        counted[rel] = {"status": "generated", "counts": dict(count_modules(texts))}
        if typescript:
            counted[rel]["ts"] = _maverick_declarations(tree, schema)
    return {"status": "generated", "files": counted}


def _maverick_declarations(tree: Any, schema: Any) -> dict[str, Any]:
    """The TypeScript declarations of ``schema`` and of every file it references, counted."""
    try:
        names = class_names(tree)
        texts = [
            declaration_module(tree, names, f, "")[0]
            for f in tree.closure(schema)
            if not f.external
        ]
    except SchemaError as exc:
        return {"status": "refused", "detail": str(exc)[:300]}
    return {"status": "generated", "counts": dict(count_declarations(texts))}


def _plain_declarations(path: Path, timeout: float) -> dict[str, Any]:
    """json-schema-to-typescript's declarations of the schema at ``path``, counted."""
    command = ["node", str(COMPILE_ONE), str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return {"status": "refused", "detail": tail[:300]}
    return {"status": "generated", "counts": dict(count_declarations([done.stdout]))}


def _plain(path: Path) -> dict[str, Any]:
    def no_network(self: Any, url: str) -> str:
        raise RuntimeError(f"{url}: nothing is fetched from the network")

    JsonSchemaParser._get_text_from_url = no_network  # type: ignore[method-assign]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = dmcg.generate(
                path,
                input_file_type=dmcg.InputFileType.JsonSchema,
                output_model_type=dmcg.DataModelType.PydanticV2BaseModel,
            )
    except Exception as exc:  # its refusal: it raises on what it does not take
        return {"status": "refused", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    texts = [str(code)] if not isinstance(code, dict) else [str(v) for v in code.values()]
    try:
        return {"status": "generated", "counts": dict(count_modules(texts))}
    except SyntaxError as exc:
        return {"status": "refused", "detail": f"does not parse: {exc}"}


def _one(request: list[str]) -> dict[str, Any]:
    """In a process of its own: one generation, counted."""
    sys.setrecursionlimit(10_000)
    kind, root, name, typescript = *request[:3], request[3:] == ["ts"]
    folder = Path(root)
    if kind.startswith("plain-"):
        path = folder / "schemas" / ("json" if kind == "plain-store" else "")
        path = path / (f"{name}.json" if kind == "plain-store" else name)
        result = _plain(path)
        if typescript:
            result["ts"] = _plain_declarations(path, 120)
        return result
    with tempfile.TemporaryDirectory(prefix="bench-typed-") as tmp:
        if kind == "maverick-store":
            project = _schemastore.project(
                _schemastore.Folder(folder), name, Path(tmp) / "p", "typed"
            )
            return _maverick_modules(project, "typed", [f"{name}.json"], typescript)
        assert folder.resolve() == _corpus.CORPUS.resolve(), "tests/corpus only"
        files = [f for f in _corpus.sources()[name] if f not in _corpus.REFUSED]
        if not files:
            return {"status": "refused", "detail": "every file is one the corpus lists as refused"}
        project, package = _corpus._project(Path(tmp), name, files)
        return _maverick_modules(project, package, files, typescript)


def _ask(request: list[str], timeout: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", *request]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    try:
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return {"status": "crashed", "detail": tail[:300]}
    return result


def _requests(folder: Path, only: list[str] | None, sample: int = 1) -> list[tuple[str, list[str]]]:
    """(generator, request) of every generation the corpus asks for."""
    if (folder / "schemas" / "json").is_dir():
        names = sorted(p.stem for p in (folder / "schemas" / "json").glob("*.json"))
        names = [n for n in names if not only or n in only][::sample]
        return [(g, [f"{g}-store", str(folder), n]) for n in names for g in ("maverick", "plain")]
    manifest = json.loads((folder / "sources.json").read_text(encoding="utf-8"))["files"]
    sources = sorted({e["source"] for e in manifest if not only or e["source"] in only})
    files = [e["file"] for e in manifest if e["source"] in sources]
    return [("maverick", ["maverick-corpus", str(folder), s]) for s in sources] + [
        ("plain", ["plain-corpus", str(folder), f]) for f in files
    ]


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        answers, sys.stdout = sys.stdout, sys.stderr  # what the generators print is no answer
        answers.write(json.dumps(_one(sys.argv[2:])) + "\n")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="tests/corpus or a SchemaStore-layout folder")
    parser.add_argument("--only", action="append", help="only this schema or source (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="generations at a time (default 2)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per generation")
    parser.add_argument("--json", type=Path, help="write every schema's counts to this file")
    parser.add_argument("--show", action="append", help="print this schema's counts")
    parser.add_argument(
        "--maverick-from", type=Path, help="maverick-codegen's counts from an earlier --json"
    )
    parser.add_argument(
        "--generator", action="append", choices=("maverick", "plain"), help="only this one"
    )
    parser.add_argument(
        "--sample", type=int, default=1, help="every SAMPLE-th schema of a SchemaStore folder"
    )
    parser.add_argument(
        "--typescript",
        action="store_true",
        help="count the TypeScript declarations too, beside json-schema-to-typescript's",
    )
    parser.add_argument(
        "--plain-from", type=Path, help="datamodel-code-generator's counts from an earlier --json"
    )
    args = parser.parse_args()
    requests = _requests(args.folder.resolve(), args.only, args.sample)
    if args.typescript:
        requests = [(g, [*r, "ts"]) for g, r in requests]
    start = time.perf_counter()
    results: dict[str, dict[str, Any]] = {"maverick": {}, "plain": {}}
    for generator, earlier in (("plain", args.plain_from), ("maverick", args.maverick_from)):
        if earlier is not None:
            kept = json.loads(earlier.read_text(encoding="utf-8"))[generator]
            results[generator] = {
                n if n.endswith(".json") else f"{n}.json": r for n, r in kept.items()
            }
            requests = [(g, r) for g, r in requests if g != generator]
    requests = [(g, r) for g, r in requests if g in (args.generator or (g,))]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(_ask, r, args.timeout): (g, r) for g, r in requests}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            generator, request = futures[future]
            result = future.result()
            if generator == "maverick" and "files" in result:
                results[generator].update(result["files"])
            elif generator == "maverick" and request[0] == "maverick-corpus":
                results[generator][request[2]] = result  # the whole source
            else:
                name = f"{request[2]}.json" if request[0].endswith("-store") else request[2]
                results[generator][name] = result
            print(f"[{done}/{len(requests)}] {generator} {request[2]}", file=sys.stderr)
    elapsed = time.perf_counter() - start
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(report(args.folder, results, elapsed, args.show or []))


def report(
    folder: Path, results: dict[str, dict[str, Any]], elapsed: float, show: list[str]
) -> str:
    both = sorted(
        name
        for name, result in results["maverick"].items()
        if result.get("status") == "generated"
        and results["plain"].get(name, {}).get("status") == "generated"
    )
    statuses = {
        g: Counter(r.get("status", "?") for r in results[g].values()) for g in ("maverick", "plain")
    }
    lines = [
        f"{folder}: {elapsed:.0f} s; schemas each generator took: "
        + "; ".join(f"{g} {dict(c)}" for g, c in statuses.items()),
        f"both took {len(both)} schemas; counted on those:",
        "",
        "| generator | " + " | ".join(COLUMNS[1:]) + " | vague share |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    totals = {}
    labels = (("plain", "datamodel-code-generator"), ("maverick", "maverick-codegen"))
    for generator, label in labels:
        total: Counter[str] = Counter()
        for name in both:
            total.update(results[generator][name]["counts"])
        totals[generator] = total
        share = total["vague"] / total["fields"] if total["fields"] else 0.0
        lines.append(
            f"| {label} | " + " | ".join(f"{total[c]:,}" for c in COLUMNS[1:])
            + f" | {share:.1%} |"
        )  # fmt: skip
    plain, ours = totals["plain"], totals["maverick"]
    if plain["typed"]:
        lines.append(f"\ntyped fields, ours / dcg's: {ours['typed'] / plain['typed']:.2f}")
    worse = sorted(
        both,
        key=lambda n: (
            -(
                results["maverick"][n]["counts"].get("vague", 0)
                - results["plain"][n]["counts"].get("vague", 0)
            )
        ),
    )[:10]
    lines.append("most vague fields beyond dcg's: " + ", ".join(
        f"{n} ({results['maverick'][n]['counts'].get('vague', 0)} vs "
        f"{results['plain'][n]['counts'].get('vague', 0)})" for n in worse
    ))  # fmt: skip
    lines += _typescript_report(results, both)
    for name in show:
        for generator in ("maverick", "plain"):
            lines.append(f"{name} {generator}: {results[generator].get(name)}")
    return "\n".join(lines)


def _typescript_report(results: dict[str, dict[str, Any]], both: list[str]) -> list[str]:
    """The table of the TypeScript declarations, on the schemas both declared."""
    declared = [
        n
        for n in both
        if all(results[g][n].get("ts", {}).get("status") == "generated" for g in results)
    ]
    if not declared:
        return []
    lines = [
        "",
        f"TypeScript declarations, on the {len(declared)} schemas both declared:",
        "",
        "| generator | properties | unknown/any | share | distinct | unknown/any | share |",
        "|---|---|---|---|---|---|---|",
    ]
    labels = (("plain", "json-schema-to-typescript"), ("maverick", "maverick-codegen"))
    worse: Counter[str] = Counter()
    for generator, label in labels:
        total: Counter[str] = Counter()
        for name in declared:
            counts = results[generator][name]["ts"]["counts"]
            total.update(counts)
            worse[name] += counts.get("vague", 0) * (1 if generator == "maverick" else -1)
        cells = []
        for whole, part in (("properties", "vague"), ("distinct", "distinct vague")):
            share = total[part] / total[whole] if total[whole] else 0.0
            cells += [f"{total[whole]:,}", f"{total[part]:,}", f"{share:.1%}"]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("most unknown/any properties beyond json-schema-to-typescript's: " + ", ".join(
        f"{n} ({results['maverick'][n]['ts']['counts'].get('vague', 0)} vs "
        f"{results['plain'][n]['ts']['counts'].get('vague', 0)})"
        for n, _ in worse.most_common(10)
    ))  # fmt: skip
    return lines


if __name__ == "__main__":
    main()
