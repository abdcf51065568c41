"""The shell lexer: words, operators and simple commands of a POSIX command line, and sqz's own.

Public through ``sqz_core.api`` (``lex``, ``shell_words``, ``simple_commands``, ``program_of``,
``SQZ_PROGRAMS``, ``runs_sqz``, ``sqz_executable``, ``ShellOp``, ``MAX_SHELL_COMMAND``): what a
hook needs to judge a command line, and what the pipeline needs to pass sqz's own output through.
The rewrite policy built on it (which commands to wrap) is ``sqz_agents``'.

Runs on the hot path of every agent shell call: standard library only (``os``, ``re``, ``shlex``,
``sys``), no ``sqz_core`` import. The lexer is one linear pass; shlex's was quadratic in a word's
length.
"""

from __future__ import annotations

import os
import re
import shlex
import sys

# Runners that start another program: the program after ``npx X``, ``uv run X``, ``python -m X``.
_LAUNCHERS = frozenset({"npx", "bunx", "pnpx"})
_RUNNERS = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pnpm", "yarn"})
_PYTHON = re.compile(r"python[0-9.]*")
# Every sqz verb's output is sqz's own: compressing ``sqz expand`` again would hand back the same ref.
SQZ_PROGRAMS = frozenset({"sqz", "sqz.exe", "sqz_core", "sqz_core.__main__"})
MAX_COMMAND = 64 * 1024  # longer commands are left alone before any parsing (bounded hook time)
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_WRAPPER_WORDS = frozenset({"env", "time", "command", "nice", "ionice", "stdbuf", "timeout", "xargs"})


class Op(str):
    """An operator run (``;``, ``&&``, ``|``, ``>&``, ``&)`` …) as the lexer found it unquoted."""

    __slots__ = ()


_PUNCT = frozenset(";&|()<>")
_BLANK = frozenset(" \t\r")
_REDIR_CHARS = frozenset("<>&")


def lex(text: str) -> tuple[list[str], str, bool]:
    """Words and unquoted operator runs of ``text``, in one linear pass; heredoc bodies skipped.

    Returns (tokens, the text without heredoc bodies, whether a heredoc was seen). A newline
    outside quotes ends a command (an ``Op(";")``); ``#`` at a word's start comments to the end
    of the line. Quotes are removed as a POSIX shell would. Raises ValueError on an unbalanced
    quote or an unterminated heredoc. Only ``<<`` outside quotes starts a heredoc.
    """
    tokens: list[str] = []
    kept: list[str] = []
    word: list[str] = []
    in_word = False  # '' is a word even though it adds no character
    pending: list[tuple[bool, str]] = []  # heredocs whose bodies start after the next newline
    want_delim = 0  # 1: the next word is a heredoc delimiter
    had = False
    seg = 0  # start of the text kept since the last heredoc body
    i, n = 0, len(text)

    def end_word() -> None:
        nonlocal in_word, want_delim
        if in_word:
            w = "".join(word)
            tokens.append(w)
            if want_delim == 2 or w == "-" and want_delim:  # ``<<- EOF``: the delimiter is the next word
                if w == "-":
                    want_delim = 2
                else:
                    pending.append((True, w))
                    want_delim = 0
            elif want_delim:
                pending.append((w.startswith("-"), w[1:] if w.startswith("-") else w))
                want_delim = 0
            word.clear()
            in_word = False

    while i < n:
        c = text[i]
        if c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise ValueError("unbalanced single quote")
            word.append(text[i + 1:j])
            in_word = True
            i = j + 1
        elif c == '"':
            j = i + 1
            while True:
                if j >= n:
                    raise ValueError("unbalanced double quote")
                d = text[j]
                if d == '"':
                    break
                if d == "\\" and j + 1 < n:
                    e = text[j + 1]
                    if e != "\n":
                        word.append(e if e in '$`"\\' else d + e)
                    j += 2
                    continue
                word.append(d)
                j += 1
            in_word = True
            i = j + 1
        elif c == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                word.append(text[i + 1])
                in_word = True
            i += 2
        elif c == "#" and not in_word:
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in _PUNCT:
            end_word()
            j = i
            while j < n and text[j] in _PUNCT:
                j += 1
            run = text[i:j]
            tokens.append(Op(run))
            if "<<" in run and "<<<" not in run:
                want_delim, had = 1, True
            i = j
        elif c == "\n":
            end_word()
            tokens.append(Op(";"))
            i += 1
            if pending:
                kept.append(text[seg:i])
                for strip_tabs, delim in pending:
                    while True:
                        if i >= n:
                            raise ValueError("unterminated heredoc")
                        j = text.find("\n", i)
                        j = n if j < 0 else j
                        line = text[i:j]
                        i = j + 1
                        if (line.lstrip("\t") if strip_tabs else line) == delim:
                            break
                pending.clear()
                seg = min(i, n)
        elif c in _BLANK:
            end_word()
            i += 1
        else:
            word.append(c)
            in_word = True
            i += 1
    end_word()
    if pending or want_delim:
        raise ValueError("unterminated heredoc")
    kept.append(text[seg:])
    return tokens, "".join(kept).rstrip("\n") if had else text, had


