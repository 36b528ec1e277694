"""``maverick-codegen lint``: the conventions of the schema folder as a table of rules.

Each row of :data:`LINT_RULES` is a stable id, a category, a purpose and a small check that
yields findings; ``maverick-codegen rules`` lists the table. Checks the generator already
performs (:mod:`codegen.support`, :mod:`codegen.rules`, the loader's ``$ref`` check, the
``output_format`` bundle) are called, never re-implemented: lint turns their errors into
findings, all of them (see :func:`codegen.lint_engine.collect`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import jsonschema

from codegen import lint_checks as c
from codegen.errors import SchemaError
from codegen.jsonpos import escape_pointer
from codegen.lint_checks import definitions
from codegen.lint_engine import LintContext, LintRule, collect, iter_schema_nodes, read_tree
from codegen.loader import SchemaFile
from codegen.plan import declared_properties
from codegen.report import Finding
from codegen.rules import compile_rules, find_rules
from codegen.support import check_supported

__all__ = ["LINT_RULES", "lint_tree"]

KEY_ORDER = ("$schema", "$id", "title", "description", "type", "enum", "const", "properties",
             "required", "additionalProperties", "unevaluatedProperties", "allOf", "$defs",
             "examples")  # fmt: skip
AGENT_FORBIDDEN = (
    "discriminator",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
)


def _guarded(schema: SchemaFile, check: Callable[[SchemaFile], object]) -> Callable[..., object]:
    """``check``, with a crash on malformed input turned into an error at the file's root."""

    def run(current: SchemaFile) -> object:
        try:
            return check(current)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise SchemaError(f"the check could not run: {exc!r}", schema.loc()) from exc

    return run


# ---------------------------------------------------------------------------- data


