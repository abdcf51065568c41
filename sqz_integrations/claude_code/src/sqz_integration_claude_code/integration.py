"""Claude Code: Bash output compressed after it ran (PostToolUse), repeated file reads deduplicated, settings.

Contracts (Claude Code hooks reference, https://code.claude.com/docs/en/hooks), checked against the
real CLI (2.1.332, tests/e2e):

* Settings files: user ``~/.claude/settings.json``, project ``.claude/settings.json`` and
  ``.claude/settings.local.json`` (https://code.claude.com/docs/en/settings);
  ``{"hooks": {"PostToolUse": [{"matcher": "Bash|Read", "hooks": [{"type": "command", "command": …}]}]}}``.
* PostToolUse stdin: ``session_id``, ``cwd``, ``hook_event_name``, ``tool_name``, ``tool_input``,
  ``tool_response``, ``tool_use_id``. Bash's ``tool_response`` is
  ``{"stdout", "stderr", "interrupted", "isImage", "noOutputExpected"}`` (stderr arrives merged
  into stdout); Read's is ``{"type": "text", "file": {"filePath", "content", "numLines",
  "startLine", "totalLines"}}``. It fires only when the command exited 0: a failing command
  goes to ``PostToolUseFailure``, which cannot replace the output (the model gets it raw).
  Over 30,000 characters, ``stdout`` holds only the first 30,000 and ``persistedOutputPath`` /
  ``persistedOutputSize`` name the full output saved on disk; the model then gets a
  ``<persisted-output>`` preview unless the replacement leaves those two keys out.
* PostToolUse output: ``hookSpecificOutput.updatedToolOutput`` replaces the result before the
  model sees it; it must be an object of the tool's own shape (a bare string is ignored).
  Honoured for built-in tools since v2.1.121 (``MIN_POST_VERSION``; measured: 2.1.120 ignores it
  for Bash, 2.1.121 applies it).
* PreToolUse, ``sqz hook claude-code --pre``: a command that exits non-zero goes to
  ``PostToolUseFailure``, whose output cannot be replaced, so a failing test run would reach the
  model raw. For test runners, builds, linters and type checkers only (``VERBOSE_ON_FAILURE``), and
  only where the user's own rules already let Claude Code run the ORIGINAL command unprompted
  (``permissions.decide``: every settings scope, deny/ask/allow, the permission mode, claude's own
  arguments; unsure means no), the hook answers ``updatedInput`` (``<sqz> run -- COMMAND``) with
  ``permissionDecision: "allow"``: a hook's allow does not skip Claude Code's own deny and ask rules,
  and the rewritten command would match none of the user's allow rules. Anything else: no answer,
  Claude Code decides exactly as without sqz. Older versions (< 2.1.121) get the previous rewrite
  (``sqz hook claude-code``, ``updatedInput`` without ``permissionDecision``).
* ``PreCompact`` and ``SessionStart`` with matcher ``compact`` carry ``session_id``:
  both run ``sqz hook precompact``.

Never compressed: the output of sqz's own verbs (``sqz expand`` must give the original back),
images, background jobs. Recovery hints say a bare ``sqz`` where a settings file runs sqz's PreToolUse
hook (``_pre_hook_installed``): it names this sqz in a command running a bare ``sqz expand``/``recall``
(``updatedInput``; allowed only as ``_allow_own_expand`` says), so they run with no sqz on PATH; elsewhere
they name sqz by the absolute path the hook runs from.

Hot path: ``hook`` imports only the standard library and ``sqz_agents.rewrite`` (the pipeline
only when there is output to compress).
"""

from __future__ import annotations

import json
import os
import re

name = "claude-code"
tier = "transparent"
DOCS = "https://code.claude.com/docs/en/hooks"
MIN_POST_VERSION = (2, 1, 121)  # PostToolUse updatedToolOutput for built-in tools
_READ_KEYS = {"filePath", "content"}
# the PreToolUse rewrite of an older sqz (``sqz hook claude-code`` with no flag), at any path
OLD_REWRITE = r"""(?:(?<![\w.-])sqz(?:\.exe)?['"]?|-m\s+sqz_core['"]?)\s+hook claude-code(?![\w-])(?!\s+--)"""
MAX_PERSISTED = 8 * 1024 * 1024  # larger saved outputs keep Claude Code's own preview


