"""make formatter on real captured make runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, raw_text
from sqz_formatters_test import c_make as formatter

# refused: captured on purpose to be refused (another locale)
suite = FormatterSuite(formatter, "make", refused={"build_de_locale"})
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=3))


def test_make_error_lines_verbatim():
    out = run(fixture("build_error"))
    assert "make: *** [Makefile:12: build/main.o] Error 1" in out
    assert "make: Target 'all' not remade because of errors." in out


def test_green_build_keeps_only_the_final_command():
    out = run(fixture("build_green"))
    assert out.startswith("[dropped: cc ×26 command lines]")
    assert len(out.splitlines()) == 2


def test_cargo_output_is_not_ours():
    text = raw_text("cargo", "build_error")
    assert ask(text, "make", 2) is None


def test_dry_run_is_not_ours():
    text = fixture("build_green").request().text
    assert ask(text, "make -n", 0) is None


def test_error_snippets_dropped_locations_kept():
    out = run(fixture("build_error"))
    assert "total = words + p.z;" not in out and "  |" not in out
    assert "src/main.c:12:13: error: expected ‘;’ before ‘}’ token" in out
    assert "src/main.c: In function ‘main’:" in out
