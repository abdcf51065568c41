"""sqz-agents: what connects sqz to AI coding agents (the integrations build on ``sqz_agents.api``).

Kept empty on purpose: ``sqz hook AGENT`` imports an integration, which imports
``sqz_agents.api``; nothing here may slow that down.
"""
