"""The agent layer: the six agents on claude-agent-sdk, and the contracts they return.

Importing this package never imports claude-agent-sdk; only the agent base class does.
`maverick.agents.contracts` re-exports every contract and the output runtime of
`maverick.output` (`validate_output`), which needs no SDK at all.
"""
