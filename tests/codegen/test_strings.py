"""codegen.breaking.strings against the ECMA-262 oracle (regress, as ecma_search calls it).

The differential test draws strings for every pattern of the project's schemas, of the keyword
fixtures, of the fuzzer and for hand-written tricky ones, and checks that a string is in
``matching(p)`` exactly when ``ecma_search(p, s)``. The draws mix ASCII, line terminators,
Unicode spaces (and near misses such as U+180E and U+200B), letters of several scripts, digits
that are not ``\\d``, astral code points and code points assigned after Python's Unicode
version; they are mutated from the language's own members too, so that anchored patterns are
hit on both sides of their border.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator

import pytest
from greenery import Fsm

from codegen.breaking.strings import (
    PatternError,
    Strings,
    Undecidable,
    anything,
    charsets,
    length_between,
    literal,
    matching,
    nothing,
    one_of,
)
from codegen.core.ecma import ecma_search
from tests import _fuzz
from tests._patterns import project_patterns

PROJECT = project_patterns()
TRICKY = [
    # anchors inside alternatives and groups, anchors that can never hold
    "^a|b$", "(^a|b)c", "a(b$|c)", "(?:^|,)x(?:,|$)", "a^b", "a$b", "^$", "$^",
    "(^)+a", "^(?:a|)$", "(a|^)b",
    # $ before a newline, . against line terminators
    "a$", "^a.$", "a.b", "^.*$", "^.+$", "[^]", "^[^]*$", ".\\n", "\\r\\n$",
    # \s against Unicode spaces, \S, \w, \W, \d, \D
    "\\s", "^\\s+$", "^\\S+$", "\\w+", "^\\W$", "^\\d+$", "\\D", "[\\s\\d]", "[^\\s\\w]",
    # word boundaries
    "\\ba", "a\\b", "\\Bb", "^\\b", "\\b$", "\\b\\B", "\\bfoo\\b", "(?:\\b|a)c",
    # astral code points, escapes, classes
    "😀", "^.$", "^[😀-😂]$", "\\u{1F600}", "\\uD83D\\uDE00", "[\\u{10400}-\\u{1044F}]",
    "\\x41", "\\u0041", "\\cJ", "\\0", "\\t\\v\\f", "[\\b]", "[\\-a]", "[a-]", "[-a]",
    "[\\]\\\\]", "[^a-z]", "[a-cx-z]", "[--/]", "\\/", "\\.\\*\\+\\?", "[.]", "[]", "a[]b",
    # Unicode properties (general categories and scripts)
    "\\p{L}", "^\\p{Lu}", "\\P{L}", "^\\p{N}+$", "\\p{Nd}", "[\\p{L}\\p{N}_]", "[^\\p{L}]",
    "\\p{Letter}", "\\p{gc=Ll}", "\\p{General_Category=Zs}", "\\p{Script=Greek}",
    "\\p{sc=Cyrl}", "\\p{scx=Arab}", "\\p{Alphabetic}", "\\p{ASCII}", "\\p{Any}",
    # quantifiers: lazy, bounded, nested, empty alternatives
    "a+?", "^a*?$", "^a{2}$", "^a{2,}$", "^a{2,3}$", "^(?:ab){1,3}$", "a{0}", "^a{0,2}?b",
    "^(a|)+$", "(|a)", "a||b", "^(?:a?){3}$", "^(?<y>\\d{4})-(?<m>\\d{2})$", "(a*)*b",
    "^[a-z]{1,300}$", "[a-z]{1,300}",
]  # fmt: skip
FUZZ = list(dict.fromkeys([*_fuzz.KEY_PATTERNS, *_fuzz.PATTERNS]))
PATTERNS = list(dict.fromkeys([*PROJECT, *FUZZ, *TRICKY]))

ALPHABET = [
    *"abcxyzAZ019_-./:, ",
    *"\n\r\u2028\u2029\t\x0b\x0c\x00",
    *"\xa0\u1680\u2000\u200a\u202f\u205f\u3000\ufeff\u180e\u200b\x85",
    *"éßΩжЖ中اב١",
    "\u212a",  # KELVIN SIGN: a \w only under the i flag
    "\U00010400", "\U0001d538", "😀", "😂",
    "\U0001e030", "\U00031350", "\u0870",  # assigned after Unicode 14 (Python 3.11)
]  # fmt: skip


def _mutations(rng: random.Random, text: str) -> Iterator[str]:
    yield text
    for _ in range(3):
        at = rng.randint(0, len(text))
        yield text[:at] + rng.choice(ALPHABET) + text[at:]
        if text:
            at = rng.randrange(len(text))
            yield text[:at] + text[at + 1 :]
            yield text[:at] + rng.choice(ALPHABET) + text[at + 1 :]
    yield rng.choice(ALPHABET) + text
    yield text + rng.choice(ALPHABET)


def _draws(pattern: str, language: Strings, count: int = 150) -> Iterator[str]:
    rng = random.Random(pattern)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))
    for member in [*language.examples(8), *(~language).examples(4)]:
        yield from _mutations(rng, member)


def test_the_patterns_come_from_the_project() -> None:
    assert "^\\p{Lu}{2,5}-\\d{1,6}$" in PROJECT
    assert "^[A-Z_][A-Z0-9_]*$" in PROJECT  # a patternProperties key
    assert len(PATTERNS) > 100


@pytest.mark.parametrize("pattern", PATTERNS)
def test_membership_agrees_with_ecma_search(pattern: str) -> None:
    language = matching(pattern)
    wrong = [s for s in _draws(pattern, language) if (s in language) != ecma_search(pattern, s)]
    assert not wrong, f"{pattern!r} decided wrongly for {wrong[:5]!r}"


@pytest.mark.parametrize("pattern", PATTERNS)
def test_examples_match_and_counterexamples_do_not(pattern: str) -> None:
    language = matching(pattern)
    members = language.examples(5)
    assert len(set(members)) == len(members)
    assert all(ecma_search(pattern, s) for s in members)
    assert all(not ecma_search(pattern, s) for s in (~language).examples(5))
    assert language.is_empty() == (not members)
    if members:
        assert language.example() == members[0]
        assert language.example(excluding={members[0]}) == (members[1:] or [None])[0]


_PIECES = ["a", "b", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "\\p{L}", "\\n", "😀",
           "[a-c\\s]", "é", "^", "$", "\\b", "\\B", ""]  # fmt: skip


def _pattern(rng: random.Random, depth: int = 0, quantified: bool = False) -> str:
    """A random pattern. A quantifier never holds another one: regress mis-answers some
    nested loops (``(?:(?:.+)+)+b`` finds no match in ``xb``, where V8 and the automaton do)."""
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(_PIECES)
    if roll < 0.55:
        return "".join(_pattern(rng, depth + 1, quantified) for _ in range(rng.randint(2, 3)))
    if roll < 0.75 or quantified:
        options = (_pattern(rng, depth + 1, quantified) for _ in range(rng.randint(2, 3)))
        return "(?:" + "|".join(options) + ")"
    quantifier = rng.choice(["*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "{2,3}?"])
    return "(?:" + _pattern(rng, depth + 1, True) + ")" + quantifier


def test_generated_patterns_agree_with_ecma_search() -> None:
    rng = random.Random(16)
    checked = 0
    for _ in range(250):
        pattern = _pattern(rng)
        try:
            language = matching(pattern)
        except PatternError:  # e.g. a quantified assertion
            continue
        wrong = [
            s for s in _draws(pattern, language, 40) if (s in language) != ecma_search(pattern, s)
        ]
        assert not wrong, f"{pattern!r} decided wrongly for {wrong[:5]!r}"
        checked += 1
    assert checked > 200


def test_shortest_readable_examples() -> None:
    assert matching("^[a-z][a-z0-9_]*$").example() == "a"
    assert matching("^\\d{4}-\\d{2}-\\d{2}$").example() == "0000-00-00"
    assert matching("^(https?|ftp)://").example() == "ftp://"
    assert matching("^[A-Z]{2,3}$").examples(3) == ["AA", "AB", "AC"]
    assert matching("\\p{L}").example() == "a"
    assert matching("^\\s$").example() == " "
    assert matching("^[^a-zA-Z0-9]$").example() == " "
    assert matching("^x{3,}$").examples(3) == ["xxx", "xxxx", "xxxxx"]
    assert one_of(["b", "a", "ab"]).examples(5) == ["a", "b", "ab"]


@pytest.mark.parametrize(
    ("narrow", "wide", "equal"),
    [
        ("^[a-c]+$", "^[a-z]+$", False),
        ("^a+$", "^aa*$", True),
        ("\\d", "[0-9]", True),
        ("^a", "a", False),
        ("^\\d{4}-\\d{2}-\\d{2}$", "^[0-9-]+$", False),
        ("(?:^|x)a", "a", False),
        ("^\\p{Lu}{2,5}-\\d{1,6}$", "^\\p{L}+-\\d+$", False),
        ("a|b", "[ab]", True),
        ("^(https?|ftp)://", "://", False),
        ("\\bfoo\\b", "foo", False),
        ("^.*$", "^[^\\n\\r\\u2028\\u2029]*$", True),
    ],
)
def test_inclusion(narrow: str, wide: str, equal: bool) -> None:
    small, large = matching(narrow), matching(wide)
    assert small <= large
    assert (small == large) is equal
    assert large.issubset(small) is equal
    witness = (large - small).example()
    if equal:
        assert witness is None
    else:
        assert witness is not None
        assert ecma_search(wide, witness)
        assert not ecma_search(narrow, witness)


def test_lengths_are_code_points_and_never_unrolled() -> None:
    assert (matching("^[a-z]{2}$") & length_between(0, 1)).is_empty()
    assert "😀😀" in length_between(2, 2)
    assert "😀" not in length_between(2, 2)
    long = matching("^[a-z]+$") & length_between(5000, 10000)
    assert long.example() == "a" * 5000
    grown = length_between(0, 10000) - length_between(0, 5000)
    assert grown.example() == "a" * 5001
    assert not length_between(0, 10000) <= length_between(0, 9999)
    assert length_between(3, 3) & matching("^a*$") == literal("aaa")
    assert length_between(5, 2).is_empty()
    assert (anything() - length_between(1)).examples(3) == [""]
    huge = matching("^a+$") & length_between(10**9)
    assert not huge.is_empty()
    with pytest.raises(Undecidable, match="witness") as caught:
        huge.example()
    assert str(caught.value).startswith("cannot decide \"'^a+$' & (length 1000000000..)\"")


def test_set_algebra() -> None:
    a, b = matching("^a"), matching("b$")
    assert (a | b) - (a & b) == a ^ b
    assert ~(a | b) == ~a & ~b
    assert ~~a == a
    assert (a - a).is_empty()
    assert nothing().is_empty()
    assert not anything().is_empty()
    assert a.isdisjoint(matching("^b"))
    assert literal("abc") <= a
    assert literal("\ud800") == nothing()  # a lone surrogate is no JSON text in UTF-8
    assert "\ud800a" not in anything()
    assert "\ud800a" not in ~a
    assert repr(a & b) == "Strings('^a' & 'b$')"


def test_greenery_agrees_on_the_operations() -> None:
    """greenery's own product, difference and equivalence on our automata."""
    pairs = [("^a+$", "^[ab]{1,3}$"), ("\\bx", "x\\b"), ("^\\d{2}$", "1"), ("^.$", "\\s")]
    for left, right in pairs:
        one, two = matching(left), matching(right)
        fsm_one, fsm_two = one.to_fsm(), two.to_fsm()
        assert isinstance(fsm_one, Fsm)
        assert (one & two).to_fsm().equivalent(fsm_one & fsm_two)
        assert (one - two).to_fsm().equivalent(fsm_one - fsm_two)
        assert (one & length_between(1, 3)).to_fsm().accepts("a") == ("a" in one)


