"""Keyed unions: a union of classes that a property tells apart is validated by one member.

Pydantic's smart union validates a value against every member that is a class (a class's
match never ends the search early), and on a miss builds the errors of each: a union of 13
classes, each an object with its own required property, validates every item 13 times. Where
the generated types themselves prove which member alone could accept a value, the union is a
``pydantic.Discriminator`` calling the package's ``_keyed`` (``_types``), which names that
member, and is validated by it alone.

A union qualifies when each member that is a class (a ``BaseModel`` of the module, no other
base, refusing undeclared properties or not) *requires* a property (by JSON name) that no other
member class declares and each other member class refuses (``extra="forbid"``): a member class
accepts only an object holding its key and, the others' keys refused, none of theirs. So an
object holding the key of member ``i`` can only be accepted by ``i``, and an object that holds
no key by none. The union's other members (``StrictStr``, numbers, arrays, ``Literal``, an
enumeration: nothing that accepts an object) stay a smart union of their own, for the values
that are no object. Every value is decided as before; on a miss the errors are those of the
one member the key names (labelled by its class, as before), or one error at the union's
location when no member could take the value (an object with no key).

A value given as a Python object other than a mapping or an instance of a member (pydantic's
``from_attributes``) is no object here: as in a deferred module, that mode is not carried.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from codegen.generate.models.types.fields import TYPES_MODULE, add_imports, json_name

__all__ = ["key_unions"]

# Members that accept no object (a dict or a mapping), whatever their arguments.
_NO_OBJECT_NAMES = frozenset({
    "StrictStr", "StrictBool", "StrictInt", "StrictFloat", "JsonInt", "JsonNumber", "JsonUUID",
    "JsonIPv4Address", "JsonIPv6Address",
})  # fmt: skip
_NO_OBJECT_GENERICS = frozenset({"list", "tuple", "Literal"})
_OUTSIDE = frozenset({"MISSING"})  # kept beside the keyed union (None too)
# The configuration a keyed class may say: nothing that lets a property in by another name.
_CONFIG = frozenset({
    "extra", "frozen", "defer_build", "serialize_by_alias", "protected_namespaces",
    "regex_engine", "arbitrary_types_allowed",
})  # fmt: skip
_SHOWN = 6  # keys named in the error of an object that holds none


@dataclass(frozen=True)
class _Class:
    closed: bool  # refuses undeclared properties
    declared: frozenset[str]  # JSON names
    required: tuple[str, ...]  # JSON names, in field order


def _facts(node: ast.ClassDef) -> _Class | None:
    """What a class of the module accepts, read from its code; None when it is no plain
    ``BaseModel`` (another base, a validator that runs before the fields, an alias choice)."""
    if [b.id if isinstance(b, ast.Name) else None for b in node.bases] != ["BaseModel"]:
        return None
    closed = False
    declared: list[str] = []
    required: list[str] = []
    for statement in node.body:
        if isinstance(statement, ast.Assign):
            value = statement.value
            if not (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "ConfigDict"
                and all(k.arg in _CONFIG for k in value.keywords)
            ):
                return None
            for keyword in value.keywords:
                if keyword.arg == "extra":
                    closed = isinstance(keyword.value, ast.Constant) and (
                        keyword.value.value == "forbid"
                    )
        elif isinstance(statement, ast.AnnAssign):
            if "validation_alias" in ast.unparse(statement) or not isinstance(
                statement.target, ast.Name
            ):
                return None
            name = json_name(statement)
            declared.append(name)
            defaulted = any(
                isinstance(n, ast.keyword) and n.arg in ("default", "default_factory")
                for n in ast.walk(statement.annotation)
            )
            if statement.value is None and not defaulted:
                required.append(name)
        elif isinstance(statement, ast.FunctionDef) and any(
            "before" in ast.unparse(d) or "field_validator" in ast.unparse(d)
            for d in statement.decorator_list
        ):
            return None
    return _Class(closed, frozenset(declared), tuple(required))


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
    if isinstance(member, ast.Name):
        return member.id in _NO_OBJECT_NAMES or member.id in enums
    return (
        isinstance(member, ast.Subscript)
        and isinstance(member.value, ast.Name)
        and member.value.id in _NO_OBJECT_GENERICS
    )


def _keys(classes: list[tuple[str, _Class]]) -> list[str] | None:
    """Each class's key: a property it requires that every other class refuses."""
    keys = []
    for index, (_, facts) in enumerate(classes):
        others = [c for i, (_, c) in enumerate(classes) if i != index]
        key = next(
            (p for p in facts.required
             if all(o.closed and p not in o.declared for o in others)),
            None,
        )  # fmt: skip
        if key is None:
            return None
        keys.append(key)
    return keys


