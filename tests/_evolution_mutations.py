"""One random change of a drawn contract: a keyword added, removed or changed at some depth.

:func:`mutate` picks a schema object of the contract (the root, a property, a ``$defs``
entry, a branch, ``items``...) and one of: add a keyword it lacks (drawn as the draws of
:mod:`tests._fuzz` draw it), remove one it has, or change one (a bound moved by one, a pattern
narrowed or widened, an ``enum`` value added, removed or the values reordered, a type added or
removed, a ``required`` name, a property, a pattern property, a dependency, a ``prefixItems``
item or an ``allOf``/``anyOf``/``oneOf`` branch added or removed, a subschema redrawn, a
``$ref`` pointed at another ``$defs`` entry). A few changes leave the accepted set equal by
construction (a reordered ``enum``, a changed ``description``, an unreferenced ``$defs``
entry added): those are flagged, and the check must report no data change for them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from codegen.core.loader import iter_subschemas
from tests._fuzz import KEY_PATTERNS, NAMES, PATTERNS, TYPES, Draw

__all__ = ["mutate"]

# Patterns a changed ``pattern`` may take: the draws' own, and narrower or wider languages.
MORE_PATTERNS = (*PATTERNS, "^[a-z]+$", "^[a-c]+$", "^[ab]*$", "^\\d*$", "[0-9]", "^a+$")
BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains",
          "minProperties", "maxProperties")  # fmt: skip
Change = tuple[Any, str, bool]  # the new value (or _REMOVE), what changed, equal by construction
Edit = tuple[str, Any, str, bool]  # the keyword, and its Change
_REMOVE = object()


def _depth(pointer: str) -> int:
    return min(pointer.count("/") // 2, 3)


def _other(draw: Draw, make: Callable[[], Any], old: Any) -> Any:
    """A value ``make`` draws that differs from ``old`` (the last try, if all equal it)."""
    value = make()
    for _ in range(8):
        if value != old:
            break
        value = make()
    return value


def _changed_list(draw: Draw, key: str, old: list[Any], depth: int) -> Change:
    r = draw.r
    if key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        if len(old) > 1 and r.random() < 0.5:
            index = r.randrange(len(old)) if key != "prefixItems" else len(old) - 1
            return [v for i, v in enumerate(old) if i != index], f"{key} item removed", False
        return [*old, draw.schema(depth + 1)], f"{key} item added", False
    if key == "enum":
        roll = r.random()
        if roll < 0.2 and len(old) > 1:
            return list(reversed(old)), "enum reordered", True
        if roll < 0.6 and len(old) > 1:
            return old[1:], "enum value removed", False
        return [*old, _other(draw, lambda: draw.value(1), old[0])], "enum value added", False
    if key == "required":
        missing = [n for n in NAMES if n not in old]
        if missing and (not old or r.random() < 0.5):
            return [*old, r.choice(missing)], "required name added", False
        return old[1:], "required name removed", False
    kinds = list(old)  # type
    if len(kinds) > 1 and r.random() < 0.5:
        kinds.remove(r.choice(kinds))
        return (kinds[0] if len(kinds) == 1 else kinds), "type narrowed", False
    extra = [t for t in TYPES if t not in kinds]
    return [*kinds, r.choice(extra)], "type widened", False


def _changed_map(draw: Draw, key: str, old: dict[str, Any], depth: int) -> Change:
    r = draw.r
    names = KEY_PATTERNS if key == "patternProperties" else NAMES
    missing = [n for n in names if n not in old]
    if old and (not missing or r.random() < 0.5):
        name = r.choice(sorted(old))
        return {k: v for k, v in old.items() if k != name}, f"{key} entry removed", False
    name = r.choice(missing)
    if key == "dependentRequired":
        value: Any = r.sample(NAMES, 1)
    else:
        value = draw.schema(depth + 1)
    return {**old, name: value}, f"{key} entry added", False


def _changed(draw: Draw, key: str, old: Any, depth: int) -> Change:
    r = draw.r
    if key in BOUNDS:
        return old + r.choice([-1, 1, 0.5, -0.5]), f"{key} changed", False
    if key == "multipleOf":
        return _other(draw, lambda: r.choice([2, 0.5, 1, 3, 4]), old), "multipleOf changed", False
    if key in COUNTS:
        return max(0, int(old) + r.choice([-1, 1, 2])), f"{key} changed", False
    if key == "pattern":
        return _other(draw, lambda: r.choice(MORE_PATTERNS), old), "pattern changed", False
    if key == "uniqueItems":
        return not old, "uniqueItems flipped", False
    if key == "type":
        return _changed_list(draw, key, old if isinstance(old, list) else [old], depth)
    if isinstance(old, list) and key != "const":
        return _changed_list(draw, key, old, depth)
    if key in ("properties", "patternProperties", "dependentSchemas", "dependentRequired"):
        return _changed_map(draw, key, old, depth)
    redrawn = _other(draw, lambda: draw.keywords[key](depth), old)
    return redrawn, f"{key} redrawn", key == "format"


def _retarget(draw: Draw, root: dict[str, Any], pointer: str, node: dict[str, Any]) -> Change:
    """A ``$ref`` to a ``$defs`` entry of the root: an existing one the node is not inside (no
    cycle), or a new one."""
    defs = root.setdefault("$defs", {})
    usable = [
        name
        for name in sorted(defs)
        if not pointer.startswith(f"/$defs/{name}") and node.get("$ref") != f"#/$defs/{name}"
    ]
    if usable and draw.r.random() < 0.5:
        return f"#/$defs/{draw.r.choice(usable)}", "$ref pointed at another $defs entry", False
    name = f"E{len(defs)}"
    defs[name] = draw.schema(2)
    return f"#/$defs/{name}", "$ref pointed at a new $defs entry", False


def _added(draw: Draw, root: dict[str, Any], pointer: str, node: dict[str, Any]) -> Edit:
    r = draw.r
    roll = r.random()
    if roll < 0.05:
        return "description", "A changed description.", "description changed", True
    if roll < 0.08 and pointer == "":
        defs = root.setdefault("$defs", {})
        defs[f"U{len(defs)}"] = draw.schema(2)
        return "", _REMOVE, "unreferenced $defs entry added", True
    if roll < 0.14 and "$ref" not in node:
        return ("$ref", *_retarget(draw, root, pointer, node))
    key = r.choice([k for k in sorted(draw.keywords) if k not in node])
    return key, draw.keywords[key](_depth(pointer)), f"{key} added", key == "format"


def mutate(draw: Draw, contract: dict[str, Any]) -> tuple[dict[str, Any], str, bool]:
    """A copy of ``contract`` with one change, what the change was (the keyword, the kind of
    change and its depth), and whether it keeps the accepted set equal by construction."""
    new = copy.deepcopy(contract)
    r = draw.r
    nodes = list(iter_subschemas(new))
    weights = [1 / (1 + pointer.count("/")) ** 2 for pointer, _ in nodes]  # shallow ones first
    pointer, node = r.choices(nodes, weights)[0]
    present = [k for k in node if k in draw.keywords or k == "$ref"]
    op = r.choice(("add", "remove", "change")) if present else "add"
    key = r.choice(present) if present else ""
    if op == "remove":
        edit: Edit = (key, _REMOVE, f"{key} removed", key == "format")
    elif op == "change" and key == "$ref":
        edit = (key, *_retarget(draw, new, pointer, node))
    elif op == "change":
        edit = (key, *_changed(draw, key, node[key], _depth(pointer)))
    else:
        edit = _added(draw, new, pointer, node)
    key, value, change, equal = edit
    if value is _REMOVE:
        node.pop(key, None)
    else:
        node[key] = value
    return new, f"{change} at depth {_depth(pointer)}", equal
