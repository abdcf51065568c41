"""OpenAI Codex CLI: a PostToolUse hook that hands the model sqz's output of a shell command, plus ``sqz-mcp``.

Contracts: hooks live in ``hooks.json`` next to ``config.toml`` (``$CODEX_HOME``, default
``~/.codex``; project: ``.codex/``) as ``{"hooks": {"PostToolUse": [{"matcher": "Bash",
"hooks": [{"type": "command", "command": …, "timeout": s}]}]}}``
(https://developers.openai.com/codex/hooks); MCP servers are ``[mcp_servers.<name>]`` tables
(https://developers.openai.com/codex/mcp).

What Codex offers (read from @openai/codex 0.171.0, the version the end-to-end test pins):
PreToolUse may return ``updatedInput`` only together with ``permissionDecision: "allow"``,
which would bypass the user's approval policy, so sqz never rewrites a command. PostToolUse
has no output-replacement field for shell commands (``updatedToolOutput`` is not accepted;
``updatedMCPToolOutput`` is rejected as unsupported), but ``{"decision": "block", "reason":
TEXT}`` makes TEXT the whole tool result the model receives (observed: the
``function_call_output`` holds TEXT and nothing else; the command already ran and is not
undone). sqz uses that channel: the command runs exactly as asked, under the user's sandbox,
approvals and rules, and only the text the model reads is replaced.

The PostToolUse payload is ``{session_id, turn_id, transcript_path, cwd, hook_event_name,
model, permission_mode, tool_name: "Bash", tool_input: {command}, tool_response: <output
text>, tool_use_id}``: no exit status. Codex writes the finished command
(``item_completed`` / ``CommandExecution`` with ``exit_code``) to the transcript before the
hook runs; sqz reads it from the transcript's tail and puts ``Process exited with code N``
above the output as Codex does. When it cannot find the status (another Codex version, a
transcript it cannot read) the output is left unchanged. Codex fires PostToolUse only for
commands that finished, so a still-running process (its session id) is never touched.

Costs: Codex labels each replaced result ``PostToolUse Blocked`` and logs it as a tool error;
non-managed hooks must be trusted once in Codex (``/hooks``) before they run.
"""

from __future__ import annotations

import json
import os
import re
import shlex

name = "codex"
tier = "transparent"
DOCS = "https://developers.openai.com/codex/hooks"