@pytest.mark.parametrize(
    ("pattern", "construct", "offset"),
    [
        ("(a)\\1", "backreference", 3),
        ("(?<x>a)\\k<x>", "backreference", 7),
        ("a(?=b)c", "lookahead", 1),
        ("(?!b)", "negative lookahead", 0),
        ("x(?<=a)b", "lookbehind", 1),
        ("x(?<!a)b", "negative lookbehind", 1),
        ("(?i:a)", "modifier group", 0),
        ("^(?:ab){1,99999}$", "bounded repetition", 7),
        ("^(?:a{100}){1000}$", "bounded repetition", 11),
    ],
)
def test_undecidable_constructs_are_named(pattern: str, construct: str, offset: int) -> None:
    with pytest.raises(Undecidable) as caught:
        matching(pattern)
    assert caught.value.construct == construct
    assert caught.value.offset == offset
    assert f"{construct} at offset {offset}" in str(caught.value)


def test_automaton_blowup_is_refused() -> None:
    with pytest.raises(Undecidable, match="grows past"):
        matching("a[ab]{20}$")
    with pytest.raises(Undecidable, match="grows past"):
        matching("x[a-z]{1,1000}y")  # which x's of the last 1000 code points: 2**1000


def test_large_repetitions_without_large_automata() -> None:
    """A repetition at the border of an unanchored match counts by its minimum only, and
    ``^[set]{low,high}$`` is a length bound."""
    assert matching("[a-z]{1,9000}x") == matching("[a-z]x")
    assert matching("a{2,99999}") == matching("aa")
    assert matching("^(?:x|\\d{3,50000})") == matching("^(?:x|\\d{3})")
    bounded = matching("^[a-z]{1,99999}$")
    assert bounded == matching("^[a-z]+$") & length_between(1, 99999)
    assert "a" * 99999 in bounded
    assert "a" * 100000 not in bounded
    assert not ecma_search("^[a-z]{1,99999}$", "a" * 100000)


