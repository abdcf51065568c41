"""The held-out native captures (``ho_*``: real crates, Lua 5.4, the Go standard library) and the
reductions they led to: what each keeps, what it drops, and that damaged input (cut short, two jobs
interleaved) gives a complete rendering or None, never a wrong count.

- rust: a note a lint repeats under every hit is said once (``rust_diag.RepeatedNotes``);
  ``cargo --message-format short`` is handled;
- go test: a run of log entries from one call site keeps its first three and its last
  (``go_test.fold_log_sites``);
- gcc/clang: an overload set listed whole keeps its first three candidates and its last
  (``c_diagnostics.fold_candidate_runs``);
- make: link and archive steps stay (they name the artefacts).
"""

from __future__ import annotations

import itertools
import re

from fmt_test_suite import other
from hypothesis import given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest
from sqz_testing import fact_kept

from sqz_formatters_test import c_diagnostics, c_make, go_test, go_tool, rust_cargo, rust_diag, rust_rustc


def _fx(family: str, name: str):
    fx = other(family, name)
    return fx.request().text, fx.command, fx.meta.get("exit_code")


def _prefix(module, family: str, name: str, cut: float):
    """The first ``cut`` share of a fixture's lines, and what ``module`` makes of them (None: passthrough)."""
    text, command, code = _fx(family, name)
    lines = text.splitlines(keepends=True)
    part = "".join(lines[:int(len(lines) * cut)])
    return part, module.sqz_format(request=FormatRequest(part, command, exit_code=code))


def _run(module, family: str, name: str):
    text, command, code = _fx(family, name)
    return text, module.sqz_format(request=FormatRequest(text, command, exit_code=code))


# ------------------------------------------------------------------ cargo: the version of a crate an error names

def test_cargo_keeps_the_compiling_line_of_a_crate_an_error_names():
    # `toml::Table` is unresolved because the build got toml 0.5.11: that version is the diagnosis
    text, out = _run(rust_cargo, "cargo", "ho_dep_api_mismatch")
    lines = out.splitlines()
    assert "   Compiling toml v0.5.11" in lines
    assert lines[0] == "[dropped: Locking, Compiling ×8]"
    # serde and semver: their registry sources (serde-1.0.152/src/…, semver-1.0.14/src/…) show the version
    assert "Compiling serde v1.0.152" not in out and "Compiling semver v1.0.14" not in out
    assert "semver-1.0.14/src/lib.rs:470:12" in out
    # crates nobody names stay counted
    assert "proc-macro2" not in out and "Compiling syn" not in out


def test_cargo_green_or_panicking_builds_keep_no_compiling_line():
    green = "   Compiling toml v0.5.11\n    Finished `dev` profile [unoptimized] target(s) in 1.0s\n"
    out = rust_cargo.sqz_format(request=FormatRequest(green, "cargo build", exit_code=0))
    assert "Compiling toml" not in (out or "")
    assert rust_cargo.named_dependencies(["   Compiling toml v0.5.11"], ["toml::Table is gone"]) == []


# ------------------------------------------------------------------ rust: repeated notes said once

_CFG_HEAD = re.compile(r"^warning: unexpected `cfg` condition name: `(\w+)`$")
_RUST_LOC = re.compile(r"^\s*--> (\S+:\d+:\d+)$")


def test_cfg_warnings_each_hit_kept_its_notes_said_once():
    text, out = _run(rust_cargo, "cargo", "ho_semver_test_cfg_warnings")
    lines = text.splitlines()
    hits = [(m.group(1), _RUST_LOC.match(lines[i + 1]).group(1))
            for i, x in enumerate(lines) if (m := _CFG_HEAD.match(x))]
    assert len(hits) == 42 and len(set(hits)) == 41  # cargo prints one hit again for the test target
    rendered = out.splitlines()
    for name, loc in hits:  # every hit: its name and location on one line
        assert any(f"`{name}`" in x and x.endswith(f"--> {loc}") for x in rendered), (name, loc)
    # the shared help, said under the first hit only
    assert out.count("= help: consider using a Cargo feature instead") == 1
    assert out.count("check-cfg = ['cfg(") == 1
    assert out.count("(notes as above)") == len(hits) - 1
    # the first hit's own note (the expected names) stays
    assert "= help: expected names are: `docsrs`, `feature`, and `test` and 31 more" in out
    assert "test result: ok. 19 passed; 0 failed; 0 ignored" in out
    assert "test test_caret ... ok" not in out


