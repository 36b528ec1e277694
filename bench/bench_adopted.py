"""The models ``bench_adopt.py --keep DIR`` generated together from a SchemaStore folder, judged:
each schema's test and negative test documents, the bench's seeded edits of each
(``tests._schemastore.edits``) and ``--harder`` harder edits of each (a value replaced by another
value of the schema's test documents, a number or a string nudged, an array item repeated or
removed, a key removed, or one of the bench's edits; a second edit on top, three times in ten),
against python-jsonschema (``tests._schemastore.oracle``: the file's own draft, ECMA-262
patterns). bench_corpus.py judges each schema generated alone; this, the classes of a whole
folder generated in one run (numbered names, shared modules), on edits closer to valid.

Prints the documents of each kind, how many agree, disagree and crash the model, and the first
disagreements of each schema.

Usage: python bench/bench_adopted.py DIR FOLDER [--harder 30] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import traceback
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import pydantic  # noqa: E402

from codegen.core.config import load_config  # noqa: E402  (the repository root is on the path only now)
from codegen.core.loader import load_tree  # noqa: E402
from tests import _schemastore  # noqa: E402
from tests.corpus.documents import harder, values  # noqa: E402


def documents(folder: _schemastore.Folder, name: str, count: int) -> list[tuple[str, Any]]:
    """(kind, document) of ``name``: its tests, the bench's edits of each, ``count`` harder
    edits of each."""
    tests = folder.documents(name)
    plain = [d for _, _, d in tests]
    rng = random.Random(_schemastore.seed_of(name) + 7)
    pool = [v for d in plain for v in values(d)]
    found = [(k, d) for k, _, d in tests] + [("edit", d) for d in _schemastore.edits(name, plain)]
    for document in plain:
        for _ in range(count):
            edited = harder(document, rng, pool)
            found.append(("harder", harder(edited, rng, pool) if rng.random() < 0.3 else edited))
    return found


def judged(model: Any, judge: Any, rows: list[tuple[str, Any]]) -> list[tuple[str, Any, str]]:
    """(kind, outcome, what was said) of each document: outcome agree, disagree, crash or
    undecided."""
    adapter = pydantic.TypeAdapter(model)
    found = []
    for kind, document in rows:
        truth, _ = judge.decide(document)
        if truth is None:
            found.append((kind, "undecided", ""))
            continue
        try:
            adapter.validate_json(json.dumps(document))
            accepted = True
        except pydantic.ValidationError:
            accepted = False
        except Exception as exc:  # anything else from a model is a crash
            found.append((kind, "crash", traceback.format_exception_only(exc)[-1].strip()))
            continue
        verdicts = ("valid" if truth else "invalid", "accepts" if accepted else "refuses")
        said = "python-jsonschema says {}, the model {}: ".format(*verdicts)
        said += json.dumps(document)[:300]
        found.append((kind, "agree" if accepted == truth else "disagree", said))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="the project bench_adopt.py --keep wrote")
    parser.add_argument("folder", type=Path, help="the folder in SchemaStore's layout")
    parser.add_argument("--harder", type=int, default=30, help="harder edits of each document")
    parser.add_argument("--only", action="append", help="only this schema (repeatable)")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)  # deep models
    folder = _schemastore.Folder(args.folder)
    config = load_config(args.dir / "pyproject.toml")
    tree = load_tree(config.schema_dir, options=config.loading)
    sys.path.insert(0, str(config.output_dir.parent))
    retrieve = _schemastore.registry(folder)
    tally: dict[str, Counter[str]] = {k: Counter() for k in ("test", "negative", "edit", "harder")}
    shown: list[str] = []
    for schema in tree.files:
        name = schema.rel.stem
        if args.only and name not in args.only:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = importlib.import_module(".".join((config.package, *schema.module_parts)))
        judge = _schemastore.oracle(folder, name, retrieve)
        rows = judged(getattr(module, schema.title), judge, documents(folder, name, args.harder))
        for kind, outcome, _ in rows:
            tally[kind][outcome] += 1
            tally[kind]["documents"] += 1
        shown += [f"  {name}: {k}: {said}" for k, o, said in rows if o in ("disagree", "crash")][:3]
    columns = ("documents", "agree", "disagree", "crash", "undecided")
    print(f"{len(tree.files)} schemas generated together in {args.dir}")
    print(f"{'':<10} " + " ".join(f"{c:>10}" for c in columns))
    for kind, counts in tally.items():
        print(f"{kind:<10} " + " ".join(f"{counts[c]:>10}" for c in columns))
    print("\n".join(shown))


if __name__ == "__main__":
    main()