TRANSCRIPT_TAIL = 1 << 20  # bytes of the transcript read back to find the command's exit status
_BARE_EXPAND = re.compile(r"(?<![\w/.\\-])sqz expand\b")


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    home = home or os.path.expanduser("~")
    return detect_agent(os.path.join(os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")), "codex")


def runs_sqz(command: str) -> bool:
    """Does ``command`` run sqz itself (any verb)? Its output is sqz's own: never compress it again."""
    from sqz_core.api import SQZ_PROGRAMS, program_of, shell_words, simple_commands

    try:
        commands = simple_commands(shell_words(command))
    except Exception:
        return "sqz" in command  # cannot parse: leave it alone
    for words in commands:
        prog = program_of(words)[0]
        if (prog and os.path.basename(prog) in SQZ_PROGRAMS) or (words and os.path.basename(words[0]) in SQZ_PROGRAMS):
            return True
    return False


def exit_status(transcript: object, call_id: object) -> int | None:
    """The exit code Codex recorded for ``call_id`` in the transcript's last ``TRANSCRIPT_TAIL`` bytes, or None."""
    if not isinstance(transcript, str) or not isinstance(call_id, str) or not call_id:
        return None
    try:
        with open(transcript, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - TRANSCRIPT_TAIL))
            tail = f.read()
    except OSError:
        return None
    needle = json.dumps(call_id).encode()
    for line in reversed(tail.split(b"\n")):
        if needle not in line or b"exit_code" not in line:
            continue
        try:
            item = json.loads(line)["payload"]["item"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(item, dict) and item.get("id") == call_id and item.get("type") == "CommandExecution":
            code = item.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                return code
    return None


def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook codex``: a PostToolUse payload for a shell command; answers the replacement or nothing."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict) or data.get("hook_event_name") != "PostToolUse" or data.get("tool_name") != "Bash":
        return None
    from sqz_agents.api import touch_activity

    touch_activity(name)
    command = (data.get("tool_input") or {}).get("command") if isinstance(data.get("tool_input"), dict) else None
    text = data.get("tool_response")
    if not isinstance(command, str) or not isinstance(text, str) or not text or runs_sqz(command):
        return None
    status = exit_status(data.get("transcript_path"), data.get("tool_use_id"))
    if status is None or not 0 <= status <= 255:
        return None  # without the exit status the model would lose whether the command failed
    from sqz_core.api import compress_bytes
    from sqz_core.api import sqz_executable

    from sqz_core.api import new_nonce, trailer

    session, nonce = data.get("session_id"), new_nonce()
    opts = {"command": command.strip().split("\n", 1)[0][:500], "tool": None, "mode": "auto",
            "session": str(session) if session else None, "no_cache": False, "no_abbrev": False, "agent": name,
            "exit_nonce": nonce}
    result = compress_bytes(text.encode("utf-8") + trailer(status, nonce), opts)
    out = result.output.decode("utf-8", errors="replace")
    if result.outcome == "error":
        return None
    words = sqz_executable()
    if words != "sqz":
        out = _BARE_EXPAND.sub(lambda _m: words + " expand", out)
    from sqz_agents.api import worth_replacing

    if not worth_replacing(text, out):  # cl100k tokens against the (already cut) output Codex would send
        return None
    reason = f"Process exited with code {status}\nOutput:\n{out}"
    return json.dumps({"decision": "block", "reason": reason}, ensure_ascii=False).encode("utf-8")


def actions(ctx: dict) -> list[dict]:
    if ctx.get("scope") == "project":
        base = os.path.join(ctx["project"], ".codex")
    else:
        base = os.environ.get("CODEX_HOME") or os.path.join(ctx["home"], ".codex")
    command = f"{ctx['sqz']} hook codex"
    out = [
        {"type": "json_array_item", "file": os.path.join(base, "hooks.json"), "path": ["hooks", "PostToolUse"],
         "item": {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 10}]},
         "marker": command, "what": "PostToolUse hook (hands the model sqz's output of shell commands)"},
        {"type": "toml_table", "file": os.path.join(base, "config.toml"), "table": ["mcp_servers", "sqz"],
         "body": {"command": ctx["sqz_mcp"], "args": []}, "what": "[mcp_servers.sqz]"},
    ]
    # an older sqz put advisory guidance in AGENTS.md; the hook replaces it (``sqz init`` removes it)
    agents = os.path.join(ctx["project"] if ctx.get("scope") == "project" else base, "AGENTS.md")
    out.append({"type": "md_block_remove", "file": agents, "what": "AGENTS.md guidance block of an older sqz"})
    if ctx.get("scope") != "project":
        out.append({"type": "owned_file", "file": os.path.join(base, "rules", "sqz.rules"),
                    "content": expand_rule(ctx["sqz"]), "what": "rule allowing `sqz expand` (recovery under the sandbox)"})
    return out


HOOKS_LIST_TIMEOUT = 30.0  # seconds for ``codex app-server`` to list the hooks (a cap, not an expectation)


def hook_trust(codex: str, cwd: str, timeout: float = HOOKS_LIST_TIMEOUT, env: dict | None = None) -> list[dict] | None:
    """sqz's hooks as Codex itself lists them (``codex app-server``, method ``hooks/list``: each with its
    ``trustStatus``: trusted, untrusted, modified or managed), or None when Codex cannot be asked."""
    import subprocess
    import threading

    try:
        proc = subprocess.Popen([codex, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, cwd=cwd, env=env)
    except OSError:
        return None
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        def call(msg_id: int, method: str, params: dict) -> dict | None:
            proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}) + "\n")
            proc.stdin.flush()
            for line in proc.stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if isinstance(msg, dict) and msg.get("id") == msg_id:
                    return msg.get("result")
            return None

        if call(1, "initialize", {"clientInfo": {"name": "sqz-doctor", "version": "1"}}) is None:
            return None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "initialized"}) + "\n")
        result = call(2, "hooks/list", {"cwds": [cwd]})
    except (OSError, ValueError):
        return None
    finally:
        timer.cancel()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        proc.kill()
        proc.wait()
    if not isinstance(result, dict) or not isinstance(result.get("data"), list):
        return None
    return [h for entry in result["data"] if isinstance(entry, dict) for h in entry.get("hooks") or ()
            if isinstance(h, dict) and isinstance(h.get("command"), str) and " hook codex" in h["command"]]


