"""The ADK Hard Mode rules that ``check_patterns`` checks, as a data table.

The ids, names and intent are those of Bob's Brain's ``check_patterns`` tool (R1 ADK only,
R2 Agent Engine runtime, R3 gateway separation, R5 dual memory, R7 identity propagation, R8
drift detection in CI). Upstream only ever looked at R1 and R3 and matched a word anywhere in
a line (a comment saying "not langchain" was a violation); here every rule is checked, on code
lines only, by one of three kinds of check:

- ``forbidden_import``: no ``import X`` / ``from X... import`` of a listed package (or one of
  its ``X_*`` siblings such as ``langchain_core``) in the files of the scope;
- ``forbidden_name``: no listed identifier (a whole word) in the files of the scope;
- ``required_name``: every listed name appears somewhere in the files of the scope. A
  missing one is a violation on the scope folder, at line 0 (no line holds it).

A scope is a folder below the checked path. When it does not exist, the rule passes (there is
nothing it could forbid or require) unless ``scope_required`` says the folder itself is due.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["CRITICAL_RULES", "HARD_MODE_RULES", "RULES_BY_ID", "HardModeRule"]


@dataclass(frozen=True)
class HardModeRule:
    """One row of the table."""

    id: str
    name: str
    description: str
    check: Literal["forbidden_import", "forbidden_name", "required_name"]
    patterns: tuple[str, ...]
    violation_type: str
    scope: str = "."
    files: tuple[str, ...] = ("*.py",)
    scope_required: bool = False
    ignore_case: bool = False
    regexes: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flags = re.IGNORECASE if self.ignore_case else 0
        if self.check == "forbidden_import":
            sources = [
                rf"^\s*(?:from|import)\s+{re.escape(p)}(?:_\w*)?(?!\w)" for p in self.patterns
            ]
        else:
            sources = [rf"(?<![\w.]){re.escape(p)}(?!\w)" for p in self.patterns]
        object.__setattr__(self, "regexes", tuple(re.compile(s, flags) for s in sources))


HARD_MODE_RULES: tuple[HardModeRule, ...] = (
    HardModeRule(
        id="R1",
        name="ADK-Only",
        description="Agents are built on Google ADK only: no LangChain, CrewAI, AutoGen or "
        "LlamaIndex imports.",
        check="forbidden_import",
        patterns=("langchain", "crewai", "autogen", "llama_index"),
        violation_type="forbidden_import",
    ),
    HardModeRule(
        id="R2",
        name="Agent Engine Runtime",
        description="Agents run on Vertex AI Agent Engine: the code uses google.adk and vertexai.",
        check="required_name",
        patterns=("google.adk", "vertexai"),
        violation_type="missing_required",
    ),
    HardModeRule(
        id="R3",
        name="Gateway Separation",
        description="Gateways under service/ never run agents themselves: no Runner or "
        "InMemoryRunner there.",
        check="forbidden_name",
        patterns=("Runner", "InMemoryRunner"),
        violation_type="forbidden_in_service",
        scope="service",
    ),
    HardModeRule(
        id="R5",
        name="Dual Memory",
        description="Agents under agents/ wire both VertexAiSessionService and "
        "VertexAiMemoryBankService.",
        check="required_name",
        patterns=("VertexAiSessionService", "VertexAiMemoryBankService"),
        violation_type="missing_required_in_agents",
        scope="agents",
    ),
    HardModeRule(
        id="R7",
        name="SPIFFE ID",
        description="Identity propagation: agents under agents/ carry a SPIFFE ID.",
        check="required_name",
        patterns=("spiffe",),
        violation_type="missing_identity",
        scope="agents",
        ignore_case=True,
    ),
    HardModeRule(
        id="R8",
        name="Drift Detection",
        description="CI blocks forbidden imports: a workflow under .github/workflows runs a "
        "drift check.",
        check="required_name",
        patterns=("drift",),
        violation_type="missing_in_ci",
        scope=".github/workflows",
        files=("*.yml", "*.yaml"),
        scope_required=True,
        ignore_case=True,
    ),
)

RULES_BY_ID = {rule.id: rule for rule in HARD_MODE_RULES}

# A violation of one of these makes the risk CRITICAL: the foundations (framework, runtime).
CRITICAL_RULES = frozenset({"R1", "R2"})
