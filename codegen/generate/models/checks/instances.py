"""What an instance of a generated class holds of the JSON value it was given: whether its
validator can read the value from the instance (:func:`holds_json`, :func:`keeps_json`), or the
names of its properties (:func:`holds_names`, :func:`dict_root`), rather than take the value as
given (a ``wrap`` validator, which makes the parsed subtree Python objects once more).
"""

from __future__ import annotations

import ast

from codegen.generate.models.types.fields import json_name

__all__ = ["dict_root", "holds_json", "holds_names", "inline_view", "keeps_json"]


# The annotations whose value, in JSON mode, is the JSON value as parsed (a JsonInt's 1.0 the
# int 1, equal to it in every JSON comparison): a string, a boolean, a number, null, anything.
_JSON_NAMES = frozenset(
    {"Any", "StrictStr", "StrictBool", "StrictInt", "JsonInt", "JsonNumber", "None", "MISSING"}
)


def dict_root(node: ast.ClassDef) -> bool:
    """Whether ``node`` is a ``RootModel`` whose root is typed an object (``dict[...]``): its
    root holds the keys of the object it was given, whatever its values became."""
    if len(node.bases) != 1 or not isinstance(node.bases[0], ast.Subscript):
        return False
    base = node.bases[0]
    if not (isinstance(base.value, ast.Name) and base.value.id == "RootModel"):
        return False
    root = base.slice
    while (
        isinstance(root, ast.Subscript)
        and isinstance(root.value, ast.Name)
        and root.value.id == "Annotated"
        and isinstance(root.slice, ast.Tuple)
    ):
        root = root.slice.elts[0]
    return (
        isinstance(root, ast.Subscript)
        and isinstance(root.value, ast.Name)
        and (root.value.id == "dict")
    )


# The annotations whose value, in JSON mode, is the JSON value as parsed (a JsonInt's 1.0 the
# int 1, equal to it in every JSON comparison): a string, a boolean, a number, null, anything.
_JSON_NAMES = frozenset(
    {"Any", "StrictStr", "StrictBool", "StrictInt", "JsonInt", "JsonNumber", "None", "MISSING"}
)


def holds_json(node: ast.ClassDef) -> bool:
    """Whether an instance of the generated class ``node``, validated in JSON mode, holds the
    whole JSON value it was given, as parsed: a ``RootModel`` whose root :func:`keeps_json`,
    or a ``BaseModel`` whose every field does and that keeps (``extra="allow"``) or refuses
    (``"forbid"``) the properties it does not declare (the runtime's ``_whole``)."""
    if len(node.bases) != 1:
        return False
    base = node.bases[0]
    statements = [s for s in node.body if isinstance(s, ast.AnnAssign)]
    if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name):
        return base.value.id == "RootModel" and all(keeps_json(s.annotation) for s in statements)
    return holds_names(node) and all(keeps_json(s.annotation) for s in statements)


def holds_names(node: ast.ClassDef) -> bool:
    """Whether the generated class ``node`` is a ``BaseModel`` that keeps (``extra="allow"``)
    or refuses (``"forbid"``) the properties it does not declare: an instance holds the name
    of every property it was given."""
    if len(node.bases) != 1:
        return False
    base = node.bases[0]
    if not (isinstance(base, ast.Name) and base.id == "BaseModel"):
        return False
    extra = None
    for statement in node.body:
        if (
            isinstance(statement, ast.Assign)
            and [ast.unparse(t) for t in statement.targets] == ["model_config"]
            and isinstance(statement.value, ast.Call)
        ):
            for keyword in statement.value.keywords:
                if keyword.arg == "extra" and isinstance(keyword.value, ast.Constant):
                    extra = keyword.value.value
    return extra in ("allow", "forbid")


def keeps_json(annotation: ast.expr) -> bool:
    """Whether a field annotated ``annotation`` holds the JSON value it was given, as parsed:
    a union of :data:`_JSON_NAMES`, string and boolean ``Literal`` s, and ``list`` s and
    ``dict`` s of those (``Annotated`` constraints change no value)."""
    return _as_given(annotation, _JSON_NAMES, containers=True)


# The annotations whose value is a JSON scalar as it is (no member of an enumeration, no class).
_SCALAR_NAMES = _JSON_NAMES - {"Any"} | {"StrictFloat"}


def _scalar(annotation: ast.expr) -> bool:
    """Whether a field annotated ``annotation`` holds a JSON scalar as it is: a union of
    :data:`_SCALAR_NAMES` and string and boolean ``Literal`` s (``Annotated`` constraints
    change no value)."""
    return _as_given(annotation, _SCALAR_NAMES, containers=False)


def _as_given(annotation: ast.expr, names: frozenset[str], *, containers: bool) -> bool:
    """Whether ``annotation`` is a union of ``names``, ``None``, ``Literal`` s of strings,
    booleans and ``None`` (a numeric ``Literal`` takes ``true`` for ``1`` and gives ``1``), and,
    with ``containers``, ``list`` s and ``dict`` s with string keys of those."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _as_given(annotation.left, names, containers=containers) and _as_given(
            annotation.right, names, containers=containers
        )
    if isinstance(annotation, ast.Name):
        return annotation.id in names
    if isinstance(annotation, ast.Constant):
        return annotation.value is None
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name)):
        return False
    outer, inner = annotation.value.id, annotation.slice
    items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
    if outer == "Annotated":
        return _as_given(items[0], names, containers=containers)
    if outer == "Literal":
        return all(
            isinstance(i, ast.Constant) and (i.value is None or type(i.value) in (str, bool))
            for i in items
        )
    if not containers:
        return False
    if outer == "list":
        return len(items) == 1 and _as_given(items[0], names, containers=True)
    key = items[0]
    return (
        outer == "dict"
        and len(items) == 2
        and isinstance(key, ast.Name)
        and key.id in ("str", "StrictStr")
        and _as_given(items[1], names, containers=True)
    )


def inline_view(
    node: ast.ClassDef, read: tuple[str, ...], present: tuple[str, ...]
) -> list[str] | None:
    """The lines of an ``after`` validator that build its ``x`` from the instance itself, as
    the runtime's ``_view`` does, when the class ``node`` declares each field read or tested
    (by JSON name) and types each field read to hold a JSON scalar as it is: no call, no
    loop, no dump (None otherwise, and for a class that is no ``BaseModel`` of its own)."""
    base = node.bases[0] if len(node.bases) == 1 else None
    if not (isinstance(base, ast.Name) and base.id == "BaseModel"):
        return None  # a root model's value is its root; another class's fields are its bases'
    fields = {
        json_name(statement): (statement.target.id, statement.annotation)
        for statement in node.body
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
    }
    if not all(key in fields for key in (*read, *present)):
        return None
    if not all(_scalar(fields[key][1]) for key in read):
        return None
    lines = ["    given = self.__pydantic_fields_set__", "    x: dict[str, Any] = {}"]
    for key in sorted((*read, *present)):
        name = fields[key][0]
        value = f"self.{name}" if key in read else "True"
        lines += [f"    if {name!r} in given:", f"        x[{key!r}] = {value}"]
    return lines
