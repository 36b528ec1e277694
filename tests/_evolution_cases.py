"""Hand-made change pairs: each keyword, every case of issue 16, equal sets, cross-file bases.

Most changes sit in a property ``v`` of a closed contract (one level down, as agent contracts
nest their constraints); a few sit at the root. Each pair says which directions a document
separates it in (``B``: the old contract accepts a document the new one refuses; ``F``: the
reverse) and carries such a document as a probe, so that the search is proven to find it;
the pairs whose accepted sets are equal by construction must yield no data finding at all.
"""

from __future__ import annotations

from typing import Any

from tests._evolution import BACKWARD, FORWARD, Pair
from tests._fuzz import DRAFT

__all__ = ["hand_pairs"]

B, F, BF, EQ = frozenset({BACKWARD}), frozenset({FORWARD}), frozenset({BACKWARD, FORWARD}), None
STR, INT, ARR, OBJ = {"type": "string"}, {"type": "integer"}, {"type": "array"}, {"type": "object"}


def _contract(title: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": f"https://evolution.example/{title.lower()}.json",
        "title": title,
        "description": "A hand-made contract.",
        **body,
    }


def _closed(value: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A closed object contract whose property ``v`` (required) is ``value``."""
    return _contract(
        "Thing",
        {
            "type": "object",
            "properties": {"v": value},
            "required": ["v"],
            "additionalProperties": False,
            **extra,
        },
    )


def _v(change: str, old: Any, new: Any, expect: frozenset[str] | None, *probes: Any) -> Pair:
    """A change of property ``v``; each probe is the value of ``v`` in a probe document."""
    return Pair(
        f"hand: {change}",
        change,
        {"thing.json": _closed(old)},
        {"thing.json": _closed(new)},
        tuple({"v": p} for p in probes),
        equal=expect is None,
        expect=frozenset() if expect is None else expect,
    )


def _root(change: str, old: Any, new: Any, expect: frozenset[str] | None, *probes: Any) -> Pair:
    """A change at the root of a contract."""
    return Pair(
        f"hand: {change}",
        change,
        {"thing.json": _contract("Thing", old)},
        {"thing.json": _contract("Thing", new)},
        probes,
        equal=expect is None,
        expect=frozenset() if expect is None else expect,
    )


def _tagged(*tags: str) -> dict[str, Any]:
    defs = {
        t.upper(): {
            "title": f"Tag{t.upper()}",
            "type": "object",
            "properties": {"kind": {"type": "string", "const": t}, "n": INT},
            "required": ["kind"],
            "additionalProperties": False,
        }
        for t in tags
    }
    return {
        "type": "object",
        "properties": {"v": {"oneOf": [{"$ref": f"#/$defs/{t.upper()}"} for t in tags]}},
        "required": ["v"],
        "additionalProperties": False,
        "$defs": defs,
    }


def _issue() -> list[Pair]:
    """Every change issue 16 lists, in the direction it lists it."""
    arr_int = {"type": "array", "contains": INT}
    # fmt: off
    return [
        _v("uniqueItems added", ARR, {**ARR, "uniqueItems": True}, B, [1, 1]),
        _v("minProperties added", OBJ, {**OBJ, "minProperties": 1}, B, {}),
        _v("propertyNames added", OBJ, {**OBJ, "propertyNames": {"maxLength": 1}}, B, {"ab": 1}),
        _v("contains added", ARR, {**ARR, "contains": INT}, B, ["s"]),
        _v("maxContains added", arr_int, {**arr_int, "maxContains": 1}, B, [1, 2]),
        _v("patternProperties added to an open object", OBJ,
           {**OBJ, "patternProperties": {"^x": INT}}, B, {"x": "s"}),
        _v("oneOf branch removed", {"oneOf": [STR, INT]}, {"oneOf": [STR]}, B, 1),
        _v("not added", INT, {**INT, "not": {"const": 3}}, B, 3),
        _v("prefixItems item narrowed", {**ARR, "prefixItems": [INT]},
           {**ARR, "prefixItems": [{**INT, "minimum": 0}]}, B, [-1]),
        _v("pattern added", STR, {**STR, "pattern": "^[a-z]+$"}, B, "A"),
        _v("pattern narrowed", {**STR, "pattern": "^[a-z]+$"},
           {**STR, "pattern": "^[a-c]+$"}, B, "d"),
        _root("tagged oneOf branch added", _tagged("a", "b"), _tagged("a", "b", "c"), F,
              {"v": {"kind": "c"}}),
        _v("pattern removed", {**STR, "pattern": "^[a-z]+$"}, STR, F, "A"),
        _v("pattern widened", {**STR, "pattern": "^[a-c]+$"},
           {**STR, "pattern": "^[a-z]+$"}, F, "d"),
    ]
    # fmt: on


def _equal() -> list[Pair]:
    """Changes that leave the accepted set as it was."""
    described = {**STR, "description": "A value.", "examples": ["x"]}
    # fmt: off
    return [
        _v("enum reordered", {"enum": ["a", "b", 1]}, {"enum": [1, "a", "b"]}, EQ),
        _v("minimum 1 as exclusiveMinimum 0 on an integer", {**INT, "minimum": 1},
           {**INT, "exclusiveMinimum": 0}, EQ, 0, 1),
        _v("exclusiveMaximum 5 as maximum 4 on an integer", {**INT, "exclusiveMaximum": 5},
           {**INT, "maximum": 4}, EQ, 4, 5),
        _v("pattern rewritten: \\d for [0-9]", {**STR, "pattern": "^[0-9]+$"},
           {**STR, "pattern": "^\\d+$"}, EQ, "1", "٣"),
        _v("pattern rewritten: a+ for aa*", {**STR, "pattern": "^aa*$"},
           {**STR, "pattern": "^a+$"}, EQ),
        _v("pattern rewritten: [ab] for (a|b)", {**STR, "pattern": "^(a|b)$"},
           {**STR, "pattern": "^[ab]$"}, EQ),
        _v("description and examples changed", described,
           {**STR, "description": "Another text.", "examples": ["y", "z"]}, EQ),
        _v("$comment and deprecated added", STR, {**STR, "$comment": "c", "deprecated": True}, EQ),
        _v("required reordered",
           {**OBJ, "properties": {"a": STR, "b": INT}, "required": ["a", "b"]},
           {**OBJ, "properties": {"a": STR, "b": INT}, "required": ["b", "a"]}, EQ),
        _v("anyOf branches reordered", {"anyOf": [STR, INT]}, {"anyOf": [INT, STR]}, EQ),
        _v("format changed (an annotation)", {**STR, "format": "email"},
           {**STR, "format": "uri"}, EQ),
        Pair("hand: value moved behind a $ref to $defs", "value moved behind a $ref to $defs",
             {"thing.json": _closed({**STR, "maxLength": 3})},
             {"thing.json": _closed({"$ref": "#/$defs/Short"},
                                    **{"$defs": {"Short": {**STR, "maxLength": 3}}})},
             equal=True, expect=frozenset()),
        _v("single-branch allOf unwrapped", {"allOf": [{**INT, "minimum": 0}]},
           {**INT, "minimum": 0}, EQ),
        _v("type integer as number with multipleOf 1", INT, {"type": "number", "multipleOf": 1}, EQ,
           1, 1.0, 1.5),
    ]
    # fmt: on


def _backward() -> list[Pair]:
    """Tightenings, one or more per keyword: old data the new contract refuses."""
    num, arr_int = {"type": "number"}, {"type": "array", "contains": INT}
    ab = {**OBJ, "properties": {"a": STR, "b": STR}}
    cond = {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}}
    both = {"Str": STR, "Int": INT}
    # fmt: off
    return [
        _v("minimum raised", {**INT, "minimum": 0}, {**INT, "minimum": 1}, B, 0),
        _v("maximum lowered", {**INT, "maximum": 10}, {**INT, "maximum": 9}, B, 10),
        _v("exclusiveMinimum added", num, {**num, "exclusiveMinimum": 0}, B, 0),
        _v("exclusiveMaximum lowered", {**num, "exclusiveMaximum": 2},
           {**num, "exclusiveMaximum": 1.5}, B, 1.75),
        _v("multipleOf added", INT, {**INT, "multipleOf": 2}, B, 1),
        _v("multipleOf changed 2 to 4", {**INT, "multipleOf": 2}, {**INT, "multipleOf": 4}, B, 2),
        _v("minLength raised", {**STR, "minLength": 1}, {**STR, "minLength": 2}, B, "a"),
        _v("maxLength lowered", {**STR, "maxLength": 3}, {**STR, "maxLength": 2}, B, "abc"),
        _v("const added", STR, {**STR, "const": "x"}, B, "y"),
        _v("enum value removed", {"enum": ["a", "b"]}, {"enum": ["a"]}, B, "b"),
        _v("type narrowed", {"type": ["string", "integer"]}, STR, B, 1),
        _v("required name added", {**ab}, {**ab, "required": ["a"]}, B, {}),
        _v("additionalProperties closed", OBJ, {**OBJ, "additionalProperties": False}, B, {"z": 1}),
        _v("additionalProperties changed", {**OBJ, "additionalProperties": STR},
           {**OBJ, "additionalProperties": INT}, BF, {"z": "s"}, {"z": 1}),
        _v("patternProperties narrowed", {**OBJ, "patternProperties": {"^x": STR}},
           {**OBJ, "patternProperties": {"^x": {**STR, "maxLength": 1}}}, B, {"x": "ab"}),
        _v("propertyNames narrowed", {**OBJ, "propertyNames": {"maxLength": 2}},
           {**OBJ, "propertyNames": {"maxLength": 1}}, B, {"ab": 1}),
        _v("maxProperties lowered", {**OBJ, "maxProperties": 2}, {**OBJ, "maxProperties": 1}, B,
           {"a": 1, "b": 2}),
        _v("items narrowed", {**ARR, "items": STR},
           {**ARR, "items": {**STR, "minLength": 1}}, B, [""]),
        _v("minItems raised", {**ARR, "minItems": 0}, {**ARR, "minItems": 1}, B, []),
        _v("maxItems lowered", {**ARR, "maxItems": 2}, {**ARR, "maxItems": 1}, B, [1, 2]),
        _v("minContains raised", {**arr_int, "minContains": 1}, {**arr_int, "minContains": 2}, B,
           [1]),
        _v("dependentRequired added", ab, {**ab, "dependentRequired": {"a": ["b"]}}, B,
           {"a": "x"}),
        _v("dependentSchemas added", ab,
           {**ab, "dependentSchemas": {"a": {"properties": {"b": {"const": "y"}}}}}, B,
           {"a": "x", "b": "z"}),
        _v("if/then added", OBJ, cond, B, {"a": 1}),
        _v("then narrowed", cond, {**cond, "then": {"required": ["b", "c"]}}, B, {"a": 1, "b": 2}),
        _v("else added", cond, {**cond, "else": {"required": ["c"]}}, B, {}),
        _v("anyOf branch removed", {"anyOf": [STR, INT]}, {"anyOf": [STR]}, B, 1),
        _v("allOf branch added", {"allOf": [STR]}, {"allOf": [STR, {"maxLength": 2}]}, B, "abc"),
        _v("oneOf branch added that overlaps", {"oneOf": [STR]}, {"oneOf": [STR, {"maxLength": 1}]},
           BF, "a", 1),
        _v("unevaluatedProperties false added", {**OBJ, "properties": {"a": STR}},
           {**OBJ, "properties": {"a": STR}, "unevaluatedProperties": False}, B, {"z": 1}),
        _v("unevaluatedItems false added", {**ARR, "prefixItems": [INT]},
           {**ARR, "prefixItems": [INT], "unevaluatedItems": False}, B, [1, 2]),
        _v("not widened", {"type": ["integer", "string"], "not": {"const": 3}},
           {"type": ["integer", "string"], "not": INT}, B, 1),
        Pair("hand: $ref target narrowed", "$ref target narrowed",
             {"thing.json": _closed({"$ref": "#/$defs/Name"}, **{"$defs": {"Name": STR}})},
             {"thing.json": _closed({"$ref": "#/$defs/Name"},
                                    **{"$defs": {"Name": {**STR, "minLength": 1}}})},
             ({"v": ""},), expect=B),
        Pair("hand: $ref retargeted", "$ref retargeted",
             {"thing.json": _closed({"$ref": "#/$defs/Str"}, **{"$defs": both})},
             {"thing.json": _closed({"$ref": "#/$defs/Int"}, **{"$defs": both})},
             ({"v": ""}, {"v": 1}), expect=BF),
    ]
    # fmt: on


def _forward() -> list[Pair]:
    """Loosenings: new data the old contract refuses."""
    closed = {**OBJ, "properties": {"a": STR}, "additionalProperties": False}
    cond = {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}}
    # fmt: off
    return [
        _v("enum value added", {"enum": ["a"]}, {"enum": ["a", "b"]}, F, "b"),
        _v("type widened", STR, {"type": ["string", "integer"]}, F, 1),
        _v("maximum raised", {**INT, "maximum": 10}, {**INT, "maximum": 11}, F, 11),
        _v("required name removed", {**closed, "required": ["a"]}, closed, F, {}),
        _v("property added to a closed object", closed,
           {**closed, "properties": {"a": STR, "b": STR}}, F, {"b": "x"}),
        _v("additionalProperties opened", closed, {**closed, "additionalProperties": True}, F,
           {"z": 1}),
        _v("anyOf branch added", {"anyOf": [STR]}, {"anyOf": [STR, INT]}, F, 1),
        _v("not removed", {**INT, "not": {"const": 3}}, INT, F, 3),
        _v("const removed", {**STR, "const": "x"}, STR, F, "y"),
        _v("minItems lowered", {**ARR, "minItems": 1}, {**ARR, "minItems": 0}, F, []),
        _v("uniqueItems removed", {**ARR, "uniqueItems": True}, ARR, F, [1, 1]),
        _v("minLength removed", {**STR, "minLength": 1}, STR, F, ""),
        _v("dependentRequired removed", {**OBJ, "dependentRequired": {"a": ["b"]}}, OBJ, F,
           {"a": 1}),
        _v("contains removed", {**ARR, "contains": INT}, ARR, F, []),
        _v("if/then removed", cond, OBJ, F, {"a": 1}),
        _v("prefixItems item added beside items false",
           {**ARR, "prefixItems": [INT], "items": False},
           {**ARR, "prefixItems": [INT, INT], "items": False}, F, [1, 2]),
        _v("propertyNames removed", {**OBJ, "propertyNames": {"maxLength": 1}}, OBJ, F, {"ab": 1}),
        _root("unevaluatedProperties false removed at the root",
              {**OBJ, "properties": {"v": STR}, "unevaluatedProperties": False},
              {**OBJ, "properties": {"v": STR}}, F, {"z": 1}),
    ]
    # fmt: on


def _files(
    change: str,
    old: dict[str, Any],
    new: dict[str, Any],
    expect: frozenset[str] | None,
    *probes: Any,
) -> Pair:
    """A change across files; ``old`` and ``new`` map titles to bodies (file: title.json)."""

    def folder(bodies: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {f"{t.lower()}.json": _contract(t, b) for t, b in bodies.items()}

    return Pair(
        f"hand: {change}",
        change,
        folder(old),
        folder(new),
        probes,
        equal=expect is None,
        expect=frozenset() if expect is None else expect,
    )


def _cross_file() -> list[Pair]:
    """The ToolResult pattern (an open base in another file, a subclass closed by
    ``unevaluatedProperties: false``) and ``$ref`` to another file's ``$defs``."""
    base = {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "error": {"type": ["string", "null"]}},
        "required": ["ok"],
    }
    sub = {
        "type": "object",
        "properties": {"data": STR},
        "allOf": [{"$ref": "base.json"}],
        "unevaluatedProperties": False,
    }
    props = base["properties"]
    noted = {**base, "properties": {**props, "note": STR}}
    narrowed = {**base, "properties": {**props, "error": STR}}
    required = {**base, "required": ["ok", "error"]}
    holder = {
        "type": "object",
        "properties": {"v": {"$ref": "common.json#/$defs/Name"}},
        "additionalProperties": False,
    }
    common = {"$defs": {"Name": STR}}
    pick = {
        "type": "object",
        "properties": {"v": {"$ref": "str.json"}},
        "required": ["v"],
        "additionalProperties": False,
    }
    moved_sub = {**sub, "properties": {}}
    to_int = {"$ref": "int.json"}
    moved_base = {**base, "properties": {**props, "data": STR}}
    # fmt: off
    return [
        _files("base: optional property added", {"Base": base, "Sub": sub},
               {"Base": noted, "Sub": sub}, BF, {"ok": True, "note": 1},
               {"ok": True, "note": "x"}),
        _files("base: property narrowed", {"Base": base, "Sub": sub},
               {"Base": narrowed, "Sub": sub}, B, {"ok": True, "error": None}),
        _files("base: required name added", {"Base": base, "Sub": sub},
               {"Base": required, "Sub": sub}, B, {"ok": True}),
        _files("subclass: unevaluatedProperties false removed", {"Base": base, "Sub": sub},
               {"Base": base, "Sub": {k: v for k, v in sub.items()
                                      if k != "unevaluatedProperties"}}, F,
               {"ok": True, "zz": 1}),
        _files("subclass: property moved into the base", {"Base": base, "Sub": sub},
               {"Base": moved_base, "Sub": moved_sub}, B, {"ok": True, "data": 1}),
        _files("subclass: base removed from allOf", {"Base": base, "Sub": sub},
               {"Base": base, "Sub": {k: v for k, v in sub.items() if k != "allOf"}}, BF,
               {"ok": True}, {}),
        _files("base: description changed", {"Base": base, "Sub": sub},
               {"Base": {**base, "description": "Changed."}, "Sub": sub}, EQ),
        _files("another file's $defs entry narrowed", {"Common": common, "Holder": holder},
               {"Common": {"$defs": {"Name": {**STR, "minLength": 1}}}, "Holder": holder}, B,
               {"v": ""}),
        _files("$ref retargeted to another file", {"Str": STR, "Int": INT, "Pick": pick},
               {"Str": STR, "Int": INT, "Pick": {**pick, "properties": {"v": to_int}}},
               BF, {"v": "s"}, {"v": 1}),
    ]
    # fmt: on


def hand_pairs() -> list[Pair]:
    """Every hand-made pair, in a stable order."""
    return [*_issue(), *_equal(), *_backward(), *_forward(), *_cross_file()]
