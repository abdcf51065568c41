"""Every setting a config file may hold: its key, ``SQZ_*`` variable, type, default, scope and help.

The core reads the variables (``sqz_core.api.config_env``); what a file says reaches it compiled into
the snapshot's ``env`` map (``as_env``, by ``files.build``), so the core needs no table. ``value`` is the
effective value of a setting and where it came from, for ``sqz config show|get`` and reports.
"""

from __future__ import annotations

import os
from typing import Any

Setting = tuple[str, str, str, object, str, str]

# key, environment variable, type, default (None: computed elsewhere), who may set it, what it does
#   type: bool, int, number, string, list (comma-separated in the variable), or "not:bool" (the variable
#   says the opposite: ``dedup: false`` is ``SQZ_NO_DEDUP=1``)
#   scope "user": only the user's file may set it (a repository must not redirect your store,
#   your API traffic or your credentials' destination)
SETTINGS: tuple[Setting, ...] = (
    ("quiet", "SQZ_QUIET", "bool", False, "any", "no stats line on stderr"),
    ("time_budget_ms", "SQZ_TIME_BUDGET_MS", "int", 2000, "any",
     "per-call time budget in ms (0: none); past it the output is sent unchanged"),
    ("dedup", "SQZ_NO_DEDUP", "not:bool", True, "any", "answer a repeat with a §ref (false: always in full)"),
    ("abbreviate", "SQZ_NO_ABBREV", "not:bool", True, "any", "phrase abbreviation (§1…§9 with a legend)"),
    ("ref_ttl_secs", "SQZ_REF_TTL_SECS", "number", 1800, "any", "freshness window for refs in seconds (0: no refs)"),
    ("max_bytes", "SQZ_MAX_BYTES", "int", 32 * 1024 * 1024, "any", "larger inputs pass through untouched"),
    ("pressure.budget", "SQZ_PRESSURE_BUDGET", "number", 200000, "any",
     "tokens a session may be served per window before pressure levels apply (0: off)"),
    ("pressure.window_secs", "SQZ_PRESSURE_WINDOW_SECS", "number", 1800, "any", "the pressure window in seconds"),
    ("plugins.load", "SQZ_LOAD_PLUGINS", "list", None, "any", "allow only these formatter plugins (entry names)"),
    ("plugins.disable", "SQZ_DISABLE_PLUGINS", "list", [], "any", "block these formatter plugins (entry names)"),
    ("db_path", "SQZ_DB_PATH", "string", None, "user", "the SQLite store (default: the platform's data dir)"),
    ("store_url", "SQZ_STORE_URL", "string", None, "user", "another store backend by URL (postgresql://…)"),
    ("busy_timeout_ms", "SQZ_BUSY_TIMEOUT_MS", "int", 60, "user",
     "how long a call waits for another process's write lock on the store"),
    ("host", "SQZ_HOST", "string", None, "user", "the machine name in default session ids"),
    ("prices", "SQZ_PRICES", "prices", None, "user",
     "the price table: a path to a price file, or the table itself (models, default_model, currency)"),
    ("postgresql.timeout_ms", "SQZ_PG_TIMEOUT_MS", "int", 400, "user", "how long a hot call waits for the team store"),
    ("postgresql.pool", "SQZ_PG_POOL", "bool", True, "user", "the local pooling process for the team store"),
    ("postgresql.pool_idle_secs", "SQZ_PG_POOL_IDLE_SECS", "number", 600, "user", "the pool process exits when idle this long"),
    ("postgresql.store_originals", "SQZ_STORE_ORIGINALS", "bool", True, "user",
     "send originals to the team store (false: hashes and stats only)"),
    ("proxy.port", "SQZ_PROXY_PORT", "int", 8787, "user", "the API proxy's port on 127.0.0.1"),
    ("proxy.anthropic_url", "SQZ_PROXY_ANTHROPIC_URL", "string", None, "user", "upstream for Anthropic requests"),
    ("proxy.openai_url", "SQZ_PROXY_OPENAI_URL", "string", None, "user", "upstream for OpenAI requests"),
    ("proxy.gemini_url", "SQZ_PROXY_GEMINI_URL", "string", None, "user", "upstream for Gemini requests"),
    ("proxy.budget_ms", "SQZ_PROXY_BUDGET_MS", "int", 5000, "user", "time budget for rewriting one request"),
    ("proxy.max_body", "SQZ_PROXY_MAX_BODY", "int", 64 * 1024 * 1024, "user", "larger request bodies pass through unchanged"),
    ("proxy.read_timeout", "SQZ_PROXY_READ_TIMEOUT", "int", 600, "user", "seconds to wait for upstream data (0: none)"),
    ("proxy.trust_env", "SQZ_PROXY_TRUST_ENV", "bool", False, "user", "use HTTP(S)_PROXY for upstream connections"),
    ("proxy.fold", "SQZ_PROXY_FOLD", "bool", False, "user", "fold long earlier model answers (as sqz proxy --fold)"),
    ("proxy.fold_min_tokens", "SQZ_PROXY_FOLD_MIN_TOKENS", "int", 300, "user", "answers shorter than this are never folded"),
    ("proxy.fold_every", "SQZ_PROXY_FOLD_EVERY", "int", 8, "user", "the fold point moves every this many turns"),
    ("mcp.proxy_timeout", "SQZ_MCP_PROXY_TIMEOUT", "number", 120, "user",
     "seconds sqz-mcp proxy waits for an upstream answer"),
)
_BY_ENV = {s[1]: s for s in SETTINGS}
_BY_KEY = {s[0]: s for s in SETTINGS}


