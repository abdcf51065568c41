"""Agent-framework integrations: the ``sqz.integrations`` entry-point group.

An integration is a module with ``name`` (``"claude-code"``), ``tier``
(``"transparent"`` when its hook replaces what the model reads after the command ran as asked,
``"rewrite"`` when it can only rewrite the command before it runs, ``"advisory"`` when the agent
must choose to use sqz) and ``detect(home=None) -> dict`` (at least
``{"detected": bool}``). ``sqz init`` / ``sqz doctor`` build on these.

A transparent integration also has ``hook(payload: bytes, args: list[str]) -> bytes | None``:
``sqz hook NAME ARGS…`` passes the agent's hook JSON (stdin) and prints what it
returns (None: print nothing, the agent goes ahead unchanged). It is on the hot
path: found through the plugin index, never by scanning entry points, and must
stay import-light. Any exception it raises leaves the agent's call unchanged.

Optional: ``health(ctx) -> list[str]``, problems ``sqz doctor`` reports for a detected, configured
agent that only the agent itself can tell (a Codex hook it has not trusted yet, say), each with its fix.

``sqz plugins`` lists them (``sqz_core.cli``); ``sqz_agents.setup_cmds`` loads them for init.
"""

from __future__ import annotations

from typing import Protocol

GROUP = "sqz.integrations"


class Integration(Protocol):
    """What ``sqz init`` / ``uninstall`` / ``doctor`` use of an integration module (its optional ``hook`` aside)."""

    name: str
    tier: str  # "transparent", "rewrite" or "advisory"

    def detect(self, home: str | None = None) -> dict:
        """At least ``{"detected": bool}``."""
        ...

    def actions(self, ctx: dict) -> list[dict]:
        """The configuration it needs (see ``sqz_agents.setup_cmds``): each action edits one file."""
        ...
