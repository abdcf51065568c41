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
* Gemini's policy check (``checkPolicy``) runs after the hook, on the rewritten command
  (a hook's ``decision: "allow"`` cannot lift it). The policy engine matches the whole
  command against the rules, then checks every sub-command of a compound command again
  (``checkShellCommand``): a sub-command can only lower the decision. A ``tools.allowed``
  entry such as ``run_shell_command(git log)`` also adds a deny for every other shell
  command (priority 4.29, "Narrowing Enforcement"), so the wrapped command was denied
  (headless) or asked for. ``sqz init`` therefore writes ``~/.gemini/policies/sqz.toml``:
  allow rules (user tier, priority 295 → 4.295) for sqz's own parts only — the wrapper
  shape as a whole, its exit-status ``printf``, ``<sqz> compress`` and ``<sqz> expand`` —
  so the decision is the one the user's rules give the user's own sub-commands. Commands
  whose decision would depend on what sqz cannot reproduce are left unwrapped: any
  ``<``/``>`` (the wrapper's rule must allow its own ``2>&1``) and the commands Gemini's
  heuristics call dangerous (``rm -f``, ``ln -s``, ``sudo``, ``find -exec``…). Gemini's
  "known safe" upgrade (a read-only command run unasked with no rule, in a trusted folder,
  interactive) is skipped for the parts of a compound command, so a wrapped ``git log``
  would ask where Gemini ran it unasked (seen in the interactive 0.61.0: "Allow execution
  of [Shell]?"). Such commands (``may_be_known_safe``: a superset of Gemini's list) are
  wrapped only when one of the user's own allow rules matches them (``user_allows``:
  ``tools.allowed`` of the user and project settings, allow rules of
  ``~/.gemini/policies/*.toml``); otherwise they run as without sqz, uncompressed. Headless
  (``-p``) without any shell rule Gemini leaves ``run_shell_command`` out of the model's
  tools; with sqz's rules it is offered and every call is denied (nothing runs either way).
* AfterTool cannot replace a result: 0.61.0 reads only ``decision``/``reason`` (the result
  becomes a "Tool result blocked" error), ``additionalContext`` (appended) and
  ``tailToolCallRequest``; ``hookSpecificOutput.tool_output`` (in the docs) is never read.
  So no AfterTool hook is installed and file reads are not deduplicated here;
  ``sqz hook gemini-cli --post`` (written by older versions) answers nothing.
* A failing hook command blocks the tool call (0.61.0 turns a missing sqz, exit 127, into
  "Tool execution blocked"), so both hook commands fail open (``fail_open``).
* ``PreCompress`` (matchers ``manual``/``auto``) fires before history is summarised; its
  payload carries ``session_id``, so ``sqz hook precompact`` needs no extra option.
* The hooks system must be enabled (``tools.enableHooks`` in older versions); ``sqz
  doctor`` reports when it is explicitly off.
"""

from __future__ import annotations

import json
import os

name = "gemini-cli"
tier = "rewrite"  # Gemini cannot replace a result: the command is rewritten, with Gemini's notice on each call
DOCS = "https://geminicli.com/docs/hooks/reference"
SHELL_TOOL = "run_shell_command"


def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook gemini-cli``: the BeforeTool rewrite of a shell call, else None (``--post``: always None)."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_agents.api import touch_activity

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
    if not policy_neutral(tool_input["command"]) or not worth_a_notice(tool_input["command"]):
        return None
    if may_be_known_safe(tool_input["command"]) and not user_allows(tool_input["command"], data.get("cwd")):
        return None  # Gemini may run it unasked by its own heuristic, which it skips once wrapped
    from sqz_agents.api import rewrite_command

    new = rewrite_command(tool_input["command"], session=data.get("session_id"), agent="gemini-cli")
    if new is None:
        return None
    # Gemini builds the call from this object alone (``tool.build(modifiedInput)`` in the
    # scheduler), so every original argument (``dir_path``, ``description``, …) goes back.
    return json.dumps({"hookSpecificOutput": {"hookEventName": "BeforeTool",
                                              "tool_input": dict(tool_input, command=new)}},
                      ensure_ascii=False).encode("utf-8")


# Gemini marks every rewritten call "[System] Tool input parameters were modified by a hook before
# execution." (14 cl100k tokens, measured with 0.61.0): for a command that prints a line or two, or
# nothing, that costs more than sqz can save. Such programs (and git's quiet subcommands) run as they are.
NOTICE_TOKENS = 14
_TERSE = frozenset({"cd", "pushd", "popd", "mkdir", "rmdir", "touch", "cp", "mv", "rm", "ln", "chmod", "chown",
                    "echo", "printf", "pwd", "true", "false", "which", "type", "command", "whoami", "id", "date",
                    "basename", "dirname", "realpath", "readlink", "test", "[", "sleep", "export", "unset", "wc",
                    "uname", "hostname", "kill", "expr", "sha256sum", "md5sum", "cksum", "nproc", "whereis",
                    "mktemp"})
_GIT_TERSE = frozenset({"add", "commit", "checkout", "switch", "restore", "reset", "rm", "mv", "init", "config",
                        "tag", "stash", "push", "pull", "fetch", "merge", "cherry-pick", "revert", "rev-parse",
                        "symbolic-ref", "remote", "worktree", "clone", "apply", "am", "notes", "update-ref"})


def worth_a_notice(command: str) -> bool:
    """Whether any part of ``command`` may print enough for sqz to save more than Gemini's notice costs."""
    try:
        from sqz_core.api import program_of, shell_words, simple_commands

        commands = simple_commands(shell_words(command))
    except Exception:
        return False
    for words in commands:
        prog, rest = program_of(words)
        if prog is None:
            continue
        prog = os.path.basename(prog)
        positional = [a for a in rest if not a.startswith("-")]
        if prog == "git" and positional and positional[0] in _GIT_TERSE:
            continue
        if prog in _TERSE:
            continue
        if prog == "sed" and any(a == "--in-place" or a.startswith(("-i", "--in-place=")) for a in rest):
            continue  # edits the file in place and prints nothing (measured: a rewrite made it 24 -> 37 tokens)
        return True
    return False


_DANGEROUS_FIND = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"}


def policy_neutral(command: str) -> bool:
    """Can sqz's policy rules (``policy_toml``) leave Gemini's decision on ``command`` as it was?

    No for a redirection (``<``/``>`` anywhere: the wrapper's rule allows its own ``2>&1``)
    and for what Gemini's heuristics would downgrade as dangerous on the whole command
    (sub-commands are checked without them): ``rm -f/-rf/-fr``, ``ln -s``, ``sudo``,
    ``find`` with an executing or writing option, ``rg --pre``/``-z``.
    """
    if "<" in command or ">" in command:
        return False
    try:
        from sqz_core.api import shell_words, simple_commands

        commands = simple_commands(shell_words(command))
    except Exception:
        return False
    for words in commands:
        words = [w for w in words if isinstance(w, str)]
        while words and "=" in words[0] and not words[0].startswith("="):
            words = words[1:]  # VAR=value prefixes
        if not words:
            continue
        prog, args = os.path.basename(words[0]), words[1:]
        if prog == "sudo" or (prog == "rm" and args[:1] in (["-f"], ["-rf"], ["-fr"])):
            return False
        if prog == "ln" and any(a in ("-s", "--symbolic") or (a.startswith("-") and not a.startswith("--")
                                                               and "s" in a) for a in args):
            return False
        if prog == "find" and _DANGEROUS_FIND.intersection(args):
            return False
        if prog in ("rg", "ripgrep") and any(a in ("-z", "--search-zip") or a.startswith(("--pre", "--hostname-bin"))
                                             for a in args):
            return False
    return True


# First words Gemini 0.61.0's "known safe" heuristic (isKnownSafeCommand) can upgrade from ask to
# allow with no rule (a superset: a wrong "maybe" only costs compression, never a permission).
_KNOWN_SAFE = frozenset({"__read", "__write", "cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls",
                         "nl", "paste", "pwd", "rev", "seq", "stat", "tail", "tr", "true", "uname", "uniq", "wc",
                         "which", "whoami", "numfmt", "tac", "base64", "find", "rg", "sed", "bash", "zsh", "sh"})
_GIT_READ = frozenset({"status", "log", "diff", "show", "branch"})


def may_be_known_safe(command: str) -> bool:
    """Could Gemini's heuristic allow ``command`` with no rule? (first word, as Gemini parses the whole line)"""
    words = command.split()
    if not words:
        return False
    if words[0] == "git":
        return bool(_GIT_READ.intersection(words[1:]))
    return words[0] in _KNOWN_SAFE


def _strip_jsonc(text: str) -> str:
    """``text`` without // and /* */ comments outside strings (Gemini's settings.json allows them)."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _allowed_entries(cwd: str | None) -> list[str]:
    """``tools.allowed`` of the user's and the project's settings.json (unreadable → none)."""
    paths = [os.path.join(os.path.expanduser("~"), ".gemini", "settings.json")]
    if cwd:
        paths.append(os.path.join(cwd, ".gemini", "settings.json"))
    entries: list[str] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                settings = json.loads(_strip_jsonc(fh.read(1 << 20)))
            allowed = settings.get("tools", {}).get("allowed", [])
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(allowed, list):
            entries += [e for e in allowed if isinstance(e, str)]
    return entries


def _policy_allows(command: str) -> bool:
    """An allow rule for the shell in the user's ``~/.gemini/policies/*.toml`` (not sqz's) matching ``command``."""
    import re
    import tomllib

    folder = os.path.join(os.path.expanduser("~"), ".gemini", "policies")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml") and n != "sqz.toml")
    except OSError:
        return False
    encoded = json.dumps(command, ensure_ascii=False)[1:-1]
    for name in names:
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                rules = tomllib.load(fh).get("rule", [])
        except (OSError, ValueError):
            continue
        for rule in rules if isinstance(rules, list) else []:
            tools = rule.get("toolName") if isinstance(rule, dict) else None
            tools = tools if isinstance(tools, list) else [tools]
            if rule.get("decision") != "allow" or not ({SHELL_TOOL, "*"} & set(tools)) or rule.get("argsPattern") \
                    or rule.get("modes") or rule.get("interactive") is False:
                continue
            prefixes = rule.get("commandPrefix")
            if isinstance(prefixes, str):
                prefixes = [prefixes]
            if isinstance(prefixes, list) and any(isinstance(p, str) and _prefix_match(command, p) for p in prefixes):
                return True
            regex = rule.get("commandRegex")
            if isinstance(regex, str):
                try:
                    if re.match(regex, encoded):
                        return True
                except re.error:
                    continue
            if prefixes is None and regex is None:
                return True  # the whole shell tool
    return False


def _prefix_match(command: str, prefix: str) -> bool:
    """Gemini's commandPrefix test: ``command`` starts with ``prefix`` followed by a blank, a quote or its end."""
    return command == prefix or (command.startswith(prefix) and command[len(prefix)] in " \t\n\"")


def user_allows(command: str, cwd: str | None) -> bool:
    """Does one of the user's own allow rules (settings ``tools.allowed``, policy files) match ``command``?

    An approximation in the safe direction: a rule it cannot read or match counts as absent,
    which only leaves the command unwrapped (Gemini then decides as without sqz).
    """
    for entry in _allowed_entries(cwd):
        name, _, rest = entry.partition("(")
        if name not in (SHELL_TOOL, "ShellTool"):
            continue
        if not rest:
            return True
        if rest.endswith(")") and _prefix_match(command, rest[:-1]):
            return True
    try:
        return _policy_allows(command)
    except Exception:
        return False


def _js_regex(text: str) -> str:
    """``text`` as inside a JSON string (Gemini matches rules on JSON.stringify'd args), escaped for a JS regex."""
    encoded = json.dumps(text, ensure_ascii=False)[1:-1]
    return "".join("\\" + c if c in "\\^$.|?*+()[]{}/" else c for c in encoded)


def policy_toml(sqz: str) -> str:
    """The user-tier policy file letting sqz's own parts of a wrapped command pass (see the module doc)."""
    from sqz_core.api import NONCE_ENV, wrap_command

    probe = "f" * 16  # the wrapper's per-call nonce: 16 hex digits, matched as such
    head, tail = wrap_command("\x00BODY\x00", "\x00TAIL\x00", nonce=probe).split("\x00BODY\x00")
    tail = tail.split("\x00TAIL\x00")[0]  # "\n) 2>&1; printf … } | SQZ_EXIT_NONCE=… "
    printf = tail[tail.index("printf"):tail.rindex(";")]

    def rx(text: str) -> str:
        return _js_regex(text).replace(probe, "[0-9a-f]{16}")

    # no "(…)?": Gemini refuses a quantified group as a possible ReDoS, so the optional
    # environment assignments before sqz are spelled out as alternatives
    nonce_env = f"{NONCE_ENV}=[0-9a-f]{{16}} "
    env = f"({nonce_env}SQZ_QUIET=1 |{nonce_env}|SQZ_QUIET=1 |)"
    rules = [
        ("the wrapper as a whole: every part of it is checked again on its own",
         rx(head) + ".*" + rx(tail) + "(SQZ_QUIET=1 |)" + _js_regex(sqz + " compress "), True),
        ("its exit-status trailer, exactly", rx(printf) + '"', False),
        ("sqz compress (a filter: stdin to stdout)", env + _js_regex(sqz + " compress") + '(?: |")', False),
        ("sqz expand (prints an output this session was served)", env + _js_regex(sqz + " expand") + '(?: |")',
         False),
    ]
    if sqz != "sqz":  # hints say a bare `sqz expand` where the sqz on PATH is this one: allow that form too
        rules.append(("sqz expand by name, as hints print it when this sqz is the one on PATH",
                      env + _js_regex("sqz expand") + '(?: |")', False))
    out = ["# Written by `sqz init` (removed by `sqz uninstall`). Gemini CLI checks its policy after sqz's",
           "# BeforeTool hook, on the rewritten command; these rules allow only sqz's own parts of it, so",
           "# your rules decide on your command's parts as before. Priority 295 (4.295) is above the deny",
           "# that a narrowed tools.allowed entry adds (4.29)."]
    for what, regex, redirect in rules:
        out += ["", f"# {what}", "[[rule]]", 'toolName = "run_shell_command"',
                f"commandRegex = {json.dumps(regex)}", 'decision = "allow"', "priority = 295"]
        if redirect:
            out.append("allowRedirection = true")
    return "\n".join(out) + "\n"


def config_paths(home: str | None = None, project: str | None = None) -> dict[str, str]:
    home = home or os.path.expanduser("~")
    paths = {"user": os.path.join(home, ".gemini", "settings.json"),
             "user_policy": os.path.join(home, ".gemini", "policies", "sqz.toml")}
    if project:
        paths["project"] = os.path.join(project, ".gemini", "settings.json")
        paths["project_policy"] = os.path.join(project, ".gemini", "policies", "sqz.toml")
    return paths


def detect(home: str | None = None) -> dict:
    """Gemini CLI is present: ``gemini`` on PATH or a ``~/.gemini`` folder."""
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".gemini"), "gemini")


def fail_open(words: str) -> str:
    """A hook command running ``words`` that never fails: its stdout only if it exited 0.

    Gemini 0.61.0 runs hook commands with bash and blocks the tool ("Tool execution blocked:
    bash: …: No such file or directory") when one fails, so a missing sqz (moved, uninstalled,
    another machine) or a crash prints nothing and exits 0: the call goes on as without sqz.
    """
    return f"out=$({words} 2>/dev/null) && printf '%s' \"$out\"; exit 0"


def actions(ctx: dict) -> list[dict]:
    """BeforeTool (shell rewrite) and PreCompress hooks in settings.json (no AfterTool: see the module doc)."""
    paths = config_paths(ctx["home"], ctx.get("project"))
    scope = "project" if ctx.get("scope") == "project" else "user"
    target, policy = paths[scope], paths[scope + "_policy"]
    sqz = ctx["sqz"]

    pre, compact = f"{sqz} hook gemini-cli", f"{sqz} hook precompact"

    def entry(matcher: str, hook_name: str, command: str) -> dict:
        return {"matcher": matcher, "hooks": [{"name": hook_name, "type": "command", "command": fail_open(command),
                                               "timeout": 10000}]}

    return [
        {"type": "json_array_item", "file": target, "path": ["hooks", "BeforeTool"], "marker": pre,
         "item": entry(SHELL_TOOL, "sqz-rewrite", pre), "what": "BeforeTool hook (rewrites shell commands)"},
        {"type": "json_array_item", "file": target, "path": ["hooks", "PreCompress"], "marker": compact,
         "item": entry("*", "sqz-precompact", compact), "what": "PreCompress hook (forgets refs on compression)"},
        {"type": "owned_file", "file": policy, "content": policy_toml(sqz),
         "what": "policy rules allowing sqz's own parts of a rewritten command"},
    ]
