"""What a tool call was: a shell command (its formatter is chosen by the command), a file read
(content that is never summarised), or another tool (compressed by its name)."""

from __future__ import annotations

import shlex

# agents' shell tools: Claude Code Bash, Codex shell/exec_command/shell_command/local_shell, Gemini CLI
# run_shell_command, Copilot CLI bash, OpenCode bash, Cursor run_terminal_cmd, Cline execute_command
SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "shell_command", "local_shell", "run_shell_command",
                         "run_terminal_cmd", "execute_command", "terminal", "powershell", "zsh", "sh"})
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "/bin/bash", "/bin/sh", "/bin/zsh",
                     "/usr/bin/bash", "/usr/bin/zsh", "powershell", "pwsh"})
_COMMAND_KEYS = ("command", "cmd", "script")
_PATH_KEYS = ("file_path", "filePath", "absolute_path", "path", "file", "filename", "target_file")


def _script(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(w, str) for w in value):
        if len(value) >= 3 and value[0] in _SHELLS and value[1] in ("-c", "-lc", "-ic", "-lic", "-Command"):
            return value[2]
        return shlex.join(value)
    return None


def command_of(name: str | None, args) -> str | None:
    """The command line a shell tool ran, or None for any other tool."""
    if not name or not isinstance(args, dict):
        return None
    low = name.lower()
    if low not in SHELL_TOOLS and "shell" not in low and "bash" not in low:
        return None
    for key in _COMMAND_KEYS:
        found = _script(args.get(key))
        if found:
            return found
    return None


def path_of(args) -> str | None:
    """The file a file tool read, when its input names one."""
    if isinstance(args, dict):
        for key in _PATH_KEYS:
            if isinstance(args.get(key), str) and args[key]:
                return args[key]
    return None
