"""Cross-field rules: jsonschema and the generated model give the same verdict.

Run on the golden inheritance case (a base contract with a rule and a subclass with two more):
every example, then every example with each pair of rule properties set to every candidate
value (absent, null, empty, the rules' constants...), judged from JSON text and from Python.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator

import pytest

from tests._schema_harness import load, model_accepts, mutations, rules_with_bases, validator_for
from tests.conftest import GOLDEN

CASE = GOLDEN / "inheritance_rules"


@pytest.fixture(scope="module")
def golden_package() -> Iterator[object]:
    sys.path.insert(0, str(CASE / "expected"))
    try:
        yield importlib.import_module("golden_contracts")
    finally:
        sys.path.remove(str(CASE / "expected"))
        for name in [n for n in sys.modules if n.startswith("golden_contracts")]:
            del sys.modules[name]


@pytest.mark.parametrize("title", ["BaseResult", "CheckResult"])
def test_rule_verdicts_agree(title: str, golden_package: object) -> None:
    tree = load(CASE / "schemas")
    rules = rules_with_bases(tree, title)
    model = getattr(golden_package, title)
    validator = validator_for(tree, title)
    accepted = rejected = 0
    for document in mutations(rules, tree.by_title[title].data["examples"]):
        expected = validator.is_valid(document)
        from_json, from_python = model_accepts(model, document)
        assert from_json == expected, (document, list(validator.iter_errors(document)))
        assert from_python == expected, document
        accepted += expected
        rejected += not expected
    # The mutations exercise both sides of every rule.
    assert accepted > 5
    assert rejected > 5


def test_rule_error_carries_the_description(golden_package: object) -> None:
    model = golden_package.CheckResult  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="When status is FAIL, at least one problem") as info:
        model.model_validate({"success": True, "status": "FAIL"})
    assert info.value.errors()[0]["type"] == "schema_rule"
    with pytest.raises(Exception, match="When success is false, error must be a non-empty"):
        model.model_validate({"success": False, "error": ""})
