"""Agent-framework integrations: the ``sqz.integrations`` entry-point group.

An integration is a module with ``name`` (``"claude-code"``), ``tier``
(``"transparent"`` when its hook rewrites commands, ``"advisory"`` when the agent
must choose to use sqz) and ``detect(home=None) -> dict`` (at least
``{"detected": bool}``). ``sqz init`` / ``sqz doctor`` build on these.

A transparent integration also has ``hook(payload: bytes, args: list[str]) -> bytes | None``:
``sqz hook NAME ARGS…`` passes the agent's hook JSON (stdin) and prints what it
returns (None: print nothing, the agent goes ahead unchanged). It is on the hot
path: found through the plugin index, never by scanning entry points, and must
stay import-light. Any exception it raises leaves the agent's call unchanged.

``sqz plugins`` lists them (``sqz_core.cli``); ``sqz_agents.setup_cmds`` loads them for init.
"""

from __future__ import annotations

from typing import Protocol

GROUP = "sqz.integrations"


class Integration(Protocol):
    """What ``sqz init`` / ``uninstall`` / ``doctor`` use of an integration module (its optional ``hook`` aside)."""

    name: str
    tier: str  # "transparent" or "advisory"

    def detect(self, home: str | None = None) -> dict:
        """At least ``{"detected": bool}``."""
        ...

    def actions(self, ctx: dict) -> list[dict]:
        """The configuration it needs (see ``sqz_agents.setup_cmds``): each action edits one file."""
        ...
