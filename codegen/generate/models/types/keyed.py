"""Keyed unions: a union of classes that a property tells apart is validated by one member.

Pydantic's smart union validates a value against every member that is a class (a class's
match never ends the search early), and on a miss builds the errors of each: a union of 13
classes, each an object with its own required property, validates every item 13 times. Where
the generated types themselves prove which member alone could accept a value, the union is a
``pydantic.Discriminator`` calling the package's ``_keyed`` or ``_tagged`` (``_types``), which
names that member, and is validated by it alone.

A union qualifies when its member classes (each a ``BaseModel`` of the module, no other base)
are told apart in one of two ways:

* *keys*: each *requires* a property (by JSON name) that every other member class refuses
  (``extra="forbid"``, not declared): an object holding the key of member ``i`` can only be
  accepted by ``i`` (the others refuse the key), and an object that holds none by no member;
* *a tag*: each requires the same property, typed ``Literal`` of strings or a ``StrEnum`` of
  the module, and no two allow a common value: an object can only be accepted by the member
  whose values hold its tag (a bytes tag, which an enumeration takes in Python mode, read as
  UTF-8 text), and one without a tag of those values by none.

The union's other members (``StrictStr``, numbers, arrays, ``Literal``, an enumeration,
``None``, a root class of those: nothing that accepts an object) stay a smart union of their
own, in their order, for the values that are no object. A root class of one member class and
such members takes the objects its class takes: it is told apart by its class's key, and is in
that smart union too (a value that is no object). Every value is decided as before; on a miss
the errors are those of the one member the key names (labelled by its class, as before), or one
error at the union's location when no member could take the value.

A value given as a Python object other than a mapping or an instance of a member (pydantic's
``from_attributes``) is no object here: as in a deferred module, that mode is not carried.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from codegen.generate.models.types.fields import TYPES_MODULE, add_imports, json_name
from codegen.generate.models.types.keyed_facts import Class, Plan, enum_values, facts, plain, plan

__all__ = ["key_unions"]

# Members that accept no object (a dict or a mapping), whatever their arguments.
_NO_OBJECT_NAMES = frozenset({
    "StrictStr", "StrictBool", "StrictInt", "StrictFloat", "JsonInt", "JsonNumber", "JsonUUID",
    "JsonIPv4Address", "JsonIPv6Address",
})  # fmt: skip
_NO_OBJECT_GENERICS = frozenset({"list", "tuple", "Literal"})
_OUTSIDE = frozenset({"MISSING"})  # kept beside the keyed union
_SHOWN = 6  # keys named in the error of an object that holds none


def _members(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_members(node.left), *_members(node.right)]
    return [node]


def _union(members: list[ast.expr]) -> ast.expr:
    result = members[0]
    for member in members[1:]:
        result = ast.BinOp(result, ast.BitOr(), member)
    return result


def _takes_no_object(member: ast.expr, enums: frozenset[str]) -> bool:
    if isinstance(member, ast.Constant):
        return member.value is None
    if isinstance(member, ast.Name):
        return member.id in _NO_OBJECT_NAMES or member.id in enums
    return (
        isinstance(member, ast.Subscript)
        and isinstance(member.value, ast.Name)
        and member.value.id in _NO_OBJECT_GENERICS
    )


def _tag(name: str) -> ast.Call:
    return ast.Call(ast.Name("Tag", ast.Load()), [ast.Constant(name)], [])


def _annotated(inner: ast.expr, meta: ast.expr) -> ast.expr:
    return ast.Subscript(
        ast.Name("Annotated", ast.Load()), ast.Tuple([inner, meta], ast.Load()), ast.Load()
    )


def _keying(tree: ast.Module) -> _Keying:
    """The module's classes that may be keyed, and those that accept no object: its
    enumerations, and each root class whose root type accepts none."""
    classes: dict[str, Class] = {}
    enums: set[str] = set()
    roots: dict[str, ast.expr] = {}
    strings = {
        node.name: values
        for node in tree.body
        if isinstance(node, ast.ClassDef) and (values := enum_values(node)) is not None
    }
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found = facts(node, strings)
            if found is not None:
                classes[node.name] = found
            bases = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
            if any(isinstance(b, ast.Name) and b.id.endswith("Enum") for b in bases):
                enums.add(node.name)
            elif [b.id if isinstance(b, ast.Name) else None for b in bases] == ["RootModel"]:
                roots.update(
                    (node.name, plain(s.annotation))
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and json_name(s) == "root"
                )
    while True:  # a root class of root classes: until no more is found
        more = {
            name
            for name, root in roots.items()
            if all(_takes_no_object(m, frozenset(enums)) for m in _members(root))
        }
        if not more:
            break
        enums |= more
        roots = {k: v for k, v in roots.items() if k not in more}
    wrapped = {}
    for name, root in roots.items():
        inside = [m for m in _members(root) if not _is_outside(m)]
        held = [m.id for m in inside if isinstance(m, ast.Name) and m.id in classes]
        rest = [m for m in inside if not (isinstance(m, ast.Name) and m.id in classes)]
        if len(held) == 1 and all(_takes_no_object(m, frozenset(enums)) for m in rest):
            wrapped[name] = held[0]
    return _Keying(classes, frozenset(enums), wrapped)


def _fields(tree: ast.Module) -> Iterator[ast.AnnAssign]:
    """Each field of the module's classes, but those the generator made a discriminated union
    of already (``Field(discriminator=...)``)."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.AnnAssign) and not any(
                    isinstance(n, ast.keyword) and n.arg == "discriminator"
                    for n in ast.walk(statement)
                ):
                    yield statement


