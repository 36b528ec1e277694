"""Reports carry what a test captured, whatever it is, from pytest-xdist's workers too."""

from __future__ import annotations

import logging

from tests.conftest import _sendable

SURROGATE = "rejected: \ud800 and \udfff"


def test_a_logged_lone_surrogate_reaches_the_report() -> None:
    """A worker sends this test's report (with its captured log) as UTF-8; make test runs
    it under pytest-xdist, where a report UTF-8 cannot carry ends the run with an internal
    error (tests/conftest.py escapes such characters in every report)."""
    logging.getLogger("tests.reports").warning(SURROGATE)
    assert _sendable(SURROGATE) == "rejected: \\ud800 and \\udfff"
    assert _sendable("plain ✓") == "plain ✓"
