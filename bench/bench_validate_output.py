"""Benchmark `validate_output` on a clean 1 MB agent output and on hostile ones.

Prints, from one run:
- the clean case: about 1 MB of agent output (prose, a ```python block, then one ```json
  block holding 5,000 findings, then a closing sentence), timed three ways: the whole
  `validate_output` call; bare `Model.model_validate_json` on the already-extracted body; and
  extraction alone with markdown-it-py (parse, take the last json fence). Ratios: bare /
  validate_output (target: at least 0.85x) and markdown-it / validate_output (target: at
  least 5x);
- hostile inputs (1 MB of backticks on one line, 250,000 fences, 50 KB of "```\\n{" repeated,
  fences followed by 4,000 spaces, and more): time per MB of input and its ratio to the clean
  case's time per MB (target: none above 10x), with the outcome of each call;
- the agent contracts (``maverick.contracts.AGENT_CONTRACTS``): ``validate_output`` on every
  example of each contract's schema, in microseconds per call.

Each figure is the best of N runs, in processor time (time.thread_time: every call runs in
this thread; what other processes take of a shared machine is not counted). Nothing is
asserted about time: the script exits non-zero only if a call raises anything but
OutputValidationError, or if the clean output does not validate.

Usage: python bench/bench_validate_output.py [--repeat N] [--quick]
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import logging
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from maverick.contracts import AGENT_CONTRACTS, canonical_schema
from maverick.exceptions import OutputValidationError
from maverick.output._validate import validate_output

MB = 1_000_000
FINDINGS = 5000


class Finding(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str
    line: int = Field(ge=1)
    end_line: int | None = None
    severity: Literal["critical", "major", "minor", "info"]
    category: str
    message: str
    suggestion: str | None = None
    confidence: float


class Report(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str
    findings: list[Finding]


def clean_output() -> tuple[str, str]:
    """About 1 MB: prose, a python block, the json answer with 5,000 findings, a last word."""
    findings = [
        {
            "file": f"src/maverick/mod_{i % 113}.py",
            "line": i + 1,
            "end_line": i + 3 if i % 2 else None,
            "severity": ("critical", "major", "minor", "info")[i % 4],
            "category": ("bug", "style", "perf", "security")[i % 4],
            "message": f"Finding {i}: split parsing from I/O.",
            "suggestion": "Move `open()` out" if i % 3 else None,
            "confidence": round(0.5 + (i % 50) / 100, 2),
        }
        for i in range(FINDINGS)
    ]
    body = json.dumps({"summary": "Reviewed 113 files.", "findings": findings}, indent="")
    prose = (
        "I reviewed the change set file by file. Here is how to reproduce the slow path:\n\n"
        "```python\nfor line in text.splitlines():\n    parse(line)\n```\n\n"
        "The findings follow, as the contract asks.\n\n"
    )
    return prose + "```json\n" + body + "\n```\n\nThat is all.\n", body


def hostile_cases() -> dict[str, str]:
    ws = " " * 4000
    return {
        "1 MB of backticks on one line": "`" * MB,
        "1 MB of backticks after a json fence": "```json\n" + "`" * MB,
        "250,000 fences": "```\n" * 250_000,
        "250,000 tilde fences, lone CR": "~~~\r" * 250_000,
        '50 KB of "```\\n{" repeated': "```\n{" * 10_000,
        '50 KB of "```json\\n{" repeated': "```json\n{" * 6_250,
        "fences + 4,000 spaces": ("```" + ws + "\n") * 250,
        "json block, lines of ``` + 4,000 spaces + x": "```json\n{}\n" + ("```" + ws + "x\n") * 250,
        "json block, 4,000 spaces then x after the info": ("```json" + ws + "x\n{}\n```\n") * 250,
        "66,000 json blocks (last wins)": '```json\n{"a":1}\n```\n' * 55_000,
        "4-backtick block holding 250,000 fences": "````\n" + "```\n" * 250_000 + "````\n",
        "json opener, then 200,000 fence-like lines": "```json\n" + "```x\n" * 200_000,
        "json opener, 150,000 fence-like lines, 300 KB of prose": "```json\n"
        + "```x\n" * 150_000
        + "no fence on this line at all\n" * 10_000,
        'mid-line backticks: "a```" lines': "a```\n" * 200_000,
        "5-backtick fences": "`````\n" * 166_000,
        "6-backtick fences": "``````\n" * 143_000,
        "17-backtick fences (one match per block)": ("`" * 17 + "\n") * 55_600,
        "alternating ``` and ~~~ blocks": "```\n```\n~~~\n~~~\n" * 62_500,
        "fences with info strings": "```python\nx\n```\n" * 62_500,
        "1 MB unclosed json block": "```json\n" + '{"a": [1, 2, 3]},\n' * 55_000,
        "nesting bomb, 1 MB of [": "```json\n" + "[" * MB + "\n```\n",
        "huge number, 1 MB of digits": "```json\n" + "1" * MB + "\n```\n",
        "1 MB string of ``` in a json block": '```json\n{"a": "' + "```" * 333_000 + '"}\n```\n',
        "1 MB of spaces": " " * MB,
        "1 MB of line breaks": "\n" * MB,
        "1 MB of prose, no fence": ("All good here, nothing to report today. " * 3 + "\n") * 8_200,
    }


def best_of(repeat: int, *funcs: Callable[[], Any]) -> list[float]:
    """Best time of each function over ``repeat`` rounds, the functions interleaved in each
    round (so that a change in the machine's load hits them alike)."""
    best = [float("inf")] * len(funcs)
    for _ in range(repeat):
        for i, func in enumerate(funcs):
            gc.collect()
            start = time.thread_time()
            func()
            best[i] = min(best[i], time.thread_time() - start)
    return best


def markdown_it_extract(md: Any, text: str) -> str | None:
    body = None
    for token in md.parse(text):
        if token.type == "fence" and token.info.split()[:1] == ["json"]:
            body = token.content
    return body


def outcome(text: str) -> str:
    try:
        validate_output(text, Report)
    except OutputValidationError as exc:
        return f"{exc.stage}: {exc.parse_error[:60]}"
    return "valid"


def bench_clean(repeat: int) -> tuple[float, bool]:
    """Print the clean case's figures; return validate_output's time per MB, and success."""
    text, body = clean_output()
    size_mb = len(text.encode()) / MB
    try:
        validate_output(text, Report)
    except Exception:
        traceback.print_exc()
        return 0.0, False

    def clean() -> None:
        validate_output(text, Report)

    ours, bare = best_of(repeat, clean, lambda: Report.model_validate_json(body))
    print(f"clean output: {size_mb:.2f} MB, one ```json block with {FINDINGS} findings")
    print(f"  validate_output                {ours * 1e3:8.2f} ms")
    print(f"  bare model_validate_json       {bare * 1e3:8.2f} ms   ratio {bare / ours:.2f}x")
    ok = True
    try:
        md = importlib.import_module("markdown_it").MarkdownIt("commonmark")
    except ImportError:
        print("  markdown-it-py not installed: extraction comparison skipped")
    else:
        if markdown_it_extract(md, text) is None:
            print("  markdown-it-py found no json block!")
            ok = False
        again, mdit = best_of(max(1, repeat // 3), clean, lambda: markdown_it_extract(md, text))
        print(f"  markdown-it-py extraction only {mdit * 1e3:8.2f} ms   ratio {mdit / again:.1f}x")
    print("  targets: bare/validate_output >= 0.85x, markdown-it/validate_output >= 5x")
    return ours / size_mb, ok


def bench_hostile(repeat: int, clean_per_mb: float) -> bool:
    """Print each hostile case's time per MB and ratio; return False if one raised."""
    text, _ = clean_output()
    size_mb = len(text.encode()) / MB

    def clean() -> None:
        validate_output(text, Report)

    print(
        f"\nhostile inputs (time per MB, and its ratio to the clean case's "
        f"{clean_per_mb * 1e3:.2f} ms per MB, measured again alongside each; target <= 10x):"
    )
    ok = True
    worst = 0.0
    for name, hostile in hostile_cases().items():
        mb = len(hostile.encode("utf-8")) / MB
        try:
            result = outcome(hostile)
            seconds, clean_seconds = best_of(repeat, functools.partial(outcome, hostile), clean)
        except Exception:
            print(f"  {name}: RAISED")
            traceback.print_exc()
            ok = False
            continue
        per_mb = seconds / mb
        ratio = per_mb / (clean_seconds / size_mb)
        worst = max(worst, ratio)
        print(f"  {name:48} {mb:5.2f} MB {per_mb * 1e3:7.2f} ms/MB {ratio:5.2f}x  {result}")
    print(f"  worst ratio: {worst:.2f}x")
    return ok


def bench_contracts(repeat: int) -> bool:
    """Print validate_output's time on each agent's contract: every example of its schema, in
    an output of prose and a ```json block; return False if one is refused."""
    print("\nagent contracts (each example of the schema in an output, 200 times a round):")
    ok = True
    total = 0.0
    for agent, info in sorted(AGENT_CONTRACTS.items()):
        model = info.model
        examples = canonical_schema(info.name).get("examples", [])
        texts = [f"Done.\n\n```json\n{json.dumps(e, indent=2)}\n```\n" for e in examples]
        try:
            for text in texts:
                validate_output(text, model)
        except OutputValidationError as exc:
            print(f"  {agent}: an example is refused: {exc}")
            ok = False
            continue

        def run(texts: list[str] = texts, model: Any = model) -> None:
            for _ in range(200):
                for text in texts:
                    validate_output(text, model)

        (seconds,) = best_of(repeat, run)
        total += seconds
        per_call = seconds / (200 * len(texts)) * 1e6
        print(f"  {agent:18} {info.name:22} {len(texts)} examples {per_call:8.1f} us per call")
    print(f"  all agents: {total * 1e3:.2f} ms a round")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="rounds per figure (best of N)")
    parser.add_argument("--quick", action="store_true", help="run each case once (smoke test)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    # Failures are logged: keep the records (their cost is part of a failure), not the output.
    output_logger = logging.getLogger("maverick.agents.output")
    output_logger.addHandler(logging.NullHandler())
    output_logger.propagate = False

    clean_per_mb, clean_ok = bench_clean(repeat)
    if not clean_ok:
        return 1
    hostile_ok = bench_hostile(1 if args.quick else max(3, repeat // 2), clean_per_mb)
    contracts_ok = bench_contracts(repeat)
    return 0 if hostile_ok and contracts_ok else 1


if __name__ == "__main__":
    sys.exit(main())
