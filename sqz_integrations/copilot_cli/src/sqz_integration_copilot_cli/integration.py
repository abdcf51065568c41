"""GitHub Copilot CLI: ``postToolUse`` compression of ``bash`` results and dedup of ``view`` reads.

Contracts (Copilot CLI hooks reference,
https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference, and
experiments with @github/copilot 1.0.102):

* Hook files: ``.github/hooks/*.json`` in a repository, ``~/.copilot/hooks/`` for the user;
  ``{"version": 1, "hooks": {"postToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}``.
  sqz writes a file of its own (``sqz.json``), so uninstall just deletes it.
* camelCase input: ``sessionId``, ``timestamp``, ``cwd``, ``toolName`` (``bash``, ``view``…),
  ``toolArgs`` (``{"command", "description"}`` for bash, ``{"path"}`` for view; a JSON
  string in some versions); ``postToolUse`` adds ``toolResult``: ``{"resultType":
  "success", "textResultForLlm": …}`` (bash text ends ``<shellId: N completed with exit code X>``).
* ``postToolUse`` output ``{"modifiedResult": {…}}`` replaces what the model receives
  (1.0.102, command hooks included). So the command is never rewritten: it runs as the
  user's permissions allow it (``--allow-tool 'shell(git log)'`` keeps matching), and its
  result is compressed afterwards (bash) or turned into a ref when the session already
  read the same content (view). An earlier ``preToolUse`` rewrite (``modifiedArgs``) made
  every rewritten command ask for approval.
* ``preToolUse`` (``"matcher": "bash"``) only answers ``permissionDecision: "allow"`` for
  a bare ``sqz expand REF…`` of this sqz (sqz's own read-only recovery verb, which its refs
  tell the model to run), and ``modifiedArgs`` naming this sqz where a command runs a bare
  ``sqz expand``/``sqz recall`` (hints say the bare ``sqz`` wherever that hook is installed, also
  with no sqz on PATH); anything else gets no output ("default behaviour").
* A ``preToolUse`` error denies the tool call (changelog 1.0.57), so entries carry a
  ``matcher`` (changelog 1.0.36: "hooks with matcher run only for tool names that fully
  match the regex") and every command fails open: sqz missing or failing → exit 0, no output.
* ``PreCompact`` (PascalCase: the VS Code compatible payload with ``session_id``) runs
  ``sqz hook precompact``.
"""

from __future__ import annotations

import json
import os
import re

name = "copilot-cli"
tier = "transparent"
DOCS = "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference"
_TRAILER = re.compile(r"\n?<shellId: [^>\n]{1,80}>\s*$")


def _args(data: dict) -> dict | None:
    raw = data.get("toolArgs", data.get("tool_input"))
    if isinstance(raw, str):
        raw = json.loads(raw)
    return raw if isinstance(raw, dict) else None


