"""Gemini CLI: the BeforeTool rewrite of ``run_shell_command``.

Contracts (Gemini CLI hooks reference, https://geminicli.com/docs/hooks/reference and
https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/index.md):

* Hooks live in ``settings.json`` (user ``~/.gemini/settings.json``, project
  ``.gemini/settings.json``) under ``hooks.<Event>``: ``[{"matcher": regex,
  "hooks": [{"name", "type": "command", "command", "timeout" (ms)}]}]``.
* Every payload has ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``,
  ``timestamp``; BeforeTool adds ``tool_name`` and ``tool_input``.
* BeforeTool output ``hookSpecificOutput.tool_input``: the docs say it "merges with and
  overrides" the arguments, but the scheduler of @google/gemini-cli 0.61.0 builds the call
  from it alone (``evaluateBeforeToolHook``: ``tool.build(modifiedInput)``), so the hook
  returns every original argument (``dir_path``, ``description``, …) with only ``command``
  replaced. No decision field is sent.
* Gemini's policy check (``checkPolicy``) runs after the hook, on the rewritten command:
  a ``tools.allowed`` entry such as ``run_shell_command(git log)`` no longer matches it,
  so the call asks for approval. sqz grants nothing broader to make up for it.
* AfterTool cannot replace a result: 0.61.0 reads only ``decision``/``reason`` (the result
  becomes a "Tool result blocked" error), ``additionalContext`` (appended) and
  ``tailToolCallRequest``; ``hookSpecificOutput.tool_output`` (in the docs) is never read.
  So no AfterTool hook is installed and file reads are not deduplicated here;
  ``sqz hook gemini-cli --post`` (written by older versions) answers nothing.
* ``PreCompress`` (matchers ``manual``/``auto``) fires before history is summarised; its
  payload carries ``session_id``, so ``sqz hook precompact`` needs no extra option.
* The hooks system must be enabled (``tools.enableHooks`` in older versions); ``sqz
  doctor`` reports when it is explicitly off.
"""

from __future__ import annotations

import json
import os

name = "gemini-cli"
tier = "transparent"
DOCS = "https://geminicli.com/docs/hooks/reference"
SHELL_TOOL = "run_shell_command"


def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook gemini-cli``: the BeforeTool rewrite of a shell call, else None (``--post``: always None)."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_core.rewrite import touch_activity

    touch_activity(name)
    if "--post" in args or data.get("hook_event_name", "BeforeTool") != "BeforeTool":
        return None  # an AfterTool hook left by an older sqz: Gemini has no field to replace a result
    if data.get("tool_name") != SHELL_TOOL:
        return None
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return None
    if tool_input.get("is_background") or tool_input.get("background"):
        return None
    from sqz_core.rewrite import rewrite_command

    new = rewrite_command(tool_input["command"], session=data.get("session_id"), agent="gemini-cli")
    if new is None:
        return None
    # Gemini builds the call from this object alone (``tool.build(modifiedInput)`` in the
    # scheduler), so every original argument (``dir_path``, ``description``, …) goes back.
    return json.dumps({"hookSpecificOutput": {"hookEventName": "BeforeTool",
                                              "tool_input": dict(tool_input, command=new)}},
                      ensure_ascii=False).encode("utf-8")


def config_paths(home: str | None = None, project: str | None = None) -> dict[str, str]:
    home = home or os.path.expanduser("~")
    paths = {"user": os.path.join(home, ".gemini", "settings.json")}
    if project:
        paths["project"] = os.path.join(project, ".gemini", "settings.json")
    return paths


def detect(home: str | None = None) -> dict:
    """Gemini CLI is present: ``gemini`` on PATH or a ``~/.gemini`` folder."""
    from sqz_core.setup_cmds import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".gemini"), "gemini")


def actions(ctx: dict) -> list[dict]:
    """BeforeTool (shell rewrite) and PreCompress hooks in settings.json (no AfterTool: see the module doc)."""
    paths = config_paths(ctx["home"], ctx.get("project"))
    target = paths["project"] if ctx.get("scope") == "project" else paths["user"]
    sqz = ctx["sqz"]

    def entry(matcher: str, hook_name: str, command: str) -> dict:
        return {"matcher": matcher, "hooks": [{"name": hook_name, "type": "command", "command": command,
                                               "timeout": 10000}]}

    pre, compact = f"{sqz} hook gemini-cli", f"{sqz} hook precompact"
    return [
        {"type": "json_array_item", "file": target, "path": ["hooks", "BeforeTool"], "marker": pre,
         "item": entry(SHELL_TOOL, "sqz-rewrite", pre), "what": "BeforeTool hook (rewrites shell commands)"},
        {"type": "json_array_item", "file": target, "path": ["hooks", "PreCompress"], "marker": compact,
         "item": entry("*", "sqz-precompact", compact), "what": "PreCompress hook (forgets refs on compression)"},
    ]
