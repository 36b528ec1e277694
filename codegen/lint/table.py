"""``maverick-codegen lint``: the conventions of the schema folder as a table of rules.

Each row of :data:`LINT_RULES` is a stable id, a category, a purpose and a small check that
yields findings; ``maverick-codegen rules`` lists the table. The rows marked ``house`` are this
repository's own conventions (category ``HOUSE``): a project that does not name them in
``[tool.maverick-codegen.lint] use`` does not get them. Checks the generator already
performs (:mod:`codegen.generate.models.checks.support`, :mod:`codegen.generate.rules`, the
loader's ``$ref`` check, the ``output_format`` bundle) are called, never re-implemented: lint turns
their errors into findings, all of them (see :func:`codegen.lint.engine.collect`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codegen.core.config import LintSettings, config_location
from codegen.core.errors import CodegenError, Location, Refused, SchemaError
from codegen.core.report import Finding
from codegen.core.resolve import LoadOptions
from codegen.lint import drafts as d
from codegen.lint import generator as g
from codegen.lint import layout, portable
from codegen.lint import naming as n
from codegen.lint import structure as c
from codegen.lint.engine import HOUSE, LintContext, LintRule, read_tree

__all__ = [
    "DEFAULT",
    "DEFAULT_RULES",
    "HOUSE",
    "LINT_RULES",
    "LintSelection",
    "lint_tree",
    "select_rules",
]


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


@dataclass(frozen=True)
class LintSelection:
    """The rules that run (by default, every rule but the house rules), and the paths (from the
    project root) where they report nothing."""

    rules: tuple[LintRule, ...] = DEFAULT_RULES
    ignore: tuple[str, ...] = ()
    ignore_only: tuple[tuple[str, frozenset[str]], ...] = ()

    def ignored_in(self, rule_id: str) -> list[str]:
        """The paths below which ``rule_id`` reports nothing."""
        only = [path for path, rules in self.ignore_only if rule_id in rules]
        return [*self.ignore, *only]

    def keeps(self, finding: Finding) -> bool:
        path = PurePosixPath(finding.path)
        return not any(path.is_relative_to(p) for p in self.ignored_in(finding.rule))


def _rule_ids(names: Iterable[str], config_path: Path, key: str) -> set[str]:
    """The rule ids ``names`` (rule ids, categories, DEFAULT) stand for; unknown ones are
    errors. A category names all its rules, house rules included."""
    chosen: set[str] = set()
    for name in names:
        wanted = name.strip().upper()
        if wanted == DEFAULT:
            chosen |= {r.id for r in DEFAULT_RULES}
            continue
        matching = {r.id for r in LINT_RULES if wanted == r.id or wanted in r.categories}
        if not matching:
            raise CodegenError(
                f"[tool.maverick-codegen.lint] {key}: unknown rule or category {name!r} "
                f"(categories: {', '.join(CATEGORIES)}, and DEFAULT; rules: maverick-codegen "
                "rules)",
                config_location(config_path, "tool.maverick-codegen.lint", key, name),
                "CONFIG",
            )
        chosen |= matching
    return chosen


def select_rules(settings: LintSettings, config_path: Path) -> LintSelection:
    """``[tool.maverick-codegen.lint]`` resolved against the table, with buf's meaning:
    ``use`` (default: DEFAULT, every rule but the house rules) less ``except``; ``ignore``
    paths, or paths of given rules."""
    use = _rule_ids((DEFAULT,) if settings.use is None else settings.use, config_path, "use")
    on = use - _rule_ids(settings.except_, config_path, "except")
    if not on:
        raise CodegenError(
            "[tool.maverick-codegen.lint] use and except leave no rule on",
            config_location(config_path, "tool.maverick-codegen.lint", "use"),
            "CONFIG",
        )
    only = tuple(
        (path, frozenset(_rule_ids(rules, config_path, "ignore")))
        for path, rules in settings.ignore_only
    )
    return LintSelection(tuple(r for r in LINT_RULES if r.id in on), settings.ignore, only)


def unreadable_summary(count: int, shown: str) -> str:
    """What ``lint`` says after listing the files it cannot read."""
    files, were, them = ("files", "were", "them") if count > 1 else ("file", "was", "it")
    return (
        f"{count} schema {files} in {shown}/ cannot be read (above) and {were} not linted: fix "
        f"{them}, or leave {them} out with [tool.maverick-codegen] exclude"
    )


def lint_tree(
    root: Path,
    agents: dict[str, str] | None = None,
    *,
    config_path: Path | None = None,
    display_root: str | None = None,
    selection: LintSelection | None = None,
    options: LoadOptions | None = None,
    unreadable: list[CodegenError] | None = None,
) -> list[Finding]:
    """Every finding of every selected rule on the schema folder ``root``, read as ``options``
    say (``default_draft``, ``[tool.maverick-codegen.refs]``, ``exclude``), sorted by place.

    A file that is not a readable JSON object is left out and its error appended to
    ``unreadable``; without that list, :class:`Refused` (exit 2) lists every such file.
    """
    selection = selection or LintSelection()
    tree, problems = read_tree(root, options)
    errors = [
        SchemaError(p.message, Location(root / p.rel, *p.at), p.rule)
        for p in problems
        if p.at is not None
    ]
    if unreadable is not None:
        unreadable += errors
    elif errors:
        raise Refused(errors, unreadable_summary(len(errors), str(root)))
    kept = tuple(p for p in problems if p.at is None)
    context = LintContext(tree, agents or {}, config_path, display_root, kept)
    findings: set[Finding] = set()
    for rule in selection.rules:
        findings.update(
            dataclasses.replace(f, categories=rule.categories)
            for f in rule.check(context)
            if selection.keeps(f)
        )
    return sorted(findings)
