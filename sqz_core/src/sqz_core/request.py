"""The plain data a plugin receives: one tool output and what produced it.

Kept free of ``dataclasses`` and ``typing`` on purpose: this module is on the hot
path of every ``sqz compress`` call (``import dataclasses`` alone costs ~15 ms).
"""

from __future__ import annotations

from .lazyre import lazy

# Words that wrap the real program: ``sudo git status`` is a git command.
_WRAPPERS = frozenset({"sudo", "env", "command", "nice", "nohup", "time", "exec", "doas", "stdbuf"})
# Launchers whose next word (or ``-m`` module) names the real tool.
_LAUNCHERS = frozenset({"npx", "pnpx", "bunx", "uvx", "pipx"})
_RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "pipenv", "rye"})  # `uv run pytest`
_PY = lazy(r"^python(\d+(\.\d+)?)?$")
_ENV_ASSIGN = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
# ``cd DIR && …`` (agents prefix most commands with it), ``source venv/bin/activate && …``, ``export K=V; …``:
# set-up steps that print nothing; the output is the next command's.
_SETUP_PREFIX = lazy(
    r"""^(?:\s*(?:(?:cd|pushd|source|\.)\s+(?:'[^']*'|"[^"$`\\]*"|[^\s;&|<>()'"`$]+)"""
    r"""|export\s+[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"$`\\]*"|[^\s;&|<>()'"`$]*))\s*(?:&&|;))+\s*""")
_ESCAPED = lazy(r"\\(.)")
_SPLIT = lazy(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s"'\\]|\\.)+))""")

# Tool names (MCP and agents' built-in tools) whose results are file content or
# patches: never summarised, only deduplicated.
FILE_TOOLS = frozenset({
    "read", "read_file", "read_text_file", "read_multiple_files", "get_file_contents", "view", "cat",
    "write", "write_file", "edit", "edit_file", "str_replace", "multiedit", "sqz_read_file", "notebookread",
    "patch", "diff", "apply_patch", "git_diff", "git_diff_staged", "git_diff_unstaged", "git_show",
})
# Shell programs whose output is file content.
FILE_PROGRAMS = frozenset({"cat", "head", "tail", "sed", "bat", "batcat", "nl", "less", "more", "tac"})


