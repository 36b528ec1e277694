"""Real schemas no one here wrote (tests/corpus/): the MCP and A2A protocols' pydantic exports,
and the JSON Schema metaschemas and vocabularies of every draft (jsonschema-specifications).

As tests/test_corpus.py, for these sources: every file generates, every stored document is
decided by the generated model as python-jsonschema decides it, no crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import _corpus

SOURCES = _corpus.PROTOCOLS

# The page that lists each refusal with its rule ("What is refused").
REFUSALS = Path(__file__).resolve().parent.parent / "docs" / "schemas.md"


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[_corpus.Outcome]:
    return _corpus.run_maverick(tmp_path_factory.mktemp("corpus"), SOURCES)


def test_every_file_generates_and_every_document_agrees(outcomes: list[_corpus.Outcome]) -> None:
    table, total = _corpus.table(outcomes)
    print(f"\n{table}")
    assert _corpus.broken(outcomes, REFUSALS.read_text(encoding="utf-8")) == []
    wanted = [f for s, files in _corpus.sources().items() if s in SOURCES for f in files]
    assert sorted(o.rel for o in outcomes) == sorted(wanted)
    assert total["generated"] == total["schemas"]
    assert total["disagree"] == total["crash"] == total["crashed"] == 0
    assert total["agree"] == total["documents"] > 0


def test_the_documents_hold_valid_and_invalid_ones(outcomes: list[_corpus.Outcome]) -> None:
    verdicts = [expected for o in outcomes for expected, _, _ in o.verdicts]
    assert 0.2 * len(verdicts) < sum(verdicts) < 0.8 * len(verdicts)
