"""go test (plain, ``-v``, ``-json``): keep failing tests, panics and package results; drop passes.

Why: ``go test -v ./...`` prints ``=== RUN``/``--- PASS`` for every test and subtest;
the agent needs each ``--- FAIL:`` line with the log lines under it (file:line and
message), panics with their goroutine trace (the program's frames verbatim, runs of Go runtime
frames named on one line), build failures and the per-package
``ok``/``FAIL`` lines. ``-json`` is rendered as the same plain text: the output of
failed and skipped tests and of the packages themselves, nothing of tests that passed.

Dropped: ``=== RUN/PAUSE/CONT/NAME`` lines and ``--- PASS``/``--- SKIP`` result
lines are counted (a skip's line and its reason stay); ``-v``'s log lines, printed as they are made,
move under their test's result line (as the plain layout has them); a parent's ``--- FAIL`` line directly
followed by its subtest's with the same duration, go 1.19's repeated ``panic:`` line of a recovered panic and the bare
``FAIL`` after a package's ``FAIL`` line go; a run of only the test harness's frames is
counted, and a one-goroutine panic loses its ``goroutine N [running]:`` header; the race detector's
reports get the same frame folding. A run of more than five log entries from one call site keeps
its first three and its last, the others counted. A run cut short (a test started after the last package result, a package without
its final JSON action) returns None. ``-bench`` result lines lose their column padding (every figure
stays) and a ``goos:``/``goarch:``/``cpu:`` line repeated above the next package goes.
"""

from __future__ import annotations

import re

from ._common import join_output

_EVENT = re.compile(r"^=== (RUN|PAUSE|CONT|NAME)\s+\S")
_PASS = re.compile(r"^\s*--- PASS: \S+ \([\d.]+s\)$")
_SKIP = re.compile(r"^\s*--- SKIP: \S+ \([\d.]+s\)$")
_FAIL = re.compile(r"^\s*--- FAIL: \S+ \([\d.]+s\)$")
_PKG_OK = re.compile(r"^ok  \t\S+\t(\(cached\)|[\d.]+s)(\t.*| .*)?$")
_PKG_FAIL = re.compile(r"^FAIL\t\S+(\t[\d.]+s| \[(build|setup) failed\])$")
_PKG_NOTESTS = re.compile(r"^\?   \t\S+\t\[no test files\]$")
_BARE = re.compile(r"^(PASS|FAIL)$")
_PANIC = re.compile(r"^panic: |^fatal error: |^goroutine \d+ \[")
# `-bench`: a result line (name, iterations, then value-unit pairs, padded into columns) and the
# machine header printed again above every package's results
_BENCH_RESULT = re.compile(r"^Benchmark\S+[ \t]+\d+(?:[ \t]+[\d.]+ \S+)+$")
_BENCH_HEADER = re.compile(r"^(goos|goarch|cpu): \S")
_PADDING = re.compile(r"[ \t]{2,}|\t")


def render_go_json(text: str) -> str | None:
    """Plain text from ``go test -json`` events: output of failed and skipped tests and of packages; None if cut short."""
    import json

    plain: list[str] = []
    tests: dict[tuple, list[str]] = {}
    order: list[tuple] = []
    outcome: dict[tuple, str] = {}
    elapsed: dict[tuple, float] = {}
    packages: dict[str, str | None] = {}
    saw_event = False
    for line in text.splitlines():
        if not line.startswith("{"):
            plain.append(line)          # compiler errors and other stderr text arrive unwrapped
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            return None                 # a half-written event: truncated
        if not isinstance(ev, dict) or "Action" not in ev or "Package" not in ev:
            return None
        saw_event = True
        pkg, test, action = ev["Package"], ev.get("Test"), ev["Action"]
        packages.setdefault(pkg, None)
        if test is None:
            if action == "output":
                plain.append(("\x00pkg", pkg, ev.get("Output", "")))
            elif action in ("pass", "fail", "skip"):
                packages[pkg] = action
            continue
        key = (pkg, test)
        if key not in tests:
            tests[key] = []
            order.append(key)
        if action == "output":
            tests[key].append(ev.get("Output", ""))
            plain.append(("\x00test", key))
        elif action in ("pass", "fail", "skip"):
            outcome[key] = action
            elapsed[key] = ev.get("Elapsed", 0)
            if action == "fail":
                plain.append(("\x00test", key))  # shown here if no output event showed it first
    if not saw_event or any(v is None for v in packages.values()):
        return None
    out: list[str] = []
    shown: set[tuple] = set()
    for item in plain:
        if isinstance(item, str):
            out.append(item)
        elif item[0] == "\x00pkg":
            out.append(item[2].rstrip("\n"))
        else:
            key = item[1]
            if outcome.get(key) in ("fail", "skip") and key not in shown:  # a skip's reason, as in plain text
                shown.add(key)
                said = "".join(tests[key])
                if said:
                    out.extend(said.rstrip("\n").split("\n"))
                if outcome[key] == "fail" and f"--- FAIL: {key[1]} " not in said:
                    out.append(f"--- FAIL: {key[1]} ({elapsed[key]:.2f}s)")  # the fail event, its line lost
    return "\n".join(out)