@pytest.mark.parametrize("pattern", ["(", "[b-a]", "a**", "x{2,1}", "\\b*x|y", "x\\b+y"])
def test_patterns_ecma_refuses(pattern: str) -> None:
    """Refused with the u flag and without (a quantified assertion too, which regress takes)."""
    with pytest.raises(PatternError, match="not an ECMA-262 regular expression"):
        matching(pattern)


@pytest.mark.parametrize("pattern", ["a{", "\\p{Nope}", "\\-", "^[^\\:]+$"])
def test_a_pattern_valid_without_the_u_flag_only_is_not_decided_here(pattern: str) -> None:
    """Read without the flag (Annex B) by the models: the automata, which read the u syntax,
    say so rather than guess."""
    with pytest.raises(Undecidable, match="without the u flag"):
        matching(pattern)


# General categories Unicode changed after version 14 (Python 3.11's unicodedata).
RECATEGORIZED = {0x0295: ("Ll", "Lo"), 0x1171E: ("Mn", "Mc")}


@pytest.mark.parametrize("category", ["L", "Lu", "Ll", "Lo", "N", "Nd", "P", "S", "Zs", "Mn"])
def test_property_escapes_against_unicodedata(category: str) -> None:
    """Where Python's Unicode version has assigned a code point, both agree but for the few
    code points Unicode has recategorized since; regress (its newer Unicode) adds code points
    Python 3.11 leaves unassigned, which is why the sets come from regress."""
    ranges = charsets.property_set(category)
    inside = {c for first, last in ranges for c in range(first, last + 1)}
    for code in range(0x110000):
        known = RECATEGORIZED.get(code, (unicodedata.category(chr(code)),))[-1]
        if known != "Cn" and not 0xD800 <= code <= 0xDFFF:
            assert (code in inside) == known.startswith(category), hex(code)
    assert (0x1E030 in inside) == (category == "L")  # Lm since Unicode 15


