"""Bob's Brain's tools on the tool contracts: the result factories and the four tools.

``maverick.tools.results`` builds results (``create_success_result``,
``create_error_result``); ``maverick.tools.codebase.CodebaseTools`` runs the tools on a root
folder; ``maverick.tools.mcp_server`` serves them over MCP (needs the ``mcp`` extra).
"""

from maverick.tools.codebase import CodebaseTools
from maverick.tools.hard_mode import HARD_MODE_RULES, HardModeRule
from maverick.tools.results import create_error_result, create_success_result

__all__ = [
    "HARD_MODE_RULES",
    "CodebaseTools",
    "HardModeRule",
    "create_error_result",
    "create_success_result",
]
