"""Shell-command rewriting for agent hooks: decide whether to wrap a command, and how.

A hook turns ``CMD`` into ``{ ( CMD\\n) 2>&1; printf …; } | sqz compress --cmd … --session …``
(``sqz_core.api.wrap_command``), so the final output of the whole command is
compressed while every pipe inside it still sees raw text, and the exit status travels
in the trailer. Anything this module is not sure about is left alone (``None``):
interactive and long-running programs, commands already wrapped, commands that change
the shell's own state (``cd``, ``export`` … except a leading ``cd DIR &&``, kept outside
the wrapper), backgrounded commands (``cmd &``, ``(cmd &)``), sqz's own verbs (a wrapped
``sqz expand`` would come back as the same ref), commands over ``MAX_COMMAND`` characters
and anything the tokenizer cannot parse.

Runs on the hot path of every agent shell call: standard library only (``os``, ``re``,
``shlex`` for quoting), and at module level only the core's shell lexer (``sqz_core.shell``,
through ``sqz_core.api``) and exit marker.
"""

from __future__ import annotations

import os
import re
import shlex

from sqz_core.api import EXIT_MARKER as MARKER
from sqz_core.api import MAX_SHELL_COMMAND as MAX_COMMAND
from sqz_core.api import SQZ_PROGRAMS as _SQZ_PROGRAMS
from sqz_core.api import ShellOp as _Op
from sqz_core.api import lex as _lex
from sqz_core.api import program_of as _program
from sqz_core.api import runs_sqz, simple_commands, sqz_executable, wrap_command

# Programs that take over the terminal, wait for input, or never end on their own.
INTERACTIVE = frozenset({
    "vi", "vim", "nvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "helix", "hx", "ed",
    "less", "more", "most", "man", "info", "pager", "top", "htop", "btop", "atop", "iotop", "nmon",
    "watch", "ssh", "mosh", "telnet", "ftp", "sftp", "tmux", "screen", "byobu", "zellij",
    "fzf", "sk", "tig", "lazygit", "ranger", "nnn", "mc", "ncdu", "vifm", "k9s",
    "sudo", "su", "doas", "passwd", "login", "script", "expect", "dialog", "whiptail",
    "nohup", "disown", "setsid", "exec", "xdg-open", "open",
    "bash", "sh", "zsh", "fish", "dash", "ksh", "csh", "tcsh",
    "ipython", "bpython", "ptpython", "irb", "pry", "ghci", "iex", "erl", "lua", "R", "julia", "scala",
    "psql", "mysql", "mariadb", "sqlite3", "redis-cli", "mongo", "mongosh", "cqlsh", "clickhouse-client",
    "gdb", "lldb", "pdb", "dlv", "jdb", "nc", "ncat", "socat", "minicom", "picocom", "cu",
    "nodemon", "entr", "live-server", "http-server", "serve", "webpack-dev-server",
    "ptw", "pytest-watch", "pytest-watcher", "http.server", "SimpleHTTPServer",
    "uvicorn", "gunicorn", "hypercorn", "daphne", "flask", "streamlit", "jupyter", "ngrok",
    "tail", "journalctl", "dmesg", "tcpdump", "tshark", "strace", "ltrace", "yes", "sleep",
})
# Programs interactive or endless only without arguments (REPLs) or with certain flags.
REPL_WITHOUT_ARGS = frozenset({"python", "python3", "python2", "node", "deno", "bun", "php", "ruby",
                               "perl", "guile", "racket", "clojure", "sbcl", "ocaml", "swipl", "octave"})
FOLLOW_FLAGS = frozenset({"-f", "-F", "--follow", "--follow=name", "--follow=descriptor", "-w", "--watch",
                          "--watchAll", "--watch-all", "--serve", "-it", "-ti", "--interactive", "--tty"})
# Shell built-ins whose effect must persist in the agent's shell: a subshell would lose it.
STATEFUL = frozenset({"cd", "pushd", "popd", "export", "unset", "source", ".", "alias", "unalias",
                      "set", "shopt", "ulimit", "umask", "declare", "typeset", "readonly", "local",
                      "eval", "exit", "logout", "trap", "hash", "builtin", "read", "wait", "fg", "bg",
                      "jobs", "history", "conda", "nvm", "pyenv", "rbenv", "workon", "deactivate"})
