"""What ``sqz init --proxy`` writes for each agent, and what ``sqz doctor`` checks about it.

Actions have the shape sqz-agents' ``run_init`` applies (and ``sqz uninstall`` removes byte-exactly
from its manifest):

- Claude Code: ``env.ANTHROPIC_BASE_URL`` in ``~/.claude/settings.json`` and a ``SessionStart`` hook
  running ``sqz proxy start --port N --quiet``, so a session starts the proxy when it is down;
- OpenCode: ``provider.anthropic.options.baseURL`` and ``provider.openai.options.baseURL`` in
  ``~/.config/opencode/opencode.json`` (the proxy's ``/anthropic/v1`` and ``/openai/v1``) and a plugin,
  ``plugins/sqz-proxy.js``, that starts the proxy when OpenCode loads its plugins (before any model call);
- Codex: a ``[model_providers.sqz-proxy]`` table (Responses API through the proxy) and a profile file,
  ``sqz-proxy.config.toml``, that selects it: ``codex --profile sqz-proxy`` (a top-level ``model_provider``
  would redirect every run; Codex 0.171 refuses a ``[profiles.…]`` table in config.toml), and a
  ``SessionStart`` hook in ``hooks.json`` starting the proxy (Codex runs
  it only once the user trusted it in ``/hooks``, as every non-managed hook);
- Gemini CLI and Copilot CLI take their base URL from the environment only
  (``GOOGLE_GEMINI_BASE_URL``, ``COPILOT_PROVIDER_BASE_URL``; Copilot only with a provider of one's own):
  init prints the line to export and installs their session-start hook (Gemini ``hooks.SessionStart`` in
  ``settings.json``, Copilot ``sessionStart`` in ``hooks/sqz-proxy.json``) so a session started with that
  variable finds the proxy running. Every start hook runs ``sqz proxy start --port N --quiet``, which
  returns at once when the proxy already runs.
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
    """The init actions that point ``agent`` at the proxy and start it on demand (Gemini CLI and Copilot CLI:
    the start hook only; their base URL is an environment variable)."""
    url = url or proxy_url()
    home = ctx["home"]
    sqz = ctx.get("sqz", "sqz")
    port = url.rsplit(":", 1)[1].split("/")[0]
    start = f"{sqz} proxy start --port {port} --quiet"
    if agent == "claude-code":
        target = (os.path.join(ctx["project"], ".claude", "settings.local.json") if ctx.get("scope") == "project"
                  else os.path.join(home, ".claude", "settings.json"))
        return [{"type": "json_member", "file": target, "path": ["env"], "key": "ANTHROPIC_BASE_URL", "value": url,
                 "what": f"ANTHROPIC_BASE_URL → the sqz proxy ({url})"},
                {"type": "json_array_item", "file": target, "path": ["hooks", "SessionStart"],
                 "item": {"hooks": [{"type": "command", "command": start, "timeout": 30}]}, "marker": start,
                 "what": "SessionStart hook (starts the sqz proxy when it is not running)"}]
    if agent == "opencode":
        base = os.path.join(ctx["project"], ".opencode") if ctx.get("scope") == "project" else os.path.join(
            home, ".config", "opencode")
        target = (os.path.join(ctx["project"], "opencode.json") if ctx.get("scope") == "project"
                  else os.path.join(base, "opencode.json"))
        members = [{"type": "json_member", "file": target, "path": ["provider", p, "options"], "key": "baseURL",
                    "value": f"{url}/{p}/v1", "what": f"{p} baseURL → the sqz proxy"} for p in ("anthropic", "openai")]
        return members + [{"type": "owned_file", "file": os.path.join(base, "plugins", "sqz-proxy.js"),
                           "content": opencode_plugin(start), "what": "plugin starting the sqz proxy with OpenCode"}]
    if agent == "codex":
        base = (os.path.join(ctx["project"], ".codex") if ctx.get("scope") == "project"
                else os.environ.get("CODEX_HOME") or os.path.join(home, ".codex"))
        target = os.path.join(base, "config.toml")
        return [{"type": "toml_table", "file": target, "table": ["model_providers", "sqz-proxy"],
                 "body": {"name": "OpenAI through sqz proxy", "base_url": f"{url}/openai/v1",
                          "env_key": "OPENAI_API_KEY", "wire_api": "responses"},
                 "what": "model provider sqz-proxy (the OpenAI Responses API through the sqz proxy)"},
                # Codex 0.171 refuses a [profiles.NAME] table in config.toml ("legacy"): a profile is its own
                # file, NAME.config.toml beside it
                {"type": "owned_file", "file": os.path.join(base, "sqz-proxy.config.toml"),
                 "content": CODEX_PROFILE,
                 "what": "profile sqz-proxy (`codex --profile sqz-proxy` goes through the sqz proxy)"},
                {"type": "json_array_item", "file": os.path.join(base, "hooks.json"), "path": ["hooks", "SessionStart"],
                 "item": {"hooks": [{"type": "command", "command": start, "timeout": 30}]}, "marker": start,
                 "what": "SessionStart hook (starts the sqz proxy; trust it once in Codex's /hooks)"}]
    if agent == "gemini-cli":
        target = (os.path.join(ctx["project"], ".gemini", "settings.json") if ctx.get("scope") == "project"
                  else os.path.join(home, ".gemini", "settings.json"))
        return [{"type": "json_array_item", "file": target, "path": ["hooks", "SessionStart"], "marker": start,
                 "item": {"matcher": "*", "hooks": [{"name": "sqz-proxy-start", "type": "command", "command": start,
                                                     "timeout": 30000}]},
                 "what": "SessionStart hook (starts the sqz proxy for a session with GOOGLE_GEMINI_BASE_URL set)"}]
    if agent == "copilot-cli":
        target = (os.path.join(ctx["project"], ".github", "hooks", "sqz-proxy.json") if ctx.get("scope") == "project"
                  else os.path.join(home, ".copilot", "hooks", "sqz-proxy.json"))
        doc = {"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": start, "timeoutSec": 30}]}}
        return [{"type": "owned_file", "file": target, "content": json.dumps(doc, indent=2) + "\n",
                 "what": "sessionStart hook (starts the sqz proxy for a session with COPILOT_PROVIDER_BASE_URL set)"}]
    return []


CODEX_PROFILE = """\
# Written by `sqz init --proxy` (sqz-proxy); `sqz uninstall` removes this file.
# `codex --profile sqz-proxy` sends the model calls through the sqz proxy ([model_providers.sqz-proxy]
# in config.toml).
model_provider = "sqz-proxy"
"""


OPENCODE_PLUGIN = """\
// Generated by `sqz init --proxy` (sqz-proxy). `sqz uninstall` removes this file.
// Starts the sqz proxy (if it is not running) when OpenCode loads its plugins, before any model call:
// the provider baseURLs init wrote point at it.
import { spawnSync } from "node:child_process";

