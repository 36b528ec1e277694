"""The guard clauses of one generated class (:class:`ClassGuards`): each cross-field rule of its
schema object on its own (a root ``if``/``then``/``else``, an ``allOf`` entry, each
``dependentRequired`` and ``dependentSchemas`` entry), with the rule's ``description`` as the
message (error type ``schema_rule``), then everything else its field types leave out (error type
``schema``), naming the file's own pointer.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer
from codegen.core.loader import SchemaFile
from codegen.generate.models.checks.dispatch import (
    absent,
    branches,
    keyed_runs,
    no_object,
    plan,
    table,
)
from codegen.generate.models.checks.predicates import ANNOTATIONS, PredicateCompiler
from codegen.generate.models.types.skeleton import Skeleton
from codegen.generate.rules import find_rules, is_base, rule_message

__all__ = ["CONDITIONAL", "RULE_KEYS", "ClassGuards"]


RULE_KEYS = frozenset({"if", "then", "else", "dependentRequired", "dependentSchemas", "allOf"})


CONDITIONAL = frozenset({"if", "then", "else", "description", "$comment"})


class ClassGuards:
    def __init__(
        self, compiler: PredicateCompiler, skeleton: Skeleton, schema: SchemaFile, pointer: str
    ) -> None:
        self.c = compiler
        self.skeleton = skeleton
        self.schema = schema
        self.rel = schema.rel.as_posix()
        self.pointer = pointer
        # Each property guard as its field's own check, when the guards are those alone:
        # (JSON name, the guard's lines on the field's value ``x``).
        self.fields: list[tuple[str, list[str]]] = []

    def where(self, pointer: str) -> str:
        """Internal ``pointer`` as the file is written: its ``rule`` in an error."""
        return f"{self.rel}#{self.schema.file_pointer(pointer)}"

    def raise_lines(self, kind: str, message: str, where: str) -> list[str]:
        return [
            "    raise PydanticCustomError(",
            f"        {kind!r}, {message!r}, {{'rule': {where!r}}}",
            "    )",
        ]

    def guards(self, node: Any) -> list[str]:
        key = (self.rel, self.pointer)
        kept = self.skeleton.kept.get(key, frozenset())
        splittable = isinstance(node, dict) and not (
            {"unevaluatedProperties", "unevaluatedItems"} & set(node) - kept
        )
        lines: list[str] = []
        fields: list[tuple[str, list[str]]] = []
        ruled = True  # rules checked, or the class's guards not split
        if splittable and self.bases_are_classes(node):
            lines += self.rules(node)
            ruled = bool(lines)
            if "properties" in kept:
                lines += self.properties(node, fields)
                self.c.own_properties.add(key)
            # The rest, without the rules (their only-$ref allOf entries are bases: classes).
            self.skeleton.kept[key] = kept | RULE_KEYS
            try:
                rest = self.c.boolean(self.schema, self.pointer, residual=True, entry=True)
            finally:
                self.skeleton.kept[key] = kept
                self.c.own_properties.discard(key)
        elif splittable:
            # A base that is no class of its own: the rules are checked one by one, and the
            # whole schema once more with every keyword (the base's included).
            lines += self.rules(node)
            rest = self.c.boolean(self.schema, self.pointer, residual=False, entry=True)
        else:
            rest = self.c.boolean(self.schema, self.pointer, residual=True, entry=True)
        if rest is not None:
            where = self.where(self.pointer)
            message = f"the value does not satisfy schemas/{where}"
            lines += [f"if not {rest}(x):", *self.raise_lines("schema", message, where)]
        elif fields and not ruled:
            self.fields = fields
        return lines

    def properties(self, node: dict[str, Any], fields: list[tuple[str, list[str]]]) -> list[str]:
        """One guard per property whose schema says more than its field's type (each also
        added to ``fields``, on the field's value)."""
        lines = []
        for name, sub in node["properties"].items():
            here = f"{self.pointer}/properties/{escape_pointer(name)}"
            check = self.c.boolean(self.schema, here, residual=True)
            if check:
                kept = self.skeleton.kept.get((self.rel, here), frozenset())
                message = f"{name}: {_describe(self.schema, here, sub, kept)}"
                raised = self.raise_lines("schema", message, self.where(here))
                lines += [f"if {name!r} in x and not {check}(x[{name!r}]):", *raised]
                fields.append((name, [f"if not {check}(x):", *raised]))
        return lines

    def bases_are_classes(self, node: dict[str, Any]) -> bool:
        """Whether every ``allOf`` reference names a class, and the skeleton made each base
        one of the class's bases (not so in a tree of dynamic references, or for a root model)."""
        for index, entry in enumerate(node.get("allOf") or []):
            if isinstance(entry, dict) and "$ref" in entry and isinstance(entry["$ref"], str):
                target, pointer = self.c.tree.resolve(self.schema, entry["$ref"])
                if (target.rel.as_posix(), pointer) not in self.skeleton.classes:
                    return False
                here = (self.rel, f"{self.pointer}/allOf/{index}")
                if is_base(entry) and "$ref" not in self.skeleton.kept.get(here, frozenset()):
                    return False
        return True

    def check(self, pointer: str) -> str:
        return self.c.boolean(self.schema, pointer) or "_true"

    def rules(self, node: dict[str, Any]) -> list[str]:
        """Each rule on its own, in order; a run of rules keyed on one property's value by one
        lookup (:mod:`.dispatch`), which checks the same rules' branches in the same order."""
        lines: list[str] = []
        for key, run in keyed_runs(find_rules(node), lambda item: item[1]):
            dispatched = None if key is None else self.dispatch(key, run, node)
            if dispatched is not None:
                lines += dispatched
                continue
            for rule_pointer, rule in run:
                lines += self.rule(self.pointer + rule_pointer, rule, node)
        return lines

    def dispatch(
        self, key: str, run: list[tuple[str, Any]], node: dict[str, Any]
    ) -> list[str] | None:
        """The lines of a run of rules keyed on the property ``key``: for an object holding
        it, each branch that applies to its value (one lookup); else each branch that applies,
        in order, each with its rule's message (None: the rules are checked one by one)."""
        rules = [rule for _, rule in run]
        found = plan(rules, self.schema.draft.float_integers)
        if found is None:
            return None

        def error(branch: tuple[int, str]) -> tuple[str, str, str] | None:
            """The branch's function, its rule's message and place (None: checks nothing)."""
            pointer = self.pointer + run[branch[0]][0]
            name = self.c.boolean(self.schema, f"{pointer}/{branch[1]}")
            return None if name is None else (name, *self.message(pointer, rules[branch[0]], node))

        def entry(branch: tuple[int, str]) -> str | None:
            found = error(branch)
            return None if found is None else "({}, {!r}, {!r})".format(*found)

        expression = table(found, entry)
        present = [] if expression is None else [
            f"for check, message, rule in _dispatch(x[{key!r}], {self.c.table(expression)}):",
            "    if not check(x):",
            "        raise PydanticCustomError('schema_rule', message, {'rule': rule})",
        ]  # fmt: skip

        def each(branches: list[tuple[int, str]]) -> list[str]:
            lines = []
            for name, message, where in filter(None, map(error, branches)):
                lines += [f"if not {name}(x):", *self.raise_lines("schema_rule", message, where)]
            return lines

        # An object class: its field types hold no other value.
        kept = self.skeleton.kept_at(self.rel, self.pointer)
        dicts = node.get("type") in ("object", ["object"]) and "type" in kept
        other = [] if dicts else each(no_object(rules))
        return branches(key, present, each(absent(rules, key)), other)

    def message(self, pointer: str, rule: Any, node: dict[str, Any]) -> tuple[str, str]:
        """The message of the rule at ``pointer`` and its place (``rule`` in its error)."""
        own = self.schema.file_pointer(pointer)[len(self.schema.file_pointer(self.pointer)) :]
        message = rule_message(pointer[len(self.pointer) :], rule, node, shown=own)
        return message, self.where(pointer)

    def rule(self, pointer: str, rule: Any, node: dict[str, Any]) -> list[str]:
        message, where = self.message(pointer, rule, node)
        if pointer == self.pointer and "if" not in rule:
            return []  # then or else without if: they never apply
        if isinstance(rule, dict) and "if" in rule and set(rule) <= CONDITIONAL:
            condition = self.check(f"{pointer}/if")
            then = self.check(f"{pointer}/then") if "then" in rule else None
            other = self.check(f"{pointer}/else") if "else" in rule else None
            if then and other:
                test = f"not ({then}(x) if {condition}(x) else {other}(x))"
            elif then:
                test = f"{condition}(x) and not {then}(x)"
            elif other:
                test = f"not {condition}(x) and not {other}(x)"
            else:
                return []
        elif pointer_tokens(pointer)[-2] == "dependentRequired":
            needed = " and ".join(f"{n!r} in x" for n in resolve_pointer(self.schema.data, pointer))
            subject = pointer_tokens(pointer)[-1]
            test = f"type(x) is dict and {subject!r} in x and not ({needed or 'True'})"
        elif pointer_tokens(pointer)[-2] == "dependentSchemas":
            subject = pointer_tokens(pointer)[-1]
            test = f"type(x) is dict and {subject!r} in x and not {self.check(pointer)}(x)"
        else:
            test = f"not {self.check(pointer)}(x)"
        return [f"if {test}:", *self.raise_lines("schema_rule", message, where)]


def _describe(schema: SchemaFile, pointer: str, node: Any, kept: frozenset[str]) -> str:
    """What a schema says beyond its field's type, for an error message: each keyword as the
    file writes it (draft-04's ``maximum`` and ``exclusiveMaximum: true``, not the internal
    form's ``exclusiveMaximum``)."""
    if node is False:
        return "the property is not allowed"
    if not isinstance(node, dict):
        return "the value does not satisfy its schema"
    said = [k for k in node if k not in kept and k not in ANNOTATIONS and k != "$id"]
    parts = []
    for key in said:
        written = schema.file_pointer(f"{pointer}/{escape_pointer(key)}")
        name, value = key, node[key]
        if written != schema.file_pointer(pointer) + f"/{escape_pointer(key)}":
            name = pointer_tokens(written)[-1]
            with contextlib.suppress(LookupError):
                value = resolve_pointer(schema.document, written)
        text = (
            f"{name} {json.dumps(value)}" if isinstance(value, str | int | float | bool) else name
        )
        parts.append(text)
    return "the value does not satisfy " + (", ".join(dict.fromkeys(parts)) or "its schema")
