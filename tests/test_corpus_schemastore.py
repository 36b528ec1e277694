"""SchemaStore's schemas in tests/corpus/schemastore/: every one generates, every document is
decided as python-jsonschema decides it (issue 29).

A seeded subset (tests/corpus/schemastore.py: the schemas whose shapes made the generator fail,
and a sample by draft and shape) lies in one schema folder, as a user's folder holds siblings,
SchemaStore's URLs mapped to it; ``maverick-codegen generate`` runs once. Each schema's stored
documents (SchemaStore's test and negative test documents, hypothesis-jsonschema's draws) and
:data:`tests._schemastore.EDITS` seeded edits of each (:func:`tests._schemastore.edits`: half a
value of another type, a key removed or an unknown key added, half closer to valid) are judged
in JSON mode by its generated class and by python-jsonschema with the file's own draft and
ECMA-262 patterns: no disagreement, no crash.
``bench/bench_corpus.py FOLDER`` does the same for a whole folder, one schema at a time.
"""

from __future__ import annotations

import importlib
import json
import shutil
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import pydantic
import pytest

from codegen.core.config import load_config
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree
from tests import _corpus, _schemastore
from tests._suite import importable
from tests._typed import count_modules
from tests.conftest import run
from tests.corpus.schemastore import FOUND, SOURCE

SCHEMAS = _corpus.CORPUS / "schemas" / SOURCE
DOCUMENTS = _corpus.CORPUS / "documents" / SOURCE


# The share of vague fields (tests/_typed.py) of these models may not grow back (issue 30):
# 2.2% when measured (70 of 3,155 fields; 3.0% before wider types were copied from references,
# branches and allOf entries).
VAGUE_SHARE = 0.025


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("schemastore")


@pytest.fixture(scope="module")
def verdicts(project: Path) -> dict[str, list[Any]]:
    """Each schema's documents (stored, then edited): (kind, truth, the model's, error)."""
    shutil.copytree(SCHEMAS, project / "schemas")
    refs = "".join(f'"{host}" = "schemas"\n' for host in _schemastore.HOSTS)
    (project / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/store"\n'
        f'package = "store"\n\n[tool.maverick-codegen.refs]\n{refs}',
        encoding="utf-8",
    )
    code, out = run(project, "generate")
    assert code == 0, out
    tree = load_tree(project / "schemas", options=load_config(project / "pyproject.toml").loading)
    registry = tree_registry(tree)
    found: dict[str, list[Any]] = {}
    with importable(project / "out", "store"):
        for schema in tree.files:
            stored = json.loads((DOCUMENTS / schema.rel).read_text(encoding="utf-8"))
            if not stored:
                continue  # a schema the others reference
            module = importlib.import_module(".".join(("store", *schema.module_parts)))
            adapter = pydantic.TypeAdapter(getattr(module, schema.title))
            judge = validator_at(registry, schema).is_valid
            name = schema.rel.stem
            originals = [d["document"] for d in stored if d["kind"] != "drawn"]
            documents = [(d["kind"], d["document"]) for d in stored]
            documents += [("edit", d) for d in _schemastore.edits(name, originals)]
            found[name] = [(kind, judge(d), *_model(adapter, d), d) for kind, d in documents]
    return found


def _model(adapter: pydantic.TypeAdapter[Any], document: Any) -> tuple[bool | None, str]:
    try:
        adapter.validate_json(json.dumps(document))
    except pydantic.ValidationError:
        return False, ""
    except Exception as exc:  # anything else from a model is a crash
        return None, traceback.format_exception_only(exc)[-1].strip()
    return True, ""


def test_every_schema_generates_and_decides_every_document_as_python_jsonschema(
    verdicts: dict[str, list[Any]],
) -> None:
    wrong = [
        f"{name} {kind}: python-jsonschema says {'valid' if truth else 'invalid'}, the model "
        f"{error or ('accepts' if accepted else 'refuses')}: {json.dumps(document)[:200]}"
        for name, rows in verdicts.items()
        for kind, truth, accepted, error, document in rows
        if accepted != truth
    ]
    tally = Counter(kind for rows in verdicts.values() for kind, *_ in rows)
    print(f"\n{len(verdicts)} schemas, documents: {dict(tally)}")
    assert wrong == []
    assert set(FOUND) <= set(verdicts)  # every schema kept for what went wrong is judged
    assert tally["edit"] >= 10 * (tally["test"] + tally["negative"]) > 0


def test_the_documents_hold_valid_and_invalid_ones(verdicts: dict[str, list[Any]]) -> None:
    truths = [truth for rows in verdicts.values() for _, truth, *_ in rows]
    assert 0.2 * len(truths) < sum(truths) < 0.8 * len(truths)


def test_the_models_say_what_their_fields_hold(
    verdicts: dict[str, list[Any]], project: Path
) -> None:
    """Few fields are ``Any`` (or a map or list of anything): the vague share stays low."""
    modules = [
        p.read_text(encoding="utf-8")
        for p in (project / "out" / "store").rglob("*.py")
        if not p.name.startswith("_")
    ]
    counts = count_modules(modules)
    assert counts["fields"] > 2000, counts
    assert counts["vague"] / counts["fields"] <= VAGUE_SHARE, counts
