"""Bob's Brain's tools on the tool contracts: the result factories and the four tools.

``maverick.tools.results`` builds results (``create_success_result``,
``create_error_result``); ``maverick.tools.codebase.CodebaseTools`` runs the tools on a root
folder, one module each (``search``, ``files``, ``patterns``, ``deps``), sharing ``base``
(budgets, failures), ``workspace`` (the root) and ``policy`` (the secrets policy); the search's
engine is ``scan`` and its worker processes ``searchers``. ``maverick.tools.mcp_server``
serves the tools over MCP (needs the ``mcp`` extra).

The names below are imported when first used (PEP 562), so that the search's worker
processes (``python -m maverick.tools.searchers``) load the search engine and not the
contracts.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "DEFAULT_DENY": "policy",
    "HARD_MODE_RULES": "hard_mode",
    "CodebaseTools": "codebase",
    "HardModeRule": "hard_mode",
    "Limits": "base",
    "SecretsPolicy": "policy",
    "create_error_result": "results",
    "create_success_result": "results",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