def examples_present(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        examples = schema.data.get("examples")
        if not isinstance(examples, list) or not examples:
            yield ctx.finding(schema, "", "EXAMPLES_PRESENT", "the contract has no examples")


def examples_valid(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.clean.files:
        for pointer, node in definitions(schema):
            examples = node.get("examples")
            for index, example in enumerate(examples if isinstance(examples, list) else []):
                for why in ctx.invalid(schema, pointer, example):
                    message = f"example {index} does not validate: {why}"
                    yield ctx.finding(
                        schema, f"{pointer}/examples/{index}", "EXAMPLES_VALID", message
                    )


def default_valid(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.clean.files:
        for pointer, node in definitions(schema):
            if "default" in node:
                for why in ctx.invalid(schema, pointer, node["default"]):
                    message = f"default {json.dumps(node['default'])} does not validate: {why}"
                    yield ctx.finding(schema, f"{pointer}/default", "DEFAULT_VALID", message)


# ---------------------------------------------------------------------------- generator


def supported_construct(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for error in collect(schema, _guarded(schema, check_supported))[0]:
            yield ctx.error_finding(schema, error, "SUPPORTED_CONSTRUCT")


def supported_rule(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.clean.files:
        try:
            properties = declared_properties(ctx.clean, schema)
        except (SchemaError, AttributeError, TypeError):
            properties = set(schema.data.get("properties") or {})
        title = schema.title if schema.title.isidentifier() else "Contract"

        compile_all = functools.partial(_compile, title=title, properties=properties)
        for error in collect(schema, _guarded(schema, compile_all))[0]:
            yield ctx.error_finding(schema, error, "SUPPORTED_RULE")


def _compile(schema: SchemaFile, *, title: str, properties: set[str]) -> object:
    return compile_rules(schema, title, properties)


def rule_if_required(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        try:
            rules = find_rules(schema.data)
        except (AttributeError, TypeError):
            continue
        for start, rule in rules:
            for pointer, node, _ in iter_schema_nodes(rule, start):
                condition = node.get("if")
                if not isinstance(condition, dict):
                    continue
                required = condition.get("required") or []
                for name in condition.get("properties") or {}:
                    if name not in required:
                        message = (
                            f"the rule tests {name!r} without requiring it, so it also applies "
                            f"when {name!r} is absent: add {name!r} to the if's required"
                        )
                        yield ctx.finding(
                            schema,
                            f"{pointer}/if/properties/{escape_pointer(name)}",
                            "RULE_IF_REQUIRED",
                            message,
                        )


# ---------------------------------------------------------------------------- agents


def agent_contract_exists(ctx: LintContext) -> Iterator[Finding]:
    titles = {schema.title for schema in ctx.tree.files}
    shown = str(ctx.config_path or "pyproject.toml")
    for agent, title in sorted(ctx.agents.items()):
        if title not in titles:
            message = f"agent {agent!r} names contract {title!r}, which no schema file defines"
            yield Finding.at(
                ctx.agent_location(agent), "AGENT_CONTRACT_EXISTS", message, path=shown
            )


def _bundle_errors(ctx: LintContext, object_root: bool) -> Iterator[Finding]:
    for title, bundle in ctx.bundles.items():
        if isinstance(bundle, SchemaError) and (bundle.rule == "OBJECT_ROOT") == object_root:
            schema = ctx.tree.by_title[title]
            yield ctx.error_finding(
                schema, bundle, "AGENT_OBJECT_ROOT" if object_root else "AGENT_OUTPUT_FORMAT"
            )


def agent_object_root(ctx: LintContext) -> Iterator[Finding]:
    yield from _bundle_errors(ctx, object_root=True)


def agent_keyword(ctx: LintContext) -> Iterator[Finding]:
    for clean in ctx.agent_files:
        schema = ctx.tree.by_rel[clean.rel]
        for pointer, node, _ in iter_schema_nodes(schema.data):
            for key in node:
                if key in AGENT_FORBIDDEN or key.startswith("x-"):
                    message = f"{key!r} is refused by the Claude CLI in an agent's output_format"
                    yield ctx.finding(
                        schema, f"{pointer}/{escape_pointer(key)}", "AGENT_KEYWORD", message
                    )


def agent_output_format(ctx: LintContext) -> Iterator[Finding]:
    yield from _bundle_errors(ctx, object_root=False)
    for title, bundle in ctx.bundles.items():
        if isinstance(bundle, SchemaError):
            continue
        schema = ctx.tree.by_title[title]
        for cls in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator):
            try:
                cls.check_schema(bundle)
            except jsonschema.SchemaError as exc:
                message = f"the output_format schema is not valid {cls.__name__}: {exc.message}"
                yield ctx.finding(schema, "", "AGENT_OUTPUT_FORMAT", message)
                continue
            for index, example in enumerate(schema.data.get("examples") or []):
                if not cls(bundle).is_valid(example):
                    message = (
                        f"example {index} does not validate under the output_format schema "
                        f"({cls.__name__})"
                    )
                    yield ctx.finding(schema, f"/examples/{index}", "AGENT_OUTPUT_FORMAT", message)


# ---------------------------------------------------------------------------- style


def json_formatted(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        expected = json.dumps(schema.data, indent=2, ensure_ascii=False) + "\n"
        if schema.text == expected:
            continue
        offset = next(
            (i for i, (a, b) in enumerate(zip(schema.text, expected, strict=False)) if a != b),
            min(len(schema.text), len(expected)),
        )
        line, column = schema.positions.offset_line_col(offset)
        message = (
            "not laid out as 2-space indented JSON with a final newline "
            "(json.dumps(data, indent=2, ensure_ascii=False))"
        )
        yield Finding(ctx.shown(schema), line, column, "JSON_FORMATTED", message)


def key_order(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        present = [key for key in schema.data if key in KEY_ORDER]
        expected = sorted(present, key=KEY_ORDER.index)
        for actual, wanted in zip(present, expected, strict=True):
            if actual != wanted:
                message = (
                    f"top-level keyword {actual!r} is out of order: write {', '.join(expected)}"
                )
                yield ctx.finding(schema, f"/{actual}", "KEY_ORDER", message)
                break


# ---------------------------------------------------------------------------- the table

LINT_RULES: tuple[LintRule, ...] = (
    LintRule("DRAFT_2020_12", "IDENTITY", "$schema is the draft 2020-12 URI", c.draft_2020_12),
    LintRule(
        "METASCHEMA_VALID",
        "IDENTITY",
        "the file is a valid draft 2020-12 schema (metaschema check)",
        c.metaschema_valid,
    ),
    LintRule("ID_PRESENT", "IDENTITY", "every contract has a stable $id", c.id_present),
    LintRule("ID_UNIQUE", "IDENTITY", "no two files share a $id", c.id_unique),
    LintRule(
        "ID_MIRRORS_PATH",
        "IDENTITY",
        "$id is one base URI plus the file's path, so $id and file resolution agree",
        c.id_mirrors_path,
    ),
    LintRule(
        "TITLE_IS_CLASS_NAME",
        "IDENTITY",
        "titles (and titled $defs) are Python class names",
        c.title_is_class_name,
    ),
    LintRule(
        "TITLE_UNIQUE",
        "IDENTITY",
        "no two files or $defs generate the same class name",
        c.title_unique,
    ),
    LintRule(
        "FILE_NAME_MATCHES_TITLE",
        "IDENTITY",
        "the file name is the snake_case of its title; folders are module names",
        c.file_name_matches_title,
    ),
    LintRule(
        "NO_REMOTE_REF",
        "REFS",
        "no $ref names a URL: nothing ever touches the network",
        c.ref_rule("NO_REMOTE_REF"),
    ),
    LintRule(
        "REF_INSIDE_TREE",
        "REFS",
        "every $ref stays inside the schema folder",
        c.ref_rule("REF_INSIDE_TREE"),
    ),
    LintRule(
        "REF_RESOLVES",
        "REFS",
        "every $ref names an existing file and JSON pointer",
        c.ref_rule("REF_RESOLVES"),
    ),
    LintRule(
        "DESCRIPTION_CONTRACT", "DOCS", "every contract has a description", c.description_contract
    ),
    LintRule(
        "DESCRIPTION_PROPERTY",
        "DOCS",
        "every property has a description",
        c.describe_members("properties", "DESCRIPTION_PROPERTY", "property"),
    ),
    LintRule(
        "DESCRIPTION_DEF",
        "DOCS",
        "every $defs entry has a description",
        c.describe_members("$defs", "DESCRIPTION_DEF", "$defs entry"),
    ),
    LintRule(
        "DESCRIPTION_RULE",
        "DOCS",
        "every cross-field rule has a description (its error message)",
        c.description_rule,
    ),
    LintRule(
        "CONTENT_MODEL_EXPLICIT",
        "CONTENT",
        "every object states additionalProperties; an allOf base leaves it out and each "
        "subclass closes with unevaluatedProperties: false",
        c.content_model_explicit,
    ),
    LintRule(
        "REQUIRED_DECLARED",
        "CONTENT",
        "every required name is a declared property",
        c.required_declared,
    ),
    LintRule(
        "REQUIRED_NO_DEFAULT",
        "CONTENT",
        "a required property has no default (it could never apply)",
        c.required_no_default,
    ),
    LintRule("EXAMPLES_PRESENT", "DATA", "every contract has examples", examples_present),
    LintRule(
        "EXAMPLES_VALID",
        "DATA",
        "every example validates, references resolved across the folder",
        examples_valid,
    ),
    LintRule(
        "DEFAULT_VALID", "DATA", "every default validates against its own schema", default_valid
    ),
    LintRule(
        "SUPPORTED_CONSTRUCT",
        "GENERATOR",
        "only constructs the generated model reproduces (codegen.support)",
        supported_construct,
    ),
    LintRule(
        "SUPPORTED_RULE",
        "GENERATOR",
        "every cross-field rule compiles (codegen.rules)",
        supported_rule,
    ),
    LintRule(
        "RULE_IF_REQUIRED",
        "GENERATOR",
        "a rule's if requires every property it tests (else it holds when absent)",
        rule_if_required,
    ),
    LintRule(
        "AGENT_CONTRACT_EXISTS",
        "AGENT",
        "every [tool.maverick-codegen.agents] entry names a contract",
        agent_contract_exists,
    ),
    LintRule(
        "AGENT_OBJECT_ROOT",
        "AGENT",
        "an agent contract has an object root (the SDK validates no other)",
        agent_object_root,
    ),
    LintRule(
        "AGENT_KEYWORD",
        "AGENT",
        "agent contracts and what they reference avoid keywords the Claude CLI refuses",
        agent_keyword,
    ),
    LintRule(
        "AGENT_OUTPUT_FORMAT",
        "AGENT",
        "the output_format bundle is valid (draft 7 and 2020-12) and its examples validate",
        agent_output_format,
    ),
    LintRule(
        "JSON_FORMATTED",
        "STYLE",
        "files are 2-space indented JSON with a final newline",
        json_formatted,
    ),
    LintRule("KEY_ORDER", "STYLE", "top-level keywords come in the house order", key_order),
)


def lint_tree(
    root: Path,
    agents: dict[str, str] | None = None,
    *,
    config_path: Path | None = None,
    display_root: str | None = None,
) -> list[Finding]:
    """Every finding of every rule on the schema folder ``root``, sorted by place.

    Raises :class:`SchemaError` (exit 2) when a file cannot be read as a JSON object.
    """
    context = LintContext(read_tree(root), agents or {}, config_path, display_root)
    findings: set[Finding] = set()
    for rule in LINT_RULES:
        findings.update(
            dataclasses.replace(f, categories=(rule.category,)) for f in rule.check(context)
        )
    return sorted(findings)
