"""The official JSON-Schema-Test-Suite through maverick-codegen and plain datamodel-code-generator.

Prints, from one run, per draft (draft-04, -06, -07, 2019-09, 2020-12: the required tests
vendored under tests/json_schema_test_suite/), the cases each generator's model decides as the
suite does: ``maverick-codegen generate`` on a project holding each group's contract (its draft
as ``default_draft``, the suite's remotes mapped to their folder), and datamodel-code-generator
with its default options on the same file. Both models are judged in JSON mode through
``TypeAdapter(model).validate_json`` (tests/_suite.py says exactly how).

Usage: python bench/bench_suite.py [--by-file] [--draft draft7 ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests import _suite  # noqa: E402  (the repository root is on the path only now)

COLUMNS = ("agree", "disagree", "refused", "crashed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-file", action="store_true", help="also print each keyword file")
    parser.add_argument("--draft", action="append", choices=list(_suite.DRAFTS))
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)  # the plain generator recurses deeply on some groups
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as tmp:
        for folder in args.draft or list(_suite.DRAFTS):
            for name, run in (
                ("maverick-codegen", _suite.run_maverick),
                ("datamodel-code-generator, plain", _suite.run_plain_dmcg),
            ):
                start = time.perf_counter()
                results = _suite.run_all(run, Path(tmp) / name.split(",")[0], folder=folder)
                elapsed = time.perf_counter() - start
                table, total = _suite.table(results)
                if args.by_file:
                    print(f"{folder}, {name}\n{table}")
                rows.append((_suite.DRAFTS[folder], name, total, elapsed))
    head = ("draft", "generator", "cases", *COLUMNS, "judged", "seconds")
    widths = (9, 33, 7, 15, 10, 9, 9, 8, 9)
    print("".join(f"{h:<{w}}" if i < 2 else f"{h:>{w}}" for i, (h, w) in
                  enumerate(zip(head, widths, strict=True))))  # fmt: skip
    for draft, name, total, elapsed in rows:
        cases = sum(total.values())
        crashed = total["crashed"] + total["import failed"]
        counts = Counter({**total, "crashed": crashed})
        judged = cases - counts["refused"] - counts["set aside"]
        cells = [draft, name, cases, f"{counts['agree']} ({counts['agree'] / cases:.1%})",
                 counts["disagree"], counts["refused"], crashed, f"{judged / cases:.1%}",
                 f"{elapsed:.1f}"]  # fmt: skip
        print("".join(f"{c!s:<{w}}" if i < 2 else f"{c!s:>{w}}" for i, (c, w) in
                      enumerate(zip(cells, widths, strict=True))))  # fmt: skip


if __name__ == "__main__":
    main()
