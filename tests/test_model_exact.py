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
import traceback
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pydantic

from tests import _model_exact


class _Judge:
    """The findings and counts of one run."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.findings: list[str] = []

    def find(self, subject: _model_exact.Subject, text: str, what: str) -> None:
        self.findings.append(f"{subject.group.rel} ({subject.group.description}): {text[:160]}"
                             f"\n    {what}")  # fmt: skip

    def validate(self, adapter: Any, text: str) -> tuple[bool, Any, str]:
        """Accepted, the value, or what else than a ValidationError was raised."""
        try:
            value = adapter.validate_json(text)
        except pydantic.ValidationError:
            return False, None, ""
        except Exception as exc:
            return False, None, "".join(traceback.format_exception_only(exc)).strip()
        return True, value, ""

    def dumps(self, adapter: Any, value: Any) -> dict[str, Any]:
        if isinstance(value, pydantic.BaseModel):
            return {
                "model_dump_json()": json.loads(value.model_dump_json()),
                "model_dump_json(exclude_unset=True)": json.loads(
                    value.model_dump_json(exclude_unset=True)
                ),
                'model_dump(mode="json")': value.model_dump(mode="json"),
            }
        return {
            "dump_json()": json.loads(adapter.dump_json(value)),
            'dump_python(mode="json")': adapter.dump_python(value, mode="json"),
        }

    def raises(self, subject: _model_exact.Subject, adapter: Any, text: str) -> bool:
        """Whether validating ``text`` raised anything but a ValidationError (a finding)."""
        self.counts["documents"] += 1
        _, _, error = self.validate(adapter, text)
        if error:
            self.find(subject, text, f"validate_json raised {error}")
        try:
            adapter.validate_python(json.loads(text))
        except pydantic.ValidationError:
            pass
        except Exception as exc:
            self.find(subject, text, f"validate_python raised {exc!r}")
            return True
        return bool(error)

    def document(self, subject: _model_exact.Subject, adapter: Any, oracle: Any, text: str) -> None:
        if self.raises(subject, adapter, text):
            return
        instance = json.loads(text)
        accepted, value, _ = self.validate(adapter, text)
        if accepted != oracle.is_valid(instance):
            verdict = "accepts" if accepted else "refuses"
            self.find(subject, text, f"the model {verdict} it, the schema does not")
        if not accepted:
            return
        self.counts["accepted"] += 1
        try:
            dumps = self.dumps(adapter, value)
        except Exception as exc:
            self.find(subject, text, f"dumping raised {exc!r}")
            return
        for how, dumped in dumps.items():
            self.counts["dumps"] += 1
            dumped_text = json.dumps(dumped)
            again, _, error = self.validate(adapter, dumped_text)
            if error or not again or not oracle.is_valid(dumped):
                by = "the schema" if not oracle.is_valid(dumped) else "the model"
                self.find(subject, text, f"{how} wrote {dumped_text[:160]}: refused by {by} "
                          f"{error}")  # fmt: skip


def test_models_raise_only_validation_errors_and_dump_what_the_schema_accepts(
    tmp_path: Path,
) -> None:
    projects = _model_exact.build(tmp_path)
    judge = _Judge()
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
                    drawn, generated = _model_exact.documents(subject)
                    judge.counts["models"] += 1
                    judge.counts["groups"] += subject.stands_for
                    judge.counts["hypothesis-jsonschema"] += generated
                    texts = [json.dumps(d) for d in drawn] + list(_model_exact.JSON_TEXTS)
                    for text in dict.fromkeys(texts):
                        judge.document(subject, adapter, oracle, text)
                    for text in _model_exact.DEEP_TEXTS:
                        judge.raises(subject, adapter, text)
        finally:
            sys.path.remove(str(project.root / "out"))
            for name in [m for m in sys.modules if m.split(".")[0] == project.package]:
                del sys.modules[name]
    print(f"\n{len(projects)} projects: " + ", ".join(f"{k} {v}" for k, v in judge.counts.items()))
    firsts = {f.split(":")[0] + f.split("\n")[1][:30]: f for f in reversed(judge.findings)}
    assert judge.findings == [], f"{len(judge.findings)} findings, the first of each kind:\n" + (
        "\n".join(list(firsts.values())[:40])
    )
