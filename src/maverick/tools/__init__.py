"""Bob's Brain's tools on the tool contracts: the result factories, hand-written.

``maverick.tools.results`` builds results (``create_success_result``,
``create_error_result``).
"""

from maverick.tools.results import create_error_result, create_success_result

__all__ = ["create_error_result", "create_success_result"]
