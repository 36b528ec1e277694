"""Compile a contract's cross-field rules into a Pydantic ``model_validator``.

A rule is any root-level ``if``/``then``/``else``, ``dependentRequired`` or
``dependentSchemas``, and every ``allOf`` entry that is not the ``$ref`` of a base contract.
Each rule compiles to one Python boolean expression evaluated after validation, with JSON
Schema's semantics:

* a property is *present* when it was in the input (``model_fields_set``), whatever its default;
* ``properties`` constrains a property only when it is present; ``required`` demands presence;
* ``const``/``enum`` compare as JSON does (``false`` never equals ``0``, ``1`` equals ``1.0``);
* ``minLength`` applies to strings only, ``minItems`` to arrays only, ``minimum`` to numbers only.

Only the keywords listed here are compiled; anything else in a rule is refused with the file
and JSON pointer, never dropped. The rule's ``description`` becomes the error message.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile

__all__ = ["CompiledRule", "RuleSet", "compile_rules", "find_rules"]

_RESERVED = frozenset({"model_config", "model_fields", "schema", "json", "dict", "copy"})
_ROOT_KEYS = frozenset(
    {"if", "then", "else", "properties", "required", "not", "allOf", "anyOf", "oneOf",
     "dependentRequired", "dependentSchemas", "description", "$comment", "type"}
)  # fmt: skip
_VALUE_KEYS = frozenset(
    {"const", "enum", "type", "minLength", "maxLength", "minItems", "maxItems", "minimum",
     "maximum", "exclusiveMinimum", "exclusiveMaximum", "not", "allOf", "anyOf", "oneOf",
     "if", "then", "else", "description", "$comment"}
)  # fmt: skip
_NUM = "(isinstance({v}, (int, float)) and not isinstance({v}, bool))"
_TYPES = {
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "array": "isinstance({v}, (list, tuple))",
    "object": "isinstance({v}, (dict, BaseModel))",
    "number": _NUM,
    "integer": (
        "((isinstance({v}, int) and not isinstance({v}, bool))"
        " or (isinstance({v}, float) and {v}.is_integer()))"
    ),
}
_COMPARE = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
_LENGTH = {"minLength": ">=", "maxLength": "<=", "minItems": ">=", "maxItems": "<="}


@dataclass(frozen=True, slots=True)
class CompiledRule:
    """One rule: where it is written, its message and its Python condition."""

    pointer: str
    message: str
    condition: str


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules of one contract and the ``model_validator`` method that enforces them."""

    class_name: str
    source: str
    rules: tuple[CompiledRule, ...]

    def method_lines(self) -> list[str]:
        """Class-body lines (unindented) of the validator method."""
        name = "".join(f"_{c.lower()}" if c.isupper() else c for c in self.class_name)
        lines = [
            '@model_validator(mode="after")',
            f"def _check{name}_rules(self) -> Self:",
            f'    """Enforce the cross-field rules of {self.source} as JSON Schema does."""',
            "    fields_set = self.model_fields_set",
        ]
        for rule in self.rules:
            lines += [
                f"    if not ({rule.condition}):",
                "        raise PydanticCustomError(",
                f'            "schema_rule", {rule.message!r}, {{"rule": {rule.pointer!r}}}',
                "        )",
            ]
        lines.append("    return self")
        return lines