def _sqz_command(command: str) -> list[str] | None:
    """The words of ``command`` when it runs sqz itself (any verb), else None."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    if words[:3] and os.path.basename(words[0]).startswith("python") and words[1:3] == ["-m", "sqz_core"]:
        return ["sqz"] + words[3:]
    if words and os.path.basename(words[0]) in ("sqz", "sqz.exe"):
        return words
    return None


def _is_own_expand(command: str) -> bool:
    """``command`` is exactly ``<this sqz> expand REF…`` (or bare ``sqz expand REF…``, a pasted ``'§ref:…§'``)."""
    from sqz_agents.api import is_own_expand

    return is_own_expand(command)


def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook copilot-cli``: ``modifiedResult`` after a bash/view call, an allow for ``sqz expand``, else None."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_agents.api import touch_activity

    touch_activity(name)
    tool = data.get("toolName", data.get("tool_name"))
    tool_args = _args(data)
    if tool_args is None:
        return None
    if "toolResult" not in data:  # preToolUse
        command = tool_args.get("command")
        if tool != "bash" or not isinstance(command, str):
            return None
        from sqz_agents.api import resolve_bare_sqz

        out: dict = {}
        resolved = resolve_bare_sqz(command)  # a hint's bare ``sqz``: this sqz, where none of it is on PATH
        if resolved is not None:
            out["modifiedArgs"] = dict(tool_args, command=resolved)
        if _is_own_expand(command):
            out.update(permissionDecision="allow",
                       permissionDecisionReason="sqz expand prints an output this session was served")
        return json.dumps(out).encode("utf-8") if out else None
    result = data.get("toolResult")
    if not isinstance(result, dict) or result.get("resultType") != "success":
        return None
    text = result.get("textResultForLlm")
    session = data.get("sessionId", data.get("session_id"))
    if not isinstance(text, str) or not text or not session:
        return None
    from sqz_agents.api import post_dedup

    if tool == "bash":
        command = tool_args.get("command")
        if not isinstance(command, str) or _sqz_command(command) is not None:
            return None  # sqz's own output (``sqz expand``) is never compressed again
        if tool_args.get("mode") == "async" or tool_args.get("detach"):
            return None  # a background shell's first words, not its output
        m = _TRAILER.search(text)
        body, trailer = (text[: m.start()], text[m.start():]) if m else (text, "")
        new = post_dedup(body, None, session, command=command)
        if new is None:
            return None
        new = _runnable_hints(new, data.get("cwd")).rstrip("\n") + ("\n" + trailer.lstrip("\n") if trailer else "")
    elif tool == "view":
        new = post_dedup(text, "view", session)
        if new is None:
            return None
        new = _runnable_hints(new, data.get("cwd"))
    else:
        return None
    return json.dumps({"modifiedResult": dict(result, textResultForLlm=new)}, ensure_ascii=False).encode("utf-8")


def _runnable_hints(text: str, cwd) -> str:
    """Hints say a bare ``sqz`` where sqz's preToolUse hook names this sqz in it (``_pre_hook_installed``)."""
    if not _pre_hook_installed(cwd):
        return text
    from sqz_agents.api import short_hints

    return short_hints(text)


def _pre_hook_installed(cwd) -> bool:
    """Whether a hooks file Copilot reads (``~/.copilot/hooks/*.json``, the repository's ``.github/hooks/*.json``)
    runs sqz's ``preToolUse`` hook on bash: it names this sqz in a hint's bare ``sqz expand``, so hints say it."""
    import glob

    dirs = [os.path.join(os.path.expanduser("~"), ".copilot", "hooks")]
    d = cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None
    while d:
        dirs.append(os.path.join(d, ".github", "hooks"))
        if os.path.exists(os.path.join(d, ".git")):
            break
        parent = os.path.dirname(d)
        d = None if parent == d else parent
    for folder in dirs:
        for path in sorted(glob.glob(os.path.join(glob.escape(folder), "*.json"))):
            try:
                with open(path, encoding="utf-8") as f:
                    entries = json.load(f).get("hooks", {}).get("preToolUse") or []
                if any(re.fullmatch(e.get("matcher") or ".*", "bash") and " hook copilot-cli" in (e.get("bash") or "")
                       for e in entries):
                    return True
            except (OSError, ValueError, AttributeError, TypeError, re.error):
                continue
    return False


def detect(home: str | None = None) -> dict:
    """Copilot CLI is present: ``copilot`` on PATH or a ``~/.copilot`` folder."""
    from sqz_agents.api import detect_agent

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
        "postToolUse": [{"type": "command", "matcher": "bash|view", "bash": fail_open(f"{sqz} hook copilot-cli"),
                         "timeoutSec": 10}],
        "PreCompact": [{"type": "command", "bash": fail_open(f"{sqz} hook precompact"), "timeoutSec": 10}],
    }}
    return [{"type": "owned_file", "file": hooks_file(ctx), "content": json.dumps(doc, indent=2) + "\n",
             "what": "hooks file (postToolUse compression, sqz expand allowed, PreCompact)"}]
