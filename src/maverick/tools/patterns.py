"""check_patterns: the code below a folder against the ADK Hard Mode rules.

The rules are a data table (:mod:`maverick.tools.hard_mode`). Unknown rule ids become
warnings; the score is the percentage of the known rules checked that passed, and any R1 or
R2 violation makes the risk CRITICAL. Files the secrets policy denies are never read; the
result counts them (``secret_files_skipped``), each once however many rules look at it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maverick.contracts import Violation
from maverick.tools.base import Budget, ToolFailure, is_binary, line_text, read_file, string
from maverick.tools.hard_mode import CRITICAL_RULES, HARD_MODE_RULES, RULES_BY_ID, HardModeRule
from maverick.tools.workspace import Tally, Workspace

__all__ = ["check_patterns", "risk_level"]


def check_patterns(
    workspace: Workspace, budget: Budget, path: object = ".", rules: object = None
) -> dict[str, Any]:
    """The fields of the ComplianceResult for one call."""
    path = string(path, "path")
    if rules is None:
        requested = [rule.id for rule in HARD_MODE_RULES]
    elif isinstance(rules, list | tuple) and all(isinstance(r, str) for r in rules):
        requested = list(dict.fromkeys(rules))
    else:
        raise ToolFailure(f"rules must be a list of rule ids, not {rules!r}")
    folder = workspace.resolve(path)
    if not folder.is_dir():
        raise ToolFailure(f"Path is not a directory: {path}")
    known = [RULES_BY_ID[r] for r in requested if r in RULES_BY_ID]
    if not known:
        raise ToolFailure(
            f"No known rule among {requested}; the rules are "
            + ", ".join(r.id for r in HARD_MODE_RULES)
        )
    warnings = [f"Unknown rule: {r}" for r in requested if r not in RULES_BY_ID]
    tally = Tally()
    violations: list[Violation] = []
    passed: list[str] = []
    for rule in known:
        found = _violations(workspace, budget, tally, folder, rule)
        violations.extend(found)
        if not found:
            passed.append(rule.id)
    return {
        "status": "VIOLATIONS_FOUND" if violations else "COMPLIANT",
        "violations": violations,
        "warnings": warnings,
        "passed": passed,
        "compliance_score": round(len(passed) / len(known) * 100, 1),
        "risk_level": risk_level(violations),
        "path": str(folder),
        "rules_checked": requested,
        "secret_files_skipped": tally.secret_files,
    }


def _violations(
    workspace: Workspace, budget: Budget, tally: Tally, folder: Path, rule: HardModeRule
) -> list[Violation]:
    lexical = Path(folder, rule.scope)
    scope = lexical.resolve()  # walked at its real path, so the policy judges real paths
    if not scope.is_dir() or not scope.is_relative_to(workspace.root):
        if not rule.scope_required:
            return []
        text = f"{rule.scope}/ is missing"
        where = lexical.relative_to(workspace.root).as_posix() or "."
        return [_violation(rule, rule.patterns[0], where, 0, text)]
    violations: list[Violation] = []
    missing = dict.fromkeys(range(len(rule.patterns)), True)

    def wanted(rel: str, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in rule.files)

    for rel, target in workspace.walk(scope, tally, wanted, budget):
        data = read_file(target, budget)
        if data is None or is_binary(data):
            continue
        for line_no, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for index, regex in enumerate(rule.regexes):
                if not regex.search(line):
                    continue
                missing[index] = False
                if rule.check != "required_name":
                    pattern = rule.patterns[index]
                    violations.append(_violation(rule, pattern, rel, line_no, line))
        budget.check()
    if rule.check == "required_name":
        for index, absent in missing.items():
            if absent:
                pattern = rule.patterns[index]
                where = f"{' or '.join(rule.files)} below {workspace.relative(scope)}"
                text = f"{pattern} not found in {where}"
                violations.append(_violation(rule, pattern, workspace.relative(scope), 0, text))
    return violations


def _violation(rule: HardModeRule, pattern: str, file: str, line: int, text: str) -> Violation:
    return Violation(
        rule=rule.id,
        rule_name=rule.name,
        type=rule.violation_type,
        pattern=pattern,
        file=file,
        line=line,
        text=line_text(text),
    )


def risk_level(violations: Sequence[Violation]) -> str:
    """CRITICAL for any R1/R2 violation, else by count: 10+ HIGH, 3+ MEDIUM, otherwise LOW."""
    if any(v.rule in CRITICAL_RULES for v in violations):
        return "CRITICAL"
    if len(violations) >= 10:
        return "HIGH"
    if len(violations) >= 3:
        return "MEDIUM"
    return "LOW"
