"""Bob's Brain's tools on the tool contracts: the result factories and the four tools.

``maverick.tools.results`` builds results (``create_success_result``,
``create_error_result``); ``maverick.tools.codebase.CodebaseTools`` runs the tools on a root
folder, one module each (``search``, ``files``, ``patterns``, ``deps``), sharing ``base``
(budgets, failures), ``workspace`` (the root) and ``policy`` (the secrets policy);
``maverick.tools.mcp_server`` serves them over MCP (needs the ``mcp`` extra).
"""

from maverick.tools.base import Limits
from maverick.tools.codebase import CodebaseTools
from maverick.tools.hard_mode import HARD_MODE_RULES, HardModeRule
from maverick.tools.policy import DEFAULT_DENY, SecretsPolicy
from maverick.tools.results import create_error_result, create_success_result

__all__ = [
    "DEFAULT_DENY",
    "HARD_MODE_RULES",
    "CodebaseTools",
    "HardModeRule",
    "Limits",
    "SecretsPolicy",
    "create_error_result",
    "create_success_result",
]