def project_hook_file(project: str) -> str | None:
    """The project's ``.codex/hooks.json`` when it holds sqz's hook (what ``sqz init --project`` writes), else None."""
    path = os.path.join(project, ".codex", "hooks.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    groups = (data.get("hooks") or {}).get("PostToolUse") if isinstance(data, dict) else None
    for group in groups if isinstance(groups, list) else ():
        for h in (group.get("hooks") or ()) if isinstance(group, dict) else ():
            if isinstance(h, dict) and isinstance(h.get("command"), str) and " hook codex" in h["command"]:
                return path
    return None


def trust_project_fix(project: str) -> str:
    """How to trust a project folder in Codex (its ``.codex/`` layer, hooks included, loads only then)."""
    home = os.environ.get("CODEX_HOME") or "~/.codex"
    return (f"start `codex` in {project} and answer that you trust this folder, or add to {home}/config.toml: "
            f'[projects."{os.path.realpath(project)}"] trust_level = "trusted"')


def health(ctx: dict) -> list[str]:
    """``sqz doctor``: Codex runs a project's hooks only in a trusted project, and a non-managed hook only once
    the user trusted it in ``/hooks``; say which is missing and how to fix it."""
    codex = detect(ctx.get("home")).get("command")
    if not codex:
        return []
    project = ctx.get("project") or os.getcwd()
    hooks = hook_trust(codex, project)
    if hooks is None:
        return [f"could not ask Codex ({codex} app-server) whether it trusts sqz's hook"]
    out = []
    own = project_hook_file(project)
    if own is not None and not any(_same_file(h.get("sourcePath"), own) for h in hooks):
        # measured (0.171.0): an untrusted project's .codex/ is not loaded at all; hooks/list names none of it
        out.append(f"Codex ignores sqz's hook in {own}: the project is not trusted, so Codex loads nothing of its "
                   f".codex/ folder (fix: {trust_project_fix(project)}; then trust the hook in /hooks)")
    if not hooks and not out:
        return ["Codex lists no sqz hook: run `sqz init --only codex`"]
    for h in hooks:
        status = h.get("trustStatus")
        if status in ("trusted", "managed"):
            continue
        why = "was changed since you trusted it" if status == "modified" else "is not trusted yet"
        out.append(f"Codex skips sqz's hook `{h['command']}`: it {why} (fix: start `codex`, type /hooks, "
                   f"select that PostToolUse hook and trust it; until then Codex output is not compressed)")
    return out


def _same_file(a, b: str) -> bool:
    try:
        return isinstance(a, str) and os.path.samefile(a, b)
    except OSError:
        return False


def expand_rule(sqz_words: str) -> str:
    """An execpolicy rule letting ``<sqz> expand REF`` run without a prompt, outside the sandbox.

    The store lives outside the workspace, so under Codex's default sandbox it is read-only to
    ``sqz expand``, which then opens it read-only and skips its expand event (what ``sqz init
    --project`` relies on: it writes no rule); outside the sandbox the event is recorded too.
    The rule covers only sqz's expand verb.
    """
    pattern = json.dumps([*shlex.split(sqz_words), "expand"], ensure_ascii=False)
    return ("# Generated by `sqz init` (sqz-integration-codex). `sqz uninstall` removes this file.\n"
            "# Lets `sqz expand REF` (prints an original output sqz shortened) read sqz's store.\n"
            f'prefix_rule(pattern={pattern}, decision="allow")\n')