def test_a_note_not_seen_before_under_its_kind_stays():
    text, out = _run(rust_cargo, "cargo", "ho_dep_api_mismatch")
    assert out.count("= help: the following other types implement trait `Deserialize<'de>`:") == 1
    assert out.count("(notes as above)") == 2
    # the third E0277's macro note was not under the first: kept
    assert "= note: this error originates in the derive macro `Deserialize`" in out
    # each E0277 keeps its own bound
    for bound in ("`SeqAccess::next_element`", "`MapAccess::next_value`", "`missing_field`"):
        assert f"^ required by this bound in {bound}" in out
    # E0308's notes are of another kind: kept
    assert "= note: expected reference `&str`" in out


def test_notes_differing_beyond_the_hit_names_are_kept():
    """Two real hits whose second help names the first hit's cfg (not its own): not the same note."""
    text = other("cargo", "ho_semver_test_cfg_warnings").request().text
    blocks = [b[b.index("warning: unexpected"):] for b in text.split("\n\n") if "warning: unexpected" in b]
    first, second = blocks[0], blocks[1]
    assert "`doc_cfg`" in first and "`no_alloc_crate`" in second
    changed = second.replace("cfg(no_alloc_crate)", "cfg(doc_cfg)")
    memo = rust_diag.RepeatedNotes()
    memo.apply(rust_diag.compress_error(first.splitlines()))
    out = memo.apply(rust_diag.compress_error(changed.splitlines()))
    assert "cfg(doc_cfg)" in "\n".join(out)       # kept: it says something the first hit's note did not
    assert "(notes as above)" in out[0]          # the notes equal up to the name still went
    same = memo.apply(rust_diag.compress_error(second.splitlines()))
    assert len(same) == 1 and same[0].endswith("(notes as above) --> src/lib.rs:65:43")


def test_clippy_pedantic_every_warning_located():
    text, out = _run(rust_cargo, "cargo", "ho_semver_clippy_pedantic")
    locs = [m.group(1) for x in text.splitlines() if (m := _RUST_LOC.match(x))]
    assert len(locs) == 44
    for loc in locs:
        assert f"--> {loc}" in out
    assert "https://rust-lang.github.io/rust-clippy" not in out  # clippy's lint links go
    assert "warning: `semver` (lib) generated 44 warnings" in out


def test_quiet_test_run_failures_kept():
    _, out = _run(rust_cargo, "cargo", "ho_semver_test_quiet_fail")
    for name in ("test_display", "test_greater_than", "test_multiple", "src/lib.rs - (line 19)"):
        assert f"{name} --- FAILED" in out
    assert "error: 3 targets failed:" in out


def test_message_format_short_is_handled():
    text, out = _run(rust_cargo, "cargo", "ho_dep_api_mismatch_short")
    assert out is not None
    assert "Compiling tomluser" not in out
    for x in text.splitlines():
        if ": error[E" in x:
            assert x in out
    cmd = "cargo build --message-format json"
    assert rust_cargo.sqz_format(request=FormatRequest(text, cmd, exit_code=101)) is None


def test_rustc_borrowck_every_error_located():
    text, out = _run(rust_rustc, "rustc", "ho_borrowck")
    for loc in ("src/main.rs:16:5", "src/main.rs:21:5", "src/main.rs:27:5", "src/main.rs:33:14", "src/main.rs:48:30"):
        assert f"--> {loc}" in out
    assert "/rustc/" not in out


