"""The corpus of real schemas (tests/corpus/) through a generator, every document judged.

Each source folder of ``tests/corpus/schemas/`` becomes one project (its files as they were
shipped, ``default_draft = "2020-12"`` for the files without ``$schema``: the pydantic exports),
``maverick-codegen generate`` runs once on it, and every stored document of every file is
validated in JSON mode by the file's generated class (``TypeAdapter(model).validate_json``) and
by python-jsonschema with the file's own draft and ECMA-262 patterns
(:func:`codegen.core.ecma.validator_at`, reading the file as written). A document *agrees* when
both accept it or both refuse it; a *crash* is any exception from the model other than
``pydantic.ValidationError``. The files listed in :data:`REFUSED` run alone, in a project of
their own, and must be refused with their rule.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import re
import shutil
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from tests._suite import importable

CORPUS = Path(__file__).resolve().parent / "corpus"
# The files no generator here can take, each with the rule of its refusal and the construct the
# documentation lists as refused (docs/schemas.md, "What is refused").
REFUSED = {
    "jsonschema-draft3/draft3-metaschema.json": (
        "DRAFT",
        "draft-03 is not one of the five drafts (an unknown $schema)",
    ),
    "openapi-dialects/oas3.1-metaschema.json": (
        "NO_REMOTE_REF",
        "refers to https://spec.openapis.org/oas/3.1/meta/base, a document the package does not "
        "ship (a URL no [tool.maverick-codegen.refs] mapping leads to)",
    ),
}
# The sources tests/test_corpus_protocols.py runs (tests/test_corpus.py runs the others, but
# SchemaStore's, which tests/test_corpus_schemastore.py runs with documents of its own shape).
PROTOCOLS = ("a2a", "mcp", "jsonschema-metaschemas")
SCHEMASTORE = "schemastore"
COLUMNS = ("schemas", "generated", "refused", "documents", "agree", "disagree", "crash")


@dataclass
class Outcome:
    """What became of one file: generated (with each document's verdicts), refused or crashed."""

    rel: str
    status: str  # generated | refused | crashed
    detail: str = ""
    verdicts: list[tuple[bool, bool | None, str]] = field(default_factory=list)
    # per document: python-jsonschema's verdict, the model's (None when it crashed), the error

    def counts(self) -> Counter[str]:
        tally = Counter({"schemas": 1, self.status: 1, "documents": len(self.verdicts)})
        for expected, accepted, _ in self.verdicts:
            key = "crash" if accepted is None else "agree" if accepted == expected else "disagree"
            tally[key] += 1
        return tally

    def problems(self) -> list[str]:
        documents = json.loads((CORPUS / "documents" / self.rel).read_text(encoding="utf-8"))
        return [
            f"{self.rel} document {i}: python-jsonschema says "
            f"{'valid' if expected else 'invalid'}, the model "
            f"{error or ('accepts' if accepted else 'refuses')}: {json.dumps(documents[i])[:150]}"
            for i, (expected, accepted, error) in enumerate(self.verdicts)
            if accepted != expected
        ]


def manifest() -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = json.loads((CORPUS / "sources.json").read_text())["files"]
    return files


def sources() -> dict[str, list[str]]:
    """Each source folder and its files (paths below ``schemas/``)."""
    found: dict[str, list[str]] = {}
    for entry in manifest():
        found.setdefault(entry["source"], []).append(entry["file"])
    return found


def _project(workdir: Path, name: str, files: list[str]) -> tuple[Path, str]:
    project = workdir / name
    package = "corpus_" + name.replace("-", "_").replace(".", "_")
    for rel in files:
        target = project / "schemas" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / "schemas" / rel, target)
    (project / "pyproject.toml").write_text(
        f'[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/{package}"\n'
        f'package = "{package}"\ndefault_draft = "2020-12"\n',
        encoding="utf-8",
    )
    return project, package


def judge(rel: str, model: Any, oracle: Callable[[Any], bool]) -> Outcome:
    """Every stored document of ``rel`` through ``model`` (JSON mode) and ``oracle``."""
    adapter = pydantic.TypeAdapter(model)
    verdicts: list[tuple[bool, bool | None, str]] = []
    for document in json.loads((CORPUS / "documents" / rel).read_text(encoding="utf-8")):
        expected = oracle(document)
        try:
            adapter.validate_json(json.dumps(document))
        except pydantic.ValidationError:
            verdicts.append((expected, False, ""))
        except Exception as exc:  # anything else from a model is a crash
            verdicts.append((expected, None, traceback.format_exception_only(exc)[-1].strip()))
        else:
            verdicts.append((expected, True, ""))
    return Outcome(rel, "generated", verdicts=verdicts)