def shell_words(line: str) -> list[str]:
    """The words and operators of ``line`` (``lex``'s first item)."""
    return lex(line)[0]


def simple_commands(tokens: list[str]) -> list[list[str]]:
    """Words of each simple command (split on pipes, lists and grouping), env assignments and redirections dropped."""
    out: list[list[str]] = []
    cur: list[str] = []
    skip_next = False
    for k, tok in enumerate(tokens):
        if isinstance(tok, Op):
            if set(tok) <= _REDIR_CHARS and ("<" in tok or ">" in tok) or tok == ">|":
                if cur and cur[-1].isdigit() and k and tokens[k - 1] is cur[-1]:
                    cur.pop()  # the fd of ``2>``
                skip_next = True  # the redirection's target
                continue
            skip_next = False
            if cur:
                out.append(cur)
            cur = []
            continue
        if skip_next:
            skip_next = False
            continue
        cur.append(tok)
    if cur:
        out.append(cur)
    cleaned = []
    for words in out:
        j = 0
        while j < len(words) and _ASSIGN.match(words[j]):
            j += 1
        cleaned.append(words[j:])
    return cleaned


def program_of(words: list[str]) -> tuple[str | None, list[str]]:
    """The program a simple command runs after wrappers: ``env``, ``timeout 5``, ``npx``, ``uv run``, ``python -m``."""
    i = 0
    while i < len(words):
        w = os.path.basename(words[i])
        if w in _WRAPPER_WORDS or w in _LAUNCHERS:
            i += 1
            while i < len(words) and (words[i].startswith("-") or _ASSIGN.match(words[i])
                                      or (w == "timeout" and words[i][:1].isdigit())):
                i += 1
            continue
        if w in _RUNNERS and i + 1 < len(words) and words[i + 1] in ("run", "exec", "dlx"):
            rest = words[i + 2:]
            if w in ("pnpm", "yarn") and words[i + 1] == "run":
                return w, words[i + 1:]  # a package.json script, judged by name below
            i += 2
            while i < len(words) and words[i].startswith("-"):
                i += 1
            if not rest:
                return w, words[i - 1:]
            continue
        if _PYTHON.fullmatch(w):
            k = i + 1
            while k < len(words) and words[k].startswith("-") and words[k] not in ("-m", "-c"):
                if words[k].startswith("-m") and len(words[k]) > 2:  # -mMODULE
                    return words[k][2:], words[k + 1:]
                k += 1
            if k + 1 < len(words) and words[k] == "-m":
                return words[k + 1], words[k + 2:]
            if k < len(words) and os.path.basename(words[k]) == "manage.py":
                return "manage.py", words[k + 1:]
        return w, words[i + 1:]
    return None, []


def runs_sqz(command: str) -> bool:
    """Whether ``command`` runs an sqz verb (``sqz expand H``, ``/abs/sqz stats | head``, ``python -m sqz_core …``).

    Its output is sqz's own: the pipeline passes it through, so an ``expand`` never comes
    back as the ref it was asked to resolve. Unparsable commands: False.
    """
    try:
        if len(command) > MAX_COMMAND:
            return False
        return any(program_of(words)[0] in SQZ_PROGRAMS for words in simple_commands(lex(command)[0]))
    except Exception:
        return False


def sqz_executable() -> str:
    """The shell words that run sqz: ``SQZ_BIN``, this process's own ``sqz`` script, or ``python -m sqz_core``."""
    env = os.environ.get("SQZ_BIN")
    if env:
        return env if env.startswith(("'", '"')) else shlex.quote(env)
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and os.path.basename(argv0).startswith("sqz") and os.path.isfile(argv0):
        return shlex.quote(os.path.abspath(argv0))
    return shlex.quote(sys.executable) + " -m sqz_core"