_RUST_CASES = [("cargo", "ho_semver_test_cfg_warnings"), ("cargo", "ho_semver_clippy_pedantic"),
               ("cargo", "ho_dep_api_mismatch"), ("rustc", "ho_borrowck")]
_RUST_MOD = {"cargo": rust_cargo, "rustc": rust_rustc}
_RUST_HEAD = re.compile(r"^(?:error|warning)(?:\[E\d+\])?: (?!could not compile|aborting due)(?!`\w+` \(\w+)")


def _rust_complete_or_none(family: str, text: str, command: str, code) -> None:
    out = _RUST_MOD[family].sqz_format(request=FormatRequest(text, command, exit_code=code))
    if out is None:
        return
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _RUST_LOC.match(line)
        if m and not m.group(1).startswith("/rustc/"):
            assert m.group(1) in out, m.group(1)
        elif _RUST_HEAD.match(line):
            assert line[:60] in out, line
    # a hit says its notes are as above only when an earlier hit of its kind is shown above it
    shown = out.splitlines()
    for k, x in enumerate(shown):
        if "(notes as above)" in x:
            kind = re.sub(r"`[^`]*`", "`_`", x.split(" (notes as above)")[0].split(" [")[0])
            assert any(re.sub(r"`[^`]*`", "`_`", y.split(" [")[0].split(" -->")[0]) == kind
                       for y in shown[:k]), x


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(_RUST_CASES), cut=st.floats(min_value=0.0, max_value=1.0))
def test_rust_prefix_complete_or_none(case, cut):
    text, command, code = _fx(*case)
    lines = text.splitlines(keepends=True)
    _rust_complete_or_none(case[0], "".join(lines[:int(len(lines) * cut)]), command, code)


@settings(max_examples=40, deadline=None)
@given(chunk=st.integers(min_value=1, max_value=9), cut=st.floats(min_value=0.0, max_value=1.0))
def test_rust_two_jobs_interleaved_complete_or_none(chunk, cut):
    ta, command, _ = _fx("cargo", "ho_semver_clippy_pedantic")
    tb = _fx("cargo", "ho_dep_api_mismatch")[0]
    la, lb = ta.splitlines(keepends=True), tb.splitlines(keepends=True)
    ca = ["".join(la[i:i + chunk]) for i in range(0, len(la), chunk)]
    cb = ["".join(lb[i:i + chunk]) for i in range(0, len(lb), chunk)]
    lines = "".join(x for p in itertools.zip_longest(ca, cb, fillvalue="") for x in p).splitlines(keepends=True)
    _rust_complete_or_none("cargo", "".join(lines[:max(1, int(len(lines) * cut))]), command, 101)


# ------------------------------------------------------------------ go test: log entries per call site

_LOG = re.compile(r"^    (\w+_test\.go:\d+): ")
_MARK = re.compile(r"^\s*\[dropped: (\d+) more entries logged at (\S+)\]$")


def _go_log_accounting(text: str, out: str) -> None:
    """Every ``--- FAIL`` line kept; per call site, entries kept + entries counted = entries logged."""
    for x in text.splitlines():
        if x.startswith("--- FAIL: ") or x.startswith(("FAIL\t", "ok  \t")):
            assert x.split(" (")[0] in out, x
    logged: dict[str, int] = {}
    for x in text.splitlines():
        if m := _LOG.match(x):
            logged[m.group(1)] = logged.get(m.group(1), 0) + 1
    kept: dict[str, int] = {}
    for x in out.splitlines():
        if m := _LOG.match(x):
            kept[m.group(1)] = kept.get(m.group(1), 0) + 1
        elif m := _MARK.match(x):
            kept[m.group(2)] = kept.get(m.group(2), 0) + int(m.group(1))
    assert kept == logged


