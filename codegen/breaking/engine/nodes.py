"""Schema nodes in their tree, for the inclusion engine: references, sameness, evaluation.

A :class:`SNode` is one schema (a JSON object or boolean) of one version of the schema folder,
with the file it is written in, so that its ``$ref`` resolve as the generator resolves them.
:func:`same` decides, by bisimulation, that two nodes of two versions say the same thing
(annotations aside): such a pair needs no further proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from codegen.breaking.engine.scopes import Scope, bound, entered
from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.models.checks.guards import ANNOTATIONS, KEYWORDS

__all__ = [
    "IGNORED",
    "SNode",
    "Unsupported",
    "counterpart",
    "format_unsupported",
    "json_equal",
    "root",
    "same",
    "unsearched",
]

IGNORED = ANNOTATIONS | {"$id", "$schema", "$defs", "$comment"}
"""Keywords that never decide whether an instance is accepted."""


def format_unsupported(node: SNode) -> Unsupported:
    """Why a string of an asserted format is not searched for: the engine decides whether a
    given string is of a format (the models' checks), not which strings are."""
    return Unsupported(
        f'format {node.obj.get("format")!r} is asserted (formats = "assert"), and the check '
        "does not search for strings of a format or outside it",
        node,
    )


UNSEARCHED = "$unsearched-format"
"""The mark of :func:`unsearched`'s node."""


def unsearched(node: SNode) -> SNode:
    """A node standing for the strings of ``node``'s format (or outside it) that the engine
    does not search for: expanding it is :func:`format_unsupported` (the question is then
    undecided, never answered "none"). At the format's own pointer, so that no answer about
    ``node`` is taken for it."""
    value = {"format": node.obj.get("format"), UNSEARCHED: True}
    return SNode(node.tree, node.home, f"{node.pointer}/format", value, node.scope)


class Unsupported(Exception):
    """A construct the engine cannot decide exactly (reported as ``CHANGE_UNPROVEN``)."""

    def __init__(self, reason: str, node: SNode | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.node = node


@dataclass(frozen=True, eq=False)
class SNode:
    """A schema of one version of the tree: its value, the file it is written in and where,
    and the dynamic scope of the path that reached it (:mod:`~codegen.breaking.engine.scopes`).
    """

    tree: SchemaTree
    home: SchemaFile
    pointer: str
    value: Any
    scope: Scope = ()
    key: tuple[Any, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        key = (id(self.tree), self.home.rel.as_posix(), self.pointer, self.scope)
        object.__setattr__(self, "key", key)

    @property
    def float_integers(self) -> bool:
        """Whether ``1.0`` is an integer in this node's draft (not in draft-04)."""
        return self.home.draft.float_integers

    @property
    def obj(self) -> dict[str, Any]:
        """The schema object (an empty one for ``true``)."""
        if isinstance(self.value, dict):
            return self.value
        if self.value is True:
            return {}
        raise Unsupported("a schema that is not an object or a boolean", self)

    def child(self, *tokens: str | int) -> SNode:
        """The subschema below this node at ``tokens`` (keywords, names, indexes)."""
        value, pointer = self.value, self.pointer
        for token in tokens:
            value = value[token]
            pointer += f"/{escape_pointer(token)}"
        return self.at(self.home, pointer, value)

    def at(self, home: SchemaFile, pointer: str, value: Any) -> SNode:
        """The schema ``value`` at ``pointer`` of ``home``, reached from this node."""
        return SNode(self.tree, home, pointer, value, entered(self.tree, home, pointer, self.scope))

    def target(self, key: str = "$ref") -> SNode | None:
        """What this node's ``$ref`` (or ``$dynamicRef``, in its scope) names, or None."""
        ref = self.obj.get(key)
        if ref is None:
            return None
        if not isinstance(ref, str):
            raise Unsupported(f"a {key} that is not a string", self)
        home, fragment = self.tree.resolve(self.home, ref)
        if key == "$dynamicRef":
            if self.pointer not in self.home.dynamic:
                raise Unsupported("a $dynamicRef whose dynamic anchor is not known here", self)
            name = self.home.dynamic[self.pointer]
            if name is not None:
                home, fragment = bound(self.tree, self.scope, name, (home, fragment))
        return self.at(home, fragment, resolve_pointer(home.data, fragment))

    def keywords(self) -> Iterator[str]:
        """The keywords of this node that constrain instances (``format`` where the tree
        asserts formats); refuses unknown ones."""
        for key in self.obj:
            if key == UNSEARCHED:
                raise format_unsupported(self)
            if key == "format" and self.tree.asserts_formats:
                yield key  # judged by the checks the models use; no string is searched for it
                continue
            if key in IGNORED:
                continue
            if key not in KEYWORDS:
                raise Unsupported(f"the keyword {key!r} is not one the engine reads", self)
            yield key


def root(tree: SchemaTree, schema: SchemaFile) -> SNode:
    """The root schema of one file (its resource entered)."""
    return SNode(tree, schema, "", schema.data, entered(tree, schema, "", ()))


def counterpart(tree: SchemaTree, node: SNode) -> SNode | None:
    """The node that is the same one in another version: at the same place of the same file,
    where a branch of a union (``anyOf``, ``oneOf``) is the branch written the same in the
    other version's union (a branch added, removed or moved before it leaves it paired with
    itself), else the branch at the same index."""
    home = tree.by_rel.get(node.home.rel)
    if home is None:
        return None
    here, there = node.home.data, home.data
    tokens, pointer = pointer_tokens(node.pointer), ""
    for index, token in enumerate(tokens):
        paired = token
        union = index > 0 and tokens[index - 1] in _UNIONS
        if union and isinstance(here, list) and isinstance(there, list) and token.isdigit():
            position = int(token)
            if position >= len(here):
                return None
            paired = str(_same_branch(here[position], there, position))
        try:
            here = resolve_pointer(here, f"/{escape_pointer(token)}")
            there = resolve_pointer(there, f"/{escape_pointer(paired)}")
        except LookupError:
            return None
        pointer += f"/{escape_pointer(paired)}"
    return SNode(tree, home, pointer, there, node.scope)


_UNIONS = frozenset({"anyOf", "oneOf"})


def _same_branch(branch: Any, others: list[Any], position: int) -> int:
    """The index of ``branch`` in the other version's list: the same index when it is written
    the same there, else the first one written the same, else the same index."""
    if position < len(others) and others[position] == branch:
        return position
    return next((i for i, other in enumerate(others) if other == branch), position)


# ---------------------------------------------------------------------------- equality


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema's ``const``/``enum``/``uniqueItems`` decide it (1 == 1.0)."""
    na, nb = _number(a), _number(b)
    if na is not None or nb is not None:
        return na is not None and nb is not None and na == nb
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return False


_SCHEMA_ONE = frozenset(
    {"items", "additionalProperties", "unevaluatedProperties", "not", "if", "then", "else",
     "contains", "propertyNames", "unevaluatedItems"}
)  # fmt: skip
_SCHEMA_MAP = frozenset({"properties", "dependentSchemas", "patternProperties"})
_SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def _same_data(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_data(x, y) for x, y in zip(a, b, strict=True))
    return json_equal(a, b)


def same(a: SNode, b: SNode) -> bool:
    """Whether ``a`` and ``b`` accept the same instances because they say the same thing.

    Annotations are ignored, ``$ref`` compare by what they name (coinductively, so recursive
    schemas compare), enum lists compare in order. False means "not shown equal", not
    "different". A worklist, not recursion: a chain of references may be thousands long.
    """
    assumed: set[tuple[Any, Any]] = set()
    pending = [(a, b)]
    while pending:
        a, b = pending.pop()
        if (a.key, b.key) in assumed:
            continue
        if isinstance(a.value, bool) or isinstance(b.value, bool):
            if a.value is b.value:
                continue
            return False
        if not (isinstance(a.value, dict) and isinstance(b.value, dict)):
            return False
        assumed.add((a.key, b.key))
        children = _same_here(a, b)
        if children is None:
            return False
        pending += reversed(children)  # in key order, as a recursive walk would meet them
    return True


def _asserted(node: SNode, key: str) -> bool:
    """Whether ``key`` is ``format`` in a tree that asserts formats (then it says what the node
    accepts: two nodes are the same only with the same format)."""
    return key == "format" and node.tree.asserts_formats


def _same_here(a: SNode, b: SNode) -> list[tuple[SNode, SNode]] | None:
    """The pairs of subschemas ``a`` and ``b`` are the same if, or None when what they say
    at this node differs."""
    keys_a = {k for k in a.value if k not in IGNORED or _asserted(a, k)}
    keys_b = {k for k in b.value if k not in IGNORED or _asserted(b, k)}
    if keys_a != keys_b:
        return None
    children: list[tuple[SNode, SNode]] = []
    for key in sorted(keys_a):
        va, vb = a.value[key], b.value[key]
        if key in ("$ref", "$dynamicRef"):
            ta, tb = a.target(key), b.target(key)
            if ta is None or tb is None:
                return None
            children.append((ta, tb))
        elif (
            key == "type"
            and a.float_integers != b.float_integers
            and "integer" in (va if isinstance(va, list) else [va])
        ):
            return None  # draft-04's integer refuses 1.0, the others' accept it
        elif key in _SCHEMA_ONE:
            children.append((a.child(key), b.child(key)))
        elif key in _SCHEMA_MAP:
            if not (isinstance(va, dict) and isinstance(vb, dict)) or va.keys() != vb.keys():
                return None
            children += [(a.child(key, n), b.child(key, n)) for n in va]
        elif key in _SCHEMA_LIST:
            if not (isinstance(va, list) and isinstance(vb, list)) or len(va) != len(vb):
                return None
            children += [(a.child(key, i), b.child(key, i)) for i in range(len(va))]
        elif not _same_data(va, vb):
            return None
    return children
