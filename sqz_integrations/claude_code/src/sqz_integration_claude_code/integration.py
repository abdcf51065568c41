"""Claude Code: the PreToolUse rewrite, the PostToolUse dedup of file reads, and its settings.

Contracts (Claude Code hooks reference, https://code.claude.com/docs/en/hooks):

* Settings files: user ``~/.claude/settings.json``, project ``.claude/settings.json`` and
  ``.claude/settings.local.json`` (https://code.claude.com/docs/en/settings);
  ``{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": …}]}]}}``.
* PreToolUse stdin: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``,
  ``tool_name``, ``tool_input`` (Bash: ``command``, ``description``, ``timeout``,
  ``run_in_background``), ``tool_use_id``.
* PreToolUse output: ``hookSpecificOutput.updatedInput`` "replaces the entire input
  object, so include unchanged fields" and permission rules are evaluated against the
  input the hook returns. We never send ``permissionDecision``: ``"allow"`` would skip
  the user's prompt, ``"ask"`` would force one on every call; without it the normal
  permission flow (deny/ask/allow rules, modes) applies to the rewritten command.
* PostToolUse output: ``hookSpecificOutput.updatedToolOutput`` replaces the result "before
  it is sent to Claude. The value must match the tool's output shape"; a value that does
  not match is ignored (original kept). For ``Read`` the shape is
  ``{"type": "text", "file": {"filePath", "content", "numLines", "startLine", "totalLines"}}``.
  All tools since v2.1.121 (changelog); older versions ignore the field, so the
  result is left alone there.
* ``PreCompact`` and ``SessionStart`` with matcher ``compact`` carry ``session_id``:
  both run ``sqz hook precompact``.

Hot path: ``hook`` imports only the standard library and ``sqz_core.rewrite``.
"""

from __future__ import annotations

import json
import os

name = "claude-code"
tier = "transparent"
DOCS = "https://code.claude.com/docs/en/hooks"
MIN_POST_VERSION = (2, 1, 121)  # PostToolUse updatedToolOutput for built-in tools
_READ_KEYS = {"filePath", "content"}


# -- the hook ------------------------------------------------------------------------------
def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook claude-code [--post]``: the rewrite (PreToolUse) or the dedup (PostToolUse), or None."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_core.rewrite import touch_activity

    touch_activity(name)
    event = data.get("hook_event_name")
    if "--post" in args or event == "PostToolUse":
        return _post(data)
    if event not in (None, "PreToolUse") or data.get("tool_name") != "Bash":
        return None
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict) or tool_input.get("run_in_background"):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str):
        return None
    from sqz_core.rewrite import rewrite_command

    new = rewrite_command(command, session=data.get("session_id"), agent="claude-code")
    if new is None:
        return None
    updated = dict(tool_input)
    updated["command"] = new
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": updated}},
                      ensure_ascii=False).encode("utf-8")


def _post(data: dict) -> bytes | None:
    """Dedup a ``Read`` result through the session store; any other tool or shape is left alone."""
    if data.get("tool_name") != "Read":
        return None
    resp = data.get("tool_response")
    if not isinstance(resp, dict) or resp.get("type") != "text":
        return None
    file = resp.get("file")
    if not isinstance(file, dict) or not _READ_KEYS <= set(file) or not isinstance(file.get("content"), str):
        return None
    from sqz_core.rewrite import post_dedup

    new = post_dedup(file["content"], tool="Read", session=data.get("session_id"),
                     command=f"Read {file.get('filePath')}")
    if new is None:
        return None
    out = dict(resp)
    out["file"] = dict(file, content=new)
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": out}},
                      ensure_ascii=False).encode("utf-8")


# -- where it lives ----------------------------------------------------------------------------
def config_paths(home: str | None = None, project: str | None = None) -> dict[str, str]:
    """The settings files Claude Code reads, by scope."""
    home = home or os.path.expanduser("~")
    paths = {"user": os.path.join(home, ".claude", "settings.json")}
    if project:
        paths["project"] = os.path.join(project, ".claude", "settings.json")
        paths["local"] = os.path.join(project, ".claude", "settings.local.json")
    return paths


def detect(home: str | None = None) -> dict:
    """Whether Claude Code is present: its ``claude`` command on PATH or its ``~/.claude`` folder."""
    from sqz_core.setup_cmds import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".claude"), "claude")


def _version(command: str | None) -> tuple[int, ...] | None:
    if not command:
        return None
    import re
    import subprocess

    try:
        out = subprocess.run([command, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def actions(ctx: dict) -> list[dict]:
    """What ``sqz init`` writes: hooks in the settings file of the chosen scope.

    ``ctx``: ``home``, ``project`` (for ``--project``), ``scope``, ``sqz`` (quoted words
    running sqz). The PostToolUse hook is added only when the installed Claude Code is
    known to honour ``updatedToolOutput`` (or its version cannot be read).
    """
    paths = config_paths(ctx["home"], ctx.get("project"))
    target = paths["local"] if ctx.get("scope") == "project" else paths["user"]
    sqz = ctx["sqz"]

    def entry(matcher: str | None, command: str) -> dict:
        item = {"hooks": [{"type": "command", "command": command, "timeout": 10}]}
        if matcher is not None:
            item = {"matcher": matcher, **item}
        return item

    pre = f"{sqz} hook claude-code"
    out = [
        {"type": "json_array_item", "file": target, "path": ["hooks", "PreToolUse"],
         "item": entry("Bash", pre), "marker": pre, "what": "PreToolUse hook (rewrites Bash commands)"},
        {"type": "json_array_item", "file": target, "path": ["hooks", "PreCompact"],
         "item": entry(None, f"{sqz} hook precompact"), "marker": f"{sqz} hook precompact",
         "what": "PreCompact hook (forgets refs on compaction)"},
        {"type": "json_array_item", "file": target, "path": ["hooks", "SessionStart"],
         "item": entry("compact", f"{sqz} hook precompact"), "marker": f"{sqz} hook precompact",
         "what": "SessionStart[compact] hook (forgets refs after compaction)"},
    ]
    version = ctx.get("versions", {}).get(name, "probe")
    if version == "probe":
        version = _version(detect(ctx["home"]).get("command"))
    if version is None or version >= MIN_POST_VERSION:
        post = f"{sqz} hook claude-code --post"
        out.insert(1, {"type": "json_array_item", "file": target, "path": ["hooks", "PostToolUse"],
                       "item": entry("Read", post), "marker": post,
                       "what": "PostToolUse hook (dedups repeated file reads)"})
    return out