def test_go_log_runs_keep_first_three_and_last():
    text, out = _run(go_tool, "go", "ho_stdcopy_test_fail")
    _go_log_accounting(text, out)
    entries = [x for x in text.splitlines() if x.startswith("    bufio_test.go:167: ")]
    for x in entries[:3] + entries[-1:]:
        assert x in out
    assert entries[3] not in out
    assert f"    [dropped: {len(entries) - 4} more entries logged at bufio_test.go:167]" in out
    # a multi-line entry stays whole: the tabwriter's found/expected pairs
    assert '        "........**"' in out and '        ".......**"' in out
    # short runs stay whole
    assert out.count("list_test.go:11: l.Len() = 2, want 1") == 2
    # the panic keeps the program's frames
    assert "/tmp/sqz-capture/ho-gostd-red/bufio/bufio.go:95 +0x1c5" in out
    assert len(out) * 5 < len(text)


def test_go_log_run_of_multiline_cases_keeps_every_case_name():
    # tabwriter's table: 15 entries at tabwriter_test.go:57, each a case name over its src/found/expected
    text, out = _run(go_tool, "go", "ho_stdcopy_test_fail")
    names = [x for x in text.splitlines() if x.startswith("    tabwriter_test.go:57: --- test: ")]
    assert len(names) == 15
    for x in names:                                       # every failing case named
        assert x in out.splitlines(), x
    assert "    [dropped: 66 detail lines of the 11 entries above]" in out
    assert out.count('        "a\\v\\vb"') == 1            # detail of 15d: only its last mode's shown
    # single-line entries still fold to a count
    lines = ["--- FAIL: TestX (0.00s)"] + [f"    x_test.go:10: case {k}" for k in range(8)]
    assert go_test.fold_log_sites(lines)[4] == "    [dropped: 4 more entries logged at x_test.go:10]"
    # multi-line entries with the same opening line: counted as before (the line names nothing new)
    same = ["--- FAIL: TestY (0.00s)"] + ["    y_test.go:5: mismatch", "        got 1"] * 8
    assert "    [dropped: 4 more entries logged at y_test.go:5]" in go_test.fold_log_sites(same)


@settings(max_examples=60, deadline=None)
@given(cut=st.floats(min_value=0.0, max_value=1.0))
def test_go_log_fold_prefix_complete_or_none(cut):
    part, out = _prefix(go_tool, "go", "ho_stdcopy_test_fail", cut)
    if out is not None:
        _go_log_accounting(part, out)


def test_go_log_fold_only_runs_of_one_site():
    lines = ["--- FAIL: TestX (0.00s)"]
    lines += [f"    x_test.go:{10 + (k % 2)}: case {k}" for k in range(12)]  # alternating sites: no run
    assert go_test.fold_log_sites(lines) == lines


# ------------------------------------------------------------------ gcc/clang: overload sets

_C = re.compile(r"^(?P<path>\S[^:]*):(?P<lc>\d+:\d+): (?P<sev>error|warning|note|fatal error): ")
_NOTE_OUT = re.compile(r"^\s*(?:\S[^:]*:)?\d+:\d+: note: ")
_REPEATED = re.compile(r"^\[(\d+) repeated note lines dropped\]", re.M)
_CANDIDATES = re.compile(r"^\[dropped: (\d+) more candidates, (\d+) note lines\]$", re.M)


def _cc_accounting(text: str, out: str) -> None:
    """Every error and warning kept; notes in = notes out + the notes the marks count."""
    for x in text.splitlines():
        m = _C.match(x)
        if m and m.group("sev") in ("error", "warning"):
            base = m.group("path").rsplit("/", 1)[-1]
            assert fact_kept(out, {"under": base, "line": [m.group("lc"), m.group("sev"), x[m.end():][:40]]}), x
    notes_in = sum(1 for x in text.splitlines() if (m := _C.match(x)) and m.group("sev") == "note")
    notes_out = sum(1 for x in out.splitlines() if _NOTE_OUT.match(x))  # grouped by file: `  135:7: note:`
    counted = sum(int(n) for n in _REPEATED.findall(out)) + sum(int(n) for _, n in _CANDIDATES.findall(out))
    assert notes_in - notes_out == counted


