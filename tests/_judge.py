"""Judge a generated model on JSON texts: what it raises, its verdict, and its dumps.

:class:`Judge` records a finding when validating a text (``validate_json``, and
``validate_python`` of the parsed JSON) raises anything but ``pydantic.ValidationError``, when
the model's verdict is not the oracle's, and when a dump of an accepted document
(``model_dump_json()``, with ``exclude_unset=True``, ``model_dump(mode="json")``; for a class
that is no model, ``TypeAdapter.dump_json``/``dump_python``) is refused by the oracle or by the
model. ``tests/test_model_exact.py`` and ``tests/codegen/test_model_shapes.py`` use it.
"""

from __future__ import annotations

import json
import traceback
from collections import Counter
from typing import Any

import pydantic

from tests._conformance import same_json


class Judge:
    """The findings and counts of one run."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.findings: list[str] = []

    def find(self, where: str, text: str, what: str) -> None:
        self.findings.append(f"{where}: {text[:160]}\n    {what}")

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
            "dump_json(exclude_unset=True)": json.loads(
                adapter.dump_json(value, exclude_unset=True)
            ),
            'dump_python(mode="json")': adapter.dump_python(value, mode="json"),
        }

    def raises(self, where: str, adapter: Any, text: str) -> tuple[bool, Any] | None:
        """Validate ``text`` (JSON mode, then Python mode on the parsed JSON): the JSON verdict
        and value, or None when anything but a ValidationError was raised (a finding)."""
        self.counts["documents"] += 1
        accepted, value, error = self.validate(adapter, text)
        if error:
            self.find(where, text, f"validate_json raised {error}")
        try:
            adapter.validate_python(json.loads(text))
        except pydantic.ValidationError:
            pass
        except Exception as exc:
            self.find(where, text, f"validate_python raised {exc!r}")
            return None
        return None if error else (accepted, value)

    def document(self, where: str, adapter: Any, oracle: Any, text: str) -> None:
        verdict = self.raises(where, adapter, text)
        if verdict is None:
            return
        accepted, value = verdict
        instance = json.loads(text)
        if accepted != oracle.is_valid(instance):
            said = "accepts" if accepted else "refuses"
            self.find(where, text, f"the model {said} it, the schema does not")
        if not accepted:
            return
        self.counts["accepted"] += 1
        try:
            dumps = self.dumps(adapter, value)
        except Exception as exc:
            self.find(where, text, f"dumping raised {exc!r}")
            return
        for how, dumped in dumps.items():
            self.counts["dumps"] += 1
            dumped_text = json.dumps(dumped)
            again, _, error = self.validate(adapter, dumped_text)
            if error or not again or not oracle.is_valid(dumped):
                by = "the schema" if not oracle.is_valid(dumped) else "the model"
                self.find(where, text, f"{how} wrote {dumped_text[:160]}: refused by {by} "
                          f"{error}")  # fmt: skip
            elif "unset" in how and not same_json(dumped, instance):
                self.find(where, text, f"{how} wrote {dumped_text[:160]}, not what it read")

    def report(self, shown: int = 40) -> str:
        """The findings, the first of each place and kind."""
        firsts: dict[tuple[str, str], str] = {}
        for finding in self.findings:
            where, what = finding.split(": ", 1)[0], finding.split("\n    ", 1)[1]
            firsts.setdefault((where, what.split(" ", 2)[1]), finding)
        shown_ones = list(firsts.values())[:shown]
        return f"{len(self.findings)} findings, the first of each kind:\n" + "\n".join(shown_ones)