# -- the hook ------------------------------------------------------------------------------
def hook(payload: bytes, args: list[str]) -> bytes | None:
    """``sqz hook claude-code [--post]``: the rewrite (PreToolUse) or the dedup (PostToolUse), or None."""
    data = json.loads(payload or b"{}")
    if not isinstance(data, dict):
        return None
    from sqz_agents.api import touch_activity

    touch_activity(name)
    event = data.get("hook_event_name")
    if "--post" in args or event == "PostToolUse":
        if data.get("tool_name") == "Bash":
            return _post_bash(data)
        return _post(data)
    if "--pre" in args:
        return _pre_bash(data) if event in (None, "PreToolUse") and data.get("tool_name") == "Bash" else None
    if event not in (None, "PreToolUse") or data.get("tool_name") != "Bash":
        return None
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict) or tool_input.get("run_in_background"):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str):
        return None
    from sqz_agents.api import resolve_bare_sqz, rewrite_command

    new = resolve_bare_sqz(command) or rewrite_command(command, session=data.get("session_id"), agent="claude-code")
    if new is None:
        return None
    updated = dict(tool_input)
    updated["command"] = new
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": updated}},
                      ensure_ascii=False).encode("utf-8")


# -- failing runs: PreToolUse, for the commands whose failures are long ---------------------------
# A command that exits non-zero goes to PostToolUseFailure, whose output cannot be replaced; these
# programs print the longest failure reports an agent reads (again and again): they alone run through
# ``sqz run`` from the PreToolUse hook, and only where the user's own rules already allow them
# (``permissions.decide``). Subcommands: None = any; else the first positional word must be one of them.
VERBOSE_ON_FAILURE: dict[str, frozenset | None] = {
    # test runners
    "pytest": None, "py.test": None, "unittest": None, "tox": None, "nox": None, "jest": None,
    "vitest": frozenset(("run",)), "ctest": None,
    # type checkers, linters, compilers
    "mypy": None, "tsc": None, "eslint": None, "ruff": frozenset(("check",)), "flake8": None, "pylint": None,
    "gcc": None, "g++": None, "clang": None, "clang++": None, "rustc": None,
    # builds
    "make": None, "mvn": None, "mvnw": None, "gradle": None, "gradlew": None,
    "cargo": frozenset(("test", "build", "check", "clippy", "nextest")),
    "go": frozenset(("test", "build", "vet")),
    "dotnet": frozenset(("test", "build")),
    "npm": frozenset(("test", "t", "ci", "install", "i")),
    "pnpm": frozenset(("test", "install", "i")),
    "yarn": frozenset(("test", "install")),
}
_SCRIPTS = ("test", "build", "lint", "typecheck", "check")  # ``npm run test:unit``, ``pnpm run build``


def verbose_on_failure(words: list[str]) -> bool:
    """Whether the simple command ``words`` runs a program of ``VERBOSE_ON_FAILURE`` (after wrappers)."""
    from sqz_core.api import program_of

    prog, rest = program_of(words)
    if prog is None:
        return False
    prog = os.path.basename(prog)
    if prog not in VERBOSE_ON_FAILURE:
        return False
    subs = VERBOSE_ON_FAILURE[prog]
    positional = [a for a in rest if not a.startswith("-")]
    if subs is None:
        return True
    sub = positional[0] if positional else None
    if prog in ("npm", "pnpm", "yarn") and sub == "run" and len(positional) > 1:
        return positional[1].split(":", 1)[0] in _SCRIPTS
    return sub in subs


def _project_folders(cwd: str | None) -> list[str]:
    """The project folder first (``CLAUDE_PROJECT_DIR``, else the command's folder), then the command's
    folder and its git root: local rules of Claude Code 2.1.211+ live at the repository root."""
    folders = []
    for d in (os.environ.get("CLAUDE_PROJECT_DIR"), cwd):
        if isinstance(d, str) and os.path.isdir(d):
            folders.append(d)
    d = folders[-1] if folders else None
    while d:
        if os.path.exists(os.path.join(d, ".git")):
            folders.append(d)
            break
        parent = os.path.dirname(d)
        d = None if parent == d else parent
    return folders


