"""make/gmake: fold compiler echoes, drop directory chatter, keep make's errors and compiler diagnostics.

Why: a make run echoes every compiler command (``cc -Wall … -c src/x.c -o build/x.o``);
what matters is the diagnostics (compressed as in ``c_diagnostics``: each diagnostic line
kept, source snippets dropped, paths as printed) and make's own
``*** [...] Error N`` lines. The compiler commands that differ only in their files are one
template with every file listed (``gcc -O2 -c * -o * [×36, per line:]`` / ``a.c a.o; b.c b.o; …``:
which files were built is a fact, and each command reads back word for word); link and archive
steps (``gcc -o app …``, ``ar rc libx.a …``; up to four) stay whole: they name what the build
produced; other echoes (``ranlib``, ``mkdir -p`` …) are counted, the last one kept when it ends the run. make's messages are matched in English only:
another locale (``Fehler 1``) returns None.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import count_phrase, fold_similar, has_option, join_output
from .c_diagnostics import compress_compiler_output

commands = ("make", "gmake")

# Recipe echoes of the usual build tools (first word, possibly an absolute path).
_ECHO = re.compile(r"^(?:/usr/(?:local/)?bin/)?(cc|c\+\+|gcc|g\+\+|clang|clang\+\+|[\w.-]+-(?:gcc|g\+\+)(?:-\d+)?"
                   r"|gcc-\d+|g\+\+-\d+|clang-\d+|ar|ranlib|ld|as|mkdir -p|rm -f|rm -rf|install|ln -sf?|cp)(\s|$)")
_MAKE_MSG = re.compile(r"^g?make(\[\d+\])?: (?P<msg>.*)$")
_MAKE_DIR = re.compile(r"^(Entering|Leaving) directory '.*'$")
# make's own messages in English (GNU make 4.x); anything else prefixed `make:` is unknown.
_MAKE_KNOWN = re.compile(
    r"^(\*\*\* \[.*\] (Error \d+|Segmentation fault|Killed|Interrupt|Terminated|Aborted).*"
    r"|\*\*\* No rule to make target .*|\*\*\* No targets specified and no makefile found\.\s+Stop\."
    r"|\*\*\* Waiting for unfinished jobs\.\.\.\."
    r"|\*\*\* .*\.\s+Stop\."
    r"|Nothing to be done for '.*'\.|'.*' is up to date\.|Target '.*' not remade because of errors\."
    r"|warning: .*|\[.*\] Error \d+ \(ignored\)|(Entering|Leaving) directory '.*')$")


_COMPILERS = frozenset(("cc", "c++", "gcc", "g++", "clang", "clang++", "ld"))
_FOLDED = "\0folded"  # where the compiler commands go (compared by identity)
_MAX_ARTEFACT_LINES = 4


def _is_compiler(tool: str) -> bool:
    name = tool.rsplit("/", 1)[-1]
    return name in _COMPILERS or re.match(r"[\w.-]+-(?:gcc|g\+\+)(?:-\d+)?$|(?:gcc|g\+\+|clang)-\d+$", name) is not None


def _is_artefact_step(line: str, tool: str) -> bool:
    """A link (a compiler or ld with ``-o`` and no ``-c``/``-S``/``-E``) or an archive (``ar`` with ``r``)."""
    words = line.split()
    name = tool.rsplit("/", 1)[-1]
    if name == "ar":
        return len(words) > 2 and "r" in words[1].lstrip("-")
    if name not in _COMPILERS and not re.match(r"[\w.-]+-(?:gcc|g\+\+)(?:-\d+)?$|(?:gcc|g\+\+|clang)-\d+$", name):
        return False
    return "-o" in words and not any(w in ("-c", "-S", "-E") for w in words)


def compress_make_lines(lines: list[str], keep: frozenset = frozenset(),
                        fold: bool = False) -> tuple[list[str], dict] | None:
    """Drop recipe echoes and directory lines (counted); None on an unknown make message or locale.

    With ``fold`` the compiler commands are not dropped: they go, folded by shape (``fold_similar``:
    one template, every file compiled listed), where the first of them was.

    A recursive make's ``Entering directory '…'`` line stays when something is kept under it
    (a compiler names files relative to that directory: ``main.c:10:5: error: …``); ``Leaving``
    lines and directories that printed nothing else go.

    Lines whose index is in ``keep`` (e.g. the command after ninja's ``FAILED:``) stay verbatim.
    """
    kept: list[str | None] = []
    dropped: dict[str, int] = {}
    compiles: list[str] = []  # the compiler commands echoed: every one is on the page, folded by shape
    slot = None
    last_echo = None
    entering = None           # the latest `Entering directory` line, put back before the first line kept under it
    artefacts = 0
    for idx, line in enumerate(lines):
        if idx in keep:
            if entering is not None:
                kept.append(entering)  # the kept command runs in that directory too
                entering = None
            kept.append(line)
            continue
        mm = _MAKE_MSG.match(line)
        if mm:
            msg = mm.group("msg")
            if not _MAKE_KNOWN.match(msg):
                return None
            if _MAKE_DIR.match(msg):
                gone = (entering is not None) + msg.startswith("Leaving")  # an unused Entering, this Leaving
                if gone:
                    dropped["directory"] = dropped.get("directory", 0) + gone
                entering = line if msg.startswith("Entering") else None
                if slot is None:
                    slot = len(kept)
                    kept.append("")
                continue
            if entering is not None:
                kept.append(entering)
                entering = None
            kept.append(line)
            continue
        m = _ECHO.match(line)
        if m and artefacts < _MAX_ARTEFACT_LINES and _is_artefact_step(line, m.group(1)):
            artefacts += 1
            kept.append(line)  # a link or archive step: it names what the build produced
            continue
        if m and fold and _is_compiler(m.group(1)):
            if not compiles:
                kept.append(_FOLDED)  # placeholder: the compiler commands, folded (fold_similar), go here
            compiles.append(line)
            continue
        if m:
            word = m.group(1).split()[0]
            dropped[word] = dropped.get(word, 0) + 1
            if slot is None:
                slot = len(kept)
                kept.append("")
            last_echo = (len(kept), line)
            kept.append(None)  # placeholder: the last echo is put back below
            continue
        if entering is not None:
            kept.append(entering)  # a recursive make's diagnostics name files relative to this directory
            entering = None
        kept.append(line)
    if entering is not None:
        dropped["directory"] = dropped.get("directory", 0) + 1
    if last_echo is not None and last_echo[0] == len(kept) - 1:
        idx, line = last_echo
        kept[idx] = line       # the run ended on this command: keep it, it names the final artefact
        word = _ECHO.match(line).group(1).split()[0]
        dropped[word] -= 1
        if not dropped[word]:
            del dropped[word]
    if slot is not None:
        kept[slot] = f"[dropped: {count_phrase(dropped)} command lines]" if dropped else None
    out: list[str] = []
    for k in kept:
        if k is _FOLDED:
            out.extend(fold_similar(compiles))
        elif k is not None:
            out.append(k)
    return out, dropped


def format_make(text: str, exit_code: int | None) -> str | None:
    """The compact rendering of a make run, or None."""
    lines = text.splitlines()
    if not lines:
        return None
    res = compress_make_lines(lines, fold=True)
    if res is None:
        return None
    kept, dropped = res
    comp = compress_compiler_output(kept, error_snippets=False)
    if comp is None:
        return None
    out, stats = comp
    ours = any(_MAKE_MSG.match(l) or _ECHO.match(l) for l in lines) or stats["recognised"]
    if not ours:
        return None
    if exit_code not in (None, 0) and not any(_MAKE_MSG.match(l) or "rror" in l for l in out):
        return None
    return join_output(out)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    if has_option(request.argv, ("-p", "--print-data-base", "-n", "--just-print", "--dry-run", "-d", "--debug", "-v",
                                  "--version", "--help", "-q", "--question"), ("--debug",)):
        return None
    return format_make(request.text, request.exit_code)