def test_gxx_overload_set_keeps_first_three_and_last():
    text, out = _run(c_diagnostics, "cc", "ho_gxx_stl_errors")
    _cc_accounting(text, out)
    assert "[dropped: 28 more candidates, " in out
    cands = [x for x in text.splitlines() if "ostream" in x and ": note: candidate: " in x]
    assert cands[0] in out and cands[-1] in out
    for req in ("src/inventory.cpp:12:14:   required from here", "src/inventory.cpp:20:19:   required from here",
                "src/inventory.cpp:28:20:   required from here"):
        assert req in out


def test_clang_overload_set_keeps_first_three_and_last():
    text, out = _run(c_diagnostics, "cc", "ho_clangxx_stl_errors")
    _cc_accounting(text, out)
    assert "[dropped: 28 more candidates, 28 note lines]" in out
    assert "9 errors generated." in out


def test_short_candidate_lists_stay_whole():
    text, out = _run(c_diagnostics, "cc", "gxx_template_error")
    assert "more candidates" not in out
    _cc_accounting(text, out)


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(["ho_gxx_stl_errors", "ho_clangxx_stl_errors"]),
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_candidate_fold_prefix_complete_or_none(name, cut):
    part, out = _prefix(c_diagnostics, "cc", name, cut)
    if out is not None:
        _cc_accounting(part, out)


@settings(max_examples=40, deadline=None)
@given(chunk=st.integers(min_value=1, max_value=9), cut=st.floats(min_value=0.0, max_value=1.0))
def test_candidate_fold_two_jobs_interleaved_complete_or_none(chunk, cut):
    ta, command, _ = _fx("cc", "ho_gxx_stl_errors")
    tb = _fx("cc", "gxx_multi_file")[0]
    la, lb = ta.splitlines(keepends=True), tb.splitlines(keepends=True)
    ca = ["".join(la[i:i + chunk]) for i in range(0, len(la), chunk)]
    cb = ["".join(lb[i:i + chunk]) for i in range(0, len(lb), chunk)]
    lines = "".join(x for p in itertools.zip_longest(ca, cb, fillvalue="") for x in p).splitlines(keepends=True)
    part = "".join(lines[:max(1, int(len(lines) * cut))])
    out = c_diagnostics.sqz_format(request=FormatRequest(part, command, exit_code=1))
    if out is not None:
        _cc_accounting(part, out)


# ------------------------------------------------------------------ make: artefacts named

_ECHO = re.compile(r"^(?:gcc|clang|ar|ranlib) ")


_FOLD = re.compile(r" \[×(\d+)(?:, per line:)?\]$")


def _make_accounting(text: str, out: str) -> None:
    """Echoes kept + echoes folded into a template + echoes counted = echoes printed; every word of a
    compiler command is on the page; every diagnostic and make error kept."""
    echoes = sum(1 for x in text.splitlines() if _ECHO.match(x))
    kept = sum(1 for x in out.splitlines() if _ECHO.match(x) and not _FOLD.search(x))
    folded = sum(int(m.group(1)) for x in out.splitlines() if _ECHO.match(x) and (m := _FOLD.search(x)))
    m = re.search(r"^\[dropped: (.*) command lines\]$", out, re.M)
    said = 0
    if m:
        said = sum(int(k.group(1)) if (k := re.search(r" ×(\d+)$", item)) else 1 for item in m.group(1).split(", "))
    assert kept + folded + said == echoes
    words = set(out.replace(";", " ").split())
    for x in text.splitlines():
        if x.startswith(("gcc ", "clang ")):
            assert set(x.split()) <= words, x
    for x in text.splitlines():
        if _C.match(x) and " note: " not in x or x.startswith("make: ***") or "undefined reference" in x:
            assert x in out, x


def test_make_green_names_its_artefacts_only():
    text, out = _run(c_make, "make", "ho_lua_green_j2")
    _make_accounting(text, out)
    lines = out.splitlines()
    assert lines[0].startswith("gcc -Wall -O2 -Wfatal-errors ") and lines[0].endswith(" -c -o * * [×34, per line:]")
    assert lines[1].startswith("lapi.o lapi.c; lcode.o lcode.c; ")
    assert "[dropped: ranlib command lines]" in lines
    assert "ar rc liblua.a lapi.o" in out and "gcc -o lua " in out


