"""Real schemas no one here wrote (tests/corpus/): OpenAPI, Swagger, Ajv's, tools' schemas.

Every file of these sources generates (or is refused as ``tests/_corpus.py`` lists, with a rule
docs/schemas.md names) and every stored document is decided by the generated model as
python-jsonschema decides it (the file's own draft, ECMA-262 patterns): no disagreement, no
crash. ``tests/test_corpus_protocols.py`` runs the other sources (a module each, so that the
two run side by side); ``bench/bench_corpus.py`` prints the table beside plain
datamodel-code-generator's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import _corpus

# Every source but those tests/test_corpus_protocols.py and test_corpus_schemastore.py run.
SOURCES = tuple(s for s in _corpus.sources() if s not in (*_corpus.PROTOCOLS, _corpus.SCHEMASTORE))
# The page that lists each refusal with its rule ("What is refused").
REFUSALS = Path(__file__).resolve().parent.parent / "docs" / "schemas.md"


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[_corpus.Outcome]:
    return _corpus.run_maverick(tmp_path_factory.mktemp("corpus"), SOURCES)


def test_every_file_generates_or_is_a_listed_refusal_and_every_document_agrees(
    outcomes: list[_corpus.Outcome],
) -> None:
    table, total = _corpus.table(outcomes)
    print(f"\n{table}")
    assert _corpus.broken(outcomes, REFUSALS.read_text(encoding="utf-8")) == []
    wanted = [f for s, files in _corpus.sources().items() if s in SOURCES for f in files]
    assert sorted(o.rel for o in outcomes) == sorted(wanted)
    assert total["disagree"] == total["crash"] == total["crashed"] == 0
    assert total["agree"] == total["documents"] > 0


def test_the_corpus_records_each_file_origin_and_licence() -> None:
    files = _corpus.manifest()
    assert len(files) >= 40
    on_disk = sorted(
        p.relative_to(_corpus.CORPUS / "schemas").as_posix()
        for p in (_corpus.CORPUS / "schemas").rglob("*.json")
    )
    assert sorted(f["file"] for f in files) == on_disk
    page = (_corpus.CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for entry in files:
        assert all(entry[k] for k in ("package", "version", "path", "licence", "documents"))
        for name in entry["licence_file"].split(", "):
            text = (_corpus.CORPUS / "licences" / name).read_text(encoding="utf-8")
            assert "Copyright" in text or "License" in text, name
        assert f"`{entry['file']}`" in page
        documents = json.loads((_corpus.CORPUS / "documents" / entry["file"]).read_text())
        referenced = entry["documents"].startswith("none: a schema the others reference")
        assert documents or referenced or entry["file"] in _corpus.REFUSED, entry["file"]


def test_the_documents_hold_valid_and_invalid_ones(outcomes: list[_corpus.Outcome]) -> None:
    """A corpus of documents all valid (or all invalid) would prove little."""
    verdicts = [expected for o in outcomes for expected, _, _ in o.verdicts]
    assert 0.2 * len(verdicts) < sum(verdicts) < 0.8 * len(verdicts)
