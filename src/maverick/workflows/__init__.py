"""Workflows that chain agents on their typed results."""

__all__: list[str] = []
