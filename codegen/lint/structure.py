"""Lint checks of identity, references, descriptions and the content model.

Rows of :data:`codegen.lint.table.LINT_RULES` point here.

The content-model rule (CONTENT_MODEL_EXPLICIT), exactly: every object schema outside a rule
states ``additionalProperties`` (false closes it; true or a schema keeps it open on purpose),
with two exceptions that make the ToolResult pattern work. A contract whose root extends a
base by an ``allOf`` ``$ref`` closes with ``unevaluatedProperties: false`` and states no
``additionalProperties`` (which would reject the base's own properties). A contract used as
such a base leaves ``additionalProperties`` out entirely: false would reject its subclasses'
properties, and true or a schema would mark every property evaluated so that the subclass's
``unevaluatedProperties: false`` would close nothing. Used alone, such a base is open.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile
from codegen.core.report import Finding
from codegen.generate.contract import declared_properties
from codegen.lint.engine import LintContext, iter_schema_nodes

__all__ = [
    "content_model_explicit",
    "definitions",
    "describe_members",
    "described",
    "description_contract",
    "description_rule",
    "id_mirrors_path",
    "id_present",
    "id_unique",
    "is_object",
    "required_declared",
    "required_no_default",
]

Check = Callable[[LintContext], Iterator[Finding]]


def described(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and isinstance(node.get("description"), str)
        and bool(node["description"].strip())
    )


def is_object(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def definitions(schema: SchemaFile) -> Iterator[tuple[str, dict[str, Any]]]:
    """The schema nodes of a file that define values (rules excluded)."""
    for pointer, node, in_rule in iter_schema_nodes(schema.data):
        if not in_rule:
            yield pointer, node


# ---------------------------------------------------------------------------- identity


def id_present(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        if not isinstance(schema.data.get("$id"), str) or not schema.data["$id"]:
            message = (
                "a contract needs a stable $id: add one that ends with its path, e.g. "
                f'"$id": "https://example.com/schemas/{schema.rel.as_posix()}"'
            )
            yield ctx.finding(schema, "", "ID_PRESENT", message)


def id_unique(ctx: LintContext) -> Iterator[Finding]:
    seen: dict[str, SchemaFile] = {}
    for schema in ctx.tree.files:
        if schema.schema_id in seen:
            message = (
                f"$id {schema.schema_id!r} is already used by {ctx.shown(seen[schema.schema_id])}: "
                "give each file its own $id"
            )
            yield ctx.finding(schema, "/$id", "ID_UNIQUE", message)
        elif schema.schema_id:
            seen[schema.schema_id] = schema


def id_mirrors_path(ctx: LintContext) -> Iterator[Finding]:
    bases: dict[str, list[SchemaFile]] = {}
    for schema in ctx.tree.files:
        rel = schema.rel.as_posix()
        if not schema.schema_id:
            continue
        if not schema.schema_id.endswith("/" + rel):
            message = (
                f"$id {schema.schema_id!r} does not end with the file's path {rel!r}: consumers "
                "that resolve $ref by $id would not find the files the generator reads; end it "
                f"with /{rel}"
            )
            yield ctx.finding(schema, "/$id", "ID_MIRRORS_PATH", message)
        else:
            bases.setdefault(schema.schema_id[: -len(rel)], []).append(schema)
    if len(bases) > 1:
        common = max(bases, key=lambda base: (len(bases[base]), base))
        for base, files in sorted(bases.items()):
            for schema in files if base != common else ():
                message = (
                    f"$id base {base!r} differs from the other files' {common!r}: use one base "
                    "for every file"
                )
                yield ctx.finding(schema, "/$id", "ID_MIRRORS_PATH", message)


# ---------------------------------------------------------------------------- descriptions


def description_contract(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        if not described(schema.data):
            message = "the contract has no description: add one (it documents the class)"
            yield ctx.finding(schema, "", "DESCRIPTION_CONTRACT", message)


def describe_members(key: str, rule: str, what: str) -> Check:
    def check(ctx: LintContext) -> Iterator[Finding]:
        for schema in ctx.tree.files:
            for pointer, node in definitions(schema):
                members = node.get(key)
                for name, sub in members.items() if isinstance(members, dict) else ():
                    if not described(sub):
                        message = f"{what} {name!r} has no description: add one"
                        yield ctx.finding(
                            schema, f"{pointer}/{key}/{escape_pointer(name)}", rule, message
                        )

    return check


def description_rule(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        entries = schema.data.get("allOf")
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            if not (isinstance(entry, dict) and "$ref" in entry) and not described(entry):
                message = "the rule has no description: add one (it becomes the error message)"
                yield ctx.finding(schema, f"/allOf/{index}", "DESCRIPTION_RULE", message)


# ---------------------------------------------------------------------------- content model


def _bases(ctx: LintContext) -> set[Any]:
    """The files some contract extends by an ``allOf`` ``$ref`` (whole-file references)."""
    found = set()
    for schema in ctx.tree.files:
        for entry in schema.data.get("allOf") or []:
            if isinstance(entry, dict) and isinstance(entry.get("$ref"), str):
                target, pointer = ctx.tree.resolve(schema, entry["$ref"])
                if not pointer:
                    found.add(target.rel)
    return found


def content_model_explicit(ctx: LintContext) -> Iterator[Finding]:
    bases = _bases(ctx)
    rule = "CONTENT_MODEL_EXPLICIT"
    for schema in ctx.tree.files:
        for pointer, node in definitions(schema):
            if not is_object(node):
                continue
            entries = node.get("allOf") if pointer == "" else None
            extends = isinstance(entries, list) and any(
                isinstance(e, dict) and "$ref" in e for e in entries
            )
            if extends:
                if node.get("unevaluatedProperties") is not False:
                    message = (
                        "a contract extending a base by allOf must close with "
                        "unevaluatedProperties: false"
                    )
                    yield ctx.finding(schema, pointer, rule, message)
                elif "additionalProperties" in node:
                    message = (
                        "additionalProperties beside unevaluatedProperties: false rejects the "
                        "base's own properties: remove it"
                    )
                    yield ctx.finding(schema, "/additionalProperties", rule, message)
            elif pointer == "" and schema.rel in bases:
                if "additionalProperties" in node:
                    message = (
                        "a base extended by allOf must leave additionalProperties out: false "
                        "rejects its subclasses' properties, true or a schema makes their "
                        "unevaluatedProperties: false close nothing"
                    )
                    yield ctx.finding(schema, "/additionalProperties", rule, message)
            elif "additionalProperties" not in node:
                message = (
                    "object schema does not state additionalProperties: say false to close it, "
                    "or true to keep it open on purpose"
                )
                yield ctx.finding(schema, pointer, rule, message)


def required_declared(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for pointer, node in definitions(schema):
            required = node.get("required")
            if not isinstance(required, list):
                continue
            declared = set(node.get("properties") or {})
            if pointer == "":
                with contextlib.suppress(SchemaError, AttributeError, TypeError):
                    declared |= declared_properties(ctx.tree, schema)
            for index, name in enumerate(required):
                if name not in declared:
                    message = (
                        f"required property {name!r} is not declared in properties: declare it, "
                        "or take it out of required"
                    )
                    yield ctx.finding(
                        schema, f"{pointer}/required/{index}", "REQUIRED_DECLARED", message
                    )


def required_no_default(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for pointer, node in definitions(schema):
            properties = node.get("properties")
            required = node.get("required")
            if not isinstance(properties, dict) or not isinstance(required, list):
                continue
            for name in required:
                if isinstance(properties.get(name), dict) and "default" in properties[name]:
                    message = (
                        f"required property {name!r} has a default, which could never apply: "
                        "drop the default or make it optional"
                    )
                    yield ctx.finding(
                        schema,
                        f"{pointer}/properties/{escape_pointer(name)}/default",
                        "REQUIRED_NO_DEFAULT",
                        message,
                    )