class _Keying(ast.NodeTransformer):
    def __init__(
        self, classes: dict[str, Class], enums: frozenset[str], wrapped: dict[str, str]
    ) -> None:
        self.classes = classes
        self.enums = enums
        # A root class of one class and members that take no object -> that class: it takes
        # the objects the class takes, and other values besides.
        self.wrapped = wrapped
        self.done = 0
        self.helpers: set[str] = set()  # the _types helpers the keyed unions call

    def visit_Call(self, node: ast.Call) -> ast.expr:
        return node  # a Field()'s arguments are no type

    def _split(self, members: list[ast.expr]) -> tuple[list[str], list[ast.expr]]:
        """The members that take objects (classes, root classes of one), and the members for
        the other values (those that take no object, and the root classes again)."""
        inside = [m for m in members if not _is_outside(m)]
        named = [m.id for m in inside if isinstance(m, ast.Name) and m.id in self.classes]
        named += [m.id for m in inside if isinstance(m, ast.Name) and m.id in self.wrapped]
        rest = [m for m in inside if not (isinstance(m, ast.Name) and m.id in self.classes)]
        return [n for n in dict.fromkeys(named)], rest

    def keys(self, node: ast.BinOp) -> Plan | None:
        """How the member classes of the union ``node`` are told apart, when they are."""
        named, rest = self._split(_members(node))
        if len(named) < 2 or not all(
            _takes_no_object(m, self.enums) or (isinstance(m, ast.Name) and m.id in self.wrapped)
            for m in rest
        ):
            return None
        return plan([self.classes[self.wrapped.get(n, n)] for n in named])

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        members = [self.visit(m) for m in _members(node)]
        keys = self.keys(node)
        if keys is None:
            return _union(members)
        outside = [m for m in members if _is_outside(m)]
        named, others = self._split(members)
        self.done += 1
        choices: list[ast.expr] = [_annotated(ast.Name(n, ast.Load()), _tag(n)) for n in named]
        if others:
            choices.append(_annotated(_union(others), _tag("")))
        rest = ast.Constant(bool(others))
        if keys.keys:
            pairs = [(ast.Constant(k), n) for k, n in zip(keys.keys, named, strict=True)]
            call = ast.Call(ast.Name("_keyed", ast.Load()), [_pairs(pairs), rest], [])
            self.helpers.add("_keyed")
            said = "an object holding one of the properties that tell them apart"
            shown = list(keys.keys)
        else:
            pairs = [(ast.Constant(v), n) for vs, n in zip(keys.values, named, strict=True)
                     for v in sorted(vs)]  # fmt: skip
            tag = ast.Constant(keys.tag)
            call = ast.Call(ast.Name("_tagged", ast.Load()), [tag, _pairs(pairs), rest], [])
            self.helpers.add("_tagged")
            said = f"an object whose property {keys.tag} is one of"
            shown = sorted(v for vs in keys.values for v in vs)
        # No context: a Discriminator in a union is hashed, and a dict is not hashable.
        shown = [k for k in shown if "{" not in k and "}" not in k]
        listed = ", ".join(shown[:_SHOWN]) + (", ..." if len(shown) > _SHOWN else "")
        message = f"no member of the union accepts the value: {said} ({listed}) was expected"
        discriminator = ast.Call(
            ast.Name("Discriminator", ast.Load()),
            [call],
            [
                ast.keyword("custom_error_type", ast.Constant("union_key_missing")),
                ast.keyword("custom_error_message", ast.Constant(message)),
            ],
        )
        return _union([_annotated(_union(choices), discriminator), *outside])


def _pairs(pairs: list[tuple[ast.Constant, str]]) -> ast.Tuple:
    return ast.Tuple(
        [ast.Tuple([value, ast.Name(name, ast.Load())], ast.Load()) for value, name in pairs],
        ast.Load(),
    )


def _is_outside(member: ast.expr) -> bool:
    return isinstance(member, ast.Name) and member.id in _OUTSIDE


def key_unions(code: str, tree: ast.Module, depth: int) -> str:
    """``code`` with each union of its fields' types that a property tells apart keyed (the
    module's docstring); ``code`` itself when none is. ``tree``: the syntax tree of ``code``
    (positions need not match: the module is parsed again to edit, when a union is keyed).
    ``depth``: the module's package depth (where the package's ``_types`` is)."""
    keying = _keying(tree)
    if not any(
        keying.keys(node) is not None
        for statement in _fields(tree)
        for node in ast.walk(statement.annotation)
        if isinstance(node, ast.BinOp)
    ):
        return code
    tree = ast.parse(code)
    keying = _keying(tree)
    edits: list[tuple[int, int, str]] = []
    for statement in _fields(tree):
        before = keying.done
        statement.annotation = keying.visit(statement.annotation)
        if keying.done != before:
            last = statement.end_lineno or statement.lineno
            edits.append((statement.lineno, last, "    " + ast.unparse(statement)))
    if not edits:
        return code
    lines = code.split("\n")
    for first, last, text in sorted(edits, reverse=True):
        lines[first - 1 : last] = [text]
    add_imports(
        lines,
        [
            "from typing import Annotated",
            "from pydantic import Discriminator, Tag",
            f"from {'.' * depth}{TYPES_MODULE} import {', '.join(sorted(keying.helpers))}",
        ],
    )
    return "\n".join(lines)
