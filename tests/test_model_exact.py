"""The generated models never do more or less than their schemas, on the suite's schemas.

Every group of the JSON-Schema-Test-Suite (every draft) is generated (``tests/_model_exact.py``
says how, in a few projects) and its model is tried on the suite's cases, on documents
hypothesis-jsonschema draws from the schema (or the cases, where it cannot) and their mutations,
and on JSON of every type. For each document:

* validation (``TypeAdapter(model).validate_json`` of its text, and ``validate_python`` of the
  parsed JSON) raises nothing but ``pydantic.ValidationError``;
* the model accepts it exactly when the schema does (the oracle: :func:`codegen.core.ecma.
  validator_at`, the file read as written, by its own draft);
* when accepted, each dump (``model_dump_json()``, ``model_dump_json(exclude_unset=True)``,
  ``model_dump(mode="json")``) is accepted by the schema and by the model again.
"""

from __future__ import annotations

import importlib
import json
import sys
import warnings
from pathlib import Path

import pydantic

from tests import _model_exact
from tests._judge import Judge


def test_models_raise_only_validation_errors_and_dump_what_the_schema_accepts(
    tmp_path: Path,
) -> None:
    projects = _model_exact.build(tmp_path)
    judge = Judge()
    for project in projects:
        sys.path.insert(0, str(project.root / "out"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for subject in project.subjects:
                    group = subject.group
                    module = importlib.import_module(f"{project.package}.suite.{group.name}")
                    adapter = pydantic.TypeAdapter(getattr(module, group.title))
                    oracle = _model_exact.oracle(project, subject)
                    where = f"{group.folder}/{group.rel} ({group.description})"
                    drawn, generated = _model_exact.documents(subject)
                    judge.counts["models"] += 1
                    judge.counts["groups"] += subject.stands_for
                    judge.counts["hypothesis-jsonschema"] += generated
                    texts = [json.dumps(d) for d in drawn] + list(_model_exact.JSON_TEXTS)
                    for text in dict.fromkeys(texts):
                        judge.document(where, adapter, oracle, text)
                    for text in _model_exact.DEEP_TEXTS:
                        judge.raises(where, adapter, text)
        finally:
            sys.path.remove(str(project.root / "out"))
            for name in [m for m in sys.modules if m.split(".")[0] == project.package]:
                del sys.modules[name]
    print(f"\n{len(projects)} projects: " + ", ".join(f"{k} {v}" for k, v in judge.counts.items()))
    assert judge.findings == [], judge.report()