const START = __START_ARGV__;

export const SqzProxyStart = async () => {
  try {
    spawnSync(START[0], START.slice(1), { stdio: "ignore", timeout: 30000 });
  } catch (e) {
    // sqz missing: OpenCode runs on; its model calls fail until the proxy runs (`sqz doctor` says so)
  }
  return {};
};
"""


def opencode_plugin(start: str) -> str:
    """The OpenCode plugin running ``start`` (an argv array: no shell involved)."""
    import shlex

    return OPENCODE_PLUGIN.replace("__START_ARGV__", json.dumps(shlex.split(start), ensure_ascii=False))


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
    """agent -> the loopback base URL its configuration sends model calls to (Claude Code, OpenCode, Codex; Gemini
    CLI and Copilot CLI by the variable in this environment)."""
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
        codex_home = os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
        with open(os.path.join(codex_home, "config.toml"), encoding="utf-8") as fh:
            import tomllib

            codex = tomllib.loads(fh.read())
        url = ((codex.get("model_providers") or {}).get("sqz-proxy") or {}).get("base_url")
        if isinstance(url, str):
            found["codex"] = url
    except (OSError, ValueError, ImportError):
        pass
    env = ctx.get("env", os.environ)
    for agent, (var, _suffix) in ENV_ONLY.items():  # set in the shell doctor runs in: the agent's too
        if isinstance(env.get(var), str):
            found[agent] = env[var]
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
