"""cargo formatter (build, check, clippy, test, nextest) on real captured runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, assert_whole, fixtures_of
from sqz_formatters_test import rust_cargo as formatter

suite = FormatterSuite(formatter, "cargo")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=10))


def test_backtraces_keep_the_programs_frames_and_name_the_standard_librarys():
    """RUST_BACKTRACE=1: each program frame is shown once with its location; runs of standard-library
    frames (located under /rustc/<commit>/) become one line naming them, or `the same frames as above`."""
    fx = fixture("test_backtrace")
    out = run(fx)
    text = fx.request().text
    lines = text.splitlines()
    kept = out.splitlines()
    std_names = set()
    for k, line in enumerate(lines):
        m = formatter._FRAME.match(line)
        if not m:
            continue
        at = lines[k + 1].strip()
        if at.startswith("at ./src/"):  # the program's frame: name and location, together
            assert any(x.endswith(": " + m.group("name")) and y.strip() == at for x, y in zip(kept, kept[1:])), line
        else:
            assert at.startswith("at /rustc/")
            std_names.add(m.group("name"))
    for name in std_names:  # every standard-library frame is named once
        assert out.count(name) == 1, name
    assert "/rustc/" not in out
    assert out.count("stack backtrace:") == 3
    assert "   [7-8: the same frames as above]" in kept and "   [6-7: the same frames as above]" in kept
    assert out.count("note: Some details are omitted") == 1
    assert "test table::case_007 ... ok" not in out and "test tests::wrong_sum ... FAILED" not in out
    assert len(out) < len(text) // 3


def test_a_backtrace_in_a_test_report_is_compressed_by_the_pipeline(tmp_path):
    """The core leaves a test report's traces to this formatter (reports_traces): stored, recoverable."""
    from sqz_core.pipeline import compress
    from sqz_core.safety import classify
    from sqz_core.store import Store

    fx = fixture("test_backtrace")
    assert classify(fx.request().text).level == "safe"
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s")
    assert result.outcome == "compressed" and result.plugin == "cargo"
    assert result.output.decode().startswith(run(fx))
    assert store.get_blob(result.digest) == fx.raw  # `sqz expand` gives the run back byte for byte


def test_nextest_panics_kept_whole():
    fx = fixture("nextest_fail")
    assert_whole(run(fx), fx.request().text, "panicked at")


def test_compile_error_is_not_reported_as_no_tests():
    out = run(fixture("test_compile_error"))
    assert "error[E0308]: mismatched types" in out
    assert "test result" not in out and "passed" not in out


def test_passing_tests_are_not_listed_but_counted():
    out = run(fixture("test_green"))
    assert "... ok" not in out
    assert "test result: ok. 124 passed; 0 failed; 1 ignored" in out


def test_warning_snippets_dropped_but_locations_kept():
    out = run(fixture("clippy_warnings"))
    assert "18 |     let c = load_legacy(name);" not in out
    # the location joins its header; the lint note becomes the lint's name after the message
    assert "warning: use of deprecated function `load_legacy`: use `load` instead [deprecated] --> src/lib.rs:18:13" in out
    assert "warning: equality checks against true are unnecessary [clippy::bool_comparison] --> src/lib.rs:19:8" in out
    assert "  ^ help: try: `c.retries == 3`" in out
    assert "on by default" not in out and "^^^" not in out and "\n\n" not in out
    assert "for further information visit" not in out
    assert "28 + pub fn first_even(v: &[i32]) -> Option<i32> {" in out        # the suggested fix stays


def test_another_tools_output_is_not_ours():
    go = fixtures_of("go")[0]
    assert ask(go.request().text, "cargo test", 1) is None


def test_json_message_format_is_refused():
    text = fixture("test_fail").request().text
    for cmd in ("cargo test -- -Z unstable-options --format json", "cargo build --message-format=json"):
        assert ask(text, cmd, 101) is None


def test_other_subcommands_are_not_ours():
    text = fixture("test_green").request().text
    for cmd in ("cargo run", "cargo fmt", "cargo --version", "rustc src/lib.rs"):
        assert ask(text, cmd, 0) is None


def test_truncated_test_run_is_refused():
    text = fixture("test_green").request().text
    head = "\n".join(text.splitlines()[:40]) + "\n"   # stops among the `... ok` lines
    assert "running 125 tests" in head and "test result" not in head
    assert ask(head, "cargo test", None) is None


def test_unexplained_failure_is_refused():
    text = fixture("test_green").request().text
    assert ask(text, "cargo test", 101) is None


def test_nextest_invoked_directly():
    fx = fixture("nextest_fail")
    out = ask(fx.request().text, "cargo-nextest nextest run", 100)
    assert out == run(fx)


def test_deny_warnings_note_becomes_the_lint_and_override_help_goes():
    out = run(fixture("clippy_deny_warnings"))
    assert "error: length comparison to zero [clippy::len-zero, denied by -D warnings] --> src/lib.rs:22:8" in out
    assert "error: unused variable: `retries` --> src/lib.rs:13:9\n" in out     # no note under it: no tag
    assert "implied by `-D warnings`" not in out and "to override `-D warnings`" not in out
    assert "for further information visit" not in out
    assert "29 +     for <item> in &v {" in out
    assert out.rstrip().endswith("error: could not compile `rwarn` (lib) due to 11 previous errors")


def test_build_failed_waiting_note_dropped_after_an_error():
    out = run(fixture("test_compile_error"))
    assert "waiting for other jobs" not in out
    assert "error: could not compile `rbuild` (lib test) due to 2 previous errors" in out
    # alone (no error line before it) it stays: it is then what explains the failure
    alone = "   Compiling x v0.1.0\nwarning: build failed, waiting for other jobs to finish...\n"
    assert "waiting for other jobs" in ask(alone, "cargo build", 101)


def test_panic_lines_keep_their_thread_ids():
    """issue 25: ``thread 'x' (12978) panicked at`` is the line users search for, id included."""
    fx = suite.fixture("fam_test_panic_thread_ids")
    out = suite.run(fx)
    for line in fx.text.splitlines():
        if " panicked at " in line:
            assert line in out.splitlines()
    assert "test tests::adds ... ok" not in out and "running 3 tests" not in out
