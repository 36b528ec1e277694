"""A seeded subset of SchemaStore's schemas for tests/corpus/ (tests/corpus/gather.py).

From a folder in SchemaStore's layout (tests/_schemastore.py; the project's owners keep one
beside the repository, not part of it), the schemas whose shapes made the generator fail or
decide wrongly (:data:`FOUND`, each fixed and kept here so that it stays fixed), and a seeded
sample of the others by draft and by shape (:func:`subset`), each with the schemas of the folder
it references (:data:`SIBLINGS`), copied unchanged to ``schemas/schemastore/``; their test and
negative test documents (JSON, YAML and TOML read as JSON data) and the documents
hypothesis-jsonschema draws from them are stored in ``documents/schemastore/``. The test
(tests/test_corpus_schemastore.py) adds seeded edits of each document.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from tests import _schemastore

COMMIT = "3b6446ad8"  # SchemaStore/schemastore, as the folder's README says
SOURCE = "schemastore"
# Schemas whose shapes the generator failed on (issue 29), each with what went wrong.
FOUND = {
    "apibuilder": "a definition named Field (pydantic's name)",
    "asmdef": "a $ref to an array definition took null",
    "aspire-8.0": "$defs keys with dots, read as module paths",
    "avro-avsc": "a class named by the generator otherwise, a string forward reference",
    "bamboo-spec": "an inline object took a definition's name (valid documents refused)",
    "bigquery-table": "a definition named Field",
    "cargo-make": "a class named by the generator otherwise",
    "chrome-manifest": "a chain of references took null",
    "devup": "a class named by the generator otherwise",
    "glazewm": "$defs keys with dots",
    "jdt": "$defs keys with dots",
    "maestro-flow": "a class named by the generator otherwise",
    "pre-commit-config": "two dashed files, a reference from a nested object (a traceback)",
    "rudder-techniques": "references into $defs of $defs (keys with slashes)",
    "size-limit": "a root array's default made null valid",
    "vtestunit-schema": "references into definitions' members (keys with slashes), read twice",
    "webextension": "a deprecated root model raised on every document",
    "yamlfmt": "references into $defs of $defs (keys with slashes)",
    "enonic-xp-cms-8.0.0-B5": "a $ref to a non-class definition took null",
}
SAMPLE = 40  # other schemas, seeded, of at most MAX_BYTES with their references
MAX_BYTES = 30_000
MAX_DOCUMENT = 50_000  # characters of a stored document's JSON
REAL = 12  # test documents (and as many negative ones) kept per schema
DRAWN = 5


def subset(folder: _schemastore.Folder, refused: set[str]) -> list[str]:
    """:data:`FOUND` and a seeded sample of the other schemas with test documents whose
    references resolve in the folder (each draft, and shapes the sample is stratified by:
    allOf of references, patternProperties, if/then, oneOf, dependencies)."""
    rng = random.Random(29)
    shapes: dict[str, list[str]] = {}
    for name in folder.names():
        if name in FOUND or name in refused or not (folder.root / "test" / name).is_dir():
            continue
        members = _schemastore.closure(folder, name)
        size = sum((folder.schemas / f"{m}.json").stat().st_size for m in members)
        if size > MAX_BYTES:
            continue
        text = (folder.schemas / f"{name}.json").read_text(encoding="utf-8")
        shape = next(
            (s for s in ('"allOf"', '"patternProperties"', '"if"', '"oneOf"', '"dependencies"',
                         "2019-09", "2020-12", "draft-04") if s in text),
            "other",
        )  # fmt: skip
        shapes.setdefault(shape, []).append(name)
    picked: list[str] = []
    while len(picked) < SAMPLE and any(shapes.values()):
        for shape in sorted(shapes):
            if shapes[shape] and len(picked) < SAMPLE:
                picked.append(shapes[shape].pop(rng.randrange(len(shapes[shape]))))
    return sorted([*FOUND, *picked])


def gather(root: Path, here: Path, refused: set[str], licence_file: str) -> list[dict[str, Any]]:
    """Copy the subset and its documents below ``here``; the manifest's entries."""
    folder = _schemastore.Folder(root)
    subjects = subset(folder, refused)
    files = sorted({m for name in subjects for m in _schemastore.closure(folder, name)})
    entries = []
    for name in files:
        target = here / "schemas" / SOURCE / f"{name}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder.schemas / f"{name}.json", target)
        documents, said = _documents(folder, name) if name in subjects else ([], "")
        stored = here / "documents" / SOURCE / f"{name}.json"
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(json.dumps(documents, indent=1) + "\n", encoding="utf-8")
        entries.append({
            "file": f"{SOURCE}/{name}.json", "source": SOURCE,
            "package": "SchemaStore/schemastore (GitHub)", "version": COMMIT,
            "path": f"src/schemas/json/{name}.json", "licence": "Apache-2.0",
            "licence_file": licence_file,
            "documents": said or "none: a schema the others reference",
            **({"why": FOUND[name]} if name in FOUND else {}),
        })  # fmt: skip
    return entries


def _documents(folder: _schemastore.Folder, name: str) -> tuple[list[Any], str]:
    """The stored documents of ``name``: its test documents, its negative ones, drawn ones;
    each as ``{"kind": ..., "document": ...}`` (SchemaStore's verdict is the kind's)."""
    found: list[Any] = []
    for kind in ("test", "negative"):
        documents = [d for k, _, d in folder.documents(name) if k == kind]
        small = [d for d in documents if len(json.dumps(d)) <= MAX_DOCUMENT][:REAL]
        found += [{"kind": kind, "document": d} for d in small]
    schema = json.loads((folder.schemas / f"{name}.json").read_text(encoding="utf-8"))
    drawn, _ = _schemastore.drawn(schema, DRAWN, _schemastore.seed_of(name), 10.0)
    small = [d for d in drawn if len(json.dumps(d)) <= MAX_DOCUMENT]
    found += [{"kind": "drawn", "document": d} for d in small]
    kinds = [k for k in ("test", "negative") if any(f["kind"] == k for f in found)]
    said = "SchemaStore's " + " and ".join(f"{k} documents" for k in kinds)
    said += "; drawn by hypothesis-jsonschema" if small else ""
    return found, said + "; 10 seeded edits of each at test time"