def _generate(project: Path) -> tuple[int, str]:
    from codegen.cli import main

    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["--config", str(project / "pyproject.toml"), "generate"], io.StringIO())
    return code, stderr.getvalue().strip()


def run_maverick(workdir: Path, only: Collection[str] | None = None) -> list[Outcome]:
    """``maverick-codegen generate`` once per source folder (of ``only``, else every one),
    then every document judged."""
    from codegen.core.config import load_config
    from codegen.core.ecma import tree_registry, validator_at
    from codegen.core.loader import load_tree

    outcomes: list[Outcome] = []
    for rel in REFUSED:
        if only is not None and rel.split("/")[0] not in only:
            continue
        project, _package = _project(workdir, "refused-" + rel.replace("/", "-"), [rel])
        code, stderr = _generate(project)
        outcomes.append(Outcome(rel, "refused" if code == 2 else "crashed", stderr))
    for source, listed in sources().items():
        files = [f for f in listed if f not in REFUSED]
        if not files or (only is not None and source not in only):
            continue
        project, package = _project(workdir, source, files)
        code, stderr = _generate(project)
        if code != 0:
            outcomes += [Outcome(rel, "crashed", f"exit {code}: {stderr}") for rel in files]
            continue
        config = load_config(project / "pyproject.toml")
        tree = load_tree(project / "schemas", options=config.loading)
        registry = tree_registry(tree)
        with importable(project / "out", package):
            for schema in tree.files:
                rel = schema.rel.as_posix()
                try:
                    module = importlib.import_module(".".join((package, *schema.module_parts)))
                except Exception as exc:  # a module that does not import: the file crashed
                    detail = traceback.format_exception_only(exc)[-1].strip()
                    outcomes.append(Outcome(rel, "crashed", f"import failed: {detail}"))
                    continue
                oracle = validator_at(registry, schema).is_valid
                outcomes.append(judge(rel, getattr(module, schema.title), oracle))
    return sorted(outcomes, key=lambda o: o.rel)


def table(outcomes: list[Outcome]) -> tuple[str, Counter[str]]:
    """One row per source and a total row."""
    rows: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        rows.setdefault(outcome.rel.split("/")[0], Counter()).update(outcome.counts())
    total: Counter[str] = Counter()
    for counts in rows.values():
        total.update(counts)
    width = max(len(k) for k in [*rows, "source"])

    def line(name: str, counts: Counter[str]) -> str:
        crash = counts["crash"] + counts["crashed"]
        cells = [counts[c] if c != "crash" else crash for c in COLUMNS]
        return f"{name:<{width}} " + " ".join(f"{c:>9}" for c in cells)

    header = f"{'source':<{width}} " + " ".join(f"{c:>9}" for c in COLUMNS)
    lines = [header, *(line(k, rows[k]) for k in sorted(rows)), line("total", total)]
    return "\n".join(lines) + "\n", total


# A refusal: the file, line and column, the message, the JSON pointer, the rule id.
REFUSAL = re.compile(r"[^\n]+?:\d+:\d+: .+ at /\S* \((?P<rule>[A-Z][A-Z0-9_]*)\)")


def broken(outcomes: list[Outcome], refusals: str) -> list[str]:
    """Every file that neither generated nor was refused as :data:`REFUSED` says, with a rule
    docs/schemas.md lists; every document the model decides otherwise than python-jsonschema."""
    found = []
    for outcome in outcomes:
        if outcome.rel in REFUSED:
            m = REFUSAL.fullmatch(outcome.detail.split("\n", 1)[0])  # (then the summary)
            rule = REFUSED[outcome.rel][0]
            if outcome.status != "refused" or m is None or m["rule"] != rule:
                found.append(f"{outcome.rel}: expected a refusal ({rule}): {outcome.detail}")
            elif f"(`{rule}`" not in refusals:
                found.append(f"{outcome.rel}: docs/schemas.md lists no refusal {rule}")
        elif outcome.status != "generated":
            found.append(f"{outcome.rel}: {outcome.status}: {outcome.detail[:600]}")
        found += outcome.problems()
    return found
