"""Benchmark deferred references (``codegen/generate/models/deferred.py``) against eager ones.

The same schema is generated twice, with its references deferred (as ``generate`` does for a
module where a chain of more than ``DEPTH`` classes may be walked) and eager (``DEPTH``
raised past the module's size, as for a module of short chains). Prints, from one run, each
in a fresh process:

- the large shape (``bench/large_schema.py``) at ``--definitions``: seconds and peak memory to
  import the module and build every class (eager needs Python's recursion limit raised, and a
  large thread stack, to build at all: it is given both);
- a recursive schema of a few classes (``tests/codegen/test_deferred.py``'s ``TREE``): seconds
  to validate a document of about 300 KB, and the ratio deferred / eager.

Usage: python bench/bench_deferred.py [--definitions 200]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from large_schema import large_schema  # noqa: E402

from codegen.cli import main  # noqa: E402
from codegen.generate.models import deferred  # noqa: E402
from tests.codegen.test_deferred import TREE  # noqa: E402

_BUILD = """
import resource, sys, threading, time
sys.setrecursionlimit(200_000)
threading.stack_size(1 << 29)
sys.path.insert(0, sys.argv[1])
def run():
    import importlib
    start = time.perf_counter()
    module = importlib.import_module(sys.argv[2])
    for name in dir(module):
        value = getattr(module, name)
        own = isinstance(value, type) and value.__module__ == module.__name__
        if own and hasattr(value, "model_rebuild"):
            value.model_rebuild()
    seconds = time.perf_counter() - start
    print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
thread = threading.Thread(target=run)
thread.start()
thread.join()
"""

_VALIDATE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
module = __import__(sys.argv[2], fromlist=["Tree"])
def node(depth):
    if depth == 0:
        return {"name": "leaf", "by_name": {"a": {"value": 1}}}
    return {"name": f"n{depth}", "children": [node(depth - 1), node(depth - 1)],
            "link": {"value": 2}, "pair": [{"value": 1}, {"name": "x"}]}
document = json.dumps({"root": node(11)})
module.Tree.model_validate_json(document)
start = time.perf_counter()
for _ in range(5):
    module.Tree.model_validate_json(document)
print((time.perf_counter() - start) / 5, len(document) // 1000)
"""


def generate(root: Path, schema: dict[str, Any], depth: int) -> None:
    """A project of ``schema`` alone, generated with ``DEPTH`` set to ``depth``."""
    (root / "schemas").mkdir(parents=True)
    (root / "schemas" / "model.json").write_text(json.dumps(schema), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/pkg"\n'
        'package = "pkg"\n',
        encoding="utf-8",
    )
    saved, deferred.DEPTH = deferred.DEPTH, depth
    try:
        with contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["--config", str(root / "pyproject.toml"), "generate"], io.StringIO())
    finally:
        deferred.DEPTH = saved
    if code != 0:
        sys.exit(f"generate failed: {err.getvalue()}")
    deferring = "_Deferred[" in (root / "out" / "pkg" / "model.py").read_text(encoding="utf-8")
    if deferring != (depth < 10**9):
        sys.exit(f"expected the module {'' if depth < 10**9 else 'not '}to defer its references")


def run(script: str, root: Path) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", script, str(root / "out"), "pkg.model"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        sys.exit(done.stderr[-2000:])
    return [float(x) for x in done.stdout.split()]


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--definitions", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-deferred-") as tmp:
        rows = []
        large = large_schema(args.definitions)
        for name, depth in (("deferred", deferred.DEPTH), ("eager", 10**9)):
            root = Path(tmp) / f"large-{name}"
            generate(root, large, depth)
            seconds, peak = run(_BUILD, root)
            rows.append((name, seconds, peak))
        print(f"large shape, {args.definitions} definitions: import and build every class")
        for name, seconds, peak in rows:
            print(f"  {name:<9}{seconds:>8.2f} s{peak:>8.0f} MB")
        print(f"  deferred / eager: {rows[0][1] / rows[1][1]:.3f} of the time, "
              f"{rows[0][2] / rows[1][2]:.3f} of the memory")  # fmt: skip
        times = []
        for name, depth in (("deferred", 0), ("eager", 10**9)):
            root = Path(tmp) / f"tree-{name}"
            generate(root, TREE, depth)
            seconds, size = run(_VALIDATE, root)
            times.append((name, seconds))
        print(f"a recursive schema: validate one document of {size:.0f} KB (mean of 5)")
        for name, seconds in times:
            print(f"  {name:<9}{seconds:>8.3f} s")
        print(f"  deferred / eager: {times[0][1] / times[1][1]:.3f}")


if __name__ == "__main__":
    main_()
