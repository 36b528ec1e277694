"""Benchmark ``maverick-codegen breaking`` on real schema histories: right, and in seconds.

Takes a history folder (``index.json`` listing pairs ``{"schema", "commit", "old", "new"}``: the
layout of the shared ``schema-history`` folder and of ``tests/fixtures/history/``) and runs
every pair through the breaking check, both directions, each judged as
``tests/_history.py`` says: every witness by both schemas, sampled documents (a seeded walker
of each version, hypothesis-jsonschema, real documents with ``--documents``, and mutations of
all of them) for silent passes, and each finding's place for findings about what did not
change. Prints a line per pair and the figures: silent passes, bad witnesses, findings about
what did not change, pairs with ``CHANGE_UNPROVEN``, and the time per pair (loading both
versions and comparing them, in this process; median and max; goal: every pair under 2 s).

``--export DIR --count N --seed S`` copies a seeded subset of the pairs (their files and an
``index.json``) to DIR instead: how ``tests/fixtures/history/`` was made.

Usage: python bench/bench_history.py HISTORY [--documents SCHEMASTORE/test] [--walked 60]
       [--drawn 10] [--seed 0] [--only NAME...] [--cli]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests._history import (  # noqa: E402
    HistoryPair,
    Verdict,
    assembled_pairs,
    check_pair,
    read_history,
    summary,
)

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@example.test",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@example.test",
}


def real_documents(folder: Path | None, schema: str) -> list[Any]:
    """The JSON, YAML and TOML documents of ``folder/schema/`` (SchemaStore's test layout)."""
    if folder is None or not (folder / schema).is_dir():
        return []
    found = []
    for path in sorted((folder / schema).iterdir()):
        try:
            if path.suffix == ".json":
                found.append(json.loads(path.read_text(encoding="utf-8")))
            elif path.suffix == ".toml":
                found.append(tomllib.loads(path.read_text(encoding="utf-8")))
            elif path.suffix in (".yaml", ".yml"):
                import yaml  # noqa: PLC0415

                found.append(json.loads(json.dumps(yaml.safe_load(path.read_text()))))
        except Exception:  # a document this reader cannot read is left out
            continue
    return found


CLI_ENV = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""A user's environment writes bytecode: without it every run compiles every module again."""


def cli_seconds(pair: HistoryPair) -> tuple[float, int]:
    """``maverick-codegen breaking --against HEAD~1`` in a scratch repository holding the
    pair's two versions as two commits: wall time of a fresh process (bytecode written, as a
    user's environment does), and its exit code."""
    with tempfile.TemporaryDirectory(prefix="history-cli-") as scratch:
        root = Path(scratch)
        (root / "schemas").mkdir()
        (root / "pyproject.toml").write_text(
            '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/p"\npackage = "p"\n'
        )
        target = root / "schemas" / f"{pair.schema}.json"

        def git(*args: str) -> None:
            subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)

        git("init", "-q")
        target.write_text(pair.old_text)
        git("add", ".")
        git("commit", "-qm", "old")
        target.write_text(pair.new_text)
        git("commit", "-qam", "new")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "codegen", "breaking", "--against",
                               "HEAD~1"], cwd=root, capture_output=True, text=True,
                              check=False, env=CLI_ENV)  # fmt: skip
        return time.perf_counter() - start, done.returncode


def line(verdict: Verdict) -> str:
    rules: dict[str, int] = {}
    for finding in verdict.findings:
        rules[finding.rule] = rules.get(finding.rule, 0) + 1
    flags = []
    if verdict.error:
        flags.append(f"ERROR {verdict.error[:200]}")
    if verdict.silent:
        flags.append(f"SILENT {sorted(verdict.silent)}")
    if verdict.bad_witnesses:
        flags.append(f"BAD WITNESS x{len(verdict.bad_witnesses)}")
    if verdict.unchanged:
        flags.append(f"UNCHANGED x{len(verdict.unchanged)}")
    if verdict.internal:
        flags.append(f"INTERNAL FORM x{len(verdict.internal)}")
    if verdict.judges_disagree:
        flags.append(f"(judges disagree on {verdict.judges_disagree})")
    shown = ", ".join(f"{r} {n}" for r, n in sorted(rules.items())) or "no finding"
    return f"{verdict.pair.name:42s} {verdict.seconds:6.2f} s  {shown}  {' '.join(flags)}"


def export(pairs: list[HistoryPair], source: Path, target: Path, count: int, seed: int) -> None:
    index = json.loads((source / "index.json").read_text())
    chosen = sorted(random.Random(seed).sample(range(len(index)), count))
    target.mkdir(parents=True, exist_ok=True)
    kept = []
    for i in chosen:
        entry = index[i]
        for key in ("old", "new"):
            (target / entry[key]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / entry[key], target / entry[key])
        kept.append(entry)
    (target / "index.json").write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{len(kept)} pairs (seed {seed}) copied to {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("history", type=Path)
    parser.add_argument("--documents", type=Path, help="SchemaStore's test/ folder")
    parser.add_argument("--walked", type=int, default=60, help="walker documents per version")
    parser.add_argument("--drawn", type=int, default=10, help="hypothesis documents per version")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=[], help="pairs whose name holds one")
    parser.add_argument("--cli", action="store_true", help="also time the CLI per pair")
    parser.add_argument(
        "--assembled",
        type=Path,
        metavar="SCHEMASTORE",
        help="also the pairs assembled from SchemaStore's files (issue 33)",
    )
    parser.add_argument("--export", type=Path, help="copy a seeded subset there instead")
    parser.add_argument("--count", type=int, default=8, help="pairs to --export")
    parser.add_argument("--verbose", action="store_true", help="print every problem found")
    args = parser.parse_args()
    pairs = read_history(args.history)
    if args.export is not None:
        export(pairs, args.history, args.export, args.count, args.seed)
        return
    extra = assembled_pairs(args.assembled) if args.assembled is not None else []
    if args.only:
        pairs = [p for p in pairs if any(o in p.name for o in args.only)]
        extra = [p for p in extra if any(o in p.name for o in args.only)]
    verdicts, cli, more = [], [], []
    if args.cli and pairs:  # bytecode written once, as in a user's environment
        cli_seconds(pairs[0])
    for pair in [*pairs, *extra]:
        real = real_documents(args.documents, pair.schema)
        verdict = check_pair(pair, seed=args.seed, walked=args.walked, drawn=args.drawn,
                             real=real)  # fmt: skip
        (verdicts if pair in pairs else more).append(verdict)
        shown = ""
        if args.cli:
            seconds, code = cli_seconds(pair)
            cli.append(seconds)
            shown = f"  (CLI {seconds:.2f} s, exit {code})"
        print(line(verdict) + shown, flush=True)
        if args.verbose:
            for problem in [*verdict.bad_witnesses, *verdict.unchanged, *verdict.internal]:
                print(f"    {problem[:600]}")
            for direction, document in verdict.silent.items():
                print(f"    silent {direction}: {json.dumps(document)[:600]}")
            for finding in verdict.findings:
                if finding.rule == "CHANGE_UNPROVEN":
                    print(f"    {finding.message[:600]}")
    print(f"\n{args.history}:\n{summary(verdicts)}")
    if more:
        print(f"\nassembled from {args.assembled}:\n{summary(more)}")
    if cli:
        print(f"CLI (a fresh process per pair): median {statistics.median(cli):.2f} s, max "
              f"{max(cli):.2f} s; over 2 s: {sum(t > 2.0 for t in cli)}")  # fmt: skip


if __name__ == "__main__":
    main()
