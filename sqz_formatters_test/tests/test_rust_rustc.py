"""rustc run directly: facts survive, echoed source is dropped, other modes give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, text_of

from sqz_formatters_test import rust_rustc as formatter

suite = FormatterSuite(formatter, "rustc")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(complete={"multi_file"}, ratios={"multi_file": 0.72}))


def test_labels_notes_and_closing_lines_kept():
    out = run(fixture("multi_file"))
    assert "error[E0308]: mismatched types --> src/parse.rs:2:5\n  1: - expected `Vec<u64>` because of return type\n" \
           "  ^ expected `Vec<u64>`, found `Vec<i64>`\n  = note: expected struct `Vec<u64>`\n" in out
    assert "warning: unused variable: `fee` [unused_variables, part of unused] --> src/account.rs:12:13" in out
    assert "  = help: the trait `Sum<&u64>` is not implemented for `i32`" in out
    assert "  = note: `i32` implements `Sum<&i32>`" in out
    assert "  = note: this error originates in the macro `integer_sum_product`\n" in out
    assert "error: aborting due to 6 previous errors; 2 warnings emitted" in out
    assert "Some errors have detailed explanations: E0277, E0308, E0425, E0594." in out


def test_boilerplate_and_std_locations_dropped():
    out = run(fixture("multi_file"))
    assert "rustc --explain" not in out                     # the codes stay in the headers
    assert "/rustc/59807616e1fa" not in out and "::: " not in out   # the standard library's source
    assert "on by default" not in out and "Nightly builds" not in out
    assert "   |" not in out and "^^^" not in out


def test_other_modes_and_tools_give_none():
    text = text_of("rustc", "multi_file")
    assert ask(text, "rustc --error-format=json src/main.rs", 1) is None
    assert ask(text, "rustc --explain E0308", 0) is None
    assert ask(text_of("cc", "gcc_errors"), "rustc src/main.rs", 1) is None
    assert ask("error: couldn't read `nope.rs`: No such file or directory (os error 2)\n", "rustc nope.rs", 1) is None


def test_multiline_span_labels_keep_their_kind_and_line():
    out = run(fixture("multiline_spans")).splitlines()
    i = out.index("error[E0308]: mismatched types --> spans.rs:17:25")
    assert out[i + 1:i + 3] == ["  - expected due to this", "  20: ^ expected `String`, found `Vec<&str>`"]
    assert "  6: - `match` arms have incompatible types" in out
    assert "  13: ^ expected `u32`, found `Vec<u32>`" in out
    assert not any("___" in x or x.strip().startswith(("|", "/")) for x in out)   # the span drawing goes
