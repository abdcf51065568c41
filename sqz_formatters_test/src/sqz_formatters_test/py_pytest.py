"""pytest: drop the session header, progress dots and passing tests; keep what explains a failure.

In the FAILURES/ERRORS sections every ``E`` line, every ``>`` statement (with its
continuation lines), every ``path:line:`` location, the statement a ``--tb=short`` frame
names, argument values and captured output are kept; echoed source context, caret
markers, ``_ _ _`` frame separators, banner and rule padding and repeated identical
frames are dropped, and so are the statements of frames in installed libraries or the
stdlib (their locations stay; a library frame an earlier report of the section showed is
counted; the package tox/nox installed is not a library), the import machinery's frozen
frames (counted), xdist's per-failure worker platform line, an argument value the test's
report already shows or that is just the test case instance the banner names, a
``--tb=native`` report's ``Traceback`` header and the section rules the banners make
redundant. A ``--tb=line`` report identical to an earlier one is kept once with its count.
The short test summary is kept whole (without its rule); ``collected N items`` stays (its words are
facts the final line does not state, issue 25); xdist ``-v``'s "started" lines go once an outcome line
names the test. The long warnings summary keeps every non-deprecation entry and the first
entry of each deprecation message (quoted values and numbers aside), and counts the repeats;
pytest-cov's table keeps its rows, not its rules.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl
from sqz_core.api import lazy_pattern as lazy  # compiled on first use: an output that is no pytest run compiles none

from ._common import join_output, plural, shorter_or_none

commands = ("pytest", "py.test")
# a traceback in the FAILURES section or in a test's captured output is part of the report: rendered
# here (frames and exception lines kept, captured output whole), see the core's safety routing
reports_traces = True

_OUTCOME_WORDS = r"(?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun|subtests? \w+)"
_FINAL = lazy(
    r"^(?:=+ )?(?P<body>no tests ran|\d+ " + _OUTCOME_WORDS + r"(?:, \d+ " + _OUTCOME_WORDS + r")*)"
    r" in \d+(?:\.\d+)?s(?: \([\d:.]+\))?(?: =+)?$")
_SECTION = lazy(r"^=+ (?P<title>\S.*?) =+$")
_HEADER_NOISE = lazy(
    r"^(?:platform \S+ -- Python \S+|sysconfig platform: |cachedir: |rootdir: |configfile: |testpaths: |plugins: |"
    r"hypothesis profile |Using --randomly-seed=|created: \d+/\d+ workers?$|scheduling tests via |"
    r"benchmark: |codspeed: |asyncio: mode=|django: |metadata: )")
_COLLECTED = lazy(r"^(?:collecting \.\.\. )?(?:collected \d+ items?.*|\d+ workers? \[\d+ items?\])$")
# a progress row; pytest also prints a row of padding alone when a module's dots filled the previous one
_PROGRESS = lazy(r"^(?:\S+ )?[.FEsxXR]+\s*(?:\[\s*\d+%\])?$|^\s+\[\s*\d+%\]$")
# the id up to its first "::" one way only (the rest is the lazy .*?): \S+:: backtracked over every
# "::" of a long line, quadratic (issue 29.1)
_VERBOSE = lazy(
    r"^(?P<id>(?:[^\s:]|:(?!:))+::.*?) (?P<outcome>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)"
    r"(?: \(.*\))?(?:\s+\[\s*\d+%\])?$")
_VERBOSE_XDIST = lazy(
    r"^\[gw\d+\] \[\s*\d+%\] (?P<outcome>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN) (?P<id>\S+::.*)$")
_DEPRECATION = lazy(r"^\s+\S.*:\d+: (?:Pending)?DeprecationWarning: ")
_WARN_COUNT = lazy(r"^(?P<path>\S+): (?P<n>\d+) warnings?$")
_BANNER_RE = lazy(r"^_+ (?P<name>\S.*?) _+$")  # a long name gets a single ``_`` each side
_FRAME_SEP = lazy(r"^(?:_ )+_?\s*$")


def _banner(line: str):
    """The match of a test's ``____ name ____`` banner (not a ``_ _ _`` frame separator), or None."""
    m = _BANNER_RE.match(line)
    return m if m and not _FRAME_SEP.match(line) else None