_FRAME_FILE = re.compile(r"^\t(?P<file>/\S+\.go):\d+(?: \+0x[0-9a-f]+)?$")
_FUNC_PKG = re.compile(r"^(?:created by )?(?P<pkg>[\w./-]*?)\.(?:\(|\w)")
# the Go toolchain's own sources: GOROOT is .../go/src, /usr/lib/go-1.19/src, ~/sdk/go1.22.0/src,
# or the Go toolchain module (module path "golang" + ".org/toolchain@…/src")
_GOROOT_SRC = re.compile(r"/(?:go[\w.-]*|golang\.org/toolchain@[^/]+)/src/")


def _runtime_frame(func: str, file: str) -> bool:
    """A frame of the Go runtime or standard library (``testing.tRunner``, ``panic``, ``runtime.gopark``):
    a package path without a dot in its first element, in a file under the toolchain's ``src``."""
    m = _GOROOT_SRC.search(file)
    if m is None:
        return False
    if func.startswith("panic(") or func.startswith("panic({"):
        return True
    p = _FUNC_PKG.match(func)
    if p is None:
        return False
    pkg = p.group("pkg")
    top = file[m.end():].split("/", 1)[0]  # the std directory the file is in (linkname'd code: sync → runtime)
    return pkg != "main" and "." not in pkg.split("/", 1)[0] and "." not in top


def _func_name(line: str) -> str:
    """``testing.(*M).startAlarm.func1()`` → ``testing.(*M).startAlarm.func1``: the function line
    without its final argument list (balanced from the end, so receivers like ``(*T)`` stay)."""
    if line.startswith("created by ") or not line.endswith(")"):
        return line
    depth = 0
    for k in range(len(line) - 1, -1, -1):
        if line[k] == ")":
            depth += 1
        elif line[k] == "(":
            depth -= 1
            if depth == 0:
                return line[:k]
    return line


# the test harness's frames around every test's panic: a run made only of them is counted, not named
_HARNESS = re.compile(r"^(?:created by )?testing\.|^panic\(\)$")


