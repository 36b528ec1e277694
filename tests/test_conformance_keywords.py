"""The keyword fixtures (tests/fixtures/keywords/): the generated models decide as the schema does.

``tests/_conformance.py`` proves this for the project's 29 contracts, which use few of the
keywords issue 9 made faithful; the fixture tree uses all of them (``pattern`` with ECMA-262
escapes, ``patternProperties``, ``propertyNames``, ``oneOf`` tagged and counting, ``not``,
``if``/``then``/``else`` and ``dependent*`` inside a property, ``prefixItems``, ``contains``,
decimal ``multipleOf``, exclusive bounds, a recursive ``$ref``, ``unevaluatedProperties``
beside a rule that declares a property...). ``tests/_keywords.py`` generates the tree once and
draws the documents (hypothesis-jsonschema candidates, their mutations, the examples and
explicit cases); the oracle is jsonschema with patterns read as ECMA-262, as the models and
Ajv read them. For every document of every contract:

1. the model (from JSON text and from Python data) gives the oracle's verdict;
2. an accepted document round-trips: ``model_dump(mode="json", exclude_unset=True)`` is the
   document as JSON (an open contract's unknown keys are dropped by its model: counted);
3. what the model writes (``model_dump(mode="json")``) is valid (a test of its own: it found
   optional properties of nested inline objects written as null when absent; now MISSING).

Each contract must have at least :data:`MINIMUM` valid and :data:`MINIMUM` invalid cases
judged, generated ones among them: generation from the simplified schema must keep working.
The same documents go to Ajv in ``tests/consumers/test_typescript.py``.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from tests._conformance import (
    Tally,
    Verdict,
    ecma_validator_for,
    is_open,
    judge,
    same_json,
    shrink,
)
from tests._keywords import EXPLICIT, KEYWORDS, Case, KeywordProject, keywords_used, titles

MINIMUM = 20  # valid and invalid cases judged per contract, at least
MINIMUM_GENERATED = 30  # candidates hypothesis-jsonschema drew that the oracle accepts
TALLIES: dict[str, Tally] = {}
KINDS: dict[str, Counter[str]] = {}


@functools.cache
def _adapter(project: KeywordProject, name: str) -> TypeAdapter[Any]:
    return TypeAdapter(project.contracts[name].model)


@functools.cache
def _oracle(project: KeywordProject, name: str) -> jsonschema.protocols.Validator:
    return ecma_validator_for(project.tree, name)


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print the table of cases and disagreements once the module has run."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not TALLIES:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_sep("=", "keyword fixtures: schema (ECMA-262 oracle) and model")
        reporter.write_line(
            f"{'contract':<14}{'valid':>7}{'invalid':>9}{'generated':>11}{'(invalid)':>11}"
            f"{'mutated':>9}{'explicit':>10}{'unknown dropped':>17}{'disagreements':>15}"
        )
        for name, tally in sorted(TALLIES.items()):
            kinds = KINDS[name]
            reporter.write_line(
                f"{name:<14}{tally.valid:>7}{tally.mutated_invalid:>9}{kinds['generated']:>11}"
                f"{kinds['generated invalid']:>11}{kinds['mutated']:>9}{kinds['explicit']:>10}"
                f"{tally.unknown_keys_dropped:>17}{len(tally.disagreements):>15}"
            )


def test_the_fixture_tree_uses_every_keyword() -> None:
    assert KEYWORDS - keywords_used() == set()


def test_explicit_cases_have_the_verdict_written_beside_them(
    keyword_project: KeywordProject,
) -> None:
    for name, document, valid, why in EXPLICIT:
        assert _oracle(keyword_project, name).is_valid(document) is valid, (name, why)


def _disagrees(project: KeywordProject, name: str, document: Any) -> bool:
    expected = _oracle(project, name).is_valid(document)
    verdict = judge(_adapter(project, name), document)
    return (verdict.from_json, verdict.from_python) != (expected, expected)


@functools.cache
def _verdict(project: KeywordProject, index: int, case: Case) -> Verdict:
    return judge(_adapter(project, case.name), case.document)


def _judge(project: KeywordProject, tally: Tally, index: int, case: Case) -> None:
    verdict = _verdict(project, index, case)
    if (verdict.from_json, verdict.from_python) != (case.valid, case.valid):
        detail = f"oracle={case.valid} json={verdict.from_json} python={verdict.from_python}"
        tally.disagree(case.kind, case.document, detail)
        return
    if not case.valid:
        tally.mutated_invalid += 1
        return
    tally.valid += 1
    if same_json(verdict.dumped, case.document):
        return
    known = {k: v for k, v in case.document.items() if k in verdict.dumped}
    if is_open(project.tree, case.name) and same_json(verdict.dumped, known):
        tally.unknown_keys_dropped += 1
    else:
        tally.disagree(case.kind, case.document, f"round trip gave {verdict.dumped!r}")


@pytest.mark.parametrize("name", titles())
def test_model_agrees_with_the_schema(
    name: str, keyword_project: KeywordProject, keyword_cases: list[Case]
) -> None:
    tally = TALLIES[name] = Tally()  # valid: accepted; mutated_invalid: refused (any kind)
    kinds = KINDS[name] = Counter()
    for index, case in enumerate(keyword_cases):
        if case.name == name:
            kind = case.kind.split(":")[0].split(" by ")[0]
            kinds[kind] += 1
            kinds[f"{kind} invalid"] += not case.valid
            _judge(keyword_project, tally, index, case)
    if tally.disagreements:
        shown = dict.fromkeys(
            f"  {kind}: "
            f"{json.dumps(shrink(doc, functools.partial(_disagrees, keyword_project, name)))}"
            f" ({detail})"
            for kind, doc, detail in tally.smallest()
        )
        pytest.fail(
            f"{name}: {len(tally.disagreements)} of {tally.valid + tally.mutated_invalid} "
            "cases disagree; the smallest, shrunk:\n" + "\n".join(shown),
            pytrace=False,
        )
    assert tally.valid >= MINIMUM, f"only {tally.valid} valid cases"
    assert tally.mutated_invalid >= MINIMUM or name == "ToolEvent", tally.mutated_invalid
    assert kinds["generated"] - kinds["generated invalid"] >= MINIMUM_GENERATED, kinds


@pytest.mark.parametrize("name", titles())
def test_what_the_model_writes_is_valid(
    name: str, keyword_project: KeywordProject, keyword_cases: list[Case]
) -> None:
    oracle = _oracle(keyword_project, name)
    invalid: list[tuple[Any, Any]] = []
    written = 0
    for index, case in enumerate(keyword_cases):
        if case.name == name and case.valid:
            verdict = _verdict(keyword_project, index, case)
            assert verdict.from_json, case  # test_model_agrees_with_the_schema says more
            written += 1
            if not oracle.is_valid(verdict.written):
                invalid.append((case.document, verdict.written))
    assert written >= MINIMUM
    if not invalid:
        return
    smallest = min(invalid, key=lambda pair: len(json.dumps(pair[0])))
    message = (
        f"{name}: for {len(invalid)} of {written} valid documents the model writes an invalid "
        f"one, e.g. {json.dumps(smallest[0])} -> {json.dumps(smallest[1])}"
    )
    pytest.fail(message, pytrace=False)
