"""The validator of each generated class: what its field types cannot say, as guard clauses.

A class (a contract, or a titled ``$defs`` entry) gets one ``model_validator`` when its schema
says more than its typed skeleton (:mod:`codegen.generate.models.types.skeleton`) enforces. Its
guard clauses read the value as JSON, ``x``, once the field types have validated it, and only
as far as they look (:mod:`~codegen.generate.models.checks.footprint`):

* when they test the presence of some of the class's fields and read the values of fields
  that hold JSON scalars only (strings, numbers, booleans, null, members of a string
  enumeration), an ``after`` validator builds ``x`` from those fields of the instance
  (``_view``: a property given, by its JSON name), and nothing else is read;
* otherwise (the whole object: its size, its keys, a JSON comparison; a property the class
  does not declare; the value of a class, an array or an object), a ``wrap`` validator reads
  the value it was given: in JSON mode the parsed document itself, which no field type has
  rewritten and no class has dropped a key of (``_parsed``: also below a deferred field of a
  validation in JSON mode); in Python mode, where the input may hold instances, the instance
  dumped (``_json_view``).

Either way no instance is dumped whole in JSON mode, and the value of a class nested in another
is read once: the inner validator reads the same parsed value the outer one does. A class whose
guards are its properties' alone, that would need the ``wrap`` validator for a field holding a
class, checks each property in a ``wrap`` validator of its field instead (:func:`field_methods`):
only the value that field was given is read, and only when it was given.

The guards (:mod:`~codegen.generate.models.checks.class_guards`) raise a
``PydanticCustomError`` at the first part that does not hold: each cross-field rule on its own,
then everything else the types leave out.

The predicates themselves are module-level functions
(:mod:`codegen.generate.models.checks.predicates`), and the JSON helpers they call come from the
package's ``_types`` module.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.models.checks.class_guards import ClassGuards
from codegen.generate.models.checks.footprint import (
    WHOLE,
    Footprint,
    Uses,
    footprint,
    uses_of,
)
from codegen.generate.models.checks.inline import inline_calls
from codegen.generate.models.checks.instances import (
    dict_root,
    holds_json,
    holds_names,
    inline_view,
    keeps_json,
)
from codegen.generate.models.checks.predicate_runtime import RUNTIME_NAMES
from codegen.generate.models.checks.predicates import PredicateCompiler
from codegen.generate.models.types.fields import json_name, validates_default
from codegen.generate.models.types.skeleton import Skeleton

__all__ = ["ClassCheck", "ModuleChecks", "module_checks"]


@dataclass(frozen=True)
class ClassCheck:
    """The validator method of one class: its name and its class-body lines (unindented).

    An ``after`` validator reads the fields it tests the presence of (``present``) and those
    holding JSON scalars (``read``) from the instance; when it also reads fields holding more
    (``raw``, by JSON name), it reads them as the instance holds them, in JSON mode, if the
    class declares each with a type that keeps the JSON value as parsed (:func:`keeps_json`);
    else it is ``fallback``, a ``wrap`` validator reading the value as given (a dump of a
    class, an array of classes, costs more). Its line :data:`VIEW` stands for that reading,
    written by :meth:`lines_for`."""

    class_name: str
    lines: tuple[str, ...]
    raw: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    present: tuple[str, ...] = ()
    fallback: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()
    names: bool = False
    fields: tuple[FieldCheck, ...] = ()

    def lines_for(
        self, node: ast.ClassDef, tuples: frozenset[str] = frozenset()
    ) -> tuple[str, ...]:
        """The method for the generated class ``node``, whose fields of JSON names ``tuples``
        will be typed ``tuple[...]`` (their value a tuple, not the JSON array)."""
        if self.whole:  # the checks read the whole object
            if tuples or not holds_json(node):
                return self.lines
            at = self.whole.index(VIEW)
            view = [
                f"    if type(self) is {self.class_name} and _parsed(info):",
                "        x = _whole(self)",
                "    else:",
                "        x = _json_view(self)",
            ]
            return (*self.whole[:at], *view, *self.whole[at + 1 :])
        if VIEW not in self.lines:
            return self.lines
        if self.names:
            return self.names_for(node)
        kept = {
            json_name(statement)
            for statement in node.body
            if isinstance(statement, ast.AnnAssign) and keeps_json(statement.annotation)
        } - tuples
        if not set(self.raw) <= kept:
            return field_methods(node, self.class_name, self.fields) or self.fallback
        raw, read = self.raw, self.read
        if raw:
            view = [
                f"    parsed = type(self) is {self.class_name} and _parsed(info)",
                f"    x = _view(self, {read!r}, {self.present!r}, {raw!r}, parsed)",
            ]
        else:
            view = inline_view(node, read, self.present) or [
                f"    x = _view(self, {read!r}, {self.present!r})"
            ]
        at = self.lines.index(VIEW)
        head = self.lines[:at]
        if not raw:  # no info to read
            head = tuple(line.replace(", info: ValidationInfo", "") for line in head)
        return (*head, *view, *self.lines[at + 1 :])

    def names_for(self, node: ast.ClassDef) -> tuple[str, ...]:
        """The method when the checks also read the names of all the properties: an instance
        of a ``RootModel`` whose root is an object holds them as its keys, an instance of a class
        that keeps or refuses undeclared properties as the fields given and the others kept
        (read from an instance of this class: a subclass may drop some); else the value as
        given (``fallback``)."""
        at = self.lines.index(VIEW)
        head = tuple(line.replace(", info: ValidationInfo", "") for line in self.lines[:at])
        if dict_root(node) and not (self.read or self.present):
            return (*head, "    x = self.root", *self.lines[at + 1 :])
        if self.raw or not holds_names(node):
            return self.fallback
        view = [
            f"    if type(self) is {self.class_name}:",
            f"        x = _view(self, {self.read!r}, {self.present!r}, names=True)",
            "    else:",
            "        x = _json_view(self)",
        ]
        return (*head, *view, *self.lines[at + 1 :])


VIEW = "    x = _view(...)"


@dataclass(frozen=True)
class FieldCheck:
    """A property's guard as its field's own ``wrap`` validator (for a class whose guards
    are those of its properties alone, one of which reads a field that holds no JSON as
    parsed): the guard's lines on the field's value ``x``, and where the schema says it."""

    name: str
    lines: tuple[str, ...]
    rel: str
    pointer: str  # the class's, as the file writes it

    @property
    def where(self) -> str:
        return f"schemas/{self.rel}#{self.pointer}/properties/{escape_pointer(self.name)}"


def field_methods(
    node: ast.ClassDef, title: str, fields: tuple[FieldCheck, ...]
) -> tuple[str, ...] | None:
    """One ``wrap`` field validator per property guard: in JSON mode it reads the value the
    field was given (nothing else is converted, and only when the property is present); in
    Python mode the field's value dumped as its instance would dump it (``_field_json``).
    None when a field is not the class's own or validates its default (no property given)."""
    if not fields:
        return None
    names = {
        json_name(s): s
        for s in node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    }
    methods: list[str] = []
    for field in fields:
        statement = names.get(field.name)
        if statement is None or validates_default(statement):
            return None
        python = statement.target.id  # type: ignore[union-attr]
        methods += [
            f'@field_validator({python!r}, mode="wrap")',
            "@classmethod",
            f"def _check_{_snake(title)}__{python}(",
            "    cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo",
            ") -> Any:",
            f'    """Enforce what the type of {title}.{python} cannot, as {field.where} does."""',
            "    result = handler(value)",
            "    x = value if _parsed(info) else _field_json(cls, info, result)",
            *("    " + line for line in field.lines),
            "    return result",
            "",
        ]
    return tuple(methods[:-1])