_CAPTURED = lazy(r"^-{3,} (?P<title>(?:Captured|Logs?) .*?) -{3,}$")
_CARETS = lazy(r"^\s+[\^~]+\s*$")
_WORKER_PLATFORM = lazy(r"^\[gw\d+\] \S+ -- Python \S+ \S+$")  # xdist: the worker's platform, per failure
_LOCATION = lazy(r"^\S+:\d+:(?: |$)")
# the package under test that tox/nox installed into their env's site-packages is not a library here
_LIBRARY_PATH = lazy(r"^(?!\S*\.[tn]ox/)(?:\S*/site-packages/|\S*/lib/python\d\.\d+/|<frozen )")
_ARGUMENT = lazy(r"^[A-Za-z_]\w* = \S")
_LIBRARY_FRAME = lazy(r"^(?!\S*\.[tn]ox/)(?:\S*/site-packages/|\S*/lib/python\d\.\d+/|<frozen )\S*:\d+: in \S+$")
_IMPORT_HINT = "Hint: make sure your test modules/packages have valid Python names."
_FIXTURES_HINT = ">       use 'pytest --fixtures [testpath]' for help on them."  # under a fixture lookup error
_EMPTY_E = lazy(r"^E\s*$")
# pytest's advice lines under an assertion's explanation: they name a flag, not a fact of the run
_E_ADVICE = lazy(r"^E\s+(?:Use -v+ to get (?:more|the full) diff|Omitting \d+ identical items?, use -vv to show)$")


def _find_final(lines: list[str]) -> int | None:
    """Index of the final ``N failed, M passed in Xs`` line, searching from the end."""
    for i in range(len(lines) - 1, -1, -1):
        if _FINAL.match(lines[i]):
            return i
        if lines[i].strip() and i < len(lines) - 3:
            return None
    return None


def _split_sections(lines: list[str]) -> tuple[list[str], list[tuple[str, str, list[str]]]]:
    """The lines before the first report section, and (title, rule line, body) per section."""
    head: list[str] = []
    sections: list[tuple[str, str, list[str]]] = []
    for line in lines:
        m = _SECTION.match(line)
        if m and m.group("title") != "test session starts":
            sections.append((m.group("title"), line, []))
        elif sections:
            sections[-1][2].append(line)
        elif not m:
            head.append(line)
    return head, sections


def _unpadded(line: str) -> str:
    """A verbose outcome line without the padding pytest puts before its ``[ 78%]`` column."""
    line = line.rstrip()
    at = line.rfind(" [")
    if line.endswith("%]") and at > 0 and line[:at].endswith(" "):
        return line[:at].rstrip() + line[at:]
    return line


def compact_header(head: list[str]) -> list[str] | None:
    """Drop platform/rootdir/plugins lines and progress; keep non-passing verbose lines and unknown text."""
    out: list[str] = []
    passed = 0
    # xdist -v prints ``id `` when a worker starts a test, then ``[gwN] [ P%] OUTCOME id``: a started
    # line goes when an outcome line names its test (a test that took its worker down keeps it)
    finished = {m.group("id").rstrip() for m in map(_VERBOSE_XDIST.match, head) if m}
    for line in head:
        if not line.strip() or _HEADER_NOISE.match(line):
            continue
        if finished and line.rstrip() in finished:
            continue
        if _COLLECTED.match(line):
            out.append(line)  # kept as pytest wrote it ("collecting ... collected 611 items": every word)
            continue
        if _PROGRESS.match(line) and not line.startswith("collect"):
            continue
        m = _VERBOSE.match(line) or _VERBOSE_XDIST.match(line)
        if m:
            if m.group("outcome") == "PASSED":
                passed += 1
            else:
                out.append(_unpadded(line))  # a non-passing test's line, every word (its percentage too)
            continue
        out.append(line)
    if passed:
        out.append(f"(+ {passed} passed)")
    return out


_WARNING_AT = lazy(r"^  \S.*:\d+: \w*Warning: ")


def _echoed_warning_source(entry: list[str], i: int) -> bool:
    """True for the source line ``warnings.formatwarning`` echoes after a one-line warning: the
    entry's last line, or followed only by pytest's two-space hint lines (a ResourceWarning's)."""
    return (i > 0 and entry[i].startswith("    ") and bool(_WARNING_AT.match(entry[i - 1]))
            and all(x.startswith("  ") and x[2:3] not in (" ", "") for x in entry[i + 1:]))