def test_property_sets_match_regress_one_code_point_at_a_time() -> None:
    rng = random.Random(16)
    codes = [*rng.sample(range(0x110000), 3000), 0x1E030, 0x31350, 0x10FFFF, 0xFFFF, 0x10000]
    for body in ["L", "Nd", "Script=Greek", "Alphabetic"]:
        language = matching(f"^\\p{{{body}}}$")
        for code in codes:
            if not 0xD800 <= code <= 0xDFFF:
                assert (chr(code) in language) == ecma_search(f"^\\p{{{body}}}$", chr(code))


def test_shorthand_classes_against_regress() -> None:
    """``\\s``, ``.``, ``\\w``, ``\\d`` on every separator, control and format code point."""
    odd = [c for c in range(0x30000) if unicodedata.category(chr(c))[0] in "ZC"]
    codes = [c for c in odd if not 0xD800 <= c <= 0xDFFF] + [*range(0x80), 0x212A, 0x17F]
    for pattern in ["^\\s$", "^.$", "^\\w$", "^\\d$", "^\\S$", "^\\W$"]:
        language = matching(pattern)
        wrong = [c for c in codes if (chr(c) in language) != ecma_search(pattern, chr(c))]
        assert not wrong, (pattern, [hex(c) for c in wrong[:5]])
