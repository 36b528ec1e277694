"""Rules keyed on one property's value, decided by one lookup (:func:`keyed_runs`, :func:`plan`,
:func:`table`, :func:`branches`).

An ``allOf`` often holds one rule per value of a property, ``{"if": {"properties": {"kind":
{"const": "a"}}}, "then": {...}}``: checked one by one, every document pays every comparison.
Whether such an ``if`` holds depends only on whether the value is an object, whether it has the
property, and the property's value as JSON compares it (``1`` equals ``1.0``, ``true`` is no
number, a string equals only itself). So a run of such rules is checked in three parts:

* an object holding the property: a table from each value the rules name (their ``const`` and
  ``enum``) to the branches that apply to it (``then`` where the ``if`` holds, ``else`` where
  it does not), in the rules' order, and the branches for any other value (the ``else`` of
  each rule): the runtime's ``_dispatch`` looks the value up once, and only those are checked;
* an object without it: each ``then`` of an ``if`` that does not require it, each ``else`` of
  one that does, in order, written out (no lookup, no comparison);
* a value that is no object (for a class or a schema whose type says none comes, nothing):
  every ``then`` (``properties`` and ``required`` say nothing of it), in order.

A class's validator dispatches a contiguous run of its rules only (the rules before and after
it are checked before and after, so the first rule that fails, whose error is raised, is the
same); a predicate, which only says whether all hold, a run of ``allOf`` entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "MIN_RUN",
    "Plan",
    "absent",
    "branches",
    "key_of",
    "keyed_runs",
    "no_object",
    "plan",
    "table",
]

MIN_RUN = 3  # rules keyed on one property: fewer are checked one by one, as cheaply
_CONDITIONAL = frozenset({"if", "then", "else", "description", "$comment"})
_NOTES = frozenset({"title", "description", "$comment", "examples", "default", "deprecated",
                    "readOnly", "writeOnly"})  # fmt: skip
_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})

T = TypeVar("T")


def key_of(rule: Any) -> str | None:
    """The property a rule is keyed on: ``if``/``then``/``else`` whose ``if`` says only
    ``properties`` of that one property (a ``const`` or an ``enum``, with a ``type`` or not) and
    ``required`` of it at most; None for any other rule."""
    if not (isinstance(rule, dict) and "if" in rule and set(rule) <= _CONDITIONAL):
        return None
    test = rule["if"]
    if not (isinstance(test, dict) and set(test) <= {"properties", "required"} | _NOTES):
        return None
    properties = test.get("properties")
    if not (isinstance(properties, dict) and len(properties) == 1):
        return None
    ((name, value),) = properties.items()
    required = test.get("required", [])
    if not (isinstance(required, list) and all(r == name for r in required)):
        return None
    if not (isinstance(value, dict) and {"const", "enum"} & set(value)):
        return None
    if not set(value) <= {"const", "enum", "type"} | _NOTES:
        return None
    if "enum" in value and not isinstance(value["enum"], list):
        return None
    kinds = value.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not (isinstance(kinds, list) and all(isinstance(k, str) and k in _TYPES for k in kinds)):
        return None
    return str(name)


def keyed_runs(
    items: Iterable[T], rule: Callable[[T], Any]
) -> Iterator[tuple[str | None, list[T]]]:
    """``items`` in order, as runs of at least :data:`MIN_RUN` rules keyed on one property
    (with its name) and single items (with None)."""
    pending: list[T] = []
    key: str | None = None
    for item in items:
        found = key_of(rule(item))
        if found is not None and found == key:
            pending.append(item)
            continue
        yield from _flush(key, pending)
        key, pending = found, [item]
    yield from _flush(key, pending)


def _flush(key: str | None, pending: list[T]) -> Iterator[tuple[str | None, list[T]]]:
    if key is not None and len(pending) >= MIN_RUN:
        yield key, pending
    else:
        yield from ((None, [item]) for item in pending)


Branch = tuple[int, str]  # a rule's index in its run, and "then" or "else"


@dataclass(frozen=True)
class Plan:
    """Which branches apply, in order, to an object holding the property: for each value the
    rules name (``values``: the value and its branches), and for any other value."""

    branches: tuple[Branch, ...]
    values: tuple[tuple[Any, tuple[Branch, ...]], ...]
    other: tuple[Branch, ...]


def plan(rules: list[Any], float_integers: bool) -> Plan | None:
    """The plan of a run of rules keyed on one property (:func:`key_of`); None when a value
    would need telling ``1`` from ``1.0`` (an ``integer`` type in draft-04)."""
    name = key_of(rules[0])
    schemas = [rule["if"]["properties"][name] for rule in rules]
    candidates: dict[Any, Any] = {}
    for schema in schemas:
        values = ([schema["const"]] if "const" in schema else []) + list(schema.get("enum", []))
        for value in values:
            candidates.setdefault(_canonical(value), value)
    if (
        not float_integers
        and any("integer" in _kinds(schema) for schema in schemas)
        and any(_is_number(v) for v in candidates.values())
    ):
        return None
    branches = tuple((i, b) for i, rule in enumerate(rules) for b in ("then", "else") if b in rule)

    def applying(holds: list[bool]) -> tuple[Branch, ...]:
        return tuple((i, b) for i, b in branches if (b == "then") == holds[i])

    return Plan(
        branches,
        tuple(
            (value, applying([_holds(s, value, float_integers) for s in schemas]))
            for value in candidates.values()
        ),
        applying([False] * len(rules)),
    )


def absent(rules: list[Any], name: str) -> list[Branch]:
    """The branches that apply, in order, to an object without the property ``name``: an
    ``if`` that does not require it holds (``then``), one that does does not (``else``)."""
    found: list[Branch] = []
    for index, rule in enumerate(rules):
        branch = "else" if name in rule["if"].get("required", []) else "then"
        if branch in rule:
            found.append((index, branch))
    return found


def no_object(rules: list[Any]) -> list[Branch]:
    """The branches that apply, in order, to a value that is no object: every ``then``
    (``properties`` and ``required`` say nothing of it)."""
    return [(index, "then") for index, rule in enumerate(rules) if "then" in rule]


def table(found: Plan, entry: Callable[[Branch], str | None]) -> str | None:
    """The expression of the table the runtime's ``_dispatch`` reads: each branch's ``entry``
    (its text, or None when it checks nothing: left out); None when no branch checks anything
    (for an object holding the property)."""
    entries: list[str] = []
    index: dict[Branch, int] = {}
    for branch in found.branches:
        text = entry(branch)
        if text is not None:
            index[branch] = len(entries)
            entries.append(text)

    def pick(branches: tuple[Branch, ...]) -> tuple[int, ...]:
        return tuple(index[b] for b in branches if b in index)

    other = pick(found.other)
    values = [(v, pick(b)) for v, b in found.values if pick(b) != other]  # the rest: other
    if not values and not other:
        return None
    if all(isinstance(v, str) for v, _ in values):
        by_value = "{" + ", ".join(f"{v!r}: {i!r}" for v, i in values) + "}"
    else:  # True and 1 are one key of a dict literal: pairs, each value read as JSON
        by_value = "(" + "".join(f"({v!r}, {i!r}), " for v, i in values) + ")"
    return f"_dispatch_table(({', '.join(entries)},), {by_value}, {other!r})"


def branches(name: str, present: list[str], absent: list[str], no_object: list[str]) -> list[str]:
    """The lines of a dispatch on the property ``name``: ``present`` for an object holding it,
    ``absent`` for one without it, ``no_object`` for any other value (each left out when
    empty)."""
    parts = [
        (present, f"type(x) is dict and {name!r} in x", f"type(x) is dict and {name!r} in x"),
        (absent, "type(x) is dict", f"type(x) is dict and {name!r} not in x"),
        (no_object, "", "type(x) is not dict"),
    ]
    lines: list[str] = []
    for index, (body, after, alone) in enumerate(parts):
        if not body:
            continue
        if not lines:
            header = f"if {alone}:"
        elif all(rest for rest, *_ in parts[:index]):  # no region left out before
            header = f"elif {after}:" if after else "else:"
        else:
            header = f"elif {alone}:"
        lines += [header, *("    " + line for line in body)]
    return lines


# -- JSON values as the schema holds them ------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _canonical(value: Any) -> Any:
    """Equal for two JSON values exactly when JSON says they are (1 and 1.0; true is no 1)."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if _is_number(value):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(map(_canonical, value)))
    if isinstance(value, dict):
        return ("object", frozenset((k, _canonical(v)) for k, v in value.items()))
    return ("string", value)


def _kinds(schema: dict[str, Any]) -> list[str]:
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def _type_of(value: Any, kind: str, float_integers: bool) -> bool:
    if kind == "integer":
        return _is_number(value) and (
            isinstance(value, int) or (float_integers and float(value).is_integer())
        )
    checks: dict[str, Callable[[Any], bool]] = {
        "null": lambda v: v is None,
        "boolean": lambda v: isinstance(v, bool),
        "number": _is_number,
        "string": lambda v: isinstance(v, str),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    return checks[kind](value)


def _holds(schema: dict[str, Any], value: Any, float_integers: bool) -> bool:
    """Whether the property's schema (``const``, ``enum``, ``type``) holds for ``value``."""
    key = _canonical(value)
    if "const" in schema and _canonical(schema["const"]) != key:
        return False
    if "enum" in schema and key not in {_canonical(v) for v in schema["enum"]}:
        return False
    kinds = _kinds(schema)
    return not kinds or any(_type_of(value, kind, float_integers) for kind in kinds)
