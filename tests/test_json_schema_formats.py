"""The suite's optional ``format`` tests (draft-07, 2020-12) through models of both settings.

``formats = "assert"``: every group's schema becomes a contract of a project that asserts
formats (``tests/_suite.py``, all groups of a draft in one project, as one ``generate``), and
every case is validated in JSON mode by the generated model: no case may disagree with the suite,
and at least :data:`MINIMUM_JUDGED` of them are judged. The one group refused is the suite's
``unknown`` format (a format no model checks is refused at generate time, naming the file, the
pointer and the format: never passed silently), and its refusal is checked. The counts per
format file are printed (``pytest -s``).

``formats = "annotate"`` (the default): the same groups, where ``format`` is an annotation, as
the specification says: every case is valid, whatever the string.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import _suite

FOLDERS = ("draft7/optional/format", "draft2020-12/optional/format")
# Groups, cases: the optional format tests of each draft at the vendored commit.
SIZES = {FOLDERS[0]: (26, 676), FOLDERS[1]: (28, 764)}
MINIMUM_JUDGED = 0.9
REFUSED = {"unknown"}  # the format files whose groups a project that asserts refuses


def _run(folder: str, formats: str, workdir: Path) -> list[_suite.Result]:
    found = _suite.groups(folder=folder, formats=formats)
    together = [g for g in found if formats == "annotate" or g.keyword not in REFUSED]
    results = _suite.run_maverick_batch(together, workdir)
    results += [_suite.run_maverick(g, workdir) for g in found if g not in together]
    return results


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[_suite.Result]]:
    workdir = tmp_path_factory.mktemp("formats")
    return {
        (folder, formats): _run(folder, formats, workdir)
        for folder in FOLDERS
        for formats in ("assert", "annotate")
    }


def test_the_format_tests_are_vendored_beside_the_required_ones() -> None:
    for folder, (groups, cases) in SIZES.items():
        found = _suite.groups(folder=folder)
        assert (len(found), sum(len(g.cases) for g in found)) == (groups, cases), folder
        # Each schema says its format and nothing else: annotated, every case is valid.
        assert all(set(g.schema) <= {"$schema", "format"} for g in found)
    assert "optional/format" in (_suite.FOLDER / "README.md").read_text()


def _problems(found: list[_suite.Result], refusable: set[str]) -> list[str]:
    broken = [
        f"{r.group.rel} ({r.group.description}): {r.status}: {r.detail}"
        for r in found
        if r.status in ("crashed", "import failed", "set aside")
        or (r.status == "refused" and r.group.keyword not in refusable)
    ]
    return broken + [
        f"{r.group.rel}: {case.description}: {error}"
        for r in found
        if r.status == "generated"
        for case, error in zip(r.group.cases, r.case_errors, strict=True)
        if error
    ]


@pytest.mark.parametrize("folder", FOLDERS)
def test_asserted_formats_decide_as_the_suite(
    results: dict[tuple[str, str], list[_suite.Result]], folder: str
) -> None:
    found = results[(folder, "assert")]
    table, total = _suite.table(found)
    judged = total["agree"] + total["disagree"]
    print(f"\n{folder}, formats = assert: {judged} of {sum(total.values())} judged\n{table}")
    assert _problems(found, REFUSED) == []
    assert [d for r in found for d in r.disagreements()] == []
    assert judged >= MINIMUM_JUDGED * sum(total.values()), table
    # docs/json-schema-support.md states these figures (tests/_suite.py FORMAT_FIGURES).
    draft = _suite.DRAFTS[folder.partition("/")[0]]
    assert _suite.FORMAT_FIGURES[draft] == (judged, sum(total.values()))
    refused = [r for r in found if r.status == "refused"]
    assert [r.group.keyword for r in refused] == ["unknown"]
    for result in refused:
        *reasons, summary = result.detail.split("\n")
        assert _suite.SUMMARY.fullmatch(summary), result.detail
        assert all(_suite.REFUSAL.fullmatch(line) for line in reasons), result.detail
        assert "format 'unknown'" in result.detail
        assert "(FORMAT)" in result.detail
        assert " at /format" in result.detail


@pytest.mark.parametrize("folder", FOLDERS)
def test_annotated_formats_accept_every_string(
    results: dict[tuple[str, str], list[_suite.Result]], folder: str
) -> None:
    found = results[(folder, "annotate")]
    assert _problems(found, set()) == []
    refused = [
        f"{r.group.rel}: {case.description}"
        for r in found
        for case, accepted in zip(r.group.cases, r.accepted, strict=True)
        if not accepted
    ]
    assert refused == []
    assert sum(len(r.accepted) for r in found) == SIZES[folder][1]
