"""OpenAI Codex CLI: the ``sqz-mcp`` server in ``config.toml`` and a guidance block in AGENTS.md.

Contracts: MCP servers are ``[mcp_servers.<name>]`` tables with ``command`` and ``args``
in ``~/.codex/config.toml`` (https://developers.openai.com/codex/mcp); guidance goes in
``~/.codex/AGENTS.md`` (global) or ``AGENTS.md`` at the project root
(https://developers.openai.com/codex/guides/agents-md).

Advisory, not transparent: Codex hooks (https://developers.openai.com/codex/hooks) accept
a PreToolUse ``updatedInput`` only together with ``permissionDecision: "allow"``
(openai/codex PR #20527), and granting permission just to rewrite a command would bypass
the user's approval policy. So sqz does not install a Codex command hook.
"""

from __future__ import annotations

import os

name = "codex"
tier = "advisory"
DOCS = "https://developers.openai.com/codex/mcp"


def detect(home: str | None = None) -> dict:
    from sqz_core.setup_cmds import detect_agent

    home = home or os.path.expanduser("~")
    return detect_agent(os.path.join(os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")), "codex")


def actions(ctx: dict) -> list[dict]:
    from sqz_core.setup_cmds import guidance_block_action

    if ctx.get("scope") == "project":
        config = os.path.join(ctx["project"], ".codex", "config.toml")
        agents = os.path.join(ctx["project"], "AGENTS.md")
    else:
        base = os.path.join(ctx["home"], ".codex")
        config, agents = os.path.join(base, "config.toml"), os.path.join(base, "AGENTS.md")
    return [
        {"type": "toml_table", "file": config, "table": ["mcp_servers", "sqz"],
         "body": {"command": ctx["sqz_mcp"], "args": []}, "what": "[mcp_servers.sqz]"},
        guidance_block_action(agents, ctx),
    ]