def _fold_repeated_ids(entry: list[str]) -> list[str]:
    """An entry's run of identical test-id lines (a test that warned N times) as one line with ``[×N]``."""
    out: list[str] = []
    run = 0
    for k, x in enumerate(entry):
        if not x.startswith(" ") and k + 1 < len(entry) and entry[k + 1] == x:
            run += 1
            continue
        out.append(f"{x} [×{run + 1}]" if run else x)
        run = 0
    return out


_QUOTED = lazy(r"'[^']*'|\"[^\"]*\"|\d+")


def _deprecation_shape(entry: list[str]) -> str:
    """A deprecation entry's message with its location, quoted values and numbers blanked.

    ``legacy_call('a') is deprecated`` and ``legacy_call('b') is deprecated`` share a shape;
    ``old_api() is deprecated`` does not, so a different deprecated name is never folded away.
    """
    for line in entry:
        m = _DEPRECATION.match(line)
        if m:
            return line[:m.end()].rstrip(": ").rsplit(": ", 1)[-1] + _QUOTED.sub("_", line[m.end():])
    return ""


def fold_warnings(body: list[str]) -> list[str]:
    """Keep non-deprecation entries and the first entry of each deprecation message; count the repeats.

    The source line echoed under a warning is dropped: the entry names its location. A test id
    listed N times in a row (it warned N times) is one line with ``[×N]``; a continuation line an
    earlier entry already showed (pytest's ResourceWarning hints) is counted, not repeated.
    """
    entries: list[list[str]] = [[]]
    for line in body:
        if line.strip():
            entries[-1].append(line)
        elif entries[-1]:
            entries.append([])
    out: list[str] = []
    seen_shapes: set[str] = set()
    shown_hints: set[str] = set()
    hints = 0
    folded_entries = folded_warnings = 0
    folded_paths: list[str] = []
    for entry in entries:
        if not entry:
            continue
        if len(entry) == 1 and entry[0].startswith("-- Docs: "):
            continue
        if any(_DEPRECATION.match(x) for x in entry):
            shape = _deprecation_shape(entry)
            if shape in seen_shapes:
                folded_entries += 1
                for loc in entry:
                    if loc.startswith(" "):
                        break
                    m = _WARN_COUNT.match(loc)
                    folded_warnings += int(m.group("n")) if m else 1
                    path = m.group("path") if m else loc.split("::", 1)[0]
                    if path not in folded_paths:
                        folded_paths.append(path)
                continue
            seen_shapes.add(shape)
        kept = [x for i, x in enumerate(entry) if not _echoed_warning_source(entry, i)]
        for x in _fold_repeated_ids(kept):
            if x.startswith("  ") and not _WARNING_AT.match(x) and x in shown_hints:
                hints += 1  # a hint line pytest repeats under every such warning: shown once
                continue
            if x.startswith("  ") and not _WARNING_AT.match(x):
                shown_hints.add(x)
            out.append(x)
        out.append("")
    if hints:
        out.append(f"(+ {plural(hints, 'repeated hint line')} like the above dropped)")
    if folded_entries:
        noun = "entry" if folded_entries == 1 else "entries"
        out.append(f"(+ {folded_entries} more deprecation warning {noun} like the above folded: "
                   f"{plural(folded_warnings, 'warning')} in {', '.join(folded_paths)})")
    return out


# an exception group's traceback (``+ Exception Group Traceback``, hypothesis's "N distinct failures"):
# every line carries the group's ``|``/``+`` drawing, indented; the content follows it
_GROUP_HEAD = "+ Exception Group Traceback (most recent call last):"
_GROUP_LINE = lazy(r"^\s*(?:\+-[-+]*|\+ |\| |\|$)")
_GROUP_PREFIX = lazy(r"^\s*(?:\+-[-+]*(?: \d+ )?-*|[|+] ?)")
_GROUP_LIBRARY = lazy(r'^\s*File "(?![^"]*\.[tn]ox/)(?:[^"]*/site-packages/|[^"]*/lib/python\d\.\d+/)')