def _pre_bash(data: dict) -> bytes | None:
    """``sqz run -- COMMAND`` with ``permissionDecision: allow`` for a verbose-on-failure command that the
    user's rules already allow unprompted; None (Claude Code decides as without sqz) for anything else."""
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict) or tool_input.get("run_in_background"):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip() or "\n" in command.strip():
        return None
    from sqz_agents.api import is_own_expand, resolve_bare_sqz

    resolved = resolve_bare_sqz(command)  # a hint's bare ``sqz`` where no sqz of this install is on PATH
    if is_own_expand(command.strip()):
        return _allow_own_expand(data, command.strip(), resolved)
    if resolved is not None:  # e.g. ``sqz expand ID | grep x``: named, and Claude Code decides on it as usual
        return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                  "updatedInput": dict(tool_input, command=resolved)}},
                          ensure_ascii=False).encode("utf-8")
    from sqz_core.api import shell_words, simple_commands

    try:
        commands = simple_commands(shell_words(command))
    except Exception:
        return None
    if len(commands) != 1 or not verbose_on_failure(commands[0]) or _runs_sqz(command):
        return None
    from sqz_agents.api import judge

    if not judge(command).wrap:  # servers, watchers, interactive programs: never wrapped
        return None
    from . import permissions

    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    folders = _project_folders(cwd)
    if not folders:
        return None
    rules = permissions.gather(os.path.expanduser("~"), folders)
    decision = permissions.decide(command, data.get("permission_mode"), rules, permissions.claude_args())
    if not decision.allowed:
        return None
    from sqz_core.api import sqz_executable

    updated = dict(tool_input)
    updated["command"] = f"{sqz_executable()} run -- {command.strip()}"
    out = {"hookEventName": "PreToolUse", "updatedInput": updated}
    if data.get("permission_mode") != "bypassPermissions":
        out["permissionDecision"] = "allow"
        out["permissionDecisionReason"] = f"sqz compresses its output; {decision.reason}"
    return json.dumps({"hookSpecificOutput": out}, ensure_ascii=False).encode("utf-8")


def _allow_own_expand(data: dict, command: str, resolved: str | None = None) -> bytes | None:
    """``<sqz> expand REF`` as a hint names it: allowed without a rule (it prints what this user's store
    holds), unless a deny or ask rule may match it, the mode is not one that runs commands, or claude
    was given rules of its own; then Claude Code decides as without sqz. A bare ``sqz`` that is not this
    install's (``resolved``: the command naming this sqz) runs as ``resolved``, allowed or not."""
    from . import permissions

    out: dict = {"hookEventName": "PreToolUse"}
    if resolved is not None:
        out["updatedInput"] = dict(data["tool_input"], command=resolved)
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    folders = _project_folders(cwd)
    rules = permissions.gather(os.path.expanduser("~"), folders) if folders else None
    decision = permissions.decide(command, data.get("permission_mode"), rules, permissions.claude_args(),
                                  read_only="sqz expand prints an output sqz shortened or referred to") if rules else None
    if decision is not None and decision.allowed and data.get("permission_mode") != "bypassPermissions":
        out.update(permissionDecision="allow", permissionDecisionReason=decision.reason)
    if len(out) == 1:
        return None
    return json.dumps({"hookSpecificOutput": out}, ensure_ascii=False).encode("utf-8")


def _seen_in_full(content: str, session, command: str) -> bool:
    """False when this session was served ``content`` only in a shortened form (a Bash output that a
    formatter summarised): this read then goes through whole, and is recorded as served whole, so
    a ref never says "unchanged" about bytes the model has not seen."""
    if not session or not content:
        return True
    try:
        from sqz_core.api import sketch
        from sqz_core.api import digest_of
        from sqz_core.api import open_store

        raw = content.encode("utf-8")
        digest = digest_of(raw)
        store = open_store()
        try:
            when = store.last_served(str(session), digest)
            if when is None:
                return True  # never served: no ref can come of it
            rows = store.recent_files(str(session), when - 1, limit=1000)
            if any(h == digest and out is None for h, out in rows):
                return True
            store.put_blob(digest, raw, command)
            store.mark_served(str(session), digest, output_hash=None, is_file=True)
            store.add_sketch(str(session), digest, sketch(raw))
        finally:
            store.close()
        return False
    except Exception:
        return False  # unsure: the read goes through whole


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
    if not _seen_in_full(file["content"], data.get("session_id"), f"Read {file.get('filePath')}"):
        return None
    from sqz_agents.api import post_dedup

    new = post_dedup(file["content"], tool="Read", session=data.get("session_id"),
                     command=f"Read {file.get('filePath')}")
    if new is None:
        return None
    new = _hints(new, data.get("cwd"))
    from sqz_agents.api import worth_replacing

    if not worth_replacing(file["content"], new):  # the absolute path may cost more than the ref saves
        return None
    out = dict(resp)
    out["file"] = dict(file, content=new)
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": out}},
                      ensure_ascii=False).encode("utf-8")