def find_rules(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """The rules written in a contract: ``(pointer, rule schema applied to the object)``."""
    found: list[tuple[str, Any]] = []
    if any(key in data for key in ("if", "then", "else")):
        found.append(("", {k: data[k] for k in ("if", "then", "else") if k in data}))
    for key in ("dependentRequired", "dependentSchemas"):
        for name, value in (data.get(key) or {}).items():
            found.append((f"/{key}/{escape_pointer(name)}", {key: {name: value}}))
    for index, entry in enumerate(data.get("allOf") or []):
        if not (isinstance(entry, dict) and "$ref" in entry):
            found.append((f"/allOf/{index}", entry))
    return found


def _default_message(pointer: str, rule: Any) -> str:
    if isinstance(rule, dict) and isinstance(rule.get("description"), str):
        return str(rule["description"])
    return f"the object must satisfy the rule at {pointer or '/'}"


def compile_rules(
    schema: SchemaFile, class_name: str, properties: Collection[str]
) -> RuleSet | None:
    """Compile every rule of ``schema``; ``properties`` are the contract's declared fields."""
    compiled = []
    for pointer, rule in find_rules(schema.data):
        compiler = _Compiler(schema, properties)
        condition = compiler.root(rule, pointer)
        message = _default_message(pointer, schema.data if pointer == "" else rule)
        if pointer.startswith("/dependent"):
            name = pointer.rsplit("/", 1)[1]
            message = f"when {name} is present, the rule at {pointer} must hold"
        compiled.append(CompiledRule(f"{schema.rel}#{pointer}", message, condition))
    if not compiled:
        return None
    return RuleSet(class_name, f"schemas/{schema.rel}", tuple(compiled))


class _Compiler:
    def __init__(self, schema: SchemaFile, properties: Collection[str]) -> None:
        self.schema = schema
        self.properties = properties

    def refuse(self, pointer: str, message: str) -> SchemaError:
        return SchemaError(message, self.schema.loc(pointer), "SUPPORTED_RULE")

    def check_keys(self, node: Any, pointer: str, allowed: frozenset[str]) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise self.refuse(pointer, "a rule must be a schema object")
        for key in node:
            if key not in allowed:
                raise self.refuse(
                    f"{pointer}/{escape_pointer(key)}",
                    f"keyword {key!r} is not supported in a cross-field rule here "
                    f"(supported: {', '.join(sorted(allowed))})",
                )
        return node

    def prop(self, name: str, pointer: str) -> str:
        if name not in self.properties:
            raise self.refuse(pointer, f"rule names {name!r}, which is not a declared property")
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
            raise self.refuse(pointer, f"property {name!r} has no plain Python field name")
        if name in _RESERVED or name.startswith("model_"):
            raise self.refuse(pointer, f"property {name!r} clashes with a Pydantic attribute")
        return f"self.{name}"

    def combine(
        self, node: dict[str, Any], pointer: str, sub: Callable[[Any, str], str]
    ) -> list[str]:
        """The applicators shared by object and value positions."""
        parts = []
        for key in ("allOf", "anyOf", "oneOf"):
            if key not in node:
                continue
            if not isinstance(node[key], list) or not node[key]:
                raise self.refuse(f"{pointer}/{key}", f"{key} must be a non-empty array")
            branches = [sub(b, f"{pointer}/{key}/{i}") for i, b in enumerate(node[key])]
            if key == "allOf":
                parts += branches
            elif key == "anyOf":
                parts.append("(" + " or ".join(branches) + ")")
            else:
                parts.append("(sum((" + ", ".join(branches) + ",)) == 1)")
        if "not" in node:
            parts.append(f"not {sub(node['not'], f'{pointer}/not')}")
        if "if" in node:
            cond = sub(node["if"], f"{pointer}/if")
            then = sub(node["then"], f"{pointer}/then") if "then" in node else "True"
            other = sub(node["else"], f"{pointer}/else") if "else" in node else "True"
            parts.append(f"({then} if {cond} else {other})")
        elif "then" in node or "else" in node:
            raise self.refuse(pointer, "then/else without if has no effect")
        return parts

    def root(self, node: Any, pointer: str) -> str:
        if isinstance(node, bool):
            return str(node)
        node = self.check_keys(node, pointer, _ROOT_KEYS)
        if node.get("type", "object") != "object":
            raise self.refuse(f"{pointer}/type", "a rule on the contract can only say type object")
        parts = []
        for index, name in enumerate(node.get("required", [])):
            self.prop(name, f"{pointer}/required/{index}")
            parts.append(f"{name!r} in fields_set")
        for name, sub in (node.get("properties") or {}).items():
            here = f"{pointer}/properties/{escape_pointer(name)}"
            value = self.value(sub, here, self.prop(name, here))
            if value != "True":
                parts.append(f"({name!r} not in fields_set or {value})")
        for name, needed in (node.get("dependentRequired") or {}).items():
            here = f"{pointer}/dependentRequired/{escape_pointer(name)}"
            self.prop(name, here)
            for other in needed:
                self.prop(other, here)
            present = " and ".join(f"{other!r} in fields_set" for other in needed) or "True"
            parts.append(f"({name!r} not in fields_set or ({present}))")
        for name, sub in (node.get("dependentSchemas") or {}).items():
            here = f"{pointer}/dependentSchemas/{escape_pointer(name)}"
            self.prop(name, here)
            parts.append(f"({name!r} not in fields_set or {self.root(sub, here)})")
        parts += self.combine(node, pointer, self.root)
        return _conjoin(parts)

    def value(self, node: Any, pointer: str, v: str) -> str:
        if isinstance(node, bool):
            return str(node)
        node = self.check_keys(node, pointer, _VALUE_KEYS)
        parts = []
        if "const" in node:
            parts.append(self.equals(node["const"], v, f"{pointer}/const"))
        if "enum" in node:
            options = [self.equals(x, v, f"{pointer}/enum/{i}") for i, x in enumerate(node["enum"])]
            parts.append("(" + (" or ".join(options) or "False") + ")")
        if "type" in node:
            types = node["type"] if isinstance(node["type"], list) else [node["type"]]
            for name in types:
                if name not in _TYPES:
                    raise self.refuse(f"{pointer}/type", f"unknown type {name!r}")
            parts.append("(" + " or ".join(_TYPES[t].format(v=v) for t in types) + ")")
        for key, op in _LENGTH.items():
            if key in node:
                kind = "str" if "Length" in key else "(list, tuple)"
                parts.append(f"(not isinstance({v}, {kind}) or len({v}) {op} {int(node[key])})")
        for key, op in _COMPARE.items():
            if key in node:
                bound = node[key]
                if isinstance(bound, bool) or not isinstance(bound, int | float):
                    raise self.refuse(f"{pointer}/{key}", f"{key} must be a number")
                parts.append(f"(not {_NUM.format(v=v)} or {v} {op} {bound!r})")
        parts += self.combine(node, pointer, lambda sub, here: self.value(sub, here, v))
        return _conjoin(parts)

    def equals(self, expected: Any, v: str, pointer: str) -> str:
        if expected is None:
            return f"{v} is None"
        if isinstance(expected, bool):
            return f"{v} is {expected}"
        if isinstance(expected, int | float):
            return f"({_NUM.format(v=v)} and {v} == {expected!r})"
        if isinstance(expected, str):
            return f"(isinstance({v}, str) and {v} == {expected!r})"
        raise self.refuse(pointer, "only strings, numbers, booleans and null can be compared")


def _conjoin(parts: list[str]) -> str:
    if not parts:
        return "True"
    if len(parts) == 1:
        return parts[0]
    return "(" + " and ".join(parts) + ")"
