"""Benchmark every job on one large schema file (5 MB), against plain datamodel-code-generator.

The schema is bench/large_schema.py's (draft-07, thousands of definitions, reference chains
hundreds deep, enums, oneOf, anyOf). Prints, from one run, each command a fresh process:

- ``maverick-codegen generate`` into an empty folder at a quarter, half and the whole size:
  seconds, seconds per MB (near-linear: the ratios stay close), peak memory;
- ``datamodel-codegen`` with its default options on the same whole file: seconds and peak
  memory (goal: ``generate`` faster and smaller);
- importing the generated models and validating one document, in a fresh process, and the
  same with datamodel-code-generator's models (whose classes all reach each other);
- ``check`` (by the records) and ``lint`` on the whole file;
- ``breaking --against HEAD`` after one pattern of one definition is narrowed (its finding and
  witness checked), at each size: seconds and peak memory, or past ``--breaking-timeout``.

Peak memory: the largest resident set of one process (the command or a process it started:
a worker), and, sampled every 0.25 s, of the command and its processes together.

Usage: python bench/bench_large.py [--definitions 1800] [--dmcg-timeout 1800]
       [--breaking-timeout 900]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from large_schema import large_text

BIN = Path(sys.executable).parent
_MEASURE = (
    "import os, resource, subprocess, sys, tempfile, time\n"
    "def tree_kb(root):\n"
    "    parents, sizes = {}, {}\n"
    "    for pid in filter(str.isdigit, os.listdir('/proc')):\n"
    "        try:\n"
    "            status = open(f'/proc/{pid}/status').read().split('\\n')\n"
    "        except OSError:\n"
    "            continue\n"
    "        fields = dict(line.split(':', 1) for line in status if ':' in line)\n"
    "        parents[int(pid)] = int(fields['PPid'])\n"
    "        sizes[int(pid)] = int(fields.get('VmRSS', '0 kB').split()[0])\n"
    "    total = 0\n"
    "    for pid in sizes:\n"
    "        up = pid\n"
    "        while up > 1 and up != root:\n"
    "            up = parents.get(up, 0)\n"
    "        total += sizes[pid] if up == root else 0\n"
    "    return total\n"
    "limit = float(os.environ['BENCH_TIMEOUT'])\n"
    "log = tempfile.TemporaryFile('w+')\n"  # a file, not a pipe: a full pipe would block it
    "start = time.perf_counter()\n"
    "child = subprocess.Popen(sys.argv[1:], stdout=log, stderr=subprocess.STDOUT, text=True)\n"
    "together = 0\n"
    "while child.poll() is None:\n"
    "    together = max(together, tree_kb(child.pid))\n"
    "    if time.perf_counter() - start > limit:\n"
    "        child.kill()\n"
    "        sys.exit(3)  # the command was killed\n"
    "    time.sleep(0.25)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(time.perf_counter() - start, peak, max(together, peak), child.returncode)\n"
    "log.seek(0)\n"
    "sys.stderr.write(log.read()[-4000:])\n"
)


def measured(
    cwd: Path, *command: str, timeout: float = 3600, env: dict[str, str] | None = None
) -> tuple[float, str, int, str]:
    """Seconds, peak memory (MB: of one process, of all together) and exit code of
    ``command`` in a fresh process (``env`` added to this one's; a variable set to "" is
    removed), its output; TimeoutExpired past ``timeout`` seconds."""
    environment = {**os.environ, **(env or {}), "BENCH_TIMEOUT": str(timeout)}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        cwd=cwd,
        env={k: v for k, v in environment.items() if v},
        capture_output=True,
        text=True,
        timeout=timeout + 60,
        check=False,
    )
    if done.returncode == 3:
        raise subprocess.TimeoutExpired(command, timeout)
    seconds, peak, together, code = done.stdout.split()
    return (
        float(seconds),
        f"{int(peak) / 1024:.0f}/{int(together) / 1024:.0f}",
        int(code),
        done.stderr,
    )


def project(root: Path, definitions: int) -> float:
    """A project holding the large schema; its size in MB."""
    (root / "schemas").mkdir(parents=True)
    text = large_text(definitions)
    (root / "schemas" / "large-config.json").write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/large"\n'
        'package = "large"\n',
        encoding="utf-8",
    )
    return len(text.encode()) / 1e6


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *args], cwd=root,
                   check=True, capture_output=True)  # fmt: skip


def breaking(root: Path, codegen: str, size: str, timeout: float) -> tuple[Any, ...]:
    """``breaking --against HEAD`` after one pattern of one definition is narrowed: seconds,
    peak memory, and whether its finding and witness were reported."""
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "large")
    schema = root / "schemas" / "large-config.json"
    data = json.loads(schema.read_text(encoding="utf-8"))
    data["definitions"]["d0"]["properties"]["field_0"]["pattern"] = "^[a-z0-9_]+$"
    schema.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    try:
        seconds, peak, code, log = measured(
            root, codegen, "breaking", "--against", "HEAD", timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return (f"breaking, {size}: past {timeout:.0f} s", None, None, None)
    found = "was tightened" in log and "(CONSTRAINT_TIGHTENED)" in log and "witness" in log
    return (f"breaking, {size}, one pattern narrowed (exit {code}, found: {found})", seconds,
            peak, None)  # fmt: skip


def use(folder: Path, module: str, name: str, *, again: bool = False) -> list[tuple[Any, ...]]:
    """Import ``module`` from ``folder`` and validate one document with its root model, in a
    fresh process that writes the module's bytecode (as Python does by default): seconds, peak
    memory, and how it ended; with ``again``, a second time, from the written bytecode."""
    document = json.dumps({"root": {"field_0": "abc"}, "items": [{"field_0": 1}]})
    script = (
        f"import sys; sys.path.insert(0, {str(folder)!r}); import {module} as m; "
        f"m.LargeConfiguration.model_validate_json({document!r})"
    )
    rows = []
    for when in ("first", "again") if again else ("first",):
        seconds, peak, code, log = measured(
            folder, sys.executable, "-c", script, env={"PYTHONDONTWRITEBYTECODE": ""}
        )
        ended = "RecursionError" if "RecursionError" in log else f"exit {code}"
        what = "compiled" if when == "first" else "from bytecode"
        rows.append((f"import {name} ({what}), validate ({ended})", seconds, peak, None))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--definitions", type=int, default=1800, help="1800 make 5 MB")
    parser.add_argument("--dmcg-timeout", type=float, default=1800)
    parser.add_argument("--breaking-timeout", type=float, default=900)
    args = parser.parse_args()
    codegen = str(BIN / "maverick-codegen")
    rows: list[tuple[Any, ...]] = []
    sizes: list[tuple[Path, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-large-") as tmp:
        for share in (4, 2, 1):
            root = Path(tmp) / f"share{share}"
            size = project(root, args.definitions // share)
            seconds, peak, code, log = measured(root, codegen, "generate")
            if code != 0:
                sys.exit(f"generate failed on {size:.1f} MB:\n{log}")
            rows.append((f"generate, {size:.2f} MB", seconds, peak, seconds / size))
            sizes.append((root, size))
        root = Path(tmp) / "share1"
        plain = Path(tmp) / "plain"
        plain.mkdir()
        try:
            seconds, peak, code, log = measured(
                plain,
                str(BIN / "datamodel-codegen"),
                "--input", str(root / "schemas" / "large-config.json"),
                "--input-file-type", "jsonschema",
                "--output-model-type", "pydantic_v2.BaseModel",
                "--output", str(plain / "models.py"),
                timeout=args.dmcg_timeout,
            )  # fmt: skip
            rows.append((f"datamodel-codegen, {size:.2f} MB (exit {code})", seconds, peak, None))
        except subprocess.TimeoutExpired:
            rows.append((f"datamodel-codegen: past {args.dmcg_timeout:.0f} s", None, None, None))
        rows += use(root / "out", "large.large_config", "our models", again=True)
        rows += use(plain, "models", "datamodel-codegen's")
        for name, command in (("check", ["check"]), ("lint", ["lint"])):
            seconds, peak, code, _ = measured(root, codegen, *command)
            rows.append((f"{name} (exit {code})", seconds, peak, None))
        for at, mb in sizes:  # after check and lint: it edits the schema
            rows.append(breaking(at, codegen, f"{mb:.2f} MB", args.breaking_timeout))
    print(f"{'command':<58}{'seconds':>9}{'peak MB one/all':>17}{'s per MB':>10}")
    for name, *values in rows:
        cells = [f"{v:.1f}" if isinstance(v, float) else v or "-" for v in values]
        print(f"{name:<58}{cells[0]:>9}{cells[1]:>17}{cells[2]:>10}")


if __name__ == "__main__":
    main()
