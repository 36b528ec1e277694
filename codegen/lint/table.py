"""``maverick-codegen lint``: the conventions of the schema folder as a table of rules.

Each row of :data:`LINT_RULES` is a stable id, a category, a purpose and a small check that
yields findings; ``maverick-codegen rules`` lists the table. Checks the generator already
performs (:mod:`codegen.generate.support`, :mod:`codegen.generate.rules`, the loader's ``$ref``
check, the ``output_format`` bundle) are called, never re-implemented: lint turns their errors into
findings, all of them (see :func:`codegen.lint.engine.collect`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from codegen.core.report import Finding
from codegen.lint import generator as g
from codegen.lint import layout
from codegen.lint import structure as c
from codegen.lint.engine import LintContext, LintRule, read_tree

__all__ = ["LINT_RULES", "lint_tree"]


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
    LintRule("EXAMPLES_PRESENT", "DATA", "every contract has examples", g.examples_present),
    LintRule(
        "EXAMPLES_VALID",
        "DATA",
        "every example validates, references resolved across the folder",
        g.examples_valid,
    ),
    LintRule(
        "DEFAULT_VALID", "DATA", "every default validates against its own schema", g.default_valid
    ),
    LintRule(
        "SUPPORTED_CONSTRUCT",
        "GENERATOR",
        "only constructs the generated model reproduces (codegen.generate.support)",
        g.supported_construct,
    ),
    LintRule(
        "SUPPORTED_RULE",
        "GENERATOR",
        "every cross-field rule compiles (codegen.generate.predicates)",
        g.supported_rule,
    ),
    LintRule(
        "RULE_IF_REQUIRED",
        "GENERATOR",
        "a rule's if requires every property it tests (else it holds when absent)",
        g.rule_if_required,
    ),
    LintRule(
        "AGENT_CONTRACT_EXISTS",
        "AGENT",
        "every [tool.maverick-codegen.agents] entry names a contract",
        g.agent_contract_exists,
    ),
    LintRule(
        "AGENT_OBJECT_ROOT",
        "AGENT",
        "an agent contract has an object root (the SDK validates no other)",
        g.agent_object_root,
    ),
    LintRule(
        "AGENT_KEYWORD",
        "AGENT",
        "agent contracts and what they reference avoid keywords the Claude CLI refuses",
        g.agent_keyword,
    ),
    LintRule(
        "AGENT_OUTPUT_FORMAT",
        "AGENT",
        "the output_format bundle is valid (draft 7 and 2020-12) and its examples validate",
        g.agent_output_format,
    ),
    LintRule(
        "JSON_FORMATTED",
        "STYLE",
        "files are 2-space indented JSON with a final newline",
        layout.json_formatted,
    ),
    LintRule("KEY_ORDER", "STYLE", "top-level keywords come in the house order", layout.key_order),
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
