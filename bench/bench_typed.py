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
           [--show NAME] [--sample N]
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
from codegen.core.loader import load_tree  # noqa: E402
from tests import _corpus, _schemastore  # noqa: E402
from tests._typed import count_modules  # noqa: E402

COLUMNS = ("schemas", "fields", "vague", "typed", "classes", "enums", "enum/Literal/format")


# ------------------------------------------------------------------------------- generating
def _maverick_modules(project: Path, package: str, rels: list[str]) -> dict[str, Any]:
    """``generate`` in ``project``; each file of ``rels``: its module and every module of the
    package it imports, counted."""
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
    return {"status": "generated", "files": counted}


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
    kind, root, name = request
    folder = Path(root)
    if kind == "plain-store":
        return _plain(folder / "schemas" / "json" / f"{name}.json")
    if kind == "plain-corpus":
        return _plain(folder / "schemas" / name)
    with tempfile.TemporaryDirectory(prefix="bench-typed-") as tmp:
        if kind == "maverick-store":
            project = _schemastore.project(
                _schemastore.Folder(folder), name, Path(tmp) / "p", "typed"
            )
            return _maverick_modules(project, "typed", [f"{name}.json"])
        assert folder.resolve() == _corpus.CORPUS.resolve(), "tests/corpus only"
        files = [f for f in _corpus.sources()[name] if f not in _corpus.REFUSED]
        if not files:
            return {"status": "refused", "detail": "every file is one the corpus lists as refused"}
        project, package = _corpus._project(Path(tmp), name, files)
        return _maverick_modules(project, package, files)


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
        answers.write(json.dumps(_one(sys.argv[2:5])) + "\n")
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
        "--plain-from", type=Path, help="datamodel-code-generator's counts from an earlier --json"
    )
    args = parser.parse_args()
    requests = _requests(args.folder.resolve(), args.only, args.sample)
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
    for name in show:
        for generator in ("maverick", "plain"):
            lines.append(f"{name} {generator}: {results[generator].get(name)}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
