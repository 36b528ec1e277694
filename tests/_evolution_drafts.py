"""Hand-made change pairs across drafts: each version read by the draft its ``$schema`` names.

Each pair is a contract written in one draft and rewritten, or changed, in another (or the
same older draft): what the two versions accept is compared, not how they spell it. The
places where the drafts differ in meaning, not in spelling: draft-04's ``integer`` refuses
``1.0``; ``$ref`` beside other keywords ignores them up to draft-07; draft-04's boolean
``exclusiveMinimum``; dynamic references (2019-09's ``$recursiveRef``, 2020-12's
``$dynamicRef``) followed in their dynamic scope.
"""

from __future__ import annotations

from typing import Any

from tests._evolution import BACKWARD, FORWARD, Pair

__all__ = ["DRAFTS", "draft_pairs"]

DRAFTS = {
    "4": "http://json-schema.org/draft-04/schema#",
    "6": "http://json-schema.org/draft-06/schema#",
    "7": "http://json-schema.org/draft-07/schema#",
    "2019": "https://json-schema.org/draft/2019-09/schema",
    "2020": "https://json-schema.org/draft/2020-12/schema",
}
B, F, BF, EQ = frozenset({BACKWARD}), frozenset({FORWARD}), frozenset({BACKWARD, FORWARD}), None
INT, STR, ARR = {"type": "integer"}, {"type": "string"}, {"type": "array"}


def _contract(draft: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    key = "id" if draft == "4" else "$id"  # _placed gives each its unique identifier
    return {"$schema": DRAFTS[draft], key: "", "title": title, "description": "A contract.", **body}


def _closed(draft: str, value: Any, **extra: Any) -> dict[str, Any]:
    body = {"type": "object", "properties": {"v": value}, "required": ["v"]}
    return _contract(draft, "Thing", {**body, "additionalProperties": False, **extra})


def _pair(
    change: str,
    old: dict[str, dict[str, Any]],
    new: dict[str, dict[str, Any]],
    expect: frozenset[str] | None,
    *probes: Any,
) -> Pair:
    return Pair(
        f"drafts: {change}",
        change,
        old,
        new,
        probes,
        equal=expect is None,
        expect=frozenset() if expect is None else expect,
    )


def _v(
    change: str, drafts: str, old: Any, new: Any, expect: frozenset[str] | None, *probes: Any,
    extra: dict[str, dict[str, Any]] | None = None,
) -> Pair:  # fmt: skip
    """A change of property ``v`` of a closed contract, from draft ``drafts[0]`` to
    ``drafts[1]`` (names of :data:`DRAFTS`, "7>2020"); probes are values of ``v``."""
    before, after = drafts.split(">")
    extra = extra or {}
    return _pair(change, {"thing.json": _closed(before, old, **extra.get("old", {}))},
                 {"thing.json": _closed(after, new, **extra.get("new", {}))}, expect,
                 *({"v": p} for p in probes))  # fmt: skip


def _trees(anchor: str, ref: str) -> dict[str, dict[str, Any]]:
    """A tree whose children are ``ref`` (a dynamic one, or ``{"$ref": "#"}``), and a strict
    tree extending it that binds the dynamic anchor: its children are strict trees too."""
    draft = "2019" if anchor == "$recursiveAnchor" else "2020"
    mark = True if draft == "2019" else "node"
    children = {**ARR, "items": {"$ref": "#"} if ref == "$ref" else {ref: "#" if draft == "2019"
                                                                     else "#node"}}  # fmt: skip
    tree = {anchor: mark, "type": "object", "properties": {"data": STR, "children": children}}
    strict = {anchor: mark, "$ref": "tree.json", "unevaluatedProperties": False}
    return {"tree.json": _contract(draft, "Tree", tree),
            "strict.json": _contract(draft, "Strict", strict)}  # fmt: skip


def draft_pairs() -> list[Pair]:
    """Every pair across drafts, in a stable order."""
    tags = {**ARR, "items": STR}
    ref7 = {"$ref": "#/definitions/Tags", "maxItems": 1}
    ref19 = {"$ref": "#/$defs/Tags", "maxItems": 1}
    list07 = {**ARR, "items": [STR, INT], "additionalItems": False}
    list20 = {**ARR, "prefixItems": [STR, INT], "items": False}
    ab = {"type": "object", "properties": {"a": STR, "b": STR}}
    # fmt: off
    return [
        _v("integer: draft-04 to draft-06", "4>6", INT, INT, F, 1.0, 1),
        _v("integer: draft-06 to draft-04", "6>4", INT, INT, B, 1.0, 1),
        _v("integer: draft-04, number with multipleOf 1 to integer", "4>4",
           {"type": "number", "multipleOf": 1}, INT, B, 2.0, 2),
        _v("integer: draft-04 to 2020-12 as number with multipleOf 1", "4>2020", INT,
           {"type": "number", "multipleOf": 1}, F, 3.0, 3),
        _v("$ref beside maxItems: draft-07 to 2019-09", "7>2019", ref7, ref19, B,
           ["a", "b"], extra={"old": {"definitions": {"Tags": tags}},
                              "new": {"$defs": {"Tags": tags}}}),
        _v("$ref beside maxItems: 2019-09 to draft-07", "2019>7", ref19, ref7, F,
           ["a", "b"], extra={"old": {"$defs": {"Tags": tags}},
                              "new": {"definitions": {"Tags": tags}}}),
        _v("list of items: draft-07 to 2020-12", "7>2020", list07, list20, EQ, ["a", 1],
           ["a", 1, 2]),
        _v("list of items narrowed: draft-07 to 2020-12", "7>2020", list07,
           {**list20, "prefixItems": [{**STR, "maxLength": 1}, INT]}, B, ["ab", 1]),
        _v("dependencies: draft-07 to 2020-12", "7>2020",
           {**ab, "dependencies": {"a": ["b"], "b": {"required": ["a"]}}},
           {**ab, "dependentRequired": {"a": ["b"]},
            "dependentSchemas": {"b": {"required": ["a"]}}},
           EQ, {"a": "x"}, {"b": "y"}, {"a": "x", "b": "y"}),
        _v("exclusiveMinimum: draft-04's flag to 2020-12's number", "4>2020",
           {"type": "number", "minimum": 0, "exclusiveMinimum": True},
           {"type": "number", "exclusiveMinimum": 0}, EQ, 0, 0.5),
        _v("exclusiveMinimum flag dropped: draft-04 to draft-06", "4>6",
           {"type": "number", "minimum": 0, "exclusiveMinimum": True},
           {"type": "number", "minimum": 0}, F, 0),
        _pair("$dynamicRef made static", _trees("$dynamicAnchor", "$dynamicRef"),
              _trees("$dynamicAnchor", "$ref"), F, {"children": [{"zz": 1}]}),
        _pair("static reference made a $dynamicRef", _trees("$dynamicAnchor", "$ref"),
              _trees("$dynamicAnchor", "$dynamicRef"), B, {"children": [{"zz": 1}]}),
        _pair("$recursiveRef made static", _trees("$recursiveAnchor", "$recursiveRef"),
              _trees("$recursiveAnchor", "$ref"), F, {"children": [{"zz": 1}]}),
    ]
    # fmt: on
