"""The guard clauses of one schema object: what each draft 2020-12 keyword checks, in Python.

:class:`Guards` writes the body of one predicate function for
:mod:`codegen.generate.models.checks.predicates`, which decides which functions exist and in which
mode (a boolean, or the annotations ``unevaluated*`` needs; every keyword, or what the typed
skeleton leaves). Keywords apply to values of their type only; ``return False`` (or ``None``) at the
first one that fails.
"""

from __future__ import annotations

from typing import Any

from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile
from codegen.generate.models.checks.applicators import Applicators, Compiler, refuse
from codegen.generate.models.types.skeleton_shapes import MAP_VALUES

__all__ = ["ANNOTATIONS", "KEYWORDS", "WHY", "Compiler", "Guards", "check_keywords", "refuse"]

ANNOTATIONS = frozenset(
    {"$schema", "$comment", "title", "description", "examples", "default", "deprecated",
     "readOnly", "writeOnly", "format", "contentEncoding", "contentMediaType", "contentSchema",
     "$defs"}
)  # fmt: skip
KEYWORDS = frozenset(
    {"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
     "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
     "uniqueItems", "maxContains", "minContains", "contains", "prefixItems", "items",
     "unevaluatedItems", "maxProperties", "minProperties", "required", "dependentRequired",
     "properties", "patternProperties", "additionalProperties", "propertyNames",
     "dependentSchemas", "unevaluatedProperties", "allOf", "anyOf", "oneOf", "not", "if",
     "then", "else", "$ref", "$dynamicRef"}
)  # fmt: skip
_TYPES = {
    "null": "x is None",
    "boolean": "type(x) is bool",
    "integer": "_is_integer(x)",
    "number": "_is_number(x)",
    "string": "type(x) is str",
    "array": "type(x) is list",
    "object": "type(x) is dict",
}
_TYPES_04 = _TYPES | {"integer": "type(x) is int"}  # draft-04: 1.0 is no integer
_NUMBERS = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}
_ARRAY_KEYS = frozenset({"minItems", "maxItems", "uniqueItems", "prefixItems", "items", "contains"})
_OBJECT_KEYS = frozenset(
    {"minProperties", "maxProperties", "required", "dependentRequired", "properties",
     "patternProperties", "additionalProperties", "propertyNames"}
)  # fmt: skip


WHY = {
    "discriminator": "an OpenAPI keyword the Claude CLI rejects: a tagged anyOf or oneOf says it",
    "definitions": "a draft-07 keyword: use $defs",
    "dependencies": "a draft-07 keyword: use dependentRequired or dependentSchemas",
    "additionalItems": "a draft-07 keyword: use items beside prefixItems",
}


def check_keywords(schema: SchemaFile, pointer: str, node: dict[str, Any]) -> None:
    """Refuse a keyword of the schema object at ``pointer`` that no model can decide by itself
    (``SUPPORTED_CONSTRUCT``); ``$id`` is allowed at a file's root only."""
    for key in node:
        if key in KEYWORDS or key in ANNOTATIONS or (key == "$id" and pointer == ""):
            continue
        why = WHY.get(key) or (
            "extension keywords are not passed to every consumer"
            if key.startswith("x-")
            else "unknown keyword (a typo?)"
        )
        message = f"{key!r} cannot be reproduced by the generated model: {why}"
        pointer_to_key = f"{pointer}/{escape_pointer(key)}"
        raise refuse(schema, pointer_to_key, message, "SUPPORTED_CONSTRUCT")


