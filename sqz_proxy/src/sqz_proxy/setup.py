"""What ``sqz init --proxy`` writes for each agent, and what ``sqz doctor`` checks about it.

Actions have the shape sqz-agents' ``run_init`` applies (and ``sqz uninstall`` removes byte-exactly
from its manifest):

- Claude Code: ``env.ANTHROPIC_BASE_URL`` in ``~/.claude/settings.json`` and a ``SessionStart`` hook
  running ``sqz proxy start --port N --quiet``, so a session starts the proxy when it is down;
- OpenCode: ``provider.anthropic.options.baseURL`` and ``provider.openai.options.baseURL`` in
  ``~/.config/opencode/opencode.json`` (the proxy's ``/anthropic/v1`` and ``/openai/v1``);
- Codex: a ``[model_providers.sqz-proxy]`` table (Responses API through the proxy) and a
  ``[profiles.sqz-proxy]`` that selects it: ``codex --profile sqz-proxy`` (Codex has no start hook,
  and a top-level ``model_provider`` would redirect every run).
Gemini CLI and Copilot CLI take their base URL from the environment only
(``GOOGLE_GEMINI_BASE_URL``, ``COPILOT_PROVIDER_BASE_URL``): init prints the line to export.
"""

from __future__ import annotations

import json
import os

from .control import default_port, health

ENV_ONLY = {"gemini-cli": ("GOOGLE_GEMINI_BASE_URL", "/gemini"),
            "copilot-cli": ("COPILOT_PROVIDER_BASE_URL", "/openai/v1")}


def proxy_url(port: int | None = None) -> str:
    return f"http://127.0.0.1:{default_port() if port is None else port}"


def init_actions(agent: str, ctx: dict, url: str | None = None) -> list[dict]:
    """The init actions that point ``agent`` at the proxy (empty for an agent configured by env only)."""
    url = url or proxy_url()
    home = ctx["home"]
    sqz = ctx.get("sqz", "sqz")
    port = url.rsplit(":", 1)[1].split("/")[0]
    if agent == "claude-code":
        target = (os.path.join(ctx["project"], ".claude", "settings.local.json") if ctx.get("scope") == "project"
                  else os.path.join(home, ".claude", "settings.json"))
        start = f"{sqz} proxy start --port {port} --quiet"
        return [{"type": "json_member", "file": target, "path": ["env"], "key": "ANTHROPIC_BASE_URL", "value": url,
                 "what": f"ANTHROPIC_BASE_URL → the sqz proxy ({url})"},
                {"type": "json_array_item", "file": target, "path": ["hooks", "SessionStart"],
                 "item": {"hooks": [{"type": "command", "command": start, "timeout": 30}]}, "marker": start,
                 "what": "SessionStart hook (starts the sqz proxy when it is not running)"}]
    if agent == "opencode":
        target = os.path.join(ctx["project"] if ctx.get("scope") == "project" else os.path.join(home, ".config",
                                                                                                  "opencode"),
                              "opencode.json")
        return [{"type": "json_member", "file": target, "path": ["provider", p, "options"], "key": "baseURL",
                 "value": f"{url}/{p}/v1", "what": f"{p} baseURL → the sqz proxy"} for p in ("anthropic", "openai")]
    if agent == "codex":
        target = os.path.join(home, ".codex", "config.toml")
        return [{"type": "toml_table", "file": target, "table": ["model_providers", "sqz-proxy"],
                 "body": {"name": "OpenAI through sqz proxy", "base_url": f"{url}/openai/v1",
                          "env_key": "OPENAI_API_KEY", "wire_api": "responses"},
                 "what": "model provider sqz-proxy (the OpenAI Responses API through the sqz proxy)"},
                {"type": "toml_table", "file": target, "table": ["profiles", "sqz-proxy"],
                 "body": {"model_provider": "sqz-proxy"},
                 "what": "profile sqz-proxy (`codex --profile sqz-proxy` goes through the sqz proxy)"}]
    return []


def env_hint(agent: str, url: str | None = None) -> str | None:
    """The export line for an agent that reads its base URL from the environment only."""
    if agent not in ENV_ONLY:
        return None
    var, suffix = ENV_ONLY[agent]
    return f"export {var}={url or proxy_url()}{suffix}"


def _json(path: str):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def pointed_at(ctx: dict) -> dict[str, str]:
    """agent -> the loopback base URL its configuration sends model calls to (Claude Code, OpenCode, Codex)."""
    home = ctx["home"]
    found: dict[str, str] = {}
    for path in (os.path.join(home, ".claude", "settings.json"),
                 os.path.join(ctx.get("project") or "", ".claude", "settings.local.json")):
        env = (_json(path) or {}).get("env") if isinstance(_json(path), dict) else None
        if isinstance(env, dict) and isinstance(env.get("ANTHROPIC_BASE_URL"), str):
            found["claude-code"] = env["ANTHROPIC_BASE_URL"]
    oc = _json(os.path.join(home, ".config", "opencode", "opencode.json"))
    if isinstance(oc, dict):
        for p in ("anthropic", "openai"):
            opts = ((oc.get("provider") or {}).get(p) or {}).get("options") if isinstance(oc.get("provider"), dict) \
                else None
            if isinstance(opts, dict) and isinstance(opts.get("baseURL"), str):
                found.setdefault("opencode", opts["baseURL"])
    try:
        with open(os.path.join(home, ".codex", "config.toml"), encoding="utf-8") as fh:
            import tomllib

            codex = tomllib.loads(fh.read())
        url = ((codex.get("model_providers") or {}).get("sqz-proxy") or {}).get("base_url")
        if isinstance(url, str):
            found["codex"] = url
    except (OSError, ValueError, ImportError):
        pass
    return {a: u for a, u in found.items() if u.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:"))}


def doctor_problems(ctx: dict) -> list[str]:
    """One line per agent whose configuration points at a loopback proxy that does not answer."""
    from urllib.parse import urlsplit

    out = []
    for agent, url in sorted(pointed_at(ctx).items()):
        parts = urlsplit(url)
        if health(parts.hostname or "127.0.0.1", parts.port or 80, timeout=1.0) is None:
            out.append(f"{agent} sends its model calls to the sqz proxy at {parts.scheme}://{parts.netloc}, which is "
                       f"not running: its requests fail (fix: `sqz proxy start --port {parts.port}`)")
    return out