@dataclass(frozen=True)
class ModuleChecks:
    """A module's validators, the functions they call, the helpers those need (from the
    package's ``_types``) and the names the validators' signatures use (from pydantic)."""

    classes: tuple[ClassCheck, ...]
    functions: str
    helpers: tuple[str, ...]
    pydantic: tuple[str, ...] = ()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def module_checks(tree: SchemaTree, skeleton: Skeleton, schemas: list[SchemaFile]) -> ModuleChecks:
    """The validators of every class that ``schemas`` define in one module."""
    compiler = PredicateCompiler(tree, skeleton, readable=False)  # inline_calls tidies
    found = []
    properties: list[list[tuple[str, list[str]]]] = []  # each class's guards as its fields' own
    for schema in schemas:
        rel = schema.rel.as_posix()
        for pointer, title in schema.classes.items():
            node = resolve_pointer(schema.data, pointer)
            making = ClassGuards(compiler, skeleton, schema, pointer)
            guards = making.guards(node)
            if guards:
                fields = _scalars(skeleton, rel, pointer, node)
                found.append((title, rel, schema.file_pointer(pointer), fields, guards))
                properties.append(making.fields)
    functions = compiler.out.source if compiler.out.lines else ""
    bodies = [["def _(x):", *("    " + line for line in guards)] for *_, guards in found]
    count = len(bodies)
    bodies += [["def _(x):", *("    " + s for s in lines)] for f in properties for _, lines in f]
    uses: dict[str, Uses] = {}
    if functions:
        functions, bodies, uses = inline_calls(functions, bodies)
    rest = iter(bodies[count:])
    classes = []
    for (title, rel, pointer, fields, _), body, said in zip(
        found, bodies[:count], properties, strict=True
    ):
        own = tuple(
            FieldCheck(n, tuple(s[4:] for s in next(rest)[1:]), rel, pointer) for n, _ in said
        )
        reach = footprint(uses_of(ast.parse("\n".join(body))), uses)
        if reach is not WHOLE and not reach.keys <= fields.keys():
            # A property no field holds: the value as given, read once.
            reach = WHOLE
        guards = [line[4:] for line in body[1:]]
        lines = tuple(_method(title, rel, pointer, guards, reach))
        if reach is WHOLE:
            after = tuple(_method(title, rel, pointer, guards, Footprint(frozenset(), frozenset())))
            classes.append(ClassCheck(title, lines, whole=after))
        else:
            raw = tuple(sorted(n for n in reach.read if not fields[n]))
            read = tuple(sorted(n for n in reach.read if fields[n]))
            present = tuple(sorted(reach.present))
            wrap = raw or reach.names
            fallback = tuple(_method(title, rel, pointer, guards, WHOLE)) if wrap else ()
            check = ClassCheck(
                title, lines, raw, read, present, fallback, names=reach.names, fields=own
            )
            classes.append(check)
    text = functions + "\n".join(
        line for c in classes for line in (*c.lines, *c.fallback, *c.whole)
    )
    # Those of the views and signatures that a method uses, once written for its class (read
    # outside string literals: a property may be called "_format").
    code = _STRINGS.sub('""', text)
    used = {n for n in RUNTIME_NAMES if re.search(rf"\b{n}\b", code)} | set(_VIEWS)
    signatures = set(_SIGNATURES) if classes else set()
    return ModuleChecks(tuple(classes), functions, tuple(sorted(used)), tuple(sorted(signatures)))


