"""Benchmark maverick-codegen against the datamodel-codegen CLI on 500 synthetic schemas.

Prints, from one run:
- `maverick-codegen generate` (a fresh process, start-up included) on N schemas of about
  eight fields each with cross-file references, and its cost per schema;
- a loop running the `datamodel-codegen` CLI once per file (timed on a sample of files and
  scaled to N, unless --full), and the ratio (target: at least 50x);
- one plain `datamodel-codegen` CLI call over the same folder, and the ratio (target: <= 1x);
- `maverick-codegen check` on the unchanged tree, against `datamodel-codegen --check` on the
  same schemas (target: at most 0.2x).

Usage: python bench/bench_codegen.py [--schemas 500] [--sample 20] [--repeat 3] [--full]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"
FIELD_TYPES = [
    {"type": "string"},
    {"type": "integer", "minimum": 0},
    {"type": ["string", "null"], "default": None},
    {"type": "boolean", "default": False},
    {"type": "array", "items": {"type": "string"}, "default": []},
    {"type": "number", "maximum": 100},
]


def make_project(root: Path, count: int) -> None:
    schemas = root / "schemas" / "synthetic"
    schemas.mkdir(parents=True)
    for index in range(count):
        properties: dict[str, object] = {}
        for field in range(7):
            spec = dict(FIELD_TYPES[(index + field) % len(FIELD_TYPES)])
            spec["description"] = f"Field {field} of model {index}."
            if field >= 2 and "default" not in spec:  # optional: a default of its type
                spec["default"] = {"string": "", "integer": 0, "number": 0}[spec["type"]]
            properties[f"field_{field}"] = spec
        if index:
            properties["parent"] = {
                "anyOf": [{"$ref": f"model_{index // 2:04d}.json"}, {"type": "null"}],
                "default": None,
                "description": "A reference to another file.",
            }
        document = {
            "$schema": DRAFT,
            "$id": f"https://bench.example/synthetic/model_{index:04d}.json",
            "title": f"Model{index:04d}",
            "description": f"Synthetic model {index}.",
            "type": "object",
            "properties": properties,
            "required": ["field_0", "field_1"],
            "additionalProperties": False,
        }
        (schemas / f"model_{index:04d}.json").write_text(json.dumps(document, indent=2) + "\n")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/bench_models"\n'
        'package = "bench_models"\n'
    )


def timed(command: list[str], cwd: Path, expect: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in expect:
        raise SystemExit(f"{command[:3]} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed


# The options codegen/_dmcg.py passes, so that both sides generate the same models.
SAME_OPTIONS = [
    "--target-python-version", "3.11", "--schema-version", "2020-12", "--no-allow-remote-refs",
    "--use-title-as-name", "--use-schema-description", "--use-annotated", "--field-constraints",
    "--use-standard-collections", "--use-union-operator", "--use-double-quotes",
    "--use-exact-imports", "--strict-nullable", "--strict-types", "str", "int", "float", "bool",
    "--enable-faux-immutability", "--capitalise-enum-members", "--keep-model-order",
    "--strict-refs",
]  # fmt: skip


def dmcg(*args: str, same: bool = True) -> list[str]:
    return [
        str(BIN / "datamodel-codegen"),
        "--input-file-type", "jsonschema",
        "--output-model-type", "pydantic_v2.BaseModel",
        "--disable-timestamp",
        "--formatters", "builtin",
        *(SAME_OPTIONS if same else []),
        *args,
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemas", type=int, default=500)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the whole-tree runs")
    parser.add_argument("--full", action="store_true", help="run the per-file loop on every file")
    args = parser.parse_args()
    count = args.schemas
    with tempfile.TemporaryDirectory(prefix="bench-codegen-") as tmp:
        root = Path(tmp)
        make_project(root, count)
        ours, one_call, plain_call = float("inf"), float("inf"), float("inf")
        for _ in range(args.repeat):  # interleaved, best of N: the machine may be shared
            shutil.rmtree(root / "out", ignore_errors=True)
            ours = min(ours, timed([sys.executable, "-m", "codegen", "generate"], root))
            one_call = min(
                one_call, timed(dmcg("--input", "schemas/synthetic", "--output", "dmcg_out"), root)
            )
            plain_call = min(
                plain_call,
                timed(dmcg("--input", "schemas/synthetic", "--output", "plain", same=False), root),
            )
        files = sorted((root / "schemas" / "synthetic").glob("*.json"))
        sample = files if args.full else files[:: max(1, len(files) // args.sample)][: args.sample]
        loop_dir = root / "loop"
        loop_dir.mkdir()
        loop = sum(
            timed(dmcg("--input", str(f), "--output", str(loop_dir / f"{f.stem}.py")), root)
            for f in sample
        )
        loop_total = loop / len(sample) * count
        check_ours = min(timed([sys.executable, "-m", "codegen", "check"], root) for _ in range(5))
        check_dmcg = timed(
            dmcg("--input", "schemas/synthetic", "--output", "dmcg_out", "--check"),
            root,
            expect=(0, 1),
        )
        shutil.rmtree(root / "out", ignore_errors=True)
    scaled = "" if args.full else f" (mean of {len(sample)} runs x {count})"
    print(f"schemas: {count}, about 8 fields each, with cross-file $refs")
    print(
        f"maverick-codegen generate:          {ours:8.2f} s  ({ours / count * 1000:.1f} ms/schema)"
    )
    print(f"datamodel-codegen once per file:    {loop_total:8.2f} s{scaled}")
    print(f"  ratio (loop / ours):              {loop_total / ours:8.1f}x   target >= 50x")
    print(f"datamodel-codegen one call:         {one_call:8.2f} s  (same options as ours)")
    print(f"  ratio (ours / one call):          {ours / one_call:8.2f}x   target <= 1x")
    print(f"datamodel-codegen one plain call:   {plain_call:8.2f} s  (default options)")
    print(f"  ratio (ours / plain call):        {ours / plain_call:8.2f}x")
    print(f"maverick-codegen check (unchanged): {check_ours:8.3f} s  (best of 5)")
    print(f"datamodel-codegen --check:          {check_dmcg:8.3f} s")
    print(f"  ratio (ours / dmcg --check):      {check_ours / check_dmcg:8.3f}x   target <= 0.2x")


if __name__ == "__main__":
    main()
