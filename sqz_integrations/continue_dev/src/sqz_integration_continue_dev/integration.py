"""Continue: an MCP server block and a rule, as files of their own (no YAML editing).

Contracts: Continue loads standalone blocks from ``.continue/mcpServers/*.yaml``
(``name``, ``version``, ``schema: v1``, ``mcpServers: [{name, command, args}]``,
https://docs.continue.dev/customize/deep-dives/mcp) and rules from ``.continue/rules/*.md``
(https://docs.continue.dev/customize/deep-dives/rules), in ``~/.continue`` or the
workspace. Writing our own files leaves the user's ``config.yaml`` untouched, so no
YAML library is needed. Advisory: no command-rewriting hook.
"""

from __future__ import annotations

import json
import os

name = "continue"
tier = "advisory"
DOCS = "https://docs.continue.dev/customize/deep-dives/mcp"


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".continue"))


def mcp_block(command: str) -> str:
    # JSON strings are valid YAML scalars: the path is quoted whatever characters it holds
    return ("name: sqz\nversion: 0.1.0\nschema: v1\nmcpServers:\n"
            f"  - name: sqz\n    command: {json.dumps(command, ensure_ascii=False)}\n    args: []\n")


def actions(ctx: dict) -> list[dict]:
    from sqz_agents.api import guidance_file_action

    root = os.path.join(ctx["project"] if ctx.get("scope") == "project" else ctx["home"], ".continue")
    return [
        {"type": "owned_file", "file": os.path.join(root, "mcpServers", "sqz.yaml"),
         "content": mcp_block(ctx["sqz_mcp"]), "what": "MCP server block"},
        guidance_file_action(os.path.join(root, "rules", "sqz.md"), ctx, "---\nname: sqz\nalwaysApply: true\n---\n"),
    ]
