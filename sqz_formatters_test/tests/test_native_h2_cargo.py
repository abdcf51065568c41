"""Held-out pass #2 (``h2_*``) on cargo: ``-- --nocapture`` runs, workspaces, doc-tests.

- with ``--nocapture`` a passing test's own panic (``#[should_panic]``, a caught unwind) prints amid
  the test lines: its paragraph goes, counted; a failing test's panic and unattributed prints stay;
- a workspace run with ``--no-fail-fast`` keeps every failing target's section and rerun hint.
"""

from __future__ import annotations

from fmt_test_suite import other
from sqz_core import FormatRequest
from sqz_testing import missing_facts

from sqz_formatters_test import rust_cargo


def _run(name, command=None, text=None):
    fx = other("cargo", name)
    text = fx.request().text if text is None else text
    return fx, rust_cargo.sqz_format(request=FormatRequest(text, command or fx.command,
                                                           exit_code=fx.meta.get("exit_code")))


def test_nocapture_drops_the_panics_of_tests_that_passed():
    fx, out = _run("h2_once_cell_nocapture")
    assert missing_facts(out, fx.facts) == []
    assert "thread 'sync::get_or_try_init'" not in out and "explicit panic" not in out
    assert "kaboom" not in out and "Lazy instance has previously been poisoned" not in out
    assert "[dropped: 5 panics of tests that passed (should_panic or caught)]" in out
    # what the failing test printed, and a print nobody can attribute, stay
    assert "use after free: 92" in out and "\n42\n" in out
    assert "test unsync::reentrant_init - should panic ... FAILED" in out


def test_a_failing_tests_panic_stays_under_nocapture():
    text = ("running 2 tests\ntest a::ok_one ... ok\n\nthread 'a::bad' (7) panicked at src/lib.rs:9:5:\n"
            "boom\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
            "test a::bad ... FAILED\n\nfailures:\n\nfailures:\n    a::bad\n\n"
            "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
            "error: test failed, to rerun pass `--lib`\n")
    out = rust_cargo.sqz_format(request=FormatRequest(text, "cargo test -- --nocapture", exit_code=101))
    assert "thread 'a::bad' (7) panicked at src/lib.rs:9:5:" in out and "boom" in out   # its OS thread id stays (issue 25)
    assert "panics of tests that passed" not in out


def test_workspace_keeps_every_failing_target():
    fx, out = _run("h2_workspace_no_fail_fast")
    assert missing_facts(out, fx.facts) == []
    for hint in ("`-p itoa --test test`", "`-p once_cell --test it`", "`-p once_cell --doc`"):
        assert f"error: test failed, to rerun pass {hint}" in out or f"error: doctest failed, to rerun pass {hint}" in out
    assert "test sync::once_cell ... ok" not in out and "Compiling itoa" not in out


def test_doctest_failure_names_the_item_and_its_line():
    fx, out = _run("h2_once_cell_doctest_fail")
    assert missing_facts(out, fx.facts) == []
    assert "---- src/lib.rs - unsync::OnceCell<T>::set (line 489) stdout ----" in out
    assert "test src/lib.rs - sync::OnceCell<T>::set (line 1007) ... ok" not in out


def test_cut_short_nocapture_run_is_refused():
    fx = other("cargo", "h2_once_cell_nocapture")
    text = fx.request().text
    cut = text[:text.index("test unsync::reentrant_init - should panic ... FAILED")]
    _, out = _run("h2_once_cell_nocapture", text=cut)
    assert out is None


def test_running_lines_lose_only_a_real_binary_hash():
    assert rust_cargo.shorten_line("     Running tests/api.rs (target/debug/deps/api-efb9235b861d9729)") == \
        "     Running tests/api.rs (target/debug/deps/api-…)"
    for line in ("     Running tests/api.rs (target/debug/deps/api)",            # no hash
                 "     Running `rustc --crate-name api (target/debug/deps/api-efb9235b861d9729)`",  # a command
                 "     Running " + "x (target/" * 5000 + ")"):                     # long, unmatched
        assert rust_cargo.shorten_line(line) == line
    # issue 25: the panic line is the one users search for; its thread id stays
    assert rust_cargo.shorten_line("thread 'a::b' (99) panicked at src/x.rs:1:2:") == \
        "thread 'a::b' (99) panicked at src/x.rs:1:2:"
    assert rust_cargo.shorten_line("thread 'a::b' (99) is not a panic") == "thread 'a::b' (99) is not a panic"


def test_verbose_build_error_says_the_failed_command_once():
    fx, out = _run("h2_itoa_build_verbose_error")
    assert missing_facts(out, fx.facts) == []
    running = [l for l in out.splitlines() if l.lstrip().startswith("Running `")]
    assert len(running) == 1 and "--crate-name itoa --edition=2018 src/lib.rs" in running[0]  # whole, once
    assert ("  process didn't exit successfully: `/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc "
            "--crate-name itoa …` (exit status: 1) (the Running command above)") in out.splitlines()


def test_a_failed_command_that_was_not_echoed_stays_whole():
    text = ("   Compiling x v0.1.0 (/w)\nerror: could not compile `x` (lib)\n\nCaused by:\n"
            "  process didn't exit successfully: `rustc --crate-name x --edition=2021 src/lib.rs` (exit status: 1)\n")
    out = rust_cargo.sqz_format(request=FormatRequest(text, "cargo build -v", exit_code=101))
    assert "`rustc --crate-name x --edition=2021 src/lib.rs` (exit status: 1)" in out


def test_bench_keeps_every_figure_without_the_column_padding():
    fx, out = _run("h2_itoa_bench")
    assert missing_facts(out, fx.facts) == []
    raw = [l.split("bench:")[1].split() for l in fx.request().text.splitlines() if " ... bench: " in l]
    kept = [l.split("bench:")[1].split() for l in out.splitlines() if " ... bench: " in l]
    assert raw == kept and len(kept) == 14                           # every figure, in order
    assert "test bench_itoa_format::bench_i16_0 ... bench: " in out
    assert "Compiling itoa" not in out