def test_make_link_error_keeps_the_failing_link():
    text, out = _run(c_make, "make", "ho_lua_link_error_j2")
    _make_accounting(text, out)
    assert "gcc -o lua " in out
    assert "lutf8lib.c:(.text+0x82d): undefined reference to `utf8_decode_strict'" in out


def test_make_clang_interleaved_warnings_counted_once_per_file():
    text, out = _run(c_make, "make", "ho_lua_clang_unknown_flags")
    _make_accounting(text, out)
    assert "clang -o lua " in out


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["ho_lua_green_j2", "ho_lua_link_error_j2", "ho_lua_warnings_j2"]),
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_make_prefix_complete_or_none(name, cut):
    part, out = _prefix(c_make, "make", name, cut)
    if out is not None:
        _make_accounting(part, out)


def test_artefact_steps_are_links_and_archives_only():
    steps = c_make._is_artefact_step
    assert steps("gcc -o lua lua.o liblua.a -lm", "gcc")
    assert steps("ar rcs libutil.a util.o", "ar")
    assert not steps("gcc -Wall -c -o lvm.o lvm.c", "gcc")
    assert not steps("gcc -S -o x.s x.c", "gcc")
    assert not steps("ar t libutil.a", "ar")
    assert not steps("cp -o x y", "cp")


# ------------------------------------------------------------------ go test -race: the report's frames

def test_race_report_keeps_program_frames_folds_the_harness():
    text, out = _run(go_tool, "go", "ho_race")
    for x in text.splitlines():
        if "/tmp/sqz-capture/ho-gorace/" in x or x.startswith(("WARNING: DATA RACE", "Read at", "Previous write at",
                                                               "Goroutine ", "  example.com/", "--- FAIL")):
            assert x in out, x
    assert "testing.tRunner()" not in out and "/usr/lib/go-1.19/src/testing/testing.go" not in out
    assert out.count("      [2 Go runtime frames]") == 2


@settings(max_examples=60, deadline=None)
@given(cut=st.floats(min_value=0.0, max_value=1.0))
def test_race_prefix_keeps_program_frames_or_none(cut):
    part, out = _prefix(go_tool, "go", "ho_race", cut)
    if out is None:
        return
    for x in part.splitlines():
        if "/tmp/sqz-capture/" in x or x.startswith("  example.com/"):
            assert x in out, x
    gone = (sum(1 for x in part.splitlines() if x.startswith("  testing."))
            - sum(1 for x in out.splitlines() if x.startswith("  testing.")))
    said = sum(int(m) for m in re.findall(r"^      \[(\d+) Go runtime frames?", out, re.M))
    assert gone == said


# ------------------------------------------------------------------ maven: parameterized test names

def test_maven_parameterized_failures_lose_their_timing_only():
    from sqz_formatters_test import jvm_maven

    text, out = _run(jvm_maven, "maven", "ho_param_table_fail")
    ids = re.findall(r"^\[ERROR\] (adds\[case \d+: \d+\+\d+\]\(demo\.AddTableTest\))  Time elapsed: ", text, re.M)
    assert len(ids) == 30
    for case in ids:
        assert f"[ERROR] {case} <<< FAILURE!" in out
    assert not any(x.startswith("[ERROR]") and "Time elapsed" in x for x in out.splitlines())
    assert out.count("java.lang.AssertionError: expected:<") == 30
    assert out.count("\tat demo.AddTableTest.adds(AddTableTest.java:35)") == 30  # traces stay line for line
    assert out.count("AddTableTest.adds:35 expected:<") == 30                    # and the Results list


