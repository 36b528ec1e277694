"""The corpus of real schemas (tests/corpus/) through maverick-codegen and plain
datamodel-code-generator: per source, schemas, generated, refused, documents, agree, disagree,
crash.

maverick-codegen: ``generate`` once per source folder, as tests/test_corpus.py runs it
(tests/_corpus.py). datamodel-code-generator: ``datamodel_code_generator.generate`` with pydantic
v2 output (``DataModelType.PydanticV2BaseModel``, its other options left as they are) on each
file alone, read from a folder holding its source's files (so that a reference by relative path
finds its file), in a process of its own that generates, then validates every document, in
120 s at most (past it, the file is a crash); a reference by URL is refused, since nothing here
touches the network (``_get_text_from_url`` raises). Its model is the module's ``Model`` class
when there is one, else the class named from the title, else the module's last class (its
root); a file it refuses (raises) counts as refused, a module that does not import as a crash.
Both models are judged in JSON mode (``TypeAdapter(model).validate_json``) against
python-jsonschema reading the file as written, by its own draft, with ECMA-262 patterns (the
files the corpus lists as refused have no such judge: their documents are not counted).

Usage: python bench/bench_corpus.py [--source SOURCE ...]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import datamodel_code_generator as dmcg  # noqa: E402
from datamodel_code_generator.parser.jsonschema import JsonSchemaParser  # noqa: E402

from codegen.core.config import load_config  # noqa: E402  (the repository root is on the path only now)
from codegen.core.ecma import tree_registry, validator_at  # noqa: E402
from codegen.core.loader import load_tree  # noqa: E402
from tests import _corpus  # noqa: E402

TIMEOUT = 120  # seconds for plain datamodel-code-generator on one file


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


def _root(module: Any, title: object) -> Any:
    if hasattr(module, "Model"):
        return module.Model
    named = re.sub(r"[^0-9A-Za-z]", "", str(title or ""))
    if named and hasattr(module, named):
        return getattr(module, named)
    classes = [
        c for c in vars(module).values() if inspect.isclass(c) and c.__module__ == module.__name__
    ]
    return classes[-1]  # the module's namespace keeps the order of definition


def _plain_one(source: str, rel: str) -> None:
    """In a process of its own: plain datamodel-code-generator on ``source``/``rel``, its model
    on every document of ``rel``; prints the status and the verdicts as JSON."""
    JsonSchemaParser._get_text_from_url = _no_network  # type: ignore[method-assign]
    sys.setrecursionlimit(10_000)  # the plain generator recurses deeply on some files
    folder = Path(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = dmcg.generate(
                folder / rel,
                input_file_type=dmcg.InputFileType.JsonSchema,
                output_model_type=dmcg.DataModelType.PydanticV2BaseModel,
            )
    except Exception as exc:  # its refusal: it raises on what it does not take
        detail = traceback.format_exception_only(exc)[-1].strip()
        print(json.dumps({"status": "refused", "detail": detail}))
        return
    (folder / "plain_model").mkdir()
    (folder / "plain_model" / "__init__.py").write_text(str(code), encoding="utf-8")
    title = json.loads((folder / rel).read_text(encoding="utf-8")).get("title")
    sys.path.insert(0, str(folder))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = _root(importlib.import_module("plain_model"), title)
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


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        _plain_one(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only this source folder (repeatable)")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)  # deep models
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