def _tag(name: str) -> ast.Call:
    return ast.Call(ast.Name("Tag", ast.Load()), [ast.Constant(name)], [])


def _annotated(inner: ast.expr, meta: ast.expr) -> ast.expr:
    return ast.Subscript(
        ast.Name("Annotated", ast.Load()), ast.Tuple([inner, meta], ast.Load()), ast.Load()
    )


def _keying(tree: ast.Module) -> _Keying:
    """The module's classes that may be keyed, and those that accept no object: its
    enumerations, and each root class whose root type accepts none."""
    classes: dict[str, _Class] = {}
    enums: set[str] = set()
    roots: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            facts = _facts(node)
            if facts is not None:
                classes[node.name] = facts
            bases = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
            if any(isinstance(b, ast.Name) and b.id.endswith("Enum") for b in bases):
                enums.add(node.name)
            elif [b.id if isinstance(b, ast.Name) else None for b in bases] == ["RootModel"]:
                roots.update(
                    (node.name, _plain(s.annotation))
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and json_name(s) == "root"
                )
    while True:  # a root class of root classes: until no more is found
        found = {
            name
            for name, root in roots.items()
            if all(_takes_no_object(m, frozenset(enums)) for m in _members(root))
        }
        if not found:
            return _Keying(classes, frozenset(enums))
        enums |= found
        roots = {k: v for k, v in roots.items() if k not in found}


def _plain(annotation: ast.expr) -> ast.expr:
    """A type without its ``Annotated[...]`` metadata."""
    if (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Annotated"
        and isinstance(annotation.slice, ast.Tuple)
    ):
        return _plain(annotation.slice.elts[0])
    return annotation


def _fields(tree: ast.Module) -> Iterator[ast.AnnAssign]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            yield from (s for s in node.body if isinstance(s, ast.AnnAssign))


class _Keying(ast.NodeTransformer):
    def __init__(self, classes: dict[str, _Class], enums: frozenset[str]) -> None:
        self.classes = classes
        self.enums = enums
        self.done = 0

    def visit_Call(self, node: ast.Call) -> ast.expr:
        return node  # a Field()'s arguments are no type

    def keys(self, node: ast.BinOp) -> list[str] | None:
        """The key of each member class of the union ``node``, when it is keyed."""
        inside = [m for m in _members(node) if not _is_outside(m)]
        named = [m.id for m in inside if isinstance(m, ast.Name) and m.id in self.classes]
        others = [m for m in inside if not (isinstance(m, ast.Name) and m.id in self.classes)]
        if len(named) < 2 or not all(_takes_no_object(m, self.enums) for m in others):
            return None
        return _keys([(n, self.classes[n]) for n in named])

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        members = [self.visit(m) for m in _members(node)]
        keys = self.keys(node)
        if keys is None:
            return _union(members)
        outside = [m for m in members if _is_outside(m)]
        inside = [m for m in members if not _is_outside(m)]
        named = [m.id for m in inside if isinstance(m, ast.Name) and m.id in self.classes]
        others = [m for m in inside if not (isinstance(m, ast.Name) and m.id in self.classes)]
        self.done += 1
        choices: list[ast.expr] = [_annotated(ast.Name(n, ast.Load()), _tag(n)) for n in named]
        if others:
            choices.append(_annotated(_union(others), _tag("")))
        pairs = ast.Tuple(
            [ast.Tuple([ast.Constant(k), ast.Name(n, ast.Load())], ast.Load())
             for k, n in zip(keys, named, strict=True)],
            ast.Load(),
        )  # fmt: skip
        # No context: a Discriminator in a union is hashed, and a dict is not hashable.
        said = [k for k in keys if "{" not in k and "}" not in k]
        shown = ", ".join(said[:_SHOWN]) + (", ..." if len(said) > _SHOWN else "")
        discriminator = ast.Call(
            ast.Name("Discriminator", ast.Load()),
            [ast.Call(ast.Name("_keyed", ast.Load()), [pairs, ast.Constant(bool(others))], [])],
            [
                ast.keyword("custom_error_type", ast.Constant("union_key_missing")),
                ast.keyword(
                    "custom_error_message",
                    ast.Constant(
                        "no member of the union accepts the value: an object holding one of "
                        f"the properties that tell them apart ({shown}) was expected"
                    ),
                ),
            ],
        )
        return _union([_annotated(_union(choices), discriminator), *outside])


def _is_outside(member: ast.expr) -> bool:
    return (isinstance(member, ast.Name) and member.id in _OUTSIDE) or (
        isinstance(member, ast.Constant) and member.value is None
    )


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
            f"from {'.' * depth}{TYPES_MODULE} import _keyed",
        ],
    )
    return "\n".join(lines)