_OFF = ("", "0", "false", "no", "off")


def as_env(setting: Setting, value: object) -> str | None:
    """``value`` (from a file) written as the setting's environment variable would carry it."""
    kind = setting[2]
    if value is None:
        return None
    if kind == "not:bool":
        return "0" if value else "1"
    if kind == "bool":
        return "1" if value else "0"
    if kind == "list":
        return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
    if kind == "prices":
        return value if isinstance(value, str) else None  # an inline table is read by ``prices_table``
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def value(key: str) -> tuple[Any, str]:
    """The effective value of setting ``key``: from its variable (parsed), the files, or the default.

    ``(value, source)`` where source is ``"env VAR"``, ``"path:line"`` or ``"default"``."""
    setting = _BY_KEY[key]
    from sqz_core.api import load_config, refresh_config

    refresh_config()  # asked by a person or a report: the files as they are now
    raw = os.environ.get(setting[1])
    if raw is not None:
        return parse_env(setting, raw), f"env {setting[1]}"
    cfg = load_config()
    got = cfg.get(key)
    if got is not None:
        return got, cfg.origin(key) or "config"
    return setting[3], "default"


def parse_env(setting: Setting, raw: str) -> Any:
    """A variable's text as the setting's value (what the code reading the variable understands)."""
    kind = setting[2]
    if kind == "not:bool":  # as the readers do: SQZ_NO_DEDUP counts only as "1"; SQZ_NO_ABBREV as not "" or "0"
        return raw in ("", "0") if setting[1] == "SQZ_NO_ABBREV" else raw != "1"
    if kind == "bool":
        return raw.lower() not in _OFF
    if kind == "list":
        return [n.strip() for n in raw.split(",") if n.strip()]
    if kind in ("int", "number"):
        try:
            return int(raw) if kind == "int" else float(raw)
        except ValueError:
            return raw
    return raw


def env_map(values: dict[str, Any]) -> dict[str, str]:
    """The merged files' settings written as their variables would carry them (the snapshot's ``env``)."""
    out: dict[str, str] = {}
    for setting in SETTINGS:
        node: Any = values
        for part in setting[0].split("."):
            node = node.get(part) if isinstance(node, dict) else None
        got = as_env(setting, node)
        if got is not None:
            out[setting[1]] = got
    return out
