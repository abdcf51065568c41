"""go test (plain, -v, -json), go build and go vet formatter on real captured runs."""

from __future__ import annotations

import pytest

from fmt_test_suite import FormatterSuite, assert_whole, cut, raw_text
from sqz_formatters_test import go_tool as formatter

suite = FormatterSuite(formatter, "go")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=7))


@pytest.mark.parametrize("name", ["test_fail", "test_verbose_fail"])
def test_panic_paragraph_kept_whole(name):
    fx = fixture(name)
    assert_whole(run(fx), fx.request().text, "goroutine ")


def test_build_failure_is_not_a_pass():
    out = run(fixture("test_build_failed"))
    assert "FAIL\texample.com/calc [build failed]" in out
    assert "./describe.go:11:32: undefined: missing" in out


def test_json_is_rendered_as_plain_text():
    out = run(fixture("test_json_fail"))
    assert '"Action"' not in out
    assert "calc_test.go:75: Div(7, 2) = 3, <nil>; want 4" in out
    assert "TestAddTable/case01" not in out


def test_truncated_json_is_refused():
    text = fixture("test_json_fail").request().text
    half = text[: len(text) // 2]
    assert ask(half, "go test -json ./...", None) is None


def test_truncated_verbose_run_is_refused():
    text = fixture("test_verbose_green").request().text
    assert ask(cut(text, 0.3), "go test -v ./...", None) is None


def test_cargo_output_is_not_ours():
    text = raw_text("cargo", "test_fail")
    assert ask(text, "go test ./...", 1) is None


def test_other_verbs_and_shapes_are_not_ours():
    text = fixture("test_verbose_green").request().text
    for cmd in ("go run .", "go mod tidy", "go test -bench=. ./...", "go test -list . ./..."):
        assert ask(text, cmd, 0) is None
