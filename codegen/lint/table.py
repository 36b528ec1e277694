"""``maverick-codegen lint``: the conventions of the schema folder as a table of rules.

Each row of :data:`LINT_RULES` is a stable id, a category, a purpose and a small check that
yields findings; ``maverick-codegen rules`` lists the table, and :mod:`codegen.lint.runner`
selects the rows a project asks for and runs them. The rows marked ``house`` are this
repository's own conventions (category ``HOUSE``): a project that does not name them in
``[tool.maverick-codegen.lint] use`` does not get them. Checks the generator already
performs (:mod:`codegen.generate.models.checks.support`, :mod:`codegen.generate.rules`, the
loader's ``$ref`` check, the ``output_format`` bundle) are called, never re-implemented: lint
turns their errors into findings, all of them (see :func:`codegen.lint.engine.collect`).
"""

from __future__ import annotations

from codegen.lint import drafts as d
from codegen.lint import generator as g
from codegen.lint import layout, portable
from codegen.lint import naming as n
from codegen.lint import structure as c
from codegen.lint.engine import HOUSE, LintRule

__all__ = ["CATEGORIES", "DEFAULT", "DEFAULT_RULES", "HOUSE", "LINT_RULES"]


# ---------------------------------------------------------------------------- the table

LINT_RULES: tuple[LintRule, ...] = (
    LintRule(
        "DRAFT_KNOWN",
        "IDENTITY",
        "$schema names a draft (draft-04, -06, -07, 2019-09, 2020-12); embedded resources "
        "share their file's",
        d.draft_known,
    ),
    LintRule(
        "DRAFT_2020_12", "IDENTITY", "$schema is the draft 2020-12 URI", d.draft_2020_12, house=True
    ),
    LintRule(
        "METASCHEMA_VALID",
        "IDENTITY",
        "the file is a valid schema of its own draft (that draft's metaschema)",
        d.metaschema_valid,
    ),
    LintRule("ID_PRESENT", "IDENTITY", "every contract has a stable $id", c.id_present, house=True),
    LintRule("ID_UNIQUE", "IDENTITY", "no two files share a $id", c.id_unique),
    LintRule(
        "ID_MIRRORS_PATH",
        "IDENTITY",
        "$id is one base URI plus the file's path, so $id and file resolution agree",
        c.id_mirrors_path,
        house=True,
    ),
    LintRule(
        "TITLE_IS_CLASS_NAME",
        "IDENTITY",
        "every contract has a title, and titles (and titled $defs) are Python class names",
        n.title_is_class_name,
        house=True,
    ),
    LintRule(
        "TITLE_UNIQUE",
        "IDENTITY",
        "no class name is numbered: no two files or $defs would generate the same one",
        n.title_unique,
    ),
    LintRule(
        "MODULE_NAME_UNIQUE",
        "IDENTITY",
        "no module name is numbered: no two files or folders of a folder would generate one",
        n.module_name_unique,
    ),
    LintRule(
        "FILE_NAME_MATCHES_TITLE",
        "IDENTITY",
        "the file name is the snake_case of its class; file and folder names are module names",
        n.file_name_matches_title,
        house=True,
    ),
    LintRule(
        "NO_REMOTE_REF",
        "REFS",
        "a reference to a URL goes through [tool.maverick-codegen.refs]: nothing is fetched",
        d.problem_rule("NO_REMOTE_REF"),
    ),
    LintRule(
        "REF_INSIDE_TREE",
        "REFS",
        "every relative reference stays inside the schema folder",
        d.problem_rule("REF_INSIDE_TREE"),
    ),
    LintRule(
        "REF_RESOLVES",
        "REFS",
        "every reference names an existing document and schema (pointer, $id, anchor)",
        d.problem_rule("REF_RESOLVES"),
    ),
    LintRule(
        "REF_SIBLING_IGNORED",
        "REFS",
        "draft-04 to draft-07: no keyword beside $ref, which ignores it",
        d.ref_sibling_ignored,
    ),
    LintRule(
        "DESCRIPTION_CONTRACT",
        "DOCS",
        "every contract has a description",
        c.description_contract,
        house=True,
    ),
    LintRule(
        "DESCRIPTION_PROPERTY",
        "DOCS",
        "every property has a description",
        c.describe_members("properties", "DESCRIPTION_PROPERTY", "property"),
        house=True,
    ),
    LintRule(
        "DESCRIPTION_DEF",
        "DOCS",
        "every $defs entry has a description",
        c.describe_members("$defs", "DESCRIPTION_DEF", "$defs entry"),
        house=True,
    ),
    LintRule(
        "DESCRIPTION_RULE",
        "DOCS",
        "every cross-field rule has a description (its error message)",
        c.description_rule,
        house=True,
    ),
    LintRule(
        "CONTENT_MODEL_EXPLICIT",
        "CONTENT",
        "every object states additionalProperties; an allOf base leaves it out and each "
        "subclass closes with unevaluatedProperties: false",
        c.content_model_explicit,
        house=True,
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
    LintRule(
        "EXAMPLES_PRESENT", "DATA", "every contract has examples", g.examples_present, house=True
    ),
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
        "every keyword is one the file's draft defines (generate ignores any other), and one "
        "the generated model reproduces (codegen.generate.models.checks.support)",
        g.supported_construct,
    ),
    LintRule(
        "SUPPORTED_RULE",
        "GENERATOR",
        "every cross-field rule compiles (codegen.generate.models.checks.predicates)",
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
        "MULTIPLE_OF_BINARY",
        "PORTABLE",
        "a multipleOf is an integer or a binary fraction, so consumers that divide in "
        "floating point (Ajv, python-jsonschema) decide as the model does",
        portable.multiple_of_binary,
    ),
    LintRule(
        "PATTERN_UNICODE",
        "PORTABLE",
        "a pattern is an ECMA-262 expression with the u flag, so that every consumer reads it "
        "alike (one valid only without it is read so, Annex B)",
        portable.pattern_unicode,
    ),
    LintRule(
        "JSON_FORMATTED",
        "STYLE",
        "files are 2-space indented JSON with a final newline",
        layout.json_formatted,
        house=True,
    ),
    LintRule(
        "KEY_ORDER",
        "STYLE",
        "top-level keywords come in the house order",
        layout.key_order,
        house=True,
    ),
)


# ------------------------------------------------------------------- the configured selection

CATEGORIES = (*dict.fromkeys(rule.category for rule in LINT_RULES), HOUSE)
DEFAULT = "DEFAULT"  # in use: every rule outside HOUSE (what use says when it is left out)
DEFAULT_RULES = tuple(rule for rule in LINT_RULES if not rule.house)
