"""``breaking`` on real schema histories: every change decided, right, and located.

``tests/fixtures/history/real/`` holds 8 pairs of consecutive versions of real schemas
(SchemaStore, Apache-2.0: ``tests/fixtures/history/LICENSE``), a seeded subset (seed 33) of
the 60 pairs of the shared schema-history folder, copied by ``bench/bench_history.py --export``;
``assembled/`` holds small pairs written here in the shapes issue 33 met (a oneOf told apart by
a ``using`` enum gaining a value, an anyOf of objects under a new root description or
re-indented and reordered, a draft-07 file whose messages must name ``#/definitions/...``,
properties deleted from a closed object, an anyOf told apart by required properties, a
definition renamed with its references in a draft-04 file). Each pair
goes through :func:`codegen.breaking.table.compare` (both directions) and is judged by
:mod:`tests._history`: every witness by both schemas (python-jsonschema with the file's draft,
and the ECMA-262 oracle), every finding's place, and seeded documents sampled from both
versions (a walker of each schema, and mutations) for silent passes. The whole history runs in
``bench/bench_history.py`` (60 pairs, with hypothesis-jsonschema and real documents).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._history import HistoryPair, Verdict, check_pair, read_history

HISTORY = Path(__file__).resolve().parent / "fixtures" / "history"
PAIRS = [*read_history(HISTORY / "real"), *read_history(HISTORY / "assembled")]
WALKED = 30  # walker documents per version (each also mutated twice)

_VERDICTS: dict[str, Verdict] = {}


def _verdict(pair: HistoryPair) -> Verdict:
    if pair.name not in _VERDICTS:
        _VERDICTS[pair.name] = check_pair(pair, seed=0, walked=WALKED, drawn=0)
    return _VERDICTS[pair.name]


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_every_change_is_decided_right(pair: HistoryPair) -> None:
    verdict = _verdict(pair)
    assert not verdict.error, verdict.error
    shown = "\n".join(
        f"  {f.rule} {f.categories} {f.pointer}: {f.message}" for f in verdict.findings
    )
    assert not verdict.silent, f"silent passes: {verdict.silent}\nthe check said:\n{shown}"
    assert not verdict.bad_witnesses, "\n".join(verdict.bad_witnesses)
    assert not verdict.unchanged, "\n".join(verdict.unchanged)
    assert not verdict.internal, "\n".join(verdict.internal)
    assert not verdict.unproven, shown
    for finding in verdict.findings:
        if any(c.startswith("DATA_") for c in finding.categories):
            assert finding.witness is not None, finding


@pytest.mark.parametrize("pair", [p for p in PAIRS if p.expect is not None], ids=lambda p: p.name)
def test_a_hand_made_pair_yields_what_it_was_written_to(pair: HistoryPair) -> None:
    found = sorted((f.rule, f.categories) for f in _verdict(pair).findings)
    assert found == sorted(pair.expect or ()), [f.message for f in _verdict(pair).findings]


def test_the_sampled_documents_reach_the_changes() -> None:
    """The silent-pass check is not vacuous: the sampled documents alone separate the versions
    of most pairs the check finds a break in."""
    verdicts = [_verdict(p) for p in PAIRS]
    broken = [v for v in verdicts if v.directions()]
    reached = [v for v in broken if v.sampled_apart]
    assert len(broken) >= 8, [v.pair.name for v in broken]
    assert len(reached) >= len(broken) // 2, [v.pair.name for v in broken if not v.sampled_apart]