_SQZ_WORD = re.compile(r"(^|[\s/'\"|;&(`])sqz(_core)?(\.exe)?(\s|$)")
_BARE_EXPAND = re.compile(r"(?<![\w/.-])sqz expand\b")


def _runs_sqz(command: str) -> bool:
    """Whether ``command`` runs sqz itself (``sqz expand``, a wrapped command…): its output is sqz's own."""
    from sqz_core.api import EXIT_MARKER, SQZ_PROGRAMS, lex, program_of, simple_commands

    if EXIT_MARKER.decode() in command:
        return True
    try:
        words_list = simple_commands(lex(command)[0])
    except Exception:
        return bool(_SQZ_WORD.search(command))  # cannot parse: be safe
    return any(program_of(words)[0] in SQZ_PROGRAMS for words in words_list)


def _pre_hook_installed(cwd) -> bool:
    """Whether a settings file Claude Code reads here (managed, user, project, local) runs sqz's PreToolUse
    hook on Bash (``--pre``, or an older sqz's rewrite): it names this sqz in a hint's bare ``sqz expand``."""
    import glob

    from . import permissions

    files = [os.path.join(os.path.expanduser("~"), ".claude", "settings.json")]
    for folder in _project_folders(cwd if isinstance(cwd, str) else None):
        files += [os.path.join(folder, ".claude", "settings.json"), os.path.join(folder, ".claude", "settings.local.json")]
    for d in permissions.MANAGED_DIRS:
        files += [os.path.join(d, "managed-settings.json"),
                  *sorted(glob.glob(os.path.join(glob.escape(d), "managed-settings.d", "*.json")))]
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                groups = json.load(f).get("hooks", {}).get("PreToolUse") or []
            for group in groups:
                matcher = group.get("matcher") or "*"
                if matcher != "*" and not re.fullmatch(matcher, "Bash"):
                    continue
                if any(isinstance(h.get("command"), str) and re.search(r" hook claude-code(?! --post)", h["command"])
                       for h in group.get("hooks") or ()):
                    return True
        except (OSError, ValueError, AttributeError, TypeError, re.error):
            continue
    return False


def _hints(text: str, cwd) -> str:
    """sqz's hints as the agent's shell can run them: a bare ``sqz`` where sqz's PreToolUse hook resolves it
    (``_pre_hook_installed``), else the path the hook runs from (``_absolute_hints``)."""
    from sqz_agents.api import short_hints
    from sqz_core.api import expand_hint

    if expand_hint() in text and _pre_hook_installed(cwd):
        return short_hints(text)
    return _absolute_hints(text)


def _absolute_hints(text: str) -> str:
    """sqz's own lines (``§ref:ID§ … (`sqz expand` this ref …)``, ``[sqz: …]``, the recovery line
    ``[sqz expand ID]``) name sqz by the path the hook runs from.

    The agent's shell may not have sqz on PATH (venv or bootstrap installs), so a bare
    ``sqz expand`` would fail there with 127.
    """
    from sqz_core.api import sqz_executable
    from sqz_core.api import RECOVERY_LINE

    sqz = sqz_executable()
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(("§ref:", "§delta:", "[sqz:")) or RECOVERY_LINE.match(line):
            lines[i] = _BARE_EXPAND.sub(lambda m: f"{sqz} expand", line)
    return "\n".join(lines)


def _read_persisted(path) -> bytes | None:
    """The full output Claude Code saved for a large result (``persistedOutputPath``), or None."""
    if not isinstance(path, str) or not os.path.isabs(path):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PERSISTED + 1)
    except OSError:
        return None
    return data if 0 < len(data) <= MAX_PERSISTED else None


