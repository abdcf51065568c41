"""cmake configure and ``cmake --build``: drop probe and progress chatter, keep errors and diagnostics.

Why: a configure prints a dozen ``-- Detecting …``/``-- Check for working …`` probes and
a build prints ``[ 42%] Building C object …`` per file; the agent needs CMake's
``CMake Error``/``CMake Warning`` blocks, failed probes, compiler diagnostics
(compressed as in ``c_diagnostics``: snippets dropped, the absolute paths cmake passes the
compiler kept whole) and the generator's error lines (make or ninja).
Green builds keep their last progress line; probes that failed are kept. With ``--verbose`` the
Makefile generator's own steps (``cmake -E cmake_depends …``, ``cmake --check-build-system``,
``make -f CMakeFiles/…`` sub-makes) are counted like progress; the compiler commands go as in ``c_make``,
except a command whose next line is a diagnostic about the file it compiles (``cc … -c /p/x.c`` then
``/p/x.c: In function …``): that is the failed compile's command line, kept as ninja's ``FAILED:`` one is.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import count_phrase, has_option, join_output
from .c_diagnostics import compress_compiler_output
from .c_make import _ECHO, compress_make_lines

commands = ("cmake",)

_PROBE = re.compile(r"^-- (The (C|CXX|Fortran|CUDA|ASM) compiler identification is |Detecting |Check for working "
                    r"|Performing Test |Looking for |Check if |Checking whether |Configuring done|Generating done"
                    r"|Found Threads: |Check size of )")
_PROBE_BAD = re.compile(r"(not found|NOTFOUND|- Failed|- failed|- no$|- broken)")
_MAKE_PROGRESS = re.compile(r"^\[ *\d+%\] (Building \w+ object |Linking \w+ |Built target |Generating |Scanning dependencies"
                            r"|Running |Automatic MOC)")
_NINJA_PROGRESS = re.compile(r"^\[\d+/\d+\] (Building \w+ object |Linking \w+ |Generating |Running |Re-running CMake)")
_OTHER_PROGRESS = re.compile(r"^(Consolidate compiler generated dependencies of target |Scanning dependencies of target )")
# `cmake --build … --verbose` (Makefile generator): the generator's own steps, echoed like recipes
_GENERATOR_CMD = re.compile(r"^(?:cd \S+ && )?\S*/cmake (?:-E (?:cmake_progress_start|cmake_depends|cmake_echo_color"
                            r"|cmake_link_script|touch_nocreate|touch) |-S\S+ -B\S+ --check-build-system )"
                            r"|^\S*/g?make +(?:-s +)?-f CMakeFiles/\S+ \S+$")
_CMAKE_BLOCK = re.compile(r"^CMake (Error|Warning|Deprecation Warning)( \(dev\))?( at [^:]+:\d+ \(\w+\))?:")
_NINJA_MSG = re.compile(r"^(FAILED: |ninja: (build stopped: .*|error: .*|no work to do\.))")
_COMPILED_SOURCE = re.compile(r"\s-c\s+(\S+)")   # the source file a compiler command compiles
_BUILT_INFO = re.compile(r"^-- (Build files have been written to: |Configuring incomplete, errors occurred!)")


def compress_progress(lines: list[str]) -> tuple[list[str], dict]:
    """Drop configure probes and build progress (counted); keep the run's last progress line if it ends it."""
    out: list[str] = []
    counts: dict[str, int] = {}
    slot = None
    last = None
    for line in lines:
        kind = None
        if _PROBE.match(line) and not _PROBE_BAD.search(line):
            kind = "configure check"
        elif _MAKE_PROGRESS.match(line) or _NINJA_PROGRESS.match(line) or _OTHER_PROGRESS.match(line):
            kind = "build progress"
        elif _GENERATOR_CMD.match(line):
            kind = "generator command"
        if kind is None:
            out.append(line)
            continue
        counts[kind] = counts.get(kind, 0) + 1
        if slot is None:
            slot = len(out)
            out.append("")
        last = (len(out), line, kind)
        out.append(None)
    if last is not None and last[0] == len(out) - 1 and last[2] == "build progress":
        out[last[0]] = last[1]
        counts[last[2]] -= 1
        if not counts[last[2]]:
            del counts[last[2]]
    out = [o for o in out if o is not None]
    if slot is not None:
        if counts:
            out[slot] = f"[dropped: {count_phrase(counts)} lines]"
        else:
            out.pop(slot)
    return out, counts


def failed_compiles(lines: list[str]) -> frozenset:
    """Indices of the command lines to keep verbatim: the one after ninja's ``FAILED:``, and a compiler
    command directly followed by a diagnostic naming the file it compiles (the Makefile generator's
    ``--verbose`` echo of the compile that failed)."""
    keep = set()
    for i in range(len(lines) - 1):
        line = lines[i]
        if line.startswith("FAILED: "):
            keep.add(i + 1)
            continue
        if _ECHO.match(line):
            m = _COMPILED_SOURCE.search(line)
            if m and lines[i + 1].startswith(m.group(1) + ":"):
                keep.add(i)
    return frozenset(keep)


def cmake_mode(argv: tuple[str, ...]) -> str | None:
    """``"build"`` for ``cmake --build``, ``"configure"`` for ``cmake [-S src] [-B dir] …``, else None."""
    args = argv[1:]
    if not args:
        return None
    if args[0] == "--build":
        return "build"
    if has_option(argv, ("-E", "-P", "--install", "--version", "--help", "--workflow", "--find-package", "-N",
                         "--system-information", "--trace", "--trace-expand"), ("--help", "--trace", "--debug")):
        return None
    return "configure"


def format_cmake(text: str, mode: str, exit_code: int | None) -> str | None:
    lines = text.splitlines()
    if not lines:
        return None
    ours = any(_PROBE.match(l) or _MAKE_PROGRESS.match(l) or _NINJA_PROGRESS.match(l) or _CMAKE_BLOCK.match(l)
               or _BUILT_INFO.match(l) or _NINJA_MSG.match(l) for l in lines)
    if not ours:
        return None
    lines, _ = compress_progress(lines)
    if mode == "build":
        res = compress_make_lines(lines, failed_compiles(lines))
        if res is None:
            return None
        lines, _ = res
        comp = compress_compiler_output(lines, error_snippets=False)
        if comp is None:
            return None
        lines = comp[0]
    if exit_code not in (None, 0) and not any(
            "rror" in l or l.startswith(("FAILED", "CMake Error", "ninja: build stopped")) for l in lines):
        return None
    return join_output(lines)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    mode = cmake_mode(request.argv)
    if mode is None:
        return None
    return format_cmake(request.text, mode, request.exit_code)
