"""Would Claude Code run this Bash command without a prompt? Answered from the user's own rules.

Claude Code sends a command that exits non-zero to ``PostToolUseFailure``, whose output a hook
cannot replace: a failing test run reaches the model raw. The only way to compress it is to run it
through ``sqz run -- COMMAND`` from a PreToolUse hook. A hook's ``updatedInput`` is then what Claude
Code checks against the rules, and ``Bash(pytest:*)`` no longer matches ``sqz run -- pytest``, so the
hook has to answer ``allow`` itself, and must do so only where Claude Code would have allowed the
ORIGINAL command unprompted. This module decides that, erring on "no" wherever it is unsure.

What it reads (https://code.claude.com/docs/en/permissions, .../settings, .../hooks):

* the rules of every scope: managed (``/etc/claude-code/managed-settings.json`` and its
  ``managed-settings.d/*.json``; macOS ``/Library/Application Support/ClaudeCode/``), user
  (``~/.claude/settings.json``), project (``.claude/settings.json``: its ``allow`` rules only when
  ``~/.claude.json`` records the folder's trust dialog as accepted, as ``claude -p`` does) and local
  (``.claude/settings.local.json``), for the project folder and the command's folder;
* ``permission_mode`` from the hook's input (``default``, ``acceptEdits``, ``dontAsk``,
  ``bypassPermissions``; ``plan``, ``auto`` and any other: never);
* the ``claude`` process's own arguments, since rules given there (``--disallowedTools``,
  ``--settings``) reach no file: if they cannot be read, or name rules, the answer is no.

How it decides: rules are evaluated deny, then ask, then allow (specificity does not matter). A deny
or ask rule that COULD match is enough to say no (any rule whose first word begins a word of the
command, or which starts with a wildcard); an allow rule must match the whole command in a form
whose meaning is certain (``Bash``, ``Bash(*)``, an exact command, ``Bash(prefix:*)``,
``Bash(prefix *)``). ``allowManagedPermissionRulesOnly`` in managed settings limits allow rules to
managed ones. Only a single simple command (no pipes, lists, substitutions, redirections or
assignments) is ever considered.
"""

from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass, field

MANAGED_DIRS = ("/etc/claude-code", "/Library/Application Support/ClaudeCode")
# modes under which an allow rule (or the mode itself) runs a Bash command without a prompt
_RULE_MODES = frozenset(("default", "acceptEdits", "dontAsk"))
_CLI_RULE_FLAGS = ("--disallowedTools", "--disallowed-tools", "--settings", "--permission-prompt-tool")
_SHELL_META = frozenset("|&;<>()$`\\\n*?[]{}~!#")


@dataclass
class Rules:
    """Permission rules gathered from settings files: ``(rule, file)`` pairs per list."""

    allow: list[tuple[str, str]] = field(default_factory=list)
    deny: list[tuple[str, str]] = field(default_factory=list)
    ask: list[tuple[str, str]] = field(default_factory=list)
    managed_only: bool = False
    problems: list[str] = field(default_factory=list)  # unreadable settings: the answer is no


def _load(path: str, rules: Rules, *, allow: bool, managed: bool = False) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        rules.problems.append(f"{path}: {type(exc).__name__}")
        return
    if not isinstance(data, dict):
        rules.problems.append(f"{path}: not an object")
        return
    perms = data.get("permissions") or {}
    if not isinstance(perms, dict):
        rules.problems.append(f"{path}: permissions is not an object")
        return
    if managed and (data.get("allowManagedPermissionRulesOnly") or perms.get("allowManagedPermissionRulesOnly")):
        rules.managed_only = True
    for key in ("allow", "deny", "ask"):
        items = perms.get(key) or []
        if not isinstance(items, list) or not all(isinstance(r, str) for r in items):
            rules.problems.append(f"{path}: permissions.{key} is not a list of strings")
            continue
        if key == "allow" and not allow:
            continue
        getattr(rules, key).extend((r.strip(), path) for r in items)


def _trusted(home: str, folder: str) -> bool:
    """Whether ``~/.claude.json`` records the trust dialog as accepted for ``folder``."""
    try:
        with open(os.path.join(home, ".claude.json"), encoding="utf-8") as f:
            projects = json.load(f).get("projects") or {}
        entry = projects.get(os.path.realpath(folder)) or projects.get(folder) or {}
        return entry.get("hasTrustDialogAccepted") is True
    except (OSError, ValueError, AttributeError):
        return False


