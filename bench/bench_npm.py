"""Benchmark ``maverick-codegen export --npm`` on this project and on 500 synthetic schemas.

Prints, from one run (best of --repeat, each a fresh process, start-up included):
- ``export --npm DIR`` (the npm package: types, validator, schemas, package.json) and
  ``export --out DIR`` (the export alone) on this project, and their ratio: what the package
  costs beyond the export it is built from;
- the same on the 500-schema tree of ``bench_codegen.py`` (about eight fields each, with
  cross-file references), in a scratch git repository (``export --npm`` reads its tags);
- the size of the packed tarball of each (``npm pack``), when npm is on PATH.

Usage: python bench/bench_npm.py [--schemas 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_codegen import make_project, timed

REPO = Path(__file__).resolve().parent.parent
TABLE = '\n[tool.maverick-codegen.export]\nname = "bench-contracts"\nversion = "1.0.0"\n'


def exports(root: Path, config: Path, out: Path, repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` seconds of ``export --npm`` and of ``export --out``, interleaved."""
    npm, plain = float("inf"), float("inf")
    command = [sys.executable, "-m", "codegen", "--config", str(config), "export"]
    for _ in range(repeat):
        shutil.rmtree(out, ignore_errors=True)
        npm = min(npm, timed([*command, "--npm", str(out / "npm")], root))
        plain = min(plain, timed([*command, "--out", str(out / "export")], root))
    return npm, plain


def packed_size(folder: Path, into: Path) -> str:
    npm = shutil.which("npm")
    if npm is None:
        return "npm not on PATH"
    done = subprocess.run(
        [npm, "pack", "--json", "--pack-destination", str(into), str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)[0]
    files, unpacked = report["entryCount"], report["unpackedSize"]
    return f"{report['size']:,} bytes ({files} files, {unpacked:,} unpacked)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemas", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-npm-") as tmp:
        work = Path(tmp)
        ours = exports(REPO, REPO / "pyproject.toml", work / "ours", args.repeat)
        ours_size = packed_size(work / "ours" / "npm", work)
        bench = work / "bench"
        bench.mkdir()
        make_project(bench, args.schemas)
        (bench / "pyproject.toml").write_text((bench / "pyproject.toml").read_text() + TABLE)
        subprocess.run(["git", "init", "-q", str(bench)], check=True)
        synthetic = exports(bench, bench / "pyproject.toml", work / "synthetic", args.repeat)
        synthetic_size = packed_size(work / "synthetic" / "npm", work)
    for name, (npm, plain), size in (
        ("this project (33 contracts)", ours, ours_size),
        (f"{args.schemas} synthetic schemas", synthetic, synthetic_size),
    ):
        print(name)
        print(f"  export --npm DIR:         {npm:8.2f} s")
        print(f"  export --out DIR:         {plain:8.2f} s  (the export alone)")
        print(f"  ratio (npm / export):     {npm / plain:8.2f}x")
        print(f"  packed tarball:           {size}")


if __name__ == "__main__":
    main()