def _post_bash(data: dict) -> bytes | None:
    """Compress a Bash result's stdout in place (same shape); the command and its status are untouched."""
    tool_input = data.get("tool_input")
    resp = data.get("tool_response")
    if not isinstance(tool_input, dict) or not isinstance(resp, dict):
        return None
    command, stdout = tool_input.get("command"), resp.get("stdout")
    if not isinstance(command, str) or not isinstance(stdout, str) or not stdout.strip():
        return None
    if tool_input.get("run_in_background") or resp.get("isImage") or resp.get("backgroundTaskId"):
        return None
    if _runs_sqz(command):
        return None
    source = stdout.encode("utf-8", "surrogateescape")
    persisted = resp.get("persistedOutputPath")
    if persisted is not None:  # too large: Claude Code sends a preview and the path of the full output
        source = _read_persisted(persisted)
        if source is None:
            return None
    from sqz_core.api import compress_bytes

    opts = {"command": command.strip().split("\n", 1)[0][:500], "tool": None, "mode": "auto",
            "session": str(data["session_id"]) if data.get("session_id") else None, "no_cache": False,
            "no_abbrev": False, "agent": name}
    cwd = data.get("cwd")
    here = None
    if isinstance(cwd, str) and os.path.isdir(cwd):  # relative paths in the output are the command's
        here = os.getcwd()
        os.chdir(cwd)
    try:
        result = compress_bytes(source, opts)
    finally:
        if here is not None:
            os.chdir(here)
    try:
        new = _hints(result.output.decode("utf-8"), cwd)
    except UnicodeDecodeError:
        return None
    from sqz_agents.api import claude_preview, worth_replacing

    # what the model reads without sqz: the output, or for a persisted one Claude Code's 2 KB preview
    shown = stdout if persisted is None else claude_preview(stdout, persisted, resp.get("persistedOutputSize"))
    if not worth_replacing(shown, new):  # in cl100k tokens, hints with their absolute path included
        return None
    out = {k: v for k, v in resp.items() if not k.startswith("persistedOutput")}  # else the preview is shown
    out["stdout"] = new
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
    from sqz_agents.api import detect_agent

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
    # bounded parts starting a digit run: linear on any output (``\d+`` from every offset of a long
    # digit run is quadratic; tests/test_regex_linearity.py)
    m = re.search(r"(?<!\d)(\d{1,9})\.(\d{1,9})\.(\d{1,9})", out)
    return tuple(int(x) for x in m.groups()) if m else None


def actions(ctx: dict) -> list[dict]:
    """What ``sqz init`` writes: hooks in the settings file of the chosen scope.

    ``ctx``: ``home``, ``project`` (for ``--project``), ``scope``, ``sqz`` (quoted words
    running sqz). When the installed Claude Code honours ``updatedToolOutput`` for built-in
    tools (or its version cannot be read: current releases do), one PostToolUse hook
    compresses Bash output and dedups Read; the command is never rewritten. Only an older
    Claude Code gets the PreToolUse rewrite instead.
    """
    paths = config_paths(ctx["home"], ctx.get("project"))
    target = paths["local"] if ctx.get("scope") == "project" else paths["user"]
    sqz = ctx["sqz"]

    def entry(matcher: str | None, command: str) -> dict:
        item = {"hooks": [{"type": "command", "command": command, "timeout": 10}]}
        if matcher is not None:
            item = {"matcher": matcher, **item}
        return item

    version = ctx.get("versions", {}).get(name, "probe")
    if version == "probe":
        version = _version(detect(ctx["home"]).get("command"))
    if version is None or version >= MIN_POST_VERSION:
        post, pre = f"{sqz} hook claude-code --post", f"{sqz} hook claude-code --pre"
        # the PreToolUse rewrite an older sqz installed broke permission rules: it goes (not ``--pre``)
        out = [{"type": "json_array_remove", "file": target, "path": ["hooks", "PreToolUse"],
                "marker": "hook claude-code", "stale": OLD_REWRITE,
                "what": "PreToolUse rewrite of an older sqz (removed)"},
               {"type": "json_array_item", "file": target, "path": ["hooks", "PostToolUse"],
                "item": entry("Bash|Read", post), "marker": post,
                "what": "PostToolUse hook (compresses Bash output, dedups repeated file reads)"},
               {"type": "json_array_item", "file": target, "path": ["hooks", "PreToolUse"],
                "item": entry("Bash", pre), "marker": pre,
                "what": "PreToolUse hook (test runs, builds and linters your rules already allow run through "
                        "`sqz run`, so their failures reach Claude compressed)"}]
    else:
        pre = f"{sqz} hook claude-code"
        out = [{"type": "json_array_item", "file": target, "path": ["hooks", "PreToolUse"],
                "item": entry("Bash", pre), "marker": pre,
                "what": "PreToolUse hook (rewrites Bash commands; Claude Code older than 2.1.121)"}]
    out += [
        {"type": "json_array_item", "file": target, "path": ["hooks", "PreCompact"],
         "item": entry(None, f"{sqz} hook precompact"), "marker": f"{sqz} hook precompact",
         "what": "PreCompact hook (forgets refs on compaction)"},
        {"type": "json_array_item", "file": target, "path": ["hooks", "SessionStart"],
         "item": entry("compact", f"{sqz} hook precompact"), "marker": f"{sqz} hook precompact",
         "what": "SessionStart[compact] hook (forgets refs after compaction)"},
    ]
    return out