def _compact_group(frame: list[str]) -> list[str]:
    """An exception group's traceback: its lines as printed (the drawing shows which sub-exception a
    line belongs to) without caret markers and without the statements of library/stdlib frames (their
    ``File`` lines stay, like a native traceback's)."""
    inners = [_GROUP_PREFIX.sub("", line, count=1) if _GROUP_LINE.match(line) else line for line in frame]
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    skip_statement = False
    repeated = 0
    repeated_at = ""
    for k, line in enumerate(frame):
        inner = inners[k]
        if skip_statement:
            skip_statement = False
            if inner.startswith("    ") and not inner.lstrip().startswith("File "):
                continue
        if inner.strip() and not inner.strip().strip("^~ "):
            continue  # caret markers under a statement
        if inner.lstrip().startswith('File "'):
            nxt = inners[k + 1] if k + 1 < len(frame) else ""
            stmt = nxt if nxt.startswith("    ") and not nxt.lstrip().startswith("File ") else ""
            if (inner, stmt) in seen:  # a frame an earlier sub-exception of the group showed
                repeated += 1
                repeated_at = line[:len(line) - len(inner)]
                skip_statement = bool(stmt)
                continue
            seen.add((inner, stmt))
        if repeated:
            out.append(f"{repeated_at}  [{plural(repeated, 'frame')} already shown above]")
            repeated = 0
        if _GROUP_LIBRARY.match(inner):
            skip_statement = True
        out.append(line)
    if repeated:
        out.append(f"{repeated_at}  [{plural(repeated, 'frame')} already shown above]")
    return out


def _compact_frame(frame: list[str]) -> list[str]:
    """One traceback frame without its echoed source context.

    Indented lines are kept only when they continue, without a blank line, a ``>``
    statement, a location, an ``E`` line or a message at column 0 (a ``--tb=short`` frame's statement,
    a ``--tb=line`` message's continuation); caret markers and ``???`` are dropped.
    """
    if any(line.strip() == _GROUP_HEAD for line in frame):
        return _compact_group(frame)
    out: list[str] = []
    keep = False
    frozen = 0
    # per line: whether the next ``path:N:`` location below it is in a library (a long-format frame
    # names its location after its ``>`` statement); one backward pass
    lib_below = [False] * len(frame)
    below = False
    for k in range(len(frame) - 1, -1, -1):
        if _LOCATION.match(frame[k]):
            below = bool(_LIBRARY_PATH.match(frame[k]))
        lib_below[k] = below
    for k, line in enumerate(frame):
        if frozen and not (line.startswith("<frozen importlib.") or (keep is None and line.strip() == "???")):
            out.append(f"(+ {plural(frozen, 'frozen importlib frame')})")
            frozen = 0
        if not line.strip():
            keep = False
        elif line.startswith("<frozen importlib."):
            frozen += 1  # the import machinery's own frames (CPython hides them from import tracebacks too)
            keep = None
        elif line == _IMPORT_HINT or line == _FIXTURES_HINT or _WORKER_PLATFORM.match(line):
            continue  # pytest's generic advice; the xdist worker's platform, per failure (the header's goes too)
        elif _EMPTY_E.match(line) and k >= 2 and frame[k - 1].startswith("E ") and not frame[k - 2].startswith("E"):
            continue  # the empty line pytest puts between an assertion and its explanation
        elif _E_ADVICE.match(line):
            continue  # pytest's advice under an assertion diff (run with -v/-vv for more)
        elif line.startswith("E ") or line == "E":
            out.append(line)
            keep = True
        elif line[0] in " \t":
            if keep and not _CARETS.match(line) and line.strip() != "???":
                out.append(line)
        elif line.startswith(">") and lib_below[k]:
            keep = False  # the statement of a frame in an installed library or the stdlib: its location stays
        else:  # ``>`` statements, locations, argument values, messages
            out.append(line)
            # a --tb=short frame in an installed library or the stdlib: its location, not its source
            keep = not _LIBRARY_FRAME.match(line)
    if frozen:
        out.append(f"(+ {plural(frozen, 'frozen importlib frame')})")
    return _drop_restated_asserts(out)


_RAISE_LITERAL = lazy(r"""^raise (?P<cls>[A-Za-z_][\w.]*)\((?P<q>["'])(?P<msg>[^"'\\{}]*)(?P=q)\)$""")


