"""The guard clauses of the in-place applicators: ``$ref``, ``$dynamicRef``, ``allOf``,
``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``, ``dependentSchemas`` and
``unevaluated*``, the part of :class:`~codegen.generate.models.checks.guards.Guards` that applies
other subschemas to the value itself (and, for ``unevaluated*``, collects what they evaluated).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from codegen.core.errors import SchemaError
from codegen.core.formats import ASSERTED
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.models.checks.dispatch import (
    absent,
    branches,
    keyed_runs,
    no_object,
    plan,
    table,
)
from codegen.generate.models.types.exclusive import exclusive_branches
from codegen.generate.rules import is_base

__all__ = ["Applicators", "Compiler", "refuse"]


def refuse(schema: SchemaFile, pointer: str, message: str, rule: str = "JSON") -> SchemaError:
    return SchemaError(message, schema.loc(pointer), rule)


_FAILED = {"anyOf": "if not results:", "oneOf": "if len(results) != 1:"}


class Compiler(Protocol):
    """What a body needs of the compiler that owns it."""

    tree: SchemaTree
    own_properties: set[tuple[str, str]]

    def constant(self, value: Any) -> str: ...

    def define(self, expression: str, prefix: str, annotation: str = "") -> str: ...

    def table(self, expression: str) -> str: ...

    def matches(self, schema: SchemaFile, pointer: str, source: Any, subject: str) -> str: ...

    def function(
        self,
        schema: SchemaFile,
        pointer: str,
        *,
        annotate: bool = False,
        residual: bool = False,
        entry: bool = False,
    ) -> str | None: ...

    def dynamic_target(
        self, name: str, target: SchemaFile, pointer: str
    ) -> tuple[SchemaFile, str]: ...

    def boolean(
        self, schema: SchemaFile, pointer: str, *, residual: bool = False, entry: bool = False
    ) -> str | None: ...


class Applicators:
    """The in-place applicators of :class:`~codegen.generate.models.checks.guards.Guards`."""

    c: Compiler
    schema: SchemaFile
    pointer: str
    annotate: bool
    residual: bool
    kept: frozenset[str]
    fail: str
    lines: list[str]
    original: dict[str, Any]

    if TYPE_CHECKING:  # Guards' own

        def at(self, *keys: str | int) -> str: ...

        def check(self, *keys: str | int, residual: bool = False) -> str | None: ...

        def guard(self, condition: str, indent: str = "") -> None: ...

    def in_place(self, *keys: str | int, residual: bool = False) -> str | None:
        """The function of an in-place subschema: returns annotations when this one does."""
        if self.annotate:
            return self.c.function(self.schema, self.at(*keys), annotate=True)
        return self.c.boolean(self.schema, self.at(*keys), residual=residual)

    def asserted_format(self, name: Any) -> str:
        """The format asserted here (``formats = "assert"``); a value that is no format the
        checks decide is refused (``FORMAT``): an unknown format would pass every string."""
        if not isinstance(name, str):
            raise refuse(self.schema, self.at("format"), "format must be a string", "FORMAT")
        if name not in ASSERTED:
            known = ", ".join(sorted(ASSERTED))
            raise refuse(
                self.schema,
                self.at("format"),
                f'format {name!r} is not asserted (formats = "assert" in pyproject.toml): it is '
                f"not a format the generated models check (one of {known}); remove it, or use "
                "pattern",
                "FORMAT",
            )
        return name

    def applicators(self, node: dict[str, Any]) -> None:
        if "$ref" in node:
            self.ref(node["$ref"], residual=False)
        elif "$ref" in self.kept and self.residual:
            self.ref(self.original["$ref"], residual=True)
        if "$dynamicRef" in node:
            dynamic = self.schema.dynamic.get(self.pointer)
            self.ref(node["$dynamicRef"], residual=False, dynamic=dynamic)
        entries = list(enumerate(node.get("allOf", [])))
        runs = (  # annotations need every entry's own
            [(None, [item]) for item in entries]
            if self.annotate
            else keyed_runs(entries, lambda item: item[1])
        )
        for key, run in runs:
            if key is None or not self.dispatch(key, run):
                for index, entry in run:
                    residual = self.residual and is_base(entry)
                    self.apply(self.in_place("allOf", index, residual=residual))
        for key in ("anyOf", "oneOf"):
            if key in node:
                self.choice(key, len(node[key]), "results", _FAILED[key])
            elif key in self.kept and self.residual:
                # The union of the branches' types holds when a branch's types hold (a oneOf
                # the skeleton keeps: its branches exclude each other); whether a branch holds
                # in full is known only when none says more than its types.
                count = len(self.original[key])
                residues = [self.in_place(key, i, residual=True) for i in range(count)]
                if any(residues):
                    self.choice(key, count, "results", _FAILED[key])
        if "not" in node:
            check = self.check("not")
            self.lines += [f"if {check or '_true'}(x):", f"    {self.fail}"]
        if "if" in node:
            self.conditional(node)
        for name in node.get("dependentSchemas") or {}:
            call = self.in_place("dependentSchemas", name)
            if call:
                self.lines.append(f"if type(x) is dict and {name!r} in x:")
                self.apply(call, indent="    ")

    def dispatch(self, key: str, run: list[tuple[int, Any]]) -> bool:
        """A run of ``allOf`` entries keyed on the property ``key`` (:mod:`.dispatch`): for an
        object holding it, the branches that apply to its value, by one lookup; else each
        branch that applies, in order. False: the entries are to be checked one by one."""
        rules = [entry for _, entry in run]
        found = plan(rules, self.schema.draft.float_integers)
        if found is None:
            return False

        def check(branch: tuple[int, str]) -> str | None:
            return self.check("allOf", run[branch[0]][0], branch[1])

        expression = table(found, check)
        present = [] if expression is None else [
            f"for check in _dispatch(x[{key!r}], {self.c.table(expression)}):",
            "    if not check(x):", f"        {self.fail}",
        ]  # fmt: skip

        def each(found: list[tuple[int, str]]) -> list[str]:
            names = [check(branch) for branch in found]
            return [line for n in names if n for line in (f"if not {n}(x):", f"    {self.fail}")]

        # After this node's own "type": "object", no other value is left.
        dicts = self.original.get("type") in ("object", ["object"]) and "type" not in self.kept
        other = [] if dicts else each(no_object(rules))
        self.lines += branches(key, present, each(absent(rules, key)), other)
        return True

    def ref(self, ref: Any, *, residual: bool, dynamic: str | None = None) -> None:
        """Apply the target of a ``$ref`` (or of a ``$dynamicRef`` looking for ``dynamic``)."""
        if not isinstance(ref, str):
            raise refuse(self.schema, self.at("$ref"), "$ref must be a string")
        target, pointer = self.c.tree.resolve(self.schema, ref)
        if dynamic is not None:
            target, pointer = self.c.dynamic_target(dynamic, target, pointer)
        call = self.c.function(target, pointer, annotate=self.annotate, residual=residual)
        self.apply(call)

    def apply(self, call: str | None, indent: str = "") -> None:
        if call is None:
            return
        if self.annotate:
            self.lines += [f"{indent}result = {call}(x)", f"{indent}if result is None:",
                           f"{indent}    {self.fail}", f"{indent}props |= result[0]",
                           f"{indent}items |= result[1]"]  # fmt: skip
        elif call.startswith("_a"):  # a function that returns annotations, or None
            self.guard(f"{call}(x) is not None", indent)
        else:
            self.guard(f"{call}(x)", indent)

    def choice(self, key: str, count: int, name: str, failed: str) -> None:
        found = [self.in_place(key, i) for i in range(count)]
        calls = [c or "_true" for c in found]
        if not self.annotate:
            if key == "anyOf" or exclusive_branches(self.c.tree, self.schema, self.pointer):
                # Branches that exclude each other: one holds exactly when any does.
                if None not in found:  # a branch that checks nothing always holds
                    self.guard(" or ".join(f"{c}(x)" for c in calls))
            else:
                self.guard(f"_exactly_one(x, ({', '.join(calls)},))")
            return
        results = ", ".join(f"{c}(x)" for c in calls)
        self.lines.append(f"{name} = [r for r in ({results},) if r is not None]")
        self.lines += [failed, f"    {self.fail}"]
        self.lines += [f"for result in {name}:", "    props |= result[0]", "    items |= result[1]"]

    def conditional(self, node: dict[str, Any]) -> None:
        then = self.in_place("then") if "then" in node else None
        other = self.in_place("else") if "else" in node else None
        if not self.annotate:
            if then is None and other is None:
                return  # "if" alone only annotates: it never fails
            condition = self.c.boolean(self.schema, self.at("if")) or "_true"
            self.lines.append(f"if {condition}(x):")
            self.lines += (
                [f"    if not {then}(x):", f"        {self.fail}"] if then else ["    pass"]
            )
            if other:
                self.lines += ["else:", f"    if not {other}(x):", f"        {self.fail}"]
            return
        annotations = self.in_place("if")
        assert annotations is not None  # a function that returns annotations is never dropped
        self.lines += [f"result = {annotations}(x)", "if result is not None:",
                       "    props |= result[0]", "    items |= result[1]"]  # fmt: skip
        if then:
            self.apply(then, indent="    ")
        if other:
            self.lines.append("else:")
            self.apply(other, indent="    ")

    def unevaluated(self, node: dict[str, Any]) -> None:
        if "unevaluatedItems" in node:
            check = self.check("unevaluatedItems") or "_true"
            self.lines += ["if type(x) is list:",
                           "    for i, item in enumerate(x):",
                           f"        if i not in items and not {check}(item):",
                           f"            {self.fail}",
                           "    items.update(range(len(x)))"]  # fmt: skip
        if "unevaluatedProperties" in node:
            check = self.check("unevaluatedProperties") or "_true"
            self.lines += ["if type(x) is dict:",
                           "    for key, value in x.items():",
                           f"        if key not in props and not {check}(value):",
                           f"            {self.fail}",
                           "    props.update(x)"]  # fmt: skip