def split_words(cmdline: str) -> list[str]:
    """Split a shell command line into words, roughly as a POSIX shell would.

    Only the first simple command matters here (``a && b`` is judged by ``a``), after leading
    set-up steps that print nothing (``cd DIR &&``, ``source ENV;``, ``export K=V &&``); an
    unparseable line gives what could be read, never an exception.
    """
    words: list[str] = []
    m = _SETUP_PREFIX.match(cmdline)
    pos, n = (m.end() if m and m.end() < len(cmdline) else 0), len(cmdline)
    while pos < n:
        m = _SPLIT.match(cmdline, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        word = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
        if word is None:
            break
        if m.group(3) is not None and word in {"&&", "||", ";", "|", "&"}:
            break
        if m.group(3) is not None:
            for sep in ("&&", "||", ";", "|"):
                if sep in word:
                    head = word.split(sep, 1)[0]
                    if head:
                        words.append(head.replace("\\", ""))
                    return words
            word = _ESCAPED.sub(r"\1", word)
        words.append(word)
    return words


def normalize_argv(words: list[str]) -> tuple[str, ...]:
    """Strip env assignments, wrappers and launchers: ``sudo -E python3 -m pytest -x`` → ``pytest -x``."""
    i = 0
    out = list(words)
    while i < len(out):
        w = out[i]
        base = w.rsplit("/", 1)[-1]
        if _ENV_ASSIGN.match(w):
            i += 1
        elif base in _WRAPPERS or base in _LAUNCHERS:
            i += 1
            while i < len(out) and out[i].startswith("-"):
                i += 1
        elif base in _RUNNERS and i + 1 < len(out) and out[i + 1] in ("run", "exec"):
            i += 2
        elif _PY.match(base) and i + 2 < len(out) and out[i + 1] == "-m":
            rest = out[i + 2:]
            return (rest[0],) + tuple(rest[1:]) if rest else ()
        else:
            break
    rest = out[i:]
    if not rest:
        return ()
    return (rest[0].rsplit("/", 1)[-1],) + tuple(rest[1:])


class FormatRequest:
    """One tool output on its way to the model.

    Attributes (all read-only by convention):
      text       the output, decoded UTF-8, with ANSI/control sequences and
                 carriage-return redraws already resolved;
      command    the full command line that produced it, or None;
      argv       the command's words after wrappers are stripped
                 (``("git", "status", "-sb")``), or ``()``;
      program    ``argv[0]`` (``"git"``, ``"pytest"``, ``"gradlew"``) or None;
      tool       the agent/MCP tool name for non-shell results (``"read_file"``), or None;
      exit_code  the wrapped command's exit status when known, else None;
      mode       ``"default"`` or ``"aggressive"``;
      kind       the content kind ``sqz_detect`` settled on, or None;
      safe       the core's safety verdict on ``text`` when it has one: True (safe content: a stack
                 trace, DDL, a key — a summary would not be stored), False (classified, nothing
                 sensitive: the protected spans are placeholders here), None (not known: classify it).
    """

    __slots__ = ("text", "command", "argv", "program", "tool", "exit_code", "mode", "kind", "safe", "_log_read")

    def __init__(self, text: str, command: str | None = None, *, argv: tuple[str, ...] | None = None,
                 tool: str | None = None, exit_code: int | None = None, mode: str = "default",
                 kind: str | None = None) -> None:
        self.text = text
        self.command = command
        if argv is None:
            argv = normalize_argv(split_words(command)) if command else ()
        self.argv = argv
        self.program = argv[0] if argv else None
        self.tool = tool
        self.exit_code = exit_code
        self.mode = mode
        self.kind = kind
        self.safe: bool | None = None
        self._log_read: tuple[str, bool] | None = None  # (text, verdict) of the last ``logread.reads_log`` call

    @property
    def lines(self) -> list[str]:
        """``text`` split into lines without their line endings."""
        return self.text.splitlines()

    def subcommand(self, skip_options: bool = True) -> str | None:
        """The first word after the program that is not an option (``git -C x status`` → ``status``)."""
        args = self.argv[1:]
        i = 0
        while i < len(args):
            a = args[i]
            if skip_options and a.startswith("-"):
                # options that take a separate value in common CLIs (git -C dir, -c k=v)
                if a in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") and i + 1 < len(args):
                    i += 2
                    continue
                i += 1
                continue
            return a
        return None

    def is_file_content(self) -> bool:
        """True when the output is file content or a patch: never summarised, only deduplicated.

        A file read that printed a log (a log by name, or log-shaped text under a name that says
        nothing: ``logread``) is not: it gets the log handling ``journalctl`` output gets."""
        if self.tool is not None:
            return self.tool.lower() in FILE_TOOLS
        if self.program not in FILE_PROGRAMS:
            return False
        cached = self._log_read
        if cached is None or cached[0] is not self.text:
            from .logread import reads_log

            cached = self._log_read = (self.text, reads_log(self.argv, self.text))
        return not cached[1]

    def replace(self, **changes: object) -> FormatRequest:
        """A copy with some attributes changed."""
        new = FormatRequest.__new__(FormatRequest)
        for name in self.__slots__:
            setattr(new, name, changes.get(name, getattr(self, name)))
        if "argv" in changes or "command" in changes or "tool" in changes:
            new._log_read = None
        if "argv" in changes:
            new.program = new.argv[0] if new.argv else None
        return new

    def __repr__(self) -> str:
        return (f"FormatRequest(program={self.program!r}, argv={self.argv!r}, tool={self.tool!r}, "
                f"exit_code={self.exit_code!r}, kind={self.kind!r}, {len(self.text)} chars)")
