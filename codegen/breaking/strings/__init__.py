"""Sets of strings as JSON Schema's string keywords accept them, decided exactly with automata.

:mod:`~codegen.breaking.strings.sets` holds the value (:class:`Strings`) and its
constructors; :mod:`~codegen.breaking.strings.ecma_pattern` reads ECMA-262 patterns (``u``
flag) into the trees of :mod:`~codegen.breaking.strings.syntax`,
:mod:`~codegen.breaking.strings.charsets` their character classes (Unicode properties
as ``regress`` reads them), :mod:`~codegen.breaking.strings.automata` compiles them,
:mod:`~codegen.breaking.strings.dfa` and :mod:`~codegen.breaking.strings.dfa_ops` are the
automata and their operations.
"""

from codegen.breaking.strings.sets import (
    PatternError,
    Strings,
    Undecidable,
    anything,
    length_between,
    literal,
    matching,
    matching_superset,
    nothing,
    one_of,
)

__all__ = [
    "PatternError",
    "Strings",
    "Undecidable",
    "anything",
    "length_between",
    "literal",
    "matching",
    "matching_superset",
    "nothing",
    "one_of",
]