def fold_runtime_frames(block: list[str]) -> list[str]:
    """A panic's lines with each run of Go runtime/standard-library frames (function line and
    ``\tfile:line`` line) replaced by one line naming their functions (only counting them when
    they are all the test harness's: ``testing.tRunner``, ``panic``); the program's frames,
    the panic message and the goroutine headers stay verbatim."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            names = "" if all(_HARNESS.match(x) for x in run) else ": " + ", ".join(run)
            out.append(f"\t[{len(run)} Go runtime frame{'s' if len(run) > 1 else ''}{names}]")
            run.clear()

    i = 0
    while i < len(block):
        line = block[i]
        at = _FRAME_FILE.match(block[i + 1]) if i + 1 < len(block) else None
        if at and line and not line[0].isspace() and _runtime_frame(line, at.group("file")):
            run.append(line if line.startswith("created by ") else _func_name(line) + "()")
            i += 2
            continue
        flush()
        out.append(line)
        i += 1
    flush()
    return out


def _drop_lone_running_header(out: list[str]) -> list[str]:
    """A panic with one goroutine's stack: its ``goroutine N [running]:`` header (and the blank line
    before it) says nothing the panic message above does not; a dump of several goroutines keeps them."""
    heads = [k for k, x in enumerate(out) if x.startswith("goroutine")]
    if len(heads) != 1 or not _GOROUTINE.match(out[heads[0]]) or not out[heads[0]].endswith(" [running]:"):
        return out
    k = heads[0]
    j = k
    while j > 0 and not out[j - 1].strip():
        j -= 1
    if j == 0 or not out[j - 1].startswith("panic: "):
        return out
    return out[:j] + out[k + 1:]


_GOROUTINE = re.compile(r"^goroutine (?P<id>\d+) \[(?P<state>[^\]]+)\]:$")


def fold_identical_goroutines(lines: list[str]) -> list[str]:
    """A goroutine dump (a panic, a test timeout) without stacks repeated word for word: a goroutine
    whose frames (argument values included) equal an earlier one's is named on one line with the
    others like it that follow, ``goroutines 20, 22, 23 [chan receive]: the same stack as goroutine 19``."""
    out: list[str] = []
    first: dict[tuple, str] = {}
    i = 0
    while i < len(lines):
        m = _GOROUTINE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() and not _GOROUTINE.match(lines[j]) and (
                lines[j].startswith("\t") or not _PKG_FAIL.match(lines[j]) and not _BARE.match(lines[j])):
            j += 1
        key = (m.group("state"), tuple(lines[i + 1:j]))
        if key in first and j > i + 1:
            tail = f" [{m.group('state')}]: the same stack as goroutine {first[key]}"
            k = len(out) - 1
            while k >= 0 and not out[k].strip():
                k -= 1
            if k >= 0 and out[k].startswith("goroutine") and out[k].endswith(tail) and " [" in out[k]:
                ids = out[k][:-len(tail)].split(" ", 1)[1]
                del out[k:]
                out.append(f"goroutines {ids}, {m.group('id')}{tail}")
            else:
                out.append(f"goroutine {m.group('id')}{tail}")
            i = j
            continue
        first.setdefault(key, m.group("id"))
        out.extend(lines[i:j])
        i = j
    return out


_FAIL_NAME = re.compile(r"^(?P<indent>\s*)--- FAIL: (?P<name>\S+) (?P<took>\([\d.]+s\))$")


def drop_implied_parents(out: list[str]) -> list[str]:
    """Drop a ``--- FAIL: TestX`` line directly followed by its subtest's ``--- FAIL: TestX/case``
    with the same duration: the subtest's line names it, and a parent fails when a subtest does. A
    parent that took longer (other subtests ran) keeps its line: its duration is said nowhere else."""
    kept: list[str] = []
    for i, line in enumerate(out):
        m = _FAIL_NAME.match(line)
        if m and i + 1 < len(out):
            sub = _FAIL_NAME.match(out[i + 1])
            if (sub and len(sub.group("indent")) > len(m.group("indent"))
                    and sub.group("name").startswith(m.group("name") + "/") and sub.group("took") == m.group("took")):
                continue
        kept.append(line)
    return kept


_RACE_FUNC = re.compile(r"^  (?P<func>\S.*)$")
_RACE_AT = re.compile(r"^      (?P<file>/\S+\.go):\d+(?: \+0x[0-9a-f]+)?$")


def fold_race_frames(out: list[str]) -> list[str]:
    """The race detector's report (``WARNING: DATA RACE``: the two accesses' stacks and the stacks
    that created their goroutines, two-space function lines over six-space ``file:line`` lines) with
    each run of Go runtime/standard-library frames named on one line, as in a panic: a run of only the
    test harness's (``testing.tRunner``) counted. The program's frames stay verbatim. One pass."""
    if "WARNING: DATA RACE" not in out:
        return out
    kept: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            names = "" if all(_HARNESS.match(x) for x in run) else ": " + ", ".join(run)
            kept.append(f"      [{len(run)} Go runtime frame{'s' if len(run) > 1 else ''}{names}]")
            run.clear()

    i, n = 0, len(out)
    while i < n:
        f = _RACE_FUNC.match(out[i])
        at = _RACE_AT.match(out[i + 1]) if f and i + 1 < n else None
        if at and _runtime_frame(f.group("func"), at.group("file")):
            func = f.group("func")
            run.append(func if func.startswith("created by ") else _func_name(func) + "()")
            i += 2
            continue
        flush()
        kept.append(out[i])
        i += 1
    flush()
    return kept


_LOG_ENTRY = re.compile(r"^(?P<indent> {4,})(?P<site>[\w.-]+\.go:\d+): ")
_KEEP_FIRST, _KEEP_LAST = 3, 1


def fold_log_sites(out: list[str]) -> list[str]:
    """A run of a test's log entries made at one call site (``t.Errorf`` in a table loop: the same
    ``bufio_test.go:167:`` on every line) keeps its first three entries and its last, the ones between
    counted on one line: ``[dropped: 143 more entries logged at bufio_test.go:167]``. An entry is the
    ``    file.go:N: …`` line with its deeper-indented continuation lines (a multi-line message). Runs of
    fewer than six entries stay whole. When every dropped entry is multi-line and opened by a line of its
    own (a table case's name), those opening lines stay and only their detail lines are counted. One pass."""
    entries: list[tuple[int, int, str]] = []   # (start, end, indent+site) of each log entry, in order
    i, n = 0, len(out)
    while i < n:
        m = _LOG_ENTRY.match(out[i])
        if not m:
            i += 1
            continue
        ind = len(m.group("indent"))
        j = i + 1
        while j < n and out[j].startswith(" " * (ind + 1)) and not _LOG_ENTRY.match(out[j][:ind] + out[j].lstrip()):
            j += 1
        entries.append((i, j, m.group("indent") + m.group("site")))
        i = j
    cut: dict[int, tuple[int, str]] = {}       # first dropped line -> (past the last dropped line, marker)
    k = 0
    while k < len(entries):
        r = k
        while r + 1 < len(entries) and entries[r + 1][2] == entries[k][2] and entries[r + 1][0] == entries[r][1]:
            r += 1
        size = r - k + 1
        if size >= _KEEP_FIRST + _KEEP_LAST + 2:
            a = entries[k + _KEEP_FIRST][0]
            b = entries[r - _KEEP_LAST + 1][0]
            key = entries[k][2]
            site = key.lstrip()
            indent = key[:len(key) - len(site)]
            dropped = entries[k + _KEEP_FIRST:r - _KEEP_LAST + 1]
            heads = [out[e[0]] for e in dropped]
            if all(e[1] - e[0] > 1 for e in dropped) and len(set(heads)) == len(heads):
                # multi-line entries each opened by its own line (``--- test: 12a (written all at once)``):
                # those lines name the failing cases and stay; their detail lines are counted
                detail = sum(e[1] - e[0] - 1 for e in dropped)
                cut[a] = (b, heads + [f"{indent}[dropped: {detail} detail lines of the {len(heads)} entries above]"])
            else:
                cut[a] = (b, [f"{indent}[dropped: {size - _KEEP_FIRST - _KEEP_LAST} more entries logged at {site}]"])
        k = r + 1
    if not cut:
        return out
    kept: list[str] = []
    i = 0
    while i < n:
        if i in cut:
            b, replacement = cut[i]
            kept.extend(replacement)
            i = b
            continue
        kept.append(out[i])
        i += 1
    return kept


_EVENT_NAME = re.compile(r"^=== (?P<ev>RUN|PAUSE|CONT|NAME)\s+(?P<name>\S+)$")
_RESULT_NAME = re.compile(r"^\s*--- (?P<outcome>PASS|FAIL|SKIP): (?P<name>\S+) \([\d.]+s\)$")


def regroup_verbose(lines: list[str]) -> list[str]:
    """``go test -v`` prints a test's log lines when they are made, under its ``=== RUN``/``CONT``/``NAME``
    header (go 1.14+ names the test again whenever the output switches tests), and its ``--- FAIL`` line
    later, in the tree of results. Move each test's lines under its own result line, as the plain layout
    has them, so a failure's message sits under the id it belongs to. Lines after a result line, panics,
    package results and lines of a test that never reports are left where they are. One pass."""
    out: list[str] = []
    held: dict[str, list[str]] = {}     # test name -> its log lines not yet placed
    current: str | None = None

    def release() -> None:
        for name in list(held):
            out.extend(held.pop(name))

    for line in lines:
        ev = _EVENT_NAME.match(line)
        if ev:
            if ev.group("ev") != "PAUSE":
                current = ev.group("name")
            out.append(line)
            continue
        res = _RESULT_NAME.match(line)
        if res:
            out.append(line)
            pad = line[:len(line) - len(line.lstrip())]   # a subtest's lines go under its own indented line
            out.extend(pad + x for x in held.pop(res.group("name"), ()))
            current = None
            continue
        if (_PANIC.match(line) or _PKG_OK.match(line) or _PKG_FAIL.match(line) or _PKG_NOTESTS.match(line)
                or _BARE.match(line)):
            release()
            current = None
            out.append(line)
            continue
        if current is None:
            out.append(line)
        else:
            held.setdefault(current, []).append(line)
    release()
    return out


def format_go_test(text: str, exit_code: int | None, json_mode: bool) -> str | None:
    """The compact rendering of a ``go test`` run, or None."""
    if json_mode:
        rendered = render_go_json(text)
        if rendered is None:
            return None
        text = rendered
    lines = text.splitlines()
    if any(_EVENT.match(l) for l in lines):
        lines = regroup_verbose(lines)
    out: list[str] = []
    bench_headers: set[str] = set()
    counts = {"passed": 0, "skipped": 0}
    last_pkg_result = -1
    last_test_line = -1
    in_panic = False
    pkg_failed = False
    frames_from = -1
    for i, line in enumerate(lines):
        if in_panic and line.startswith("\tpanic: ") and out and out[-1] == line[1:] + " [recovered]":
            continue  # go 1.19-1.20 repeat a recovered-and-repanicked message word for word
        if in_panic:
            # A panic's paragraph (goroutine trace and whatever follows it up to the next
            # blank line) stays but for the Go runtime's own frames, named on one line.
            # It ends at a blank line, a package result or the next test's line.
            ends = (not line.strip() or _PKG_FAIL.match(line) or _PKG_OK.match(line) or _PKG_NOTESTS.match(line)
                    or _EVENT.match(line) or _PASS.match(line) or _FAIL.match(line) or _SKIP.match(line))
            if ends:
                in_panic = False
                out[frames_from:] = fold_runtime_frames(out[frames_from:])
            else:
                out.append(line)
                continue
        if _PANIC.match(line):
            if not in_panic:
                frames_from = len(out)
            in_panic = True
            out.append(line)
            continue
        if _EVENT.match(line):
            last_test_line = i
            continue
        if _PASS.match(line):
            counts["passed"] += 1
            last_test_line = i
            continue
        if _SKIP.match(line):
            counts["skipped"] += 1
            out.append(line)
            last_test_line = i
            continue
        if _FAIL.match(line):
            last_test_line = i
            out.append(line)
            continue
        if _PKG_NOTESTS.match(line):
            last_pkg_result = i
            out.append(line)
            continue
        if _PKG_OK.match(line) or _PKG_FAIL.match(line):
            last_pkg_result = i
            pkg_failed = pkg_failed or line.startswith("FAIL")
            out.append(line)
            continue
        if _BARE.match(line) and line == "PASS":
            continue                    # the package's `ok` line follows
        if line == "FAIL" and (pkg_failed or (i + 1 < len(lines) and _PKG_FAIL.match(lines[i + 1]))):
            continue                    # the verdict: the package's `FAIL` line (above or next) says it
        if _BENCH_RESULT.match(line):
            out.append(_PADDING.sub(" ", line))   # the columns' padding goes, every figure stays
            continue
        if _BENCH_HEADER.match(line):
            if line in bench_headers:
                continue                # the same machine, said again for the next package
            bench_headers.add(line)
        out.append(line)
    if in_panic:
        out[frames_from:] = fold_runtime_frames(out[frames_from:])
    out = fold_race_frames(fold_log_sites(_drop_lone_running_header(fold_identical_goroutines(
        drop_implied_parents(out)))))
    if last_pkg_result < 0 or last_test_line > last_pkg_result:
        return None                     # no package result, or tests ran after the last one: cut short
    if exit_code not in (None, 0) and not any(_FAIL.match(l) or _PKG_FAIL.match(l) or l == "FAIL" for l in out):
        return None
    extra = [f"{n} {k}" for k, n in counts.items() if n]
    if extra:
        out.append(f"(+ {', '.join(extra)})")
    return join_output(out)
