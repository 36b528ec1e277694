"""Maverick: typed agent output contracts and the agent runtime built on them."""

__version__ = "0.1.0"
