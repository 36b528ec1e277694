"""What a generated module's classes accept, read from its code, for
:mod:`codegen.generate.models.types.keyed`: whether each class refuses undeclared properties,
the properties it declares and requires, and the only strings each required one takes; and how
a union's member classes are told apart (:func:`plan`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from codegen.generate.models.types.fields import json_name

__all__ = ["Class", "Plan", "enum_values", "facts", "plain", "plan"]

# The configuration a keyed class may say: nothing that lets a property in by another name.
_CONFIG = frozenset({
    "extra", "frozen", "defer_build", "serialize_by_alias", "protected_namespaces",
    "regex_engine", "arbitrary_types_allowed",
})  # fmt: skip


@dataclass(frozen=True)
class Class:
    closed: bool  # refuses undeclared properties
    declared: frozenset[str]  # JSON names
    required: tuple[str, ...]  # JSON names, in field order
    tags: dict[str, frozenset[str]]  # required JSON name -> the only strings its type takes


@dataclass(frozen=True)
class Plan:
    """How a union's member classes are told apart: by a key each (``keys``), or by the
    values of the property ``tag`` (``values``, one set per member)."""

    keys: tuple[str, ...] = ()
    tag: str = ""
    values: tuple[frozenset[str], ...] = ()


def _strings(annotation: ast.expr, enums: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """The only strings a field type takes: a ``Literal`` of strings, a ``StrEnum``."""
    bare = plain(annotation)
    if isinstance(bare, ast.Name):
        return enums.get(bare.id)
    if (
        isinstance(bare, ast.Subscript)
        and isinstance(bare.value, ast.Name)
        and (bare.value.id == "Literal")
    ):
        said = bare.slice.elts if isinstance(bare.slice, ast.Tuple) else [bare.slice]
        if all(isinstance(v, ast.Constant) and type(v.value) is str for v in said):
            return frozenset(str(v.value) for v in said if isinstance(v, ast.Constant))
    return None


def enum_values(node: ast.ClassDef) -> frozenset[str] | None:
    """The values of a ``StrEnum`` of the module (each member a string constant)."""
    if [b.id if isinstance(b, ast.Name) else None for b in node.bases] != ["StrEnum"]:
        return None
    values = []
    for statement in node.body:
        if isinstance(statement, ast.Assign):
            if not (
                isinstance(statement.value, ast.Constant) and type(statement.value.value) is str
            ):
                return None
            values.append(statement.value.value)
    return frozenset(values)


def facts(node: ast.ClassDef, enums: dict[str, frozenset[str]]) -> Class | None:
    """What a class of the module accepts, read from its code; None when it is no plain
    ``BaseModel`` (another base, a validator that runs before the fields, an alias choice)."""
    if [b.id if isinstance(b, ast.Name) else None for b in node.bases] != ["BaseModel"]:
        return None
    closed = False
    declared: list[str] = []
    required: list[str] = []
    tags: dict[str, frozenset[str]] = {}
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
                values = _strings(statement.annotation, enums)
                if values is not None:
                    tags[name] = values
        elif isinstance(statement, ast.FunctionDef) and any(
            "before" in ast.unparse(d) or _other_field_validator(d)
            for d in statement.decorator_list
        ):
            return None
    return Class(closed, frozenset(declared), tuple(required), tags)


def _other_field_validator(decorator: ast.expr) -> bool:
    """A field validator other than a property's guard (``wrap``, :mod:`..checks.validators`):
    a guard only refuses a value its type took, never makes the class take an object."""
    if not (isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "field_validator"):
        return False
    modes = [k.value for k in decorator.keywords if k.arg == "mode"]
    return not (len(modes) == 1 and isinstance(modes[0], ast.Constant) and modes[0].value == "wrap")


def plan(classes: list[Class]) -> Plan | None:
    """How the classes are told apart: each by a property it requires that every other class
    refuses, else by a required property whose values no two classes share; None if not."""
    keys = []
    for index, facts in enumerate(classes):
        others = [c for i, c in enumerate(classes) if i != index]
        key = next(
            (p for p in facts.required
             if all(o.closed and p not in o.declared for o in others)),
            None,
        )  # fmt: skip
        if key is None:
            break
        keys.append(key)
    else:
        return Plan(keys=tuple(keys))
    for tag in classes[0].tags:
        if all(tag in c.tags for c in classes):
            values = [c.tags[tag] for c in classes]
            if sum(map(len, values)) == len(frozenset().union(*values)):  # none shared
                return Plan(tag=tag, values=tuple(values))
    return None


def plain(annotation: ast.expr) -> ast.expr:
    """A type without its ``Annotated[...]`` metadata."""
    if (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Annotated"
        and isinstance(annotation.slice, ast.Tuple)
    ):
        return plain(annotation.slice.elts[0])
    return annotation
