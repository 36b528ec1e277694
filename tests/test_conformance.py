"""Proof that each generated model and its canonical schema agree, contract by contract.

For every contract, hypothesis-jsonschema generates instances of the schema (see
``tests/_conformance.py`` for the self-contained schema it generates from; the draw, once per
session, is ``tests/_project_cases.py``'s, which the npm package's test judges too). Each
instance:

1. must be valid under the canonical schema (jsonschema, references resolved by file);
2. must be accepted by the model, from JSON text and from Python data;
3. must round-trip: ``model_dump(mode="json", exclude_unset=True)`` equals the input as JSON.
   ``exclude_unset`` because a schema instance states exactly the keys it has: defaults are
   not materialised by JSON Schema, so the dump must hold the given keys and only them (not
   ``exclude_none``, which would drop a given ``null``; not ``exclude_defaults``, which would
   drop a given default value). Numbers compare by value (``1 == 1.0`` in JSON), booleans
   never equal numbers. An open contract (ToolResult) accepts unknown keys, and its model
   ignores them: they are counted in the table, not compared.

Then a mutation of the instance (a dropped key, an unknown key, a value of another type, a
value past a bound, a rule's property flipped) is judged by jsonschema on the canonical
schema, and the model must give the same verdict. Explicit edge cases (inherited from the
former ``tests/_schema_selfcheck.py``) are judged the same way and must match the verdict
written next to them. A table of cases and disagreements per contract is printed at the
end of the module; any disagreement fails the contract's test with the smallest documents.
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from maverick.contracts import CONTRACTS
from tests._conformance import Tally, is_open, judge, same_json, shrink
from tests._project_cases import EDGE_CASES, TREE, drawn
from tests._schema_harness import validator_for

NAMES = sorted(CONTRACTS)
TALLIES: dict[str, Tally] = {}


@functools.cache
def _adapter(name: str) -> TypeAdapter[Any]:
    return TypeAdapter(CONTRACTS[name].model)


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    return validator_for(TREE, name)


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print the table of cases and disagreements once the module has run."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not TALLIES:
        return
    with capture.global_and_fixture_disabled():
        _write_table(reporter)


def _write_table(reporter: Any) -> None:
    header = (
        f"{'contract':<24}{'valid':>7}{'mutated':>9}{'(invalid)':>10}{'edge':>6}"
        f"{'unknown dropped':>17}{'disagreements':>15}"
    )
    reporter.write_sep("=", "schema/model conformance")
    reporter.write_line(header)
    for name, tally in sorted(TALLIES.items()):
        reporter.write_line(
            f"{name:<24}{tally.valid:>7}{tally.mutated:>9}{tally.mutated_invalid:>10}"
            f"{tally.edge:>6}{tally.unknown_keys_dropped:>17}{len(tally.disagreements):>15}"
        )
    total = sum(t.valid + t.mutated + t.edge for t in TALLIES.values())
    wrong = sum(len(t.disagreements) for t in TALLIES.values())
    reporter.write_line(f"{len(TALLIES)} contracts, {total} cases, {wrong} disagreements")


def _check_valid(name: str, tally: Tally, document: Any) -> None:
    validator = _validator(name)
    tally.valid += 1
    if not validator.is_valid(document):
        # The generation schema is not equivalent to the canonical one: a bug of the test.
        tally.disagree("generated instance invalid", document, _errors(validator, document))
        return
    verdict = judge(_adapter(name), document)
    if not (verdict.from_json and verdict.from_python):
        tally.disagree("valid, model rejects", document, f"json={verdict.from_json} "
                       f"python={verdict.from_python}")  # fmt: skip
        return
    if not validator.is_valid(verdict.written):
        written = json.dumps(verdict.written)
        detail = f"model_dump gave {written}: {_errors(validator, verdict.written)}"
        tally.disagree("what the model writes is invalid", document, detail)
    if same_json(verdict.dumped, document):
        return
    known = {k: v for k, v in document.items() if k in verdict.dumped}
    if is_open(TREE, name) and same_json(verdict.dumped, known):
        tally.unknown_keys_dropped += 1
    else:
        tally.disagree("round trip differs", document, f"dumped {verdict.dumped!r}")


def _check_judged(name: str, tally: Tally, document: Any, kind: str) -> bool:
    validator = _validator(name)
    expected = validator.is_valid(document)
    verdict = judge(_adapter(name), document)
    if (verdict.from_json, verdict.from_python) != (expected, expected):
        detail = f"jsonschema={expected} json={verdict.from_json} python={verdict.from_python}"
        tally.disagree(kind, document, detail)
    return expected


def _disagrees(name: str, document: Any) -> bool:
    """Whether jsonschema and the model judge ``document`` differently (for shrinking)."""
    expected = _validator(name).is_valid(document)
    verdict = judge(_adapter(name), document)
    return (verdict.from_json, verdict.from_python) != (expected, expected)


def _errors(validator: jsonschema.protocols.Validator, document: Any) -> str:
    return "; ".join(e.message for e in validator.iter_errors(document))[:300]


@pytest.mark.parametrize("name", NAMES)
def test_model_agrees_with_schema(name: str) -> None:
    tally = TALLIES[name] = Tally()
    for kind, document in drawn(name):
        if kind == "valid":
            _check_valid(name, tally, document)
            continue
        tally.mutated += 1
        if not _check_judged(name, tally, document, kind):
            tally.mutated_invalid += 1
    for contract, document, valid, why in EDGE_CASES:
        if contract == name:
            tally.edge += 1
            assert _validator(name).is_valid(document) is valid, why
            _check_judged(name, tally, document, f"edge case: {why}")
    if issubclass(CONTRACTS[name].model, enum.Enum):
        assert [m.value for m in CONTRACTS[name].model] == TREE.by_title[name].data["enum"]
    if tally.disagreements:
        shown = dict.fromkeys(
            f"  {kind}: {json.dumps(shrink(doc, functools.partial(_disagrees, name)))} ({detail})"
            for kind, doc, detail in tally.smallest()
        )
        cases = tally.valid + tally.mutated + tally.edge
        pytest.fail(
            f"{name}: {len(tally.disagreements)} of {cases} cases disagree; the smallest, "
            "shrunk:\n" + "\n".join(shown),
            pytrace=False,
        )
