"""cargo build/check/clippy/test/bench and cargo-nextest: keep failures and diagnostics, drop progress.

Why: a cargo test run is mostly ``Compiling …`` and ``test x ... ok`` lines; what the
agent acts on is each failing test's output (panic message, file:line, backtrace),
the ``test result:`` counts and the compiler's errors and warnings with their locations.

What is dropped: cargo's progress lines (counted; in a failed build the ``Compiling NAME vX.Y.Z``
line of a dependency an error names by path, ``toml::Table``, stays: its version), passing/ignored test lines and
``running N tests`` (the ``test result:`` line that follows carries the counts),
nextest ``PASS``/``SKIP`` lines (counted), nextest's libtest boiler-plate around a
failure, ``test NAME ... FAILED`` lines of tests that have their own failure section and are
listed under ``failures:``, with ``--nocapture`` the panic paragraph (``thread 'NAME' panicked at …``
up to the next blank line) of a test whose line says ``ok`` (counted: an expected or caught panic),
the hash in a test binary's name (``Running tests/api.rs (target/debug/deps/api-…)``; a panicking
thread's OS id, ``thread 'x' (11312) panicked at``, stays: it is on the line users search for), with ``-v`` the
second copy of a failed step's command (``Caused by: process didn't exit successfully: `rustc …```),
the column padding of libtest's ``test NAME ... bench: N ns/iter (+/- M)`` lines (every figure stays), repeated libtest hints, in a backtrace the standard library's frame
locations (runs of its frames are named on one line) and program frames shown by an earlier
backtrace, rustc's ``For more information about this error, try `rustc --explain E…```
pointer, cargo's ``warning: build failed, waiting for other jobs to finish...`` (after an
error), and the echoed source of errors and warnings (``rust_diag.compress_error``: header
with its location, labels, notes and suggested code stay). Failure sections and everything
the formatter does not recognise are kept verbatim.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import count_phrase, join_output
from .rust_diag import EXPLAIN_HINT, RepeatedNotes, compress_error

commands = ("cargo", "cargo-nextest")
# a panic's backtrace inside a failing test's section is part of the report: rendered here (the
# program's frames once each with their location, the standard library's named), recoverable with
# `sqz expand` (see the core's safety routing)
reports_traces = True

_VERBS = {"build": "build", "b": "build", "check": "check", "c": "check", "clippy": "clippy",
          "test": "test", "t": "test", "bench": "bench", "nextest": "nextest"}

# Cargo's right-aligned status words (12 columns) that only report progress.
_PROGRESS = re.compile(
    r"^ {0,12}(Compiling|Checking|Downloading|Downloaded|Updating|Locking|Adding|Fresh|Blocking|"
    r"Documenting|Unpacking|Packaging|Verifying|Removing|Vendoring|Updated) \S")
_COMPILING = re.compile(r"^ {0,12}Compiling (?P<name>[\w-]+) v\S+$")   # a dependency (no local path)
# a crate an error names: by path (`toml::Table`) or by its registry source (`semver-1.0.14/src/lib.rs`)
_CRATE_PATH = re.compile(r"(?<![\w:])(?P<name>[A-Za-z_]\w*)::")
_CRATE_SOURCE = re.compile(r"/(?P<name>[A-Za-z_][\w-]*)-\d+\.\d+\.\d+[^/\s]*/src/")
_FINISHED = re.compile(r"^ {0,12}Finished `?\w+`? profile|^ {0,12}Finished (dev|release|test)")
_DIAG_HEAD = re.compile(r"^(error|warning)(\[[A-Za-z0-9_:]+\])?: ")
_LOCATION = re.compile(r"^\s*--> \S+:\d+:\d+")
# cargo's note while parallel jobs finish after a failure: the run is over by the time anyone reads it
_WAITING = "warning: build failed, waiting for other jobs to finish..."
_RUNNING = re.compile(r"^running \d+ tests?$")
_TEST_PASS = re.compile(r"^test .+ \.\.\. (ok|ignored(, .*)?)$")
_TEST_RESULT = re.compile(r"^test result: (ok|FAILED)\. \d+ passed; \d+ failed; \d+ ignored;")
_FAILURE_HEAD = re.compile(r"^---- .+ std(out|err) ----$")
_NEXTEST_NOISE = re.compile(r"^ {0,12}(PASS|SKIP) \[[ \d.]+s\]")
_NEXTEST_START = re.compile(r"^ {0,12}Starting \d+ tests? across \d+ binar")
_NEXTEST_SUMMARY = re.compile(r"^ {0,12}Summary \[[ \d.]+s\] \d+ tests? run:")
_NEXTEST_RUN_ID = re.compile(r"^ Nextest run ID [0-9a-f-]+ with nextest profile: \S+$")
_NEXTEST_RULE = re.compile(r"^─{4,}$")
_NEXTEST_SECTION = re.compile(r"^  (stdout|stderr) ───")
_NEXTEST_HEAD = re.compile(r"^ {0,12}[A-Z]{3}[-A-Z]* \[")  # not {3,}[-A-Z]*: quadratic
# libtest's own lines that nextest echoes inside a failure's stdout section.
_LIBTEST_ECHO = re.compile(r"^    (running \d+ tests?|test .+ \.\.\. (FAILED|ok|ignored)|failures:|    \S+"
                           r"|test result: FAILED\. .*)$")
_FAIL_SIGNAL = re.compile(r"^(error|warning: build failed)|FAILED|panicked at|^ {0,12}(FAIL|SIGSEGV|SIGABRT|"
                          r"TIMEOUT|ABORT|LEAK-FAIL)\b")


def cargo_verb(argv: tuple[str, ...]) -> str | None:
    """The cargo subcommand (``build``, ``test``, ``nextest`` …), skipping ``+toolchain`` and options."""
    for word in argv[1:]:
        if word.startswith(("-", "+")):
            continue
        return _VERBS.get(word)
    return None


def has_foreign_format(argv: tuple[str, ...]) -> bool:
    """True for machine-readable or otherwise reshaped output (``--message-format=json``, ``--format json``);
    ``--message-format short`` (one line per diagnostic, the rest as usual) is not."""
    for i, word in enumerate(argv):
        if word.startswith("--message-format") or word.startswith("--format") or word == "-Zunstable-options":
            value = word.split("=", 1)[1] if "=" in word else (argv[i + 1] if i + 1 < len(argv) else "")
            if word == "-Zunstable-options" or value not in ("human", "pretty", "short"):
                return True
        if word in ("--quiet", "-q") and "--" in argv[:i]:
            return True  # libtest's terse dot output
    return False


def diagnostic_end(lines: list[str], start: int) -> int:
    """Index just past the diagnostic that starts at ``start`` (rustc ends each with a blank line)."""
    j = start + 1
    while j < len(lines):
        line = lines[j]
        if not line.strip() or _DIAG_HEAD.match(line) or _PROGRESS.match(line) or _FINISHED.match(line):
            break
        j += 1
    return j


def nextest_section_end(lines: list[str], start: int) -> int:
    """Index just past a nextest ``stdout ───``/``stderr ───`` section (4-space indented body)."""
    j = start + 1
    while j < len(lines):
        line = lines[j]
        if line.strip() and (not line.startswith("    ") or _NEXTEST_HEAD.match(line)):
            break
        if _NEXTEST_SECTION.match(line):
            break
        j += 1
    return j


def format_cargo(lines: list[str], verb: str) -> list[str] | None:
    """The compact rendering of cargo's human output, or None when nothing in it is cargo's."""
    out: list[str] = []
    progress: dict[str, int] = {}
    progress_slot = None
    compiled: list[str] = []   # the dependencies' `Compiling NAME vX.Y.Z` lines
    recognised = False
    open_runs = 0            # `running N tests` blocks still waiting for their `test result:`
    in_failure_output = False
    seen_frames: set[tuple[str, str]] = set()
    seen_notes: set[str] = set()
    repeated = RepeatedNotes()
    # `-- --nocapture`: a test that passed may still panic on purpose (`#[should_panic]`, a caught
    # unwind); its thread's panic paragraph, printed amid the test lines, is not a failure
    passed = {m.group("name") for m in map(_TEST_OK_NAME.match, lines) if m}
    quiet_panics = 0
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not in_failure_output and passed:
            pm = _THREAD_PANIC.match(line)
            if pm and pm.group("name") in passed:
                quiet_panics += 1
                i += 1
                while i < n and lines[i].strip() and not lines[i].startswith(("test ", "thread '")):
                    i += 1
                if out and not out[-1].strip():
                    out.pop()           # the blank line libtest printed before the paragraph
                continue
        if in_failure_output:
            # Inside `---- name stdout ----` sections every line is the test's own output: keep it,
            # but for backtrace frames already shown and libtest's hints said once already.
            if line == "failures:" or _TEST_RESULT.match(line) or _FAILURE_HEAD.match(line):
                in_failure_output = False
            else:
                j = i + 1
                while j < n and lines[j] != "failures:" and not _TEST_RESULT.match(lines[j]) \
                        and not _FAILURE_HEAD.match(lines[j]):
                    j += 1
                out.extend(compact_failure_output(lines[i:j], seen_frames, seen_notes, progress))
                i = j
                continue
        m = _PROGRESS.match(line)
        if m:
            if _COMPILING.match(line):
                compiled.append(line)
            word = m.group(1)
            progress[word] = progress.get(word, 0) + 1
            if progress_slot is None:
                progress_slot = len(out)
                out.append("")
            recognised = True
            i += 1
            continue
        if _FINISHED.match(line) or _NEXTEST_START.match(line) or _NEXTEST_SUMMARY.match(line):
            recognised = True
            out.append(line)
            i += 1
            continue
        if EXPLAIN_HINT.match(line) or line == _WAITING and any(x.startswith("error") for x in out):
            recognised = True
            i += 1
            continue
        if _DIAG_HEAD.match(line):
            recognised = True
            j = diagnostic_end(lines, i)
            block = lines[i:j]
            if any(_LOCATION.match(b) for b in block):
                out.extend(repeated.apply(compress_error(block)))  # labels, notes and suggested code kept
                while j < n and not lines[j].strip():
                    j += 1  # the blank line closing it: the next header starts a line of its own
            else:
                out.extend(block)
            i = j
            continue
        if _RUNNING.match(line):
            recognised = True
            open_runs += 1
            i += 1
            continue
        if _TEST_PASS.match(line):
            i += 1
            continue
        if _TEST_RESULT.match(line):
            recognised = True
            open_runs = max(0, open_runs - 1)
            out.append(line)
            i += 1
            continue
        if _FAILURE_HEAD.match(line):
            in_failure_output = True
            out.append(line)
            i += 1
            while i < n and not lines[i].strip():
                i += 1  # the blank line libtest prints under the header
            continue
        if _NEXTEST_NOISE.match(line) and verb == "nextest":
            word = line.split()[0]
            progress[word] = progress.get(word, 0) + 1
            if progress_slot is None:
                progress_slot = len(out)
                out.append("")
            i += 1
            continue
        if verb == "nextest" and (_NEXTEST_RUN_ID.match(line) or _NEXTEST_RULE.match(line)):
            i += 1
            continue
        if verb == "nextest" and _NEXTEST_SECTION.match(line):
            j = nextest_section_end(lines, i)
            body = [b for b in lines[i + 1:j] if b.strip()]
            if line.lstrip().startswith("stdout") and all(_LIBTEST_ECHO.match(b) for b in body):
                i = j  # only libtest's echo of the failure: the FAIL line and stderr say it all
                continue
            out.extend(lines[i:j])
            i = j
            continue
        out.append(line)
        i += 1
    if not recognised:
        return None
    if open_runs and not any(l.startswith("error") for l in out):
        return None  # a test binary's output was cut before its result line: truncated
    out = drop_repeated_command([shorten_line(x) for x in drop_duplicate_failure_lines(out)])
    if progress and progress_slot is None:
        progress_slot = len(out)
        out.append("")
    named = named_dependencies(compiled, out)
    if named:
        progress["Compiling"] -= len(named)
        if not progress["Compiling"]:
            del progress["Compiling"]
    if progress_slot is not None:
        out[progress_slot:progress_slot + 1] = ([f"[dropped: {count_phrase(progress)}]"] if progress else []) + named
    if quiet_panics:
        out.append(f"[dropped: {quiet_panics} panic{'s' if quiet_panics > 1 else ''} of tests that passed "
                   "(should_panic or caught)]")
    return out


def named_dependencies(compiled: list[str], out: list[str]) -> list[str]:
    """The ``Compiling NAME vX.Y.Z`` lines of the dependencies a failed build's errors name by path
    (``toml::Table``): the versions an API mismatch is about. A crate whose registry source the errors
    show (``…/semver-1.0.14/src/lib.rs``) has its version there already. One pass over the output."""
    if not compiled or not any(_DIAG_HEAD.match(x) and x.startswith("error") for x in out):
        return []
    refs: set[str] = set()
    shown: set[str] = set()    # crates whose registry source path already states their version
    for x in out:
        if "::" in x:
            refs.update(m.group("name") for m in _CRATE_PATH.finditer(x))
        if "/src/" in x:
            shown.update(m.group("name").replace("-", "_") for m in _CRATE_SOURCE.finditer(x))
    refs -= shown
    return [c for c in compiled if _COMPILING.match(c).group("name").replace("-", "_") in refs]


_FRAME = re.compile(r"^ {2,}(?P<no>\d+): (?P<name>\S.*)$")
_FRAME_AT = re.compile(r"^ {6,}at (?P<loc>\S.*)$")
_HINT = re.compile(r"^note: (run with `RUST_BACKTRACE=|Some details are omitted, run with `RUST_BACKTRACE=full`)")


_STD_FRAME = re.compile(r"^(?:std|core|alloc|test|__rustc)::|^<fn\(\)|^<(?:std|core|alloc)::")


def _std_frame(name: str, loc: str) -> bool:
    """A frame of the Rust standard library or test harness: located under ``/rustc/<commit>/``, or
    unlocated with a ``std::``/``core::``/``alloc::``/``test::`` name."""
    return loc.startswith("/rustc/") if loc else bool(_STD_FRAME.match(name))


def compact_failure_output(body: list[str], seen_frames: set, seen_notes: set, progress: dict) -> list[str]:
    """One failing test's output: every line kept but backtrace frames of the Rust standard library,
    the program's frames already shown in an earlier backtrace of this run, and a libtest hint
    already printed.

    A run of standard-library frames becomes one line with their numbers and names (or ``the same
    frames as above`` when all were named before); the program's frames stay with their location.
    """
    out: list[str] = []
    run: list[tuple[str, str, bool]] = []  # (frame number, name, shown before)

    def flush() -> None:
        if not run:
            return
        nos = run[0][0] if len(run) == 1 else f"{run[0][0]}-{run[-1][0]}"
        fresh = [name for _, name, seen in run if not seen]
        if fresh:
            out.append(f"   [{nos}: Rust standard library: {', '.join(fresh)}"
                       + (", and frames shown above]" if len(fresh) < len(run) else "]"))
        else:
            out.append(f"   [{nos}: {'the same frame' if len(run) == 1 else 'the same frames'} as above]")
        run.clear()

    i = 0
    while i < len(body):
        line = body[i]
        m = _FRAME.match(line)
        if m:
            at = _FRAME_AT.match(body[i + 1]) if i + 1 < len(body) else None
            loc = at.group("loc") if at else ""
            key = (m.group("name"), loc)
            if key in seen_frames or _std_frame(m.group("name"), loc):
                run.append((m.group("no"), m.group("name"), key in seen_frames))
                seen_frames.add(key)
            else:
                flush()
                seen_frames.add(key)
                out.append(line)
                if at:
                    out.append(body[i + 1])
            i += 2 if at else 1
            continue
        flush()
        if _HINT.match(line):
            if line in seen_notes:
                progress["repeated note"] = progress.get("repeated note", 0) + 1
                i += 1
                continue
            seen_notes.add(line)
        out.append(line)
        i += 1
    flush()
    return out


def drop_repeated_command(out: list[str]) -> list[str]:
    """``cargo -v``: a failed step's ``Caused by: process didn't exit successfully: `CMD` (exit status: N)``
    repeats, word for word, the ``Running `CMD``` line cargo printed before it: the second copy keeps
    the program and its first two arguments and points at the first. One pass over the lines."""
    running: set[str] = set()
    kept: list[str] = []
    for line in out:
        body = line.lstrip()
        if body.startswith("Running `") and line.endswith("`"):
            running.add(body[9:-1])
        elif body.startswith(_NO_EXIT) and running:
            k = line.rfind("` (")
            cmd = line[len(line) - len(body) + len(_NO_EXIT):k] if k > 0 else None
            if cmd in running:
                short = " ".join(cmd.split(" ", 3)[:3])
                line = f"{line[:len(line) - len(body)]}{_NO_EXIT}{short} …{line[k:]} (the Running command above)"
        kept.append(line)
    return kept


_NO_EXIT = "process didn't exit successfully: `"


def shorten_line(line: str) -> str:
    """A test binary's hash (``Running tests/api.rs (target/debug/deps/api-…)``: no one types it) goes;
    everything else stays (a panicking thread's OS id too: ``thread 'tests::x' (11312) panicked at``)."""
    if line.startswith("test ") and line.endswith(")") and " ... bench: " in line:
        m = _BENCH_LINE.match(line)
        return f"test {m.group(1)} ... bench: {m.group(2)}" if m else line   # the columns' padding goes
    if not line.endswith(")") or not line.lstrip().startswith("Running "):
        return line
    k = line.rfind(" (target/")    # the binary's path closes the line: no pattern scans the name before it
    if k < 0 or not _BINARY_PATH.match(line, k):
        return line
    return line[:-17] + "…)"   # `-` kept, the 16 hex digits and `)` replaced


def drop_duplicate_failure_lines(out: list[str]) -> list[str]:
    """Without ``test NAME ... FAILED`` progress lines and the ``failures:`` header before the
    sections, when NAME has its own ``---- NAME stdout ----`` section and is listed again under
    the closing ``failures:``."""
    heads = {m.group(1) for m in map(_FAILURE_NAME.match, out) if m}
    keep: list[str] = []
    for k, line in enumerate(out):
        m = _TEST_FAILED.match(line)
        if m and m.group(1) in heads:
            continue
        if line == "failures:" and any(_FAILURE_HEAD.match(x) for x in out[k + 1:k + 3]):
            continue
        keep.append(line)
    return keep


_FAILURE_NAME = re.compile(r"^---- (.+) std(?:out|err) ----$")
_BENCH_LINE = re.compile(r"^test (\S+) +\.\.\. bench: +([\d,.]+ \S+/iter \(\+/- [\d,.]+\))$")
_BINARY_PATH = re.compile(r" \(target/[\w./-]+/deps/[\w.-]+-[0-9a-f]{16}\)$")
_TEST_OK_NAME = re.compile(r"^test (?P<name>\S+) (?:- should panic )?\.\.\. ok$")
_THREAD_PANIC = re.compile(r"^thread '(?P<name>[^']+)'(?: \(\d+\))? panicked at \S+:\d+:\d+:$")
_TEST_FAILED = re.compile(r"^test (.+) \.\.\. FAILED$")


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    argv = request.argv
    if request.program == "cargo-nextest":
        argv = ("cargo",) + tuple(argv[1:] if len(argv) > 1 and argv[1] == "nextest" else ("nextest",) + argv[1:])
    verb = cargo_verb(argv)
    if verb is None or has_foreign_format(argv):
        return None
    lines = request.text.splitlines()
    out = format_cargo(lines, verb)
    if out is None:
        return None
    if request.exit_code not in (None, 0) and not any(_FAIL_SIGNAL.search(l) for l in out):
        return None  # a failure the formatter cannot explain: let the original through
    return join_output(out)