def gather(home: str, folders: list[str], managed_dirs=None) -> Rules:
    """Every rule Claude Code may apply for a project opened in ``folders[0]`` (the others: deny/ask only)."""
    rules = Rules()
    for d in MANAGED_DIRS if managed_dirs is None else managed_dirs:
        _load(os.path.join(d, "managed-settings.json"), rules, allow=True, managed=True)
        for path in sorted(glob.glob(os.path.join(glob.escape(d), "managed-settings.d", "*.json"))):
            _load(path, rules, allow=True, managed=True)
    managed_allow = list(rules.allow)
    _load(os.path.join(home, ".claude", "settings.json"), rules, allow=True)
    seen = set()
    for k, folder in enumerate(folders):
        real = os.path.realpath(folder)
        if real in seen:
            continue
        seen.add(real)
        own = k == 0
        _load(os.path.join(folder, ".claude", "settings.json"), rules, allow=own and _trusted(home, folder))
        _load(os.path.join(folder, ".claude", "settings.local.json"), rules, allow=own)
    if rules.managed_only:
        rules.allow = managed_allow
    return rules


def _bash_pattern(rule: str) -> str | None:
    """The specifier of a Bash rule (``""`` for bare ``Bash``), or None for another tool's rule."""
    if rule == "Bash":
        return ""
    if rule.startswith("Bash(") and rule.endswith(")"):
        return rule[5:-1].strip()
    return None


def could_match(pattern: str, words: list[str]) -> bool:
    """Over-approximation: may this deny/ask pattern match a command made of ``words``?"""
    if pattern in ("", "*"):
        return True
    head = pattern.split(None, 1)[0]
    for stop in (":", "*"):
        head = head.split(stop, 1)[0]
    if not head:
        return True  # ``Bash(* install)``, ``Bash(:*)``: could be anything
    return any(w.startswith(head) or os.path.basename(w).startswith(head) for w in words)


def surely_matches(pattern: str, command: str) -> bool:
    """Under-approximation: does this allow pattern certainly match the whole ``command``?"""
    if pattern in ("", "*"):
        return True
    if pattern.endswith(":*"):
        prefix = pattern[:-2].rstrip()
    elif pattern.endswith(" *") and pattern.count("*") == 1:
        prefix = pattern[:-2].rstrip()
    elif "*" not in pattern:
        return command == pattern
    else:
        return False  # other wildcard shapes: not certain enough to grant anything
    return bool(prefix) and "*" not in prefix and (command == prefix or command.startswith(prefix + " "))


@dataclass
class Decision:
    allowed: bool
    reason: str


def decide(command: str, mode: str | None, rules: Rules, cli_args: list[str] | None,
           read_only: str | None = None) -> Decision:
    """Would Claude Code, with these rules and mode, run ``command`` without asking anyone?

    ``read_only``: ``command`` only prints what sqz stored (``sqz expand REF``, the recovery the hints
    name): it needs no allow rule, only that no deny or ask rule may match it (the reason given)."""
    from sqz_core.api import shell_words, simple_commands

    if rules.problems:
        return Decision(False, "unreadable settings: " + "; ".join(rules.problems))
    if cli_args is None:
        return Decision(False, "the claude process's arguments cannot be read")
    flagged = [a for a in cli_args if a.split("=", 1)[0] in _CLI_RULE_FLAGS]
    if flagged:
        return Decision(False, f"rules given on claude's command line ({flagged[0].split('=', 1)[0]})")
    mode = mode or "default"
    if mode not in _RULE_MODES and mode != "bypassPermissions":
        return Decision(False, f"permission mode {mode}")
    text = command.strip()
    if not text or any(c in _SHELL_META for c in text.replace("'", "").replace('"', "")):
        return Decision(False, "not a single plain command")
    try:
        tokens = shell_words(text)
        commands = simple_commands(tokens)
    except Exception:
        return Decision(False, "cannot parse")
    if len(commands) != 1 or not commands[0] or len(commands[0]) != len(tokens):
        return Decision(False, "not a single plain command")  # an assignment, operator or redirection
    words = commands[0]
    for kind in ("deny", "ask"):
        for rule, path in getattr(rules, kind):
            pattern = _bash_pattern(rule)
            if pattern is not None and could_match(pattern, words):
                return Decision(False, f"{kind} rule {rule} ({path}) may match")
    if mode == "bypassPermissions":
        return Decision(True, "bypassPermissions mode")
    if read_only:
        return Decision(True, read_only)
    for rule, path in rules.allow:
        pattern = _bash_pattern(rule)
        if pattern is not None and surely_matches(pattern, text):
            return Decision(True, f"allowed by {rule} ({path})")
    return Decision(False, "no allow rule matches")


def _cmdline(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    return [a.decode("utf-8", "surrogateescape") for a in raw.split(b"\0") if a]


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def claude_args(start: int | None = None, depth: int = 6) -> list[str] | None:
    """The arguments of the ``claude`` process this hook runs under (via ``/proc``), or None if not found."""
    pid = os.getppid() if start is None else start
    for _ in range(depth):
        if not pid or pid <= 1:
            return None
        argv = _cmdline(pid)
        if argv is None:
            return None
        names = [os.path.basename(a) for a in argv[:2]]
        if "claude" in names or any("claude-code" in a for a in argv[:2]):
            return argv[1:]
        pid = _parent(pid)
    return None