def test_untimed_test_declines_other_shapes():
    from sqz_formatters_test.jvm_maven import _untimed_test

    assert _untimed_test("adds[case 1: 2+2](demo.T)  Time elapsed: 0.01 s  <<< FAILURE!") == \
        "adds[case 1: 2+2](demo.T) <<< FAILURE!"
    assert _untimed_test("adds[case 1: 2+2](demo.T)  Time elapsed: 0.01 s") is None       # no outcome
    assert _untimed_test("adds[case 1: 2+2]  Time elapsed: 0.01 s  <<< FAILURE!") is None  # no class
    assert _untimed_test("  Time elapsed: 0.01 s  <<< FAILURE!") is None
    assert _untimed_test("adds(demo.T)  Time elapsed: soon  <<< FAILURE!") is None


@settings(max_examples=60, deadline=None)
@given(cut=st.floats(min_value=0.0, max_value=1.0))
def test_maven_prefix_keeps_every_failure_or_none(cut):
    from sqz_formatters_test import jvm_maven

    part, out = _prefix(jvm_maven, "maven", "ho_param_table_fail", cut)
    if out is None:
        return
    for case in re.findall(r"^\[ERROR\] (adds\[case [^\]]+\]\(demo\.AddTableTest\))  Time elapsed: .*FAILURE!$",
                           part, re.M):
        assert f"{case} <<< FAILURE!" in out
    assert out.count("java.lang.AssertionError") == part.count("java.lang.AssertionError")


# ------------------------------------------------------------------ gradle: the same failure many times

def test_gradle_same_failures_listed_then_their_exception_once():
    from sqz_formatters_test import jvm_gradle

    text, out = _run(jvm_gradle, "gradle", "ho_param_table_fail")
    heads = [x for x in text.splitlines() if x.startswith("demo.AddTableTest > adds[case ")]
    assert len(heads) == 30
    for h in heads:
        assert h in out.splitlines()
    assert out.count("    java.lang.AssertionError at AddTableTest.java:35") == 1
    assert "    [the same under each of the 30 tests above]" in out
    assert "69 tests completed, 30 failed, 1 skipped" in out


def test_gradle_different_failures_stay_apart():
    from sqz_formatters_test import jvm_gradle

    text, out = _run(jvm_gradle, "gradle", "test_fail")
    assert "[the same under each" not in out
    for x in text.splitlines():
        if " > " in x and x.endswith(" FAILED") or x.startswith("    java.") or x.startswith("    org.junit"):
            assert x in out


def test_gradle_group_needs_three_equal_bodies():
    from sqz_formatters_test.jvm_gradle import group_same_failures

    two = ["a.T > x FAILED", "    E at T.java:1", "", "a.T > y FAILED", "    E at T.java:1", ""]
    assert group_same_failures(two) == two
    mixed = two + ["a.T > z FAILED", "    F at T.java:2", ""]
    assert group_same_failures(mixed) == mixed
    three = two + ["a.T > z FAILED", "    E at T.java:1", ""]
    assert group_same_failures(three) == ["a.T > x FAILED", "a.T > y FAILED", "a.T > z FAILED", "    E at T.java:1",
                                          "    [the same under each of the 3 tests above]", ""]


@settings(max_examples=60, deadline=None)
@given(cut=st.floats(min_value=0.0, max_value=1.0))
def test_gradle_prefix_keeps_every_failed_test_or_none(cut):
    from sqz_formatters_test import jvm_gradle

    part, out = _prefix(jvm_gradle, "gradle", "ho_param_table_fail", cut)
    if out is None:
        return
    shown = out.splitlines()
    for x in part.splitlines():
        if x.startswith("demo.AddTableTest > "):
            assert x in shown
    for k, x in enumerate(shown):
        m = re.fullmatch(r"    \[the same under each of the (\d+) tests above\]", x)
        if not m:
            continue
        j = k - 1
        while j >= 0 and shown[j].startswith("    "):
            j -= 1                      # the shared lines
        heads = 0
        while j >= 0 and shown[j].startswith("demo.AddTableTest > "):
            heads, j = heads + 1, j - 1
        assert heads == int(m.group(1))
