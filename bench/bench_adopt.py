"""Adopt a folder of schemas as it is: ``init``, ``generate``, ``init --exclude-refused``,
``generate`` again, and plain datamodel-code-generator on the same folder.

Prints, from one run, each command a fresh process on a copy of FOLDER (``schemas/`` of a
scratch project): its seconds, peak memory (MB: of one process / of all its processes
together, sampled every 0.25 s) and exit code; how many files the first ``generate`` refused
(in that one run) and by which rules; how many ``init --exclude-refused`` excluded; how many
contracts the second ``generate`` wrote; and datamodel-codegen on the files that ``generate``
read (the folder less ``exclude``); for each command that failed (but the first ``generate``,
whose refusals are counted), the last lines it printed.

``--also-exclude FILE`` adds the schema files FILE lists (one name a line, relative to FOLDER;
``#`` starts a comment) to ``exclude`` as the user's own entries before the second
``generate``: the files on which the generator itself fails (its bugs, not refusals) can be
set aside that way to measure the rest.

Usage: python bench/bench_adopt.py FOLDER [--also-exclude FILE] [--timeout 3600]
       [--keep DIR]
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

from bench_large import measured

BIN = Path(sys.executable).parent
_MARKS = re.compile(r"# refused: ([A-Z_, ]+)$", re.MULTILINE)


def _table(rows: list[tuple[str, float, str, int, str]]) -> None:
    width = max(len(row[0]) for row in rows)
    print(f"{'command':<{width}}  {'seconds':>8}  {'peak MB (one/all)':>17}  exit")
    for name, seconds, peak, code, _ in rows:
        print(f"{name:<{width}}  {seconds:8.1f}  {peak:>17}  {code:4d}")
    for name, _, _, code, log in rows:  # why a command failed: the last lines it printed
        lines = [line for line in log.splitlines() if line.strip()]
        if code != 0 and name != "generate (as it is)" and lines:
            print(f"{name}: exit {code}: " + " | ".join(lines[-2:])[-300:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of *.json schema files")
    parser.add_argument("--also-exclude", type=Path, metavar="FILE")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR (kept)")
    args = parser.parse_args()
    scratch = None if args.keep else tempfile.TemporaryDirectory(prefix="bench-adopt-")
    root = args.keep or Path(scratch.name)  # type: ignore[union-attr]
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(args.folder, root / "schemas")
    codegen = str(BIN / "maverick-codegen")
    rows: list[tuple[str, float, str, int, str]] = []

    def run(name: str, *command: str) -> str:
        seconds, peak, code, log = measured(root, *command, timeout=args.timeout)
        rows.append((name, seconds, peak, code, log))
        return log

    files = sum(1 for _ in (root / "schemas").rglob("*.json"))
    run("init", codegen, "init", "schemas")
    log = run("generate (as it is)", codegen, "generate")
    summary = re.search(r"error: (\d+) of (\d+) schema files .* refused \((\d+) reasons", log)
    run("init --exclude-refused", codegen, "init", "--exclude-refused")
    text = (root / "pyproject.toml").read_text()
    excluded = len(tomllib.loads(text)["tool"]["maverick-codegen"].get("exclude", []))
    rules = collections.Counter(
        rule.strip() for marks in _MARKS.findall(text) for rule in marks.split(",")
    )
    extra: list[str] = []
    if args.also_exclude:
        for line in args.also_exclude.read_text().splitlines():
            name = line.split("#", 1)[0].strip()
            if name:
                extra.append(f'  "schemas/{name}",  # the generator fails on it\n')
        (root / "pyproject.toml").write_text(
            text.replace("exclude = [\n", "exclude = [\n" + "".join(extra), 1)
        )
    log = run("generate (the rest)", codegen, "generate")
    made = re.search(r"^(\d+) contracts \(", log, re.MULTILINE)
    run(
        "datamodel-codegen (the folder as it is)",
        str(BIN / "datamodel-codegen"),
        "--input", "schemas", "--input-file-type", "jsonschema", "--output", "dmcg",
        "--output-model-type", "pydantic_v2.BaseModel",
    )  # fmt: skip
    # The same files as the second generate read, for datamodel-codegen too.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from codegen.core.config import load_config  # noqa: PLC0415
    from codegen.core.loader import schema_paths  # noqa: PLC0415

    config = load_config(root / "pyproject.toml")
    kept = schema_paths(config.schema_dir, config.loading.exclude)
    for name, path in kept:
        (root / "rest" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, root / "rest" / name)
    run(
        f"datamodel-codegen (the {len(kept)} files generate read)",
        str(BIN / "datamodel-codegen"),
        "--input", "rest", "--input-file-type", "jsonschema", "--output", "dmcg-rest",
        "--output-model-type", "pydantic_v2.BaseModel",
    )  # fmt: skip
    print(f"{files} schema files in {args.folder}")
    if summary:
        print(
            f"first generate: {summary[1]} of {summary[2]} files refused in one run, "
            f"{summary[3]} reasons"
        )
    print("rules of the refused files: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))
    print(f"init --exclude-refused: {excluded} files excluded; {len(extra)} more by --also-exclude")
    print(f"second generate: {made[1] if made else 'no'} contracts generated")
    _table(rows)


if __name__ == "__main__":
    main()
