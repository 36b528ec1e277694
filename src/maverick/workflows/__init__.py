"""Workflows that chain agents on their typed results."""
