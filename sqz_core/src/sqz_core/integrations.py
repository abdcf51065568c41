"""Agent-framework integrations: the ``sqz.integrations`` entry-point group.

An integration is a module with ``name`` (``"claude-code"``), ``tier``
(``"transparent"`` when its hook rewrites commands, ``"advisory"`` when the agent
must choose to use sqz) and ``detect(home=None) -> dict`` (at least
``{"detected": bool}``). ``sqz init`` / ``sqz doctor`` build on these; they are
never loaded on the hot path.
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
