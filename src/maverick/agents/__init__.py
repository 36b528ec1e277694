"""The agent layer: typed contracts, output validation and the agents built on them.

Importing this package never imports claude-agent-sdk; only the agent base class does.
"""
