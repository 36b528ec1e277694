"""The official JSON-Schema-Test-Suite through maverick-codegen and plain datamodel-code-generator.

Prints, from one run, the cases of the draft 2020-12 suite (required tests, vendored under
tests/json_schema_test_suite/) that each generator's model decides as the suite does:
``maverick-codegen generate`` on a project holding each group's contract, and
datamodel-code-generator with its default options on the same file. Both models are judged in
JSON mode through ``TypeAdapter(model).validate_json``; groups that test reference resolution
are set aside for both (tests/_suite.py says exactly how).

Usage: python bench/bench_suite.py [--by-file]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests import _suite  # noqa: E402  (the repository root is on the path only now)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-file", action="store_true", help="also print each keyword file")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)  # the plain generator recurses deeply on some groups
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as tmp:
        for name, run in (
            ("maverick-codegen", _suite.run_maverick),
            ("datamodel-code-generator, plain", _suite.run_plain_dmcg),
        ):
            start = time.perf_counter()
            results = _suite.run_all(run, Path(tmp) / name.split(",")[0])
            elapsed = time.perf_counter() - start
            table, total = _suite.table(results)
            if args.by_file:
                print(f"{name}\n{table}")
            rows.append((name, total, elapsed))
    considered = sum(rows[0][1].values()) - rows[0][1]["set aside"]
    print(f"{considered} cases judged ({rows[0][1]['set aside']} set aside: reference resolution)")
    head = ("", "agree", "disagree", "refused", "crashed", "import failed", "seconds")
    print(f"{head[0]:<34}" + "".join(f"{h:>15}" for h in head[1:]))
    for name, total, elapsed in rows:
        agree = f"{total['agree']} ({total['agree'] / considered:.0%})"
        cells = [agree, total["disagree"], total["refused"], total["crashed"],
                 total["import failed"], f"{elapsed:.1f}"]  # fmt: skip
        print(f"{name:<34}" + "".join(f"{c!s:>15}" for c in cells))


if __name__ == "__main__":
    main()
