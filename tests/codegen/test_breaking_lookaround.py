"""Patterns the automata cannot read exactly (lookaround, backreferences) in the breaking check.

Such a pattern is judged by the ECMA-262 engine on candidate strings; what must match it is
also kept as a language that holds all its matches (``matching_superset``), so that an
emptiness is still proved where the rest of the conjunction rules every string out, and a
property whose pattern cannot be decided does not hide a contradiction on another property.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from codegen.breaking.strings import Undecidable, matching, matching_superset
from codegen.breaking.table import Side, compare
from codegen.core.ecma import ecma_search
from codegen.core.loader import load_tree
from codegen.core.report import Finding

LOOKAROUND = [
    "^[a-z]+(?=x)x$", "a(?=b)b", "^(?!xy)", "a(?!b)", "(?<!a)b$", "^(?=.*\\d)(?=.*[a-z]).{4,}$",
    "(a)\\1", "(?<w>[ab])\\k<w>", "^(?:(?=a)b|c)$", "^(x)(?=\\1)", "(?<=a)(?<=[ab])c",
]  # fmt: skip
EXACT = [
    "^[a-z]+(?=x)", "(?<=a)b", "a(?=b)|c", "(?<=a)b|(?<=c)d$", "^a(?=$)", "x(?=y|z)",
    "(?<=^a)b", "(?<=a|bc)d", "(?<=\\d)x(?=\\s)",
]  # fmt: skip


def _strings(rng: random.Random, count: int) -> list[str]:
    alphabet = "abcdxyz019 \n"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(7))) for _ in range(count)]


@pytest.mark.parametrize("pattern", LOOKAROUND)
def test_the_superset_holds_every_match_of_a_pattern_the_automata_cannot_read(
    pattern: str,
) -> None:
    with pytest.raises(Undecidable):
        matching(pattern)
    superset = matching_superset(pattern)
    matched = [s for s in _strings(random.Random(pattern), 3000) if ecma_search(pattern, s)]
    assert matched  # the draw reaches the pattern's matches
    assert all(text in superset for text in matched)


@pytest.mark.parametrize("pattern", EXACT)
def test_a_lookaround_that_only_extends_the_match_is_read_exactly(pattern: str) -> None:
    """A lookahead that ends a top-level alternative, a lookbehind that starts one: the
    pattern is a search, so the condition is part of the match (a(?=b) as ab)."""
    language = matching(pattern)
    drawn = _strings(random.Random(pattern), 3000)
    assert any(ecma_search(pattern, s) for s in drawn)
    assert [s for s in drawn if (s in language) != ecma_search(pattern, s)] == []


@pytest.mark.parametrize("pattern", ["^[a-z]+$", "a|b", "^\\d{2,4}-x$", "\\bfoo"])
def test_the_superset_of_a_readable_pattern_is_its_language(pattern: str) -> None:
    assert matching_superset(pattern) == matching(pattern)


def _tree(root: Path, contract: dict[str, Any]) -> Side:
    (root / "schemas").mkdir(parents=True)
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/note.json",
        "title": "Note",
        "description": "A note.",
        **contract,
    }
    (root / "schemas" / "note.json").write_text(json.dumps(document), encoding="utf-8")
    return Side(load_tree(root / "schemas"), "schemas")


def _findings(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[Finding]:
    return [
        f
        for f in compare(_tree(tmp_path / "old", old), _tree(tmp_path / "new", new))
        if f.categories != ("CODEGEN",)
    ]


def _text(pattern: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"text": {"type": "string", "pattern": pattern, "description": "Text."}},
        "required": ["text"],
        "additionalProperties": False,
    }


def test_a_widening_from_a_lookahead_pattern_is_proved_compatible(tmp_path: Path) -> None:
    """Every match of ^(?=[a-z]{2})[a-z]+$ starts with a letter: the new pattern ^[a-z] accepts
    all of them (before: CHANGE_UNPROVEN, no candidate reaching a verdict). Old readers of new
    data are still told apart, with a witness."""
    old = "^(?=[a-z]{2})[a-z]+$"
    found = _findings(tmp_path, _text(old), _text("^[a-z]"))
    assert [(f.categories, f.rule) for f in found] == [(("DATA_FORWARD",), "CONSTRAINT_LOOSENED")]
    witness = json.loads(found[0].witness or "{}")
    assert ecma_search("^[a-z]", witness["text"])
    assert not ecma_search(old, witness["text"])


def test_a_tightening_by_a_negative_lookahead_is_found_and_nothing_else(tmp_path: Path) -> None:
    """New data still loads in old readers: every match of ^(?!ab)[a-z]+$ is one of
    ^[a-z]+$, proved on the superset (before: CHANGE_UNPROVEN for DATA_FORWARD)."""
    found = _findings(tmp_path, _text("^[a-z]+$"), _text("^(?!ab)[a-z]+$"))
    assert [(f.categories, f.rule) for f in found] == [(("DATA_BACKWARD",), "CONSTRAINT_TIGHTENED")]
    assert json.loads(found[0].witness or "{}")["text"].startswith("ab")


def test_an_undecided_pattern_does_not_hide_a_closed_object(tmp_path: Path) -> None:
    """Old readers may refuse new data at the pattern (which the candidates may not decide),
    but never for another property: additionalProperties is false in both versions, and an
    object with an extra property is refused whatever its "text" (before: a second
    CHANGE_UNPROVEN, at additionalProperties)."""
    # Old readers refuse "qqq!", but the shortest candidates inside the superset do not reach it.
    found = _findings(tmp_path, _text("^[a-z]*$"), _text("^(?=(?:[a-z]*q){3})[a-z]*!$"))
    forward = [f for f in found if f.categories == ("DATA_FORWARD",)]
    unproven = ("CHANGE_UNPROVEN", "/properties/text/pattern")
    assert [(f.rule, f.pointer) for f in forward] == [unproven]
    assert all(f.pointer.startswith("/properties/text") for f in found), found
    backward = [f for f in found if f.categories == ("DATA_BACKWARD",)]
    assert [f.rule for f in backward] == ["CONSTRAINT_TIGHTENED"]


PAIRED = [
    "^[a-z]+(?=x)", "(?<=a)b", "^(?!ab)[a-z]+$", "a(?!b)", "^[a-z]+$", "x(?=y|z)",
    "^(?=[a-z]{2})[a-z]+$", "(a)\\1", "^(?=.*\\d)[a-z0-9]+$", "(?<!a)b", "^[a-z]*x", "^(?=a)",
]  # fmt: skip


def test_no_pattern_change_passes_silently_and_every_witness_separates(tmp_path: Path) -> None:
    """Every ordered pair of these patterns, both directions: where a drawn string separates
    the two, a finding is reported (a witness, or CHANGE_UNPROVEN); every witness separates."""
    drawn = _strings(random.Random(7), 3000)
    silent, unproven, cases = [], 0, 0
    for index, (old, new) in enumerate(itertools.permutations(PAIRED, 2)):
        found = _findings(tmp_path / str(index), _text(old), _text(new))
        for direction, (accepts, refuses) in (
            ("DATA_BACKWARD", (old, new)),
            ("DATA_FORWARD", (new, old)),
        ):
            cases += 1
            said = [f for f in found if f.categories == (direction,)]
            unproven += any(f.rule == "CHANGE_UNPROVEN" for f in said)
            separating = next(
                (s for s in drawn if ecma_search(accepts, s) and not ecma_search(refuses, s)), None
            )
            if separating is not None and not said:
                silent.append((direction, old, new, separating))
            for finding in said:
                if finding.witness is not None:
                    text = json.loads(finding.witness)["text"]
                    assert ecma_search(accepts, text), (direction, old, new, text)
                    assert not ecma_search(refuses, text), (direction, old, new, text)
    assert silent == []
    assert cases == 2 * len(PAIRED) * (len(PAIRED) - 1)
    print(f"\n{cases} cases, {unproven} unproven, 0 silent")