# Subcommands that start servers, watchers or editors.
_LONG_SUBCOMMANDS = {
    "npm": {"start", "dev", "serve", "watch"}, "pnpm": {"start", "dev", "serve", "watch"},
    "yarn": {"start", "dev", "serve", "watch"}, "bun": {"dev", "start"},
    "next": {"dev", "start"}, "nuxt": {"dev"}, "astro": {"dev"}, "remix": {"dev"}, "ng": {"serve"},
    "rails": {"s", "server", "c", "console"}, "django-admin": {"runserver", "shell", "dbshell"},
    "hugo": {"server", "serve"}, "jekyll": {"serve", "s"}, "mkdocs": {"serve"}, "gatsby": {"develop"},
    "docker": {"attach", "exec", "run", "logs"}, "podman": {"attach", "exec", "run", "logs"},
    "kubectl": {"attach", "exec", "port-forward", "proxy", "edit", "logs"},
    "cargo": {"watch", "run"}, "go": {"run"}, "dotnet": {"watch", "run"}, "mvn": {"spring-boot:run"},
    "gradle": {"bootRun", "run", "--continuous", "-t"}, "php": {"-S", "artisan"},
    "firebase": {"emulators:start", "serve"}, "wrangler": {"dev"}, "supabase": {"start"},
    "flutter": {"run", "attach"}, "expo": {"start"}, "react-native": {"start"},
}
# Long-running unless one of these words is given (bare ``vite`` is a dev server, bare ``vitest`` watches).
_LONG_UNLESS = {
    "vite": {"build", "optimize", "--version", "-v", "--help", "-h"},
    "vitest": {"run", "--run", "list", "--version", "-v", "--help", "-h"},
}
# Leading positional words that wait for a person (a browser login, an editor, a prompt).
_INTERACTIVE_WORDS = {
    "gh": [("auth", "login"), ("auth", "refresh"), ("codespace", "ssh"), ("cs", "ssh")],
    "npm": [("login",), ("adduser",)], "firebase": [("login",)], "az": [("login",)],
    "gcloud": [("auth", "login"), ("init",)], "aws": [("configure",), ("sso", "login")],
    "manage.py": [("runserver",), ("runserver_plus",), ("shell",), ("shell_plus",), ("dbshell",)],
}
# Stop on their own only with one of these options.
_ENDLESS_UNLESS = {"ping": ("-c", "--count", "-w", "--deadline"), "ping6": ("-c", "--count", "-w", "--deadline")}
# Compose front-ends: ``up``/``watch`` stay attached unless detached.
_COMPOSE = frozenset({"docker-compose", "podman-compose"})
_DETACH = frozenset({"-d", "--detach", "--wait"})
class Verdict:
    """Why a command is (not) rewritten: ``wrap`` True/False and a short reason."""

    __slots__ = ("wrap", "reason", "prefix", "body")

    def __init__(self, wrap: bool, reason: str, prefix: str = "", body: str = "") -> None:
        self.wrap, self.reason, self.prefix, self.body = wrap, reason, prefix, body

    def __repr__(self) -> str:
        return f"Verdict({self.wrap}, {self.reason!r})"


def _background(tokens: list[str]) -> bool:
    """Whether an unquoted ``&`` backgrounds a job (``cmd &``, ``(cmd &)``), not ``&&``, ``>&``, ``&>``, ``|&``."""
    for tok in tokens:
        if not isinstance(tok, _Op) or "&" not in tok:
            continue
        for k, ch in enumerate(tok):
            if ch != "&":
                continue
            prev = tok[k - 1] if k else ""
            nxt = tok[k + 1] if k + 1 < len(tok) else ""
            if prev in ("&", "<", ">", "|") or nxt in ("&", ">"):
                continue
            return True
    return False


