"""The drift check on an unchanged tree: `maverick-codegen check` against `datamodel-codegen
--check`, each a fresh process, on one project's schemas (this repository's by default).

Prints, from one run (interleaved, best of N: the machine may be shared):
- `maverick-codegen check` on the project as it is (generated files up to date);
- `datamodel-codegen --check` on the same schema folder, against its own output generated once
  beforehand (the options bench_codegen.py passes, so that both generate the same models);
- the ratio (target: at most 0.2x), and how many modules our check imports (the command line
  imports only the subcommand that runs: no pydantic, datamodel-code-generator, referencing or
  jinja2 for a comparison of records).

Usage: python bench/bench_check.py [--project DIR] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_codegen import dmcg, timed

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("pydantic", "datamodel_code_generator", "referencing", "jinja2", "jsonschema", "attrs")


def imported(project: Path) -> tuple[int, list[str]]:
    """How many modules a check imports, and which of the heavy packages among them."""
    probe = (
        "import sys, json\n"
        "from codegen.cli import main\n"
        "before = set(sys.modules)\n"
        "code = main(['check'])\n"
        "print(json.dumps([code, sorted(set(sys.modules) - before)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=project, capture_output=True, text=True, check=True
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    if code != 0:
        raise SystemExit(f"check exits {code} on {project}: regenerate first")
    heavy = sorted({m.split(".")[0] for m in modules if m.split(".")[0] in HEAVY})
    return len(modules), heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=REPO, help="folder of pyproject.toml")
    parser.add_argument("--repeat", type=int, default=7, help="best of N, interleaved")
    args = parser.parse_args()
    project = args.project.resolve()
    sys.path.insert(0, str(REPO))
    from codegen.core.config import load_config  # noqa: PLC0415

    schemas = load_config(project / "pyproject.toml").schema_dir
    ours_cmd = [sys.executable, "-m", "codegen", "check"]
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        out = Path(tmp) / "dmcg_out"
        timed(dmcg("--input", str(schemas), "--output", str(out)), project)
        theirs_cmd = dmcg("--input", str(schemas), "--output", str(out), "--check")
        ours = theirs = float("inf")
        for _ in range(args.repeat):
            ours = min(ours, timed(ours_cmd, project))
            theirs = min(theirs, timed(theirs_cmd, project, expect=(0, 1)))
    count, heavy = imported(project)
    print(f"project: {project} ({sum(1 for _ in schemas.rglob('*.json'))} schema files)")
    print(f"maverick-codegen check (unchanged): {ours:8.3f} s  (best of {args.repeat})")
    print(f"datamodel-codegen --check:          {theirs:8.3f} s  (best of {args.repeat})")
    print(f"  ratio (ours / dmcg --check):      {ours / theirs:8.3f}x   target <= 0.2x")
    print(f"modules the check imports: {count}; heavy packages among them: {heavy or 'none'}")


if __name__ == "__main__":
    main()
