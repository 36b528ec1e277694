"""Stand-ins for the Claude CLI and the Anthropic Messages API, for tests with no network.

* :mod:`tests.standins.fake_cli` is an executable stand-in for the ``claude`` binary: it speaks
  the SDK's stream-json protocol and plays a scenario (success, retries exhausted, crash, ...).
* :mod:`tests.standins.messages_api` is a local HTTP server on 127.0.0.1 that answers the real
  bundled CLI's Messages API calls (``ANTHROPIC_BASE_URL``) and records every request.
"""
