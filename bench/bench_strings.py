"""Benchmark ``codegen.breaking.strings`` on the project's own patterns, beside greenery.

For each pattern of ``schemas/`` and ``tests/fixtures/keywords/`` (and the ones issue 16 names)
it times, caches cleared, the three things ``breaking`` asks: build the language of the
pattern, decide inclusion against a widened and a narrowed variant (both directions), and find
a witness of the difference. Where the pattern is anchored at both ends and greenery's own
dialect reads its body the same way (no ``\\p``, no assertion inside), greenery's
``parse(...).to_fsm()`` and ``issubset`` do the same work, and the ratio is printed. Figures
are the best of N runs (time.perf_counter), all from this one run; nothing is asserted on
time. A property escape is read from regress once per process: its first use is printed apart.

Usage: python bench/bench_strings.py [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from greenery import parse as greenery_parse
from greenery.parse import NoMatch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from codegen.breaking import strings as st  # noqa: E402
from codegen.breaking.strings import charsets, dfa_ops, ecma_pattern  # noqa: E402
from tests._patterns import project_patterns  # noqa: E402  (the root is on the path only now)

ISSUE = ["^[a-z][a-z0-9_]*$", "^\\d{4}-\\d{2}-\\d{2}$", "^(https?|ftp)://", "\\p{L}",
         "^[A-Z]{2,3}$", "^[a-z]{1,100}$"]  # fmt: skip


def patterns() -> list[str]:
    found = project_patterns()
    return [*found, *(p for p in ISSUE if p not in found)]


def _clear() -> None:
    for cached in (st.matching, st.length_between, ecma_pattern.parse, dfa_ops.product):
        cached.cache_clear()


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        _clear()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(pattern: str) -> None:
    base = st.matching(pattern)
    wide = st.matching(f"(?:{pattern})|^#$")
    narrow = base & st.length_between(0, 8)
    assert base <= wide
    assert not wide <= base
    assert narrow <= base
    assert (wide - base).example() is not None
    assert not base <= narrow or (base - narrow).example() is None


def greenery_body(pattern: str) -> str | None:
    """The body of ``^body$`` when greenery reads it as ECMA-262 does (conservatively)."""
    match = re.fullmatch(r"\^(.*)\$", pattern)
    if match is None or re.search(r"\\[pPbB]|[$^]|\\u", match.group(1)):
        return None
    try:
        greenery_parse(match.group(1))
    except NoMatch:  # greenery's dialect: e.g. no "-" at the end of a class
        return None
    return match.group(1)


def theirs(body: str) -> None:
    base = greenery_parse(body).to_fsm()
    wide = greenery_parse(f"{body}|#").to_fsm()
    short = greenery_parse(".{0,8}").to_fsm()
    narrow = base & short
    assert base.issubset(wide)
    assert not wide.issubset(base)
    assert narrow.issubset(base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    charsets.property_set("L")
    print(
        f"first property escape (\\p{{L}}, read from regress): {time.perf_counter() - start:.3f} s"
    )
    print(f"{'pattern':34} {'strings':>10} {'greenery':>10} {'ratio':>7}")
    total = 0.0
    for pattern in patterns():
        mine = best(args.repeat, lambda p=pattern: ours(p))
        total += mine
        body = greenery_body(pattern)
        other = best(max(1, args.repeat // 5), lambda b=body: theirs(b)) if body else None
        ratio = f"{other / mine:6.1f}x" if other else "      -"
        shown = f"{other * 1000:8.2f}ms" if other else "         -"
        print(f"{pattern[:34]:34} {mine * 1000:8.2f}ms {shown} {ratio}")
    print(f"all {len(patterns())} patterns: {total * 1000:.1f} ms "
          "(build, inclusion both ways against two variants, witness)")  # fmt: skip


if __name__ == "__main__":
    main()