def _blocking_reason(words: list[str]) -> str | None:
    """Why this simple command must not be wrapped, or None."""
    prog, args = _program(words)
    if prog is None:
        return None
    if prog in _SQZ_PROGRAMS:
        return "an sqz command (its output is already sqz's own)"
    if prog in STATEFUL:
        return f"{prog} changes the shell's own state"
    if prog in INTERACTIVE:
        if prog == "tail" and not any(a in FOLLOW_FLAGS or a.startswith("-f") for a in args):
            return None
        if prog in ("journalctl", "dmesg") and not any(a in ("-f", "--follow", "-w") for a in args):
            return None
        if prog == "sleep":
            return "sleep waits"
        return f"{prog} is interactive or long-running"
    if prog in REPL_WITHOUT_ARGS:
        positional = [a for a in args if not a.startswith("-")]
        if not args or (not positional and not {"-c", "-e", "-m", "-p", "--eval", "--print", "-r"} & set(args)
                        and "--version" not in args and "-V" not in args):
            return f"{prog} without a script is a REPL"
        if prog in ("python", "python3") and "-i" in args:
            return f"{prog} -i is interactive"
    if any(a in FOLLOW_FLAGS for a in args) or any(a.startswith("--watch") for a in args):
        return f"{prog} runs in follow/watch/interactive mode"
    positional = [a for a in args if not a.startswith("-")]
    sub = positional[0] if positional else None
    unless = _LONG_UNLESS.get(prog)
    if unless is not None and not unless & set(args):
        return f"{prog} {sub or '(no subcommand)'} starts a server or watcher"
    for words_ in _INTERACTIVE_WORDS.get(prog, ()):
        if tuple(positional[:len(words_)]) == words_:
            return f"{prog} {' '.join(words_)} is interactive or long-running"
    stop = _ENDLESS_UNLESS.get(prog)
    if stop is not None and not any(a.startswith(stop) for a in args):
        return f"{prog} runs until stopped"
    if prog == "crontab" and "-e" in args:
        return "crontab -e opens an editor"
    if (prog in _COMPOSE or prog in ("docker", "podman") and sub == "compose") and (
            {"up", "watch"} & set(positional)) and not _DETACH & set(args):
        return f"{prog}{' compose' if prog in ('docker', 'podman') else ''} up stays attached (no -d)"
    if prog == "git":
        if sub in ("rebase", "add", "checkout", "reset", "restore", "stash") and any(
                a in ("-i", "--interactive", "-p", "--patch", "-e", "--edit") for a in args):
            return "git in interactive mode"
        if sub == "commit" and not any(a.startswith(("-m", "-F", "--message", "--file", "--no-edit", "-C"))
                                       or a in ("--dry-run",) for a in args):
            return "git commit without -m opens an editor"
        if sub in ("mergetool", "difftool", "gui", "citool", "bisect") or prog == "gitk":
            return f"git {sub} is interactive"
        if sub in ("log", "diff", "show") and "--no-pager" not in words:
            return None  # a pipe makes git skip its pager
        return None
    long_subs = _LONG_SUBCOMMANDS.get(prog)
    if long_subs and sub in long_subs:
        if prog in ("docker", "podman") and sub == "run":
            if any(a in ("-it", "-ti", "-i", "--interactive", "-t", "--tty") for a in args):
                return f"{prog} run with a terminal"
            return None
        if prog in ("docker", "podman", "kubectl") and sub == "logs":
            return f"{prog} logs -f follows" if any(a in ("-f", "--follow") for a in args) else None
        if prog in ("docker", "podman", "kubectl") and sub in ("exec", "attach"):
            return f"{prog} {sub} with a terminal" if any(
                a in ("-it", "-ti", "-i", "-t", "--stdin", "--tty") for a in args) or sub == "attach" else None
        if prog in ("cargo", "go", "dotnet") and sub == "run":
            return f"{prog} run may start a server"
        return f"{prog} {sub} starts a server or watcher"
    if prog in ("npm", "pnpm", "yarn", "bun") and sub == "run":
        script = next((a for a in args[args.index("run") + 1:] if not a.startswith("-")), None) if "run" in args else None
        if script and re.search(r"(^|:)(dev|start|serve|watch|preview)($|:)", script):
            return f"{prog} run {script} starts a server or watcher"
    if prog in ("make",) and any(a in ("serve", "dev", "watch", "run") for a in args):
        return "make target may start a server"
    return None


def _leading_cd(tokens: list[str], parsed: str) -> tuple[str, str] | None:
    """Split ``cd DIR && REST`` (possibly repeated) into (``cd DIR && ``, ``REST``), textually."""
    m = re.match(r"^(\s*(?:cd|pushd)\s+(?:'[^']*'|\"[^\"$`\\]*\"|[^\s;&|<>()'\"`$]+)\s*&&\s*)+", parsed)
    if not m:
        return None
    return parsed[: m.end()], parsed[m.end():]


def judge(command: str) -> Verdict:
    """Should ``command`` be wrapped? Returns a ``Verdict`` (never raises)."""
    try:
        return _judge(command)
    except Exception as exc:  # anything surprising: leave the command alone
        return Verdict(False, f"not understood ({type(exc).__name__})")