_VIEWS = (
    "_field_json",
    "_json_view",
    "_parsed",
    "_view",
    "_whole",
)  # the JSON runtime's readers of an instance
_STRINGS = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")  # one-line literals


_SCALARS = frozenset({"string", "integer", "number", "boolean", "null"})


def _scalars(skeleton: Skeleton, rel: str, pointer: str, node: Any) -> dict[str, bool]:
    """Each property of the class at ``pointer`` that is a field of its own (the skeleton
    types its ``properties``), and whether the field's value is a JSON scalar: a type of
    scalars, a string ``enum`` or ``const`` (any other, a class, an array or an object, is
    read as given rather than dumped)."""
    if "properties" not in skeleton.kept_at(rel, pointer):
        return {}
    found = {}
    for name, sub in node["properties"].items():
        kept = skeleton.kept_at(rel, f"{pointer}/properties/{escape_pointer(name)}")
        kinds = sub.get("type") if isinstance(sub, dict) else None
        kinds = [kinds] if isinstance(kinds, str) else kinds
        typed = "type" in kept and isinstance(kinds, list) and set(kinds) <= _SCALARS
        found[name] = typed or bool(kept & {"enum", "const"})
    return found


_SIGNATURES = ("ModelWrapValidatorHandler", "ValidationInfo", "ValidatorFunctionWrapHandler",
               "field_validator", "model_validator")  # fmt: skip


def _method(
    title: str, rel: str, pointer: str, guards: list[str], reach: Footprint | None
) -> list[str]:
    """The validator method: ``after`` reading the fields of ``reach`` from the instance
    (:data:`VIEW`), or ``wrap`` reading the value as given (``reach`` :data:`WHOLE`)."""
    where = f"schemas/{rel}" + (f"#{pointer}" if pointer else "")
    doc = f'    """Enforce what the field types of {title} cannot, as {where} does."""'
    name = f"_check_{_snake(title)}"
    if reach is not WHOLE:
        return [
            '@model_validator(mode="after")',
            f"def {name}(self, info: ValidationInfo) -> Self:",
            doc,
            VIEW,
            *("    " + line for line in guards),
            "    return self",
        ]
    return [
        '@model_validator(mode="wrap")',
        "@classmethod",
        f"def {name}(",
        "    cls, value: Any, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo",
        ") -> Self:",
        doc,
        "    model = handler(value)",
        "    x = value if _parsed(info) else _json_view(model)",
        *("    " + line for line in guards),
        "    return model",
    ]