def _drop_restated_asserts(out: list[str]) -> list[str]:
    """A one-line ``>       assert …`` statement goes when an ``E`` line just below restates it word for
    word (pytest's rewrite of an assertion between literals: ``E  AssertionError: assert {…} == {…}``),
    and so does ``>  raise Error("message")`` over ``E  Error: message``. The ``- expected``/``+ actual``
    diff (and its ``?`` markers) under ``E  assert 'actual' == 'expected'`` goes too: that line shows both
    one-line strings whole."""
    drop: set[int] = set()
    for k, line in enumerate(out):
        if not line.startswith(">") or k + 1 >= len(out) or not out[k + 1].startswith("E"):
            continue
        stmt = line[1:].strip().replace('"', "'")
        m = _RAISE_LITERAL.match(line[1:].strip())
        if m:  # ``raise E("message")`` restated by ``E   E: message``
            stmt = f"{m.group('cls')}: {m.group('msg')}"
        elif not stmt.startswith("assert "):
            continue
        for e in out[k + 1:k + 4]:
            if not e.startswith("E"):
                break
            said = e[1:].strip()
            if said.startswith("AssertionError: "):
                said = said[len("AssertionError: "):]
            if said == stmt:
                drop.add(k)
                break
    for k, line in enumerate(out):
        m = _STR_ASSERT.match(line)
        if not m:
            continue
        j = k + 1
        minus: list[str] = []
        plus: list[str] = []
        while j < len(out):
            d = _STR_DIFF.match(out[j])
            if not d:
                break
            (minus if d.group("sign") == "-" else plus if d.group("sign") == "+" else []).append(d.group("text"))
            j += 1
        if minus == [m.group("right")] and plus == [m.group("left")]:
            drop.update(range(k + 1, j))  # pytest's diff of two one-line strings the assertion line shows whole
    return [x for k, x in enumerate(out) if k not in drop] if drop else out


_STR_ASSERT = lazy(r"^E\s+(?:AssertionError: )?assert '(?P<left>[^'\\]*)' == '(?P<right>[^'\\]*)'$")
_STR_DIFF = lazy(r"^E\s+(?P<sign>[-+?]) (?P<text>.*)$")


_NATIVE_FRAME = lazy(r'^  File "[^"]+", line \d+, in \S')
_NATIVE_LIBRARY = lazy(r'^  File "(?![^"]*\.[tn]ox/)(?:[^"]*/site-packages/|[^"]*/lib/python\d\.\d+/)')


def _fold_native_frames(lines: list[str], seen: set) -> list[str]:
    """``--tb=native`` tracebacks: a frame (``File …, line N, in f`` and its statement) already shown
    earlier in the section is dropped; each run of them becomes one counted line."""
    out: list[str] = []
    skipped = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if _NATIVE_FRAME.match(line):
            stmt = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].startswith("    ") else None
            key = (line, stmt or "")
            step = 2 if stmt is not None else 1
            if key in seen:
                skipped += 1
                i += step
                continue
            seen.add(key)
            if stmt is not None and _NATIVE_LIBRARY.match(line):
                if skipped:
                    out.append(f"  [{plural(skipped, 'frame')} already shown above]")
                    skipped = 0
                out.append(line)  # a frame in an installed library or the stdlib: its location, not its source
                i += 2
                continue
        if skipped:
            out.append(f"  [{plural(skipped, 'frame')} already shown above]")
            skipped = 0
        out.append(line)
        i += 1
    if skipped:
        out.append(f"  [{plural(skipped, 'frame')} already shown above]")
    return out


_LINE_LOCATION = lazy(r"^\S+:\d+: (?P<msg>\S.*)$")


def _line_entries(body: list[str]) -> list[list[str]] | None:
    """A ``--tb=line`` section split into entries, each ending with its ``path:N: message`` line;
    None when text follows the last location (not the shape this reads)."""
    entries: list[list[str]] = []
    cur: list[str] = []
    for line in body:
        if not line.strip() and not cur:
            continue
        cur.append(line)
        if _LINE_LOCATION.match(line):
            entries.append(cur)
            cur = []
    if any(x.strip() for x in cur):
        return None
    return entries


