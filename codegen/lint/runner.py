"""Run the lint: the rules ``[tool.maverick-codegen.lint]`` selects, over a schema folder.

:func:`select_rules` resolves the configured ``use``, ``except`` and ``ignore`` against the
table (:data:`codegen.lint.table.LINT_RULES`), with buf's meaning, into a
:class:`LintSelection`; :func:`lint_tree` reads the folder permissively and collects the
findings of every selected rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codegen.core.config_tables import LintSettings, config_location
from codegen.core.errors import CodegenError, Location, Refused, SchemaError
from codegen.core.load_options import LoadOptions
from codegen.core.report import Finding
from codegen.lint.engine import LintContext, LintRule, read_tree
from codegen.lint.table import CATEGORIES, DEFAULT, DEFAULT_RULES, LINT_RULES

__all__ = ["LintSelection", "lint_tree", "select_rules", "unreadable_summary"]


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