def _judge(command: str) -> Verdict:
    if not isinstance(command, str) or not command.strip():
        return Verdict(False, "empty command")
    if len(command) > MAX_COMMAND:  # before any parsing: the hook's time stays bounded
        return Verdict(False, f"too long ({len(command)} characters)")
    if MARKER.decode() in command or re.search(r"(^|[\s/'\"|;&(])sqz\s+(compress|run|hook)\b", command):
        return Verdict(False, "already wrapped")
    if "\x00" in command:
        return Verdict(False, "NUL byte")
    try:
        tokens, parsed, had_heredoc = _lex(command)
    except ValueError as exc:
        if "heredoc" in str(exc):
            return Verdict(False, "unterminated heredoc")
        return Verdict(False, "cannot parse (unbalanced quotes)")
    if not any(not isinstance(t, _Op) or t != ";" for t in tokens):
        return Verdict(False, "only comments")
    # an unquoted '&' (also inside ``( … &)``) backgrounds a job: its output would escape us
    if _background(tokens):
        return Verdict(False, "backgrounds a job (&)")
    # compound commands run fine in a subshell; a function definition would not outlive it
    if tokens[0] in ("function", "coproc") or re.search(r"(^|[;&|]\s*)[A-Za-z_][\w-]*\s*\(\s*\)\s*\{", parsed):
        return Verdict(False, "defines a shell function or coprocess")
    prefix, body = "", command
    cd = _leading_cd(tokens, parsed) if not had_heredoc else None
    if cd is not None:
        prefix, rest = cd
        body = command[len(prefix):]
        try:
            tokens = _lex(rest)[0]
        except ValueError:
            return Verdict(False, "cannot parse (unbalanced quotes)")
        if not any(not isinstance(t, _Op) or t != ";" for t in tokens):
            return Verdict(False, "only a cd")
    for words in simple_commands(tokens):
        reason = _blocking_reason(words)
        if reason:
            return Verdict(False, reason)
    return Verdict(True, "ok", prefix, body)


def compress_invocation(command: str, session: str | None, sqz: str | None = None, agent: str | None = None) -> str:
    """``SQZ_QUIET=1 <sqz> compress --cmd <first line> [--session ID] [--agent NAME]``, quoted for a POSIX shell."""
    first = command.strip().split("\n", 1)[0].strip()
    if len(first) > 500:
        first = first[:500]
    words = f"SQZ_QUIET=1 {sqz or sqz_executable()} compress --cmd {shlex.quote(first)}"
    if session:
        words += f" --session {shlex.quote(str(session))}"
    if agent:
        words += f" --agent {shlex.quote(agent)}"
    return words


def rewrite_command(command: str, session: str | None = None, sqz: str | None = None,
                    agent: str | None = None) -> str | None:
    """The wrapped command, or None to leave ``command`` unchanged."""
    verdict = judge(command)
    if not verdict.wrap:
        return None
    body = verdict.body.rstrip("\n") if verdict.body.strip() else verdict.body
    return verdict.prefix + wrap_command(body, compress_invocation(body, session, sqz, agent))


def touch_activity(agent: str) -> None:
    """Record that ``agent``'s hook ran (file mtime in the cache dir), for ``sqz doctor``; never raises."""
    try:
        from sqz_core.api import cache_dir

        d = os.path.join(cache_dir(), "activity")
        path = os.path.join(d, re.sub(r"[^A-Za-z0-9_.-]", "_", agent))
        try:
            os.utime(path)
        except FileNotFoundError:
            os.makedirs(d, exist_ok=True)
            with open(path, "a", encoding="utf-8"):
                pass
    except Exception:
        pass


def last_activity(agent: str) -> float | None:
    """When ``agent``'s hook last ran (epoch seconds), or None."""
    try:
        from sqz_core.api import cache_dir

        return os.stat(os.path.join(cache_dir(), "activity", re.sub(r"[^A-Za-z0-9_.-]", "_", agent))).st_mtime
    except (OSError, ImportError):
        return None


def post_dedup(text: str, tool: str, session: str | None, command: str | None = None) -> str | None:
    """Run a built-in tool's result (a file read…) through the pipeline with the session store.

    Returns the replacement text when the pipeline changed it (a ref to content the
    session already holds, a delta…), else None. Any failure → None (result left alone).
    """
    try:
        if not text or not session:
            return None
        from sqz_core.api import compress, open_store

        store = open_store()
        try:
            result = compress(text.encode("utf-8"), tool=tool, session=str(session), store=store, command=command)
        finally:
            store.close()
        out = result.output.decode("utf-8")
        from .hostview import worth_replacing

        if not worth_replacing(text, out):  # fewer cl100k tokens, not fewer characters
            return None
        return out
    except Exception:
        return None