def compact_line_failures(body: list[str]) -> list[str]:
    """A ``--tb=line`` FAILURES section: one entry per failure (its ``E`` message and ``path:N:``
    location, which names no test: the short summary does). An entry identical to an earlier one
    is kept once, with its count."""
    entries = _line_entries(body)
    if entries is None:
        return body
    counts: dict[tuple[str, ...], int] = {}
    for entry in entries:
        key = tuple(x for x in entry if x.strip())
        counts[key] = counts.get(key, 0) + 1
    out: list[str] = []
    for key, n in counts.items():  # first-occurrence order
        out.extend(key)
        if n > 1:
            out.append(f"  [×{n} in all]")
    return out


_COVERAGE_RULE = lazy(r"^(?:-{3,}|_+ coverage: .* _+)$")
_PAIR_SPLIT = lazy(r", (?=[A-Za-z_]\w* = )")  # ``a = 1, b = 'x'``: pytest puts several arguments on a line
_LOCAL = lazy(r"^(?P<name>[A-Za-z_]\w*) += (?P<value>.*)$")  # --showlocals, names padded to align
_TRACEBACK_HEAD = "Traceback (most recent call last):"
_ADDRESS = lazy(r"object at 0x[0-9a-fA-F]+")


def _banner_class(name: str) -> tuple[str, str] | None:
    """``(Class, method)`` of a ``Class.method[params]`` / ``Class.method (subtest)`` banner, else None."""
    name = name.split(" ", 1)[0].split("[", 1)[0]
    cls, dot, meth = name.rpartition(".")
    return (cls.rpartition(".")[2], meth) if dot and cls and meth else None


def _is_test_instance(line: str, test_class: tuple[str, str] | None) -> bool:
    """True for ``self = <pkg.mod.Class object at 0x…>`` / ``<… testMethod=method>`` where the banner
    names ``Class.method``: the test case instance, which says nothing the banner does not."""
    if test_class is None or not (line.startswith("self = <") and line.endswith(">")):
        return False
    head, _, tail = line[8:-1].partition(" ")
    cls, meth = test_class
    return head.rpartition(".")[2] == cls and (tail == f"testMethod={meth}" or bool(_ADDRESS.fullmatch(tail)))


_LONG_REPEAT = 60  # a ``>`` line this long that repeats an earlier report's is shortened to a reference
_FIXTURE_FILE = lazy(r"^file (\S+), line (\d+)$")


