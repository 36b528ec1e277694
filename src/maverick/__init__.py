"""Maverick: typed agent output contracts and the agent runtime built on them."""

import logging

__version__ = "0.1.0"

# A library leaves logging to the application (the logging HOWTO's rule): without this
# handler, Python's last-resort handler would print every warning record on stderr.
logging.getLogger(__name__).addHandler(logging.NullHandler())