class Guards(Applicators):
    """The guard clauses of one schema object."""

    def __init__(
        self,
        compiler: Compiler,
        schema: SchemaFile,
        pointer: str,
        *,
        annotate: bool,
        residual: bool,
        kept: frozenset[str],
    ) -> None:
        self.c = compiler
        self.schema = schema
        self.pointer = pointer
        self.annotate = annotate
        self.residual = residual
        self.kept = kept
        self.fail = "return None" if annotate else "return False"
        self.lines: list[str] = []
        self.original: dict[str, Any] = {}

    def at(self, *keys: str | int) -> str:
        return self.pointer + "".join(f"/{escape_pointer(str(k))}" for k in keys)

    def check(self, *keys: str | int, residual: bool = False) -> str | None:
        """A boolean check of the subschema at ``keys`` (applied to another value)."""
        return self.c.boolean(self.schema, self.at(*keys), residual=residual)

    def guard(self, condition: str, indent: str = "") -> None:
        self.lines += [f"{indent}if not ({condition}):", f"{indent}    {self.fail}"]

    def block(self, header: str, body: list[str]) -> None:
        if body:
            self.lines.append(header)
            self.lines += ["    " + line for line in body]

    def compile(self, node: Any) -> list[str] | None:
        """The body's lines, or None when it checks nothing."""
        if node is False:
            return [self.fail]
        if node is True or not isinstance(node, dict):
            if not isinstance(node, bool):
                raise refuse(self.schema, self.pointer, "a schema must be an object or a boolean")
            return ["return set(), set()"] if self.annotate else None
        check_keywords(self.schema, self.pointer, node)
        self.original = node  # the kept keywords too: the skeleton types them, their children
        node = {k: v for k, v in node.items() if k not in self.kept}
        if self.annotate:
            self.lines += ["props: set[str] = set()", "items: set[int] = set()"]
        self.any_type(node)
        self.numbers(node)
        self.strings(node)
        self.arrays(node)
        self.objects(node)
        self.applicators(node)
        self.unevaluated(node)
        self.lines.append("return props, items" if self.annotate else "return True")
        return self.lines if len(self.lines) > 1 else None

    def lengths(self, node: dict[str, Any], low: str, high: str) -> list[str]:
        """The guards of a length's lower and upper bound (``len(x)``)."""
        body = []
        for key, op in ((low, "<"), (high, ">")):
            if key in node:
                body += [f"if len(x) {op} {self.count(node, key)}:", f"    {self.fail}"]
        return body

    def count(self, node: dict[str, Any], key: str) -> int:
        value = node[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise refuse(self.schema, self.at(key), f"{key} must be a non-negative integer")
        if value != int(value):
            raise refuse(self.schema, self.at(key), f"{key} must be a non-negative integer")
        return int(value)

    # -- any type --------------------------------------------------------------------------

    def any_type(self, node: dict[str, Any]) -> None:
        if "type" in node:
            kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
            for kind in kinds:
                if kind not in _TYPES:
                    raise refuse(self.schema, self.at("type"), f"unknown type {kind!r}")
            types = _TYPES if self.schema.draft.float_integers else _TYPES_04
            self.guard(" or ".join(types[k] for k in kinds) or "False")
        if "const" in node:
            self.guard(self.equals(node["const"]))
        if "enum" in node:
            values = node["enum"]
            if not isinstance(values, list):
                raise refuse(self.schema, self.at("enum"), "enum must be an array")
            if values and all(isinstance(v, str) for v in values):
                # A set of strings: a string is one of them exactly when JSON says so.
                self.guard("type(x) is str")
                self.guard(f"x in {self.c.define(f'frozenset({values!r})', '_S')}")
            else:
                self.guard(self.one_of(values))

    def one_of(self, values: list[Any]) -> str:
        """``x`` is one of ``values`` as JSON compares: a set lookup per type (a number is
        one of the numbers by value, ``1.0`` as ``1``, and no boolean is a number), each
        array or object value by its JSON form (:func:`_canonical`), computed once."""
        strings = [v for v in values if isinstance(v, str)]
        numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
        shaped = [v for v in values if isinstance(v, list | dict)]
        parts = []
        if strings:
            parts.append(
                f"type(x) is str and x in {self.c.define(f'frozenset({strings!r})', '_S')}"
            )
        if numbers:
            parts.append(f"_is_number(x) and x in {self.c.define(f'frozenset({numbers!r})', '_N')}")
        parts += [f"x is {v!r}" for v in (None, False, True) if any(w is v for w in values)]
        if shaped:
            forms = self.c.define(f"frozenset(map(_canonical, {shaped!r}))", "_E")
            parts.append(f"(type(x) is list or type(x) is dict) and _canonical(x) in {forms}")
        return (
            " or ".join(f"({p})" if " and " in p and len(parts) > 1 else p for p in parts)
            or "False"
        )

    def equals(self, value: Any) -> str:
        """``x`` equals ``value`` as JSON compares (plainly written for a scalar)."""
        if value is None or isinstance(value, bool):
            return f"x is {value!r}"
        if isinstance(value, str):
            return f"x == {value!r}"
        if isinstance(value, int | float):
            return f"_is_number(x) and x == {value!r}"
        return f"_canonical(x) == {self.c.define(f'_canonical({value!r})', '_K')}"

    def numbers(self, node: dict[str, Any]) -> None:
        body = []
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
            if key not in node:
                continue
            bound = node[key]
            if isinstance(bound, bool) or not isinstance(bound, int | float):
                raise refuse(self.schema, self.at(key), f"{key} must be a number")
            if key != "multipleOf":
                body += [f"if x {_NUMBERS[key]} {bound!r}:", f"    {self.fail}"]
            elif bound <= 0:
                raise refuse(self.schema, self.at(key), "multipleOf must be greater than 0")
            else:
                body += [f"if not _multiple_of(x, {bound!r}):", f"    {self.fail}"]
        self.block("if _is_number(x):", body)

    def strings(self, node: dict[str, Any]) -> None:
        body = []
        body += self.lengths(node, "minLength", "maxLength")
        if "pattern" in node:
            found = self.c.matches(self.schema, self.at("pattern"), node["pattern"], "x")
            if found != "True":
                body += [f"if not ({found}):", f"    {self.fail}"]
        if "format" in node and self.c.tree.asserts_formats:
            name = self.asserted_format(node["format"])
            body += [f"if not _format({name!r}, x):", f"    {self.fail}"]
        self.block("if type(x) is str:", body)

    # -- arrays ----------------------------------------------------------------------------

    def arrays(self, node: dict[str, Any]) -> None:
        if not _ARRAY_KEYS & (set(node) | (self.kept & {"items"})):
            return
        body: list[str] = []
        body += self.lengths(node, "minItems", "maxItems")
        if node.get("uniqueItems") is True:
            body += ["if not _unique(x):", f"    {self.fail}"]
        prefix = node.get("prefixItems", [])
        if "prefixItems" in self.kept:  # a typed tuple: its items are checked by their types
            prefix = self.original["prefixItems"]
        for index in range(0 if "prefixItems" in self.kept else len(prefix)):
            check = self.check("prefixItems", index)
            if check:
                body += [f"if len(x) > {index} and not {check}(x[{index}]):", f"    {self.fail}"]
        if prefix and self.annotate:
            body.append(f"items.update(range(min(len(x), {len(prefix)})))")
        if "items" in node or "items" in self.kept:
            check = self.check("items", residual=self.residual and "items" in self.kept)
            if check:
                body += [f"for item in x[{len(prefix)}:]:", f"    if not {check}(item):",
                         f"        {self.fail}"]  # fmt: skip
            if self.annotate:
                body.append(f"items.update(range({len(prefix)}, len(x)))")
        if "contains" in node:
            self.contains(node, body)
        self.block("if type(x) is list:", body)

    def contains(self, node: dict[str, Any], body: list[str]) -> None:
        check = self.check("contains") or "_true"
        low = self.count(node, "minContains") if "minContains" in node else 1
        body.append(f"matched = [i for i, item in enumerate(x) if {check}(item)]")
        body += [f"if len(matched) < {low}:", f"    {self.fail}"]
        if "maxContains" in node:
            body += [f"if len(matched) > {self.count(node, 'maxContains')}:", f"    {self.fail}"]
        if self.annotate:
            body.append("items.update(matched)")

    # -- objects ---------------------------------------------------------------------------

    def objects(self, node: dict[str, Any]) -> None:
        if not _OBJECT_KEYS & (set(node) | (self.kept & {"properties"})):
            return
        body: list[str] = []
        body += self.lengths(node, "minProperties", "maxProperties")
        for name in node.get("required", []):
            body += [f"if {name!r} not in x:", f"    {self.fail}"]
        for name, needed in (node.get("dependentRequired") or {}).items():
            if needed:
                present = " and ".join(f"{other!r} in x" for other in needed)
                body += [f"if {name!r} in x and not ({present}):", f"    {self.fail}"]
        # Declared properties stay typed by the skeleton even when "properties" was kept.
        properties = self.declared(node)
        in_skeleton = self.residual and "properties" in self.kept
        own = in_skeleton and (self.schema.rel.as_posix(), self.pointer) in self.c.own_properties
        for name in [] if own else properties:
            check = self.check("properties", name, residual=in_skeleton)
            if check:
                body += [f"if {name!r} in x and not {check}(x[{name!r}]):", f"    {self.fail}"]
        if properties and self.annotate:
            body.append(f"props.update(k for k in {self.c.constant(sorted(properties))} if k in x)")
        regexes = self.pattern_properties(node, body)
        values = self.residual and MAP_VALUES in self.kept  # each value typed by its schema
        other = node.get("additionalProperties", True)
        check = self.check("additionalProperties", residual=values) if other is not True else None
        every = "True" in regexes  # a pattern every key matches: no other property
        if "additionalProperties" in node and (check is not None or self.annotate) and not every:
            # The declared names as a set: a lookup, however many properties are declared.
            typed = "" if properties else ": frozenset[str]"  # an empty one says no item type
            known = self.c.define(f"frozenset({sorted(properties)!r})", "_S", typed)
            matched = "".join(f" or {found}" for found in regexes)
            if other is False and not self.annotate:  # no other: their names alone are read
                body += ["for key in x:", f"    if not (key in {known}{matched}):",
                         f"        {self.fail}"]  # fmt: skip
            else:
                body += ["for key, value in x.items():",
                         f"    if not (key in {known}{matched}):",
                         f"        if not {check or '_true'}(value):",
                         f"            {self.fail}"]  # fmt: skip
            if self.annotate:
                body.append("        props.add(key)")
        if "propertyNames" in node:
            check = self.check("propertyNames")
            if check:
                body += ["for key in x:", f"    if not {check}(key):", f"        {self.fail}"]
        self.block("if type(x) is dict:", body)

    def declared(self, node: dict[str, Any]) -> dict[str, Any]:
        """The properties checked here: those of the node, also when the skeleton types them."""
        if "properties" in node:
            return dict(node["properties"])
        if "properties" in self.kept:
            return dict(self.original.get("properties") or {})
        return {}

    def pattern_properties(self, node: dict[str, Any], body: list[str]) -> list[str]:
        found = []  # an expression of ``key`` for each pattern: whether it matches
        for source in node.get("patternProperties") or {}:
            at = self.at("patternProperties", source)
            found.append(self.c.matches(self.schema, at, source, "key"))
            residual = self.residual and MAP_VALUES in self.kept  # typed by its schema
            check = self.check("patternProperties", source, residual=residual)
            if check is None and not self.annotate:
                continue  # any value: nothing to check, no annotation to collect
            lines = [f"if not {check or '_true'}(value):", f"    {self.fail}"]
            lines += ["props.add(key)"] if self.annotate else []
            if found[-1] != "True":
                lines = [f"if {found[-1]}:", *("    " + line for line in lines)]
            body += ["for key, value in x.items():", *("    " + line for line in lines)]
        return found
