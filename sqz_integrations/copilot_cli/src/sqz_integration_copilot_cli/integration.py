"""GitHub Copilot CLI: the ``preToolUse`` rewrite of ``bash`` commands.

Contracts (Copilot CLI hooks reference,
https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference):

* Hook files: ``.github/hooks/*.json`` in a repository, ``~/.copilot/hooks/`` for the user;
  ``{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}``.
  sqz writes a file of its own (``sqz.json``), so uninstall just deletes it.
* camelCase ``preToolUse`` input: ``sessionId``, ``timestamp``, ``cwd``, ``toolName``
  (``bash``), ``toolArgs`` (an object, or a JSON string in some versions).
* Output: ``modifiedArgs`` "substitute tool arguments to use instead of the originals";
  ``permissionDecision`` is optional ("empty output uses default behavior") and never sent.
* A ``preToolUse`` error denies the tool call (changelog 1.0.57: "preToolUse hook errors now
  deny the tool call instead of silently allowing execution"), so the entry carries
  ``"matcher": "bash"`` (changelog 1.0.36: "hooks with matcher run only for tool names that
  fully match the regex"; older versions ignore it and the hook skips other tools itself)
  and its command fails open: sqz missing or failing → exit 0, no output.
* ``postToolUse`` can replace results only for SDK programmatic hooks, so file reads are
  not deduplicated here.
* ``PreCompact`` (PascalCase: the VS Code compatible payload with ``session_id``) runs
  ``sqz hook precompact``.
"""

from __future__ import annotations

import json
import os

name = "copilot-cli"
tier = "transparent"
DOCS = "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference"


def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook copilot-cli``: ``{"modifiedArgs": …}`` for a bash call worth wrapping, else None."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_core.rewrite import touch_activity

    touch_activity(name)
    tool = data.get("toolName", data.get("tool_name"))
    if tool != "bash":
        return None
    raw = data.get("toolArgs", data.get("tool_input"))
    if isinstance(raw, str):
        raw = json.loads(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("command"), str):
        return None
    if raw.get("mode") == "async" or raw.get("detach"):
        return None  # background/interactive shells stay as they are
    from sqz_core.rewrite import rewrite_command

    new = rewrite_command(raw["command"], session=data.get("sessionId", data.get("session_id")),
                          agent="copilot-cli")
    if new is None:
        return None
    return json.dumps({"modifiedArgs": dict(raw, command=new)}, ensure_ascii=False).encode("utf-8")


def detect(home: str | None = None) -> dict:
    """Copilot CLI is present: ``copilot`` on PATH or a ``~/.copilot`` folder."""
    from sqz_core.setup_cmds import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".copilot"), "copilot")


def hooks_file(ctx: dict) -> str:
    if ctx.get("scope") == "project":
        return os.path.join(ctx["project"], ".github", "hooks", "sqz.json")
    return os.path.join(ctx["home"], ".copilot", "hooks", "sqz.json")


def fail_open(words: str) -> str:
    """A ``bash`` hook command running ``words`` that never fails: its stdout only if it exited 0.

    A missing sqz (path moved, another machine reading a project hooks file) or a crash
    prints nothing and exits 0, which Copilot takes as "default behaviour", not a denial.
    stdin (the payload) goes to ``words``; its stderr is dropped.
    """
    return f"out=$({words} 2>/dev/null) && printf '%s' \"$out\"; exit 0"


def actions(ctx: dict) -> list[dict]:
    sqz = ctx["sqz"]
    doc = {"version": 1, "hooks": {
        "preToolUse": [{"type": "command", "matcher": "bash", "bash": fail_open(f"{sqz} hook copilot-cli"),
                        "timeoutSec": 10}],
        "PreCompact": [{"type": "command", "bash": fail_open(f"{sqz} hook precompact"), "timeoutSec": 10}],
    }}
    return [{"type": "owned_file", "file": hooks_file(ctx), "content": json.dumps(doc, indent=2) + "\n",
             "what": "hooks file (preToolUse rewrite, PreCompact)"}]