def compact_failures(body: list[str]) -> list[str]:
    """A FAILURES/ERRORS section without source context, separators, padding or repeated frames.

    A section without test banners (``--tb=line``: one message per failure) goes through
    :func:`compact_line_failures`.
    """
    if not any(_banner(line) for line in body):
        return compact_line_failures(body)
    out: list[str] = []
    frame: list[str] = []
    last: list[str] | None = None
    repeats = 0
    seen_native: set[tuple[str, str]] = set()
    shown_args: set[str] = set()
    shown_lib: set[str] = set()
    shown_pairs: set[str] = set()  # ``name = value`` of the argument lines this test's report shows
    shown_long: set[str] = set()  # long ``>`` lines shown in this section (fixture lists, statements)
    test_class: tuple[str, str] | None = None
    banner_line: str | None = None

    def flush() -> None:
        nonlocal frame, last, repeats
        kept = _fold_native_frames(_compact_frame(frame), seen_native)
        frame = []
        if not kept:
            return
        if kept == last:
            repeats += 1
            return
        if repeats:
            out.append(f"(+ {plural(repeats, 'identical frame')})")
            repeats = 0
        last = kept
        lib_skipped = 0
        for x in kept:
            if x == _TRACEBACK_HEAD and out and out[-1] is banner_line:
                continue  # --tb=native: the banner already says this test failed; its frames follow
            if _LIBRARY_FRAME.match(x):
                if x in shown_lib:
                    lib_skipped += 1  # a library/stdlib frame an earlier report in this section showed
                    continue
                shown_lib.add(x)
            if lib_skipped:
                out.append(f"  [{plural(lib_skipped, 'library frame')} already shown above]")
                lib_skipped = 0
            if x.startswith(">") and len(x) >= _LONG_REPEAT:
                if x in shown_long:  # an earlier report of this section showed this very line
                    out.append(x[:_LONG_REPEAT // 2].rstrip() + "… [as above]")
                    continue
                shown_long.add(x)
            m = _FIXTURE_FILE.match(x)
            if m and f"{m.group(1)}:{m.group(2)}" in kept:
                continue  # a fixture lookup error's ``file P, line N``: its location line says the same
            if _ARGUMENT.match(x):
                if x in shown_args or _is_test_instance(x, test_class):
                    continue  # an argument value this test's report already shows (a wrapper's frame)
                shown_args.add(x)
                shown_pairs.update(_PAIR_SPLIT.split(x))
            else:
                m = _LOCAL.match(x)
                if m and f"{m.group('name')} = {m.group('value')}" in shown_pairs:
                    continue  # --showlocals: a local this report's argument values already show
                if m and m.group("name") == "self" and _is_test_instance(f"self = {m.group('value')}", test_class):
                    continue  # --showlocals: the test case instance the banner names
            out.append(x)
        if lib_skipped:
            out.append(f"  [{plural(lib_skipped, 'library frame')} already shown above]")

    captured = False
    for line in body:
        banner = _banner(line)
        cap = _CAPTURED.match(line)
        if banner or cap:
            flush()
            if repeats:
                out.append(f"(+ {plural(repeats, 'identical frame')})")
                repeats = 0
            last = None
            if banner:
                shown_args.clear()
                shown_pairs.clear()
                test_class = _banner_class(banner.group("name"))
            captured = bool(cap)
            banner_line = f"_ {banner.group('name')} _" if banner else f"-- {cap.group('title')} --"
            out.append(banner_line)
        elif captured:
            if line.strip():
                out.append(line)
        elif _FRAME_SEP.match(line):
            flush()
        else:
            frame.append(line)
    flush()
    if repeats:
        out.append(f"(+ {plural(repeats, 'identical frame')})")
    return out


_SKIP_LINE = lazy(r"^SKIPPED \[(?P<n>\d+)\] (?P<path>\S+?):(?P<line>\d+): (?P<reason>.*)$")
_SKIP_FOLD_MIN = 3


def fold_skip_reasons(lines: list[str]) -> list[str]:
    """``-rs``/``-ra``'s SKIPPED lines: those of one file with one reason (a skip decorator over a
    module's tests) are its first line plus one line naming the other line numbers; every location
    stays. Fewer than ``_SKIP_FOLD_MIN`` such lines stay as printed."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for x in lines:
        m = _SKIP_LINE.match(x)
        if m:
            groups.setdefault((m.group("n"), m.group("path"), m.group("reason")), []).append(m.group("line"))
    out: list[str] = []
    for x in lines:
        m = _SKIP_LINE.match(x)
        if not m:
            out.append(x)
            continue
        at = groups.get((m.group("n"), m.group("path"), m.group("reason")))
        if at is None:
            continue  # folded under its group's first line
        if len(at) < _SKIP_FOLD_MIN:
            out.append(x)
            continue
        out.append(x)
        out.append(f"  (+ {len(at) - 1} more SKIPPED [{m.group('n')}] with this reason: "
                   f"{m.group('path')} lines {', '.join(at[1:])})")
        groups[(m.group("n"), m.group("path"), m.group("reason"))] = None
    return out


def _rule(line: str) -> str:
    """A ``==== title ====`` rule without its padding."""
    m = _SECTION.match(line)
    return f"= {m.group('title')} =" if m else line


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact a pytest run; None when the output does not end with pytest's summary line."""
    lines = request.lines
    if any(line.startswith("INTERNALERROR>") for line in lines):
        return None
    final = _find_final(lines)
    if final is None:
        return None
    summary = lines[final]
    body = _FINAL.match(summary).group("body")
    red = any(w in body for w in ("failed", "error"))
    interrupted = any(line.startswith("!!!") for line in lines)
    if request.exit_code not in (None, 0) and not (red or interrupted or request.exit_code == 5):
        return None  # non-zero status the summary does not explain
    head, sections = _split_sections(lines[:final])
    out = list(compact_header(head))
    summary_at = summary_end = -1
    for title, rule, sbody in sections:
        if title == "warnings summary":
            out.append(rule)
            out.extend(fold_warnings(sbody))
        elif title == "short test summary info":
            # its FAILED/ERROR lines name themselves: the rule goes; a FAILED line heads its test's report
            # above instead of that report's banner (see _lead_with_summary)
            passed = [x for x in sbody if x.startswith("PASSED ")]
            summary_at = len(out)
            out.extend(fold_skip_reasons([x for x in sbody if not x.startswith("PASSED ")]))
            summary_end = len(out)
            if passed:
                out.append(f"(+ {len(passed)} passed)")
        elif title == "PASSES":
            if any(x.strip() for x in sbody):  # -rA with nothing captured prints the rule alone: it goes
                out.append(rule)
                out.append(f"(captured output of passing tests dropped: {plural(len(sbody), 'line')})")
        elif title == "tests coverage":  # pytest-cov: its table without the platform banner and rules
            out.append(rule)
            out.extend(x for x in sbody if x.strip() and not _COVERAGE_RULE.match(x))
        elif title in ("FAILURES", "ERRORS"):
            if not any(_banner(x) for x in sbody):
                out.append(rule)  # --tb=line: the rule says what the messages are; else the banners do
            out.extend(compact_failures(sbody))
        else:
            out.append(rule)
            out.extend(sbody)
    if summary_at >= 0:
        out = _lead_with_summary(out, summary_at, summary_end)
    out = [_rule(x) for x in out]
    out.append(summary.strip("= "))
    out.extend(lines[final + 1:])
    rendered = join_output(out)
    if not _names_every_failure(lines, rendered):
        return None  # a section this parse misread (a lost rule): a summary short of a failure is worse than none
    return shorter_or_none(rendered, request.text)


_SUMMARY_FAILED = lazy(r"^FAILED (?P<id>\S+?::.+?)(?: - .*)?$")
# a summary entry's first line; pytest's ``!!! stopping after N failures !!!``/``!!! Interrupted … !!!``
# line is one too (not a continuation of the FAILED line above it: it stays at the end, not in a report)
_SUMMARY_ENTRY = lazy(r"^(?:FAILED|ERROR|SKIPPED|XFAIL|XPASS|PASSED|SUBFAIL|SUBPASS)\b|^\(\+ |^  \(\+ |^!{3}")
_BANNER_OUT = lazy(r"^_ (?P<name>\S.*) _$")


def _lead_with_summary(out: list[str], start: int, end: int) -> list[str]:
    """The short summary's ``FAILED id - message`` entries (with their continuation lines) each move up
    to replace the ``_ name _`` banner of that test's report, which it names again: the report reads
    ``FAILED id - message`` then its frames. Only a banner and an entry that match one to one, the entry
    holding the banner's text as it stands (``path::test_f[params]`` for ``test_f[params]``; not
    ``path::Class::method`` for ``Class.method``), move; the others stay where they are."""
    entries: list[list[str]] = []
    for x in out[start:end]:
        if entries and not _SUMMARY_ENTRY.match(x):
            entries[-1].append(x)  # a summary line's continuation (a multi-line message)
        else:
            entries.append([x])
    by_key: dict[str, int] = {}
    for i, entry in enumerate(entries):
        m = _SUMMARY_FAILED.match(entry[0])
        if m:
            key = m.group("id").split("::", 1)[1].replace("::", ".")
            by_key[key] = -1 if key in by_key else i
    banners: dict[str, int] = {}
    for k in range(start):
        m = _BANNER_OUT.match(out[k])
        if m:
            name = m.group("name")
            banners[name] = -1 if name in banners else k
    moved: dict[int, int] = {}  # banner line -> entry
    for name, k in banners.items():
        i = by_key.get(name, -1)
        if k >= 0 and i >= 0 and name in entries[i][0]:  # the entry says the banner's text word for word
            moved[k] = i
    if not moved:
        return out
    taken = set(moved.values())
    new: list[str] = []
    for k in range(start):
        new.extend(entries[moved[k]] if k in moved else [out[k]])
    for i, entry in enumerate(entries):
        if i not in taken:
            new.extend(entry)
    new.extend(out[end:])
    return new


_SUMMARY_ID = lazy(r"^(?:SUB)?(?:FAILED|ERROR)(?:\(.*?\))? (?P<id>\S+(?:::\S+| \[\d+\]|\.py))(?: - |$)")


def _summary_ids(lines) -> set[str]:
    return {m.group("id") for m in map(_SUMMARY_ID.match, lines) if m}


def _names_every_failure(lines: list[str], rendered: str) -> bool:
    """True when every ``FAILED id``/``ERROR id`` summary line of the input is one of ``rendered`` too
    (sets of ids: linear, however many failures)."""
    return _summary_ids(lines) <= _summary_ids(rendered.splitlines())
