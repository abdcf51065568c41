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
"""

from __future__ import annotations

GROUP = "sqz.integrations"


def discover() -> list[dict]:
    """Every registered integration: entry name, distribution, version, tier, and a load error if any."""
    from importlib.metadata import entry_points

    out = []
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        rec = {"name": ep.name, "dist": dist.metadata["Name"] if dist else None,
               "version": dist.version if dist else None, "tier": None, "error": None}
        try:
            mod = ep.load()
            rec["tier"] = getattr(mod, "tier", None)
        except Exception as exc:
            rec["error"] = f"{type(exc).__name__}: {exc}"
        out.append(rec)
    return out
