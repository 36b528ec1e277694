"""Lint checks that run the generator's own checks: data, generator support and agents.

Rows of :data:`codegen.lint.table.LINT_RULES` point here. Examples and defaults must validate;
every construct and cross-field rule must be one the generator reproduces
(:mod:`codegen.generate.models.checks.support`, :mod:`codegen.generate.rules`, called, never
re-implemented); and each agent contract must give an ``output_format`` the Claude CLI accepts.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator

import jsonschema

from codegen.core.ecma import EcmaDraft7Validator, EcmaDraft202012Validator
from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.report import Finding
from codegen.core.translate import positions
from codegen.generate.models.checks.predicates import compile_predicates
from codegen.generate.models.checks.support import check_supported, check_terminates
from codegen.generate.rules import find_rules
from codegen.lint.drafts import undefined_keywords
from codegen.lint.engine import LintContext, collect, iter_schema_nodes
from codegen.lint.structure import definitions

__all__ = [
    "agent_contract_exists",
    "agent_keyword",
    "agent_object_root",
    "agent_output_format",
    "default_valid",
    "examples_present",
    "examples_valid",
    "rule_if_required",
    "supported_construct",
    "supported_rule",
]

AGENT_FORBIDDEN = ("discriminator",)  # the output_format form translates or leaves out the rest


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
            message = "the contract has no examples: add examples, documents it accepts"
            yield ctx.finding(schema, "", "EXAMPLES_PRESENT", message)


def examples_valid(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for pointer, node in definitions(schema):
            examples = node.get("examples")
            for index, example in enumerate(examples if isinstance(examples, list) else []):
                for why in ctx.invalid(schema, pointer, example):
                    fix = "; correct the example or the schema" if why.startswith("does") else ""
                    message = f"example {index} {why}{fix}"
                    yield ctx.finding(
                        schema, f"{pointer}/examples/{index}", "EXAMPLES_VALID", message
                    )


def default_valid(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        for pointer, node in definitions(schema):
            if "default" in node:
                for why in ctx.invalid(schema, pointer, node["default"]):
                    fix = "; correct the default or the schema" if why.startswith("does") else ""
                    message = f"default {json.dumps(node['default'])} {why}{fix}"
                    yield ctx.finding(schema, f"{pointer}/default", "DEFAULT_VALID", message)


# ---------------------------------------------------------------------------- generator


def supported_construct(ctx: LintContext) -> Iterator[Finding]:
    """Every keyword a file's draft does not define (generate ignores it), and whatever the
    generator's own support check refuses in the internal form."""
    yield from undefined_keywords(ctx)
    for schema in ctx.tree.files:
        for error in collect(schema, _guarded(schema, check_supported))[0]:
            yield ctx.error_finding(schema, error, "SUPPORTED_CONSTRUCT")
        terminates = functools.partial(check_terminates, ctx.tree)
        for error in collect(schema, _guarded(schema, terminates))[0]:
            yield ctx.error_finding(schema, error, "SUPPORTED_CONSTRUCT")


def supported_rule(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        compile_all = functools.partial(_compile, tree=ctx.tree)
        for error in collect(schema, _guarded(schema, compile_all))[0]:
            yield ctx.error_finding(schema, error, "SUPPORTED_RULE")


def _compile(schema: SchemaFile, *, tree: SchemaTree) -> object:
    """Compile every rule of ``schema`` into the predicates the generated validators run."""
    pointers = [  # a dependentRequired entry is a list of names, checked as such
        pointer
        for pointer, _ in find_rules(schema.data)
        if pointer and not pointer.startswith("/dependentRequired/")
    ]
    return compile_predicates(tree, [(schema, pointer) for pointer in pointers], readable=False)


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
            message = (
                f"agent {agent!r} names contract {title!r}, which no schema file defines: name a "
                "contract's title in [tool.maverick-codegen.agents]"
            )
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
    for schema in ctx.agent_files:
        for pointer, node, _ in positions(schema.document, schema.draft):
            for key in node if isinstance(node, dict) else ():
                if key in AGENT_FORBIDDEN or key.startswith("x-"):
                    message = (
                        f"the Claude CLI refuses {key!r} in an agent's output_format, so generate "
                        "leaves it out of it: remove it from the agent's contract"
                    )
                    where = f"{pointer}/{escape_pointer(key)}"
                    yield ctx.finding_in_file(schema, where, "AGENT_KEYWORD", message)


def agent_output_format(ctx: LintContext) -> Iterator[Finding]:
    yield from _bundle_errors(ctx, object_root=False)
    for title, bundle in ctx.bundles.items():
        if isinstance(bundle, SchemaError):
            continue
        schema = ctx.tree.by_title[title]
        for name, cls in (
            ("Draft7Validator", EcmaDraft7Validator),
            ("Draft202012Validator", EcmaDraft202012Validator),
        ):
            try:
                cls.check_schema(bundle)
            except jsonschema.SchemaError as exc:
                message = f"the output_format schema is not valid {name}: {exc.message}"
                yield ctx.finding(schema, "", "AGENT_OUTPUT_FORMAT", message)
                continue
            for index, example in enumerate(schema.data.get("examples") or []):
                if not cls(bundle).is_valid(example):
                    message = (
                        f"example {index} does not validate under the output_format schema ({name})"
                    )
                    yield ctx.finding(schema, f"/examples/{index}", "AGENT_OUTPUT_FORMAT", message)
