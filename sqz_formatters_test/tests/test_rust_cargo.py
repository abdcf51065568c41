"""cargo formatter (build, check, clippy, test, nextest) on real captured runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import rust_cargo as formatter

FIX = Path(__file__).parent / "fixtures" / "cargo"
ALL = iter_fixtures(FIX)
REFUSED: set = set()
GOOD = [f for f in ALL if f.name not in REFUSED]


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def fixture(name):
    return next(f for f in ALL if f.name == name)


def test_fixtures_present():
    assert len(GOOD) >= 10


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_facts_survive(fx):
    out = run(fx)
    assert out is not None, fx.name
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_dropped_lines_are_gone(fx):
    out = run(fx)
    assert [d for d in fx.dropped if d in out] == []


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_snapshot(fx):
    assert_snapshot(run(fx), FIX / f"{fx.name}.expected")


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_big_outputs_shrink(fx):
    text = fx.request().text
    out = run(fx)
    if len(text) > 1500:
        assert len(out) < len(text) * 0.9
    else:
        assert len(out) <= len(text) + 80   # never much longer: at most one counted line


@pytest.mark.parametrize("fx", GOOD, ids=[f.name for f in GOOD])
def test_deterministic(fx):
    assert run(fx) == run(fx)


def trace_paragraphs(text, marker):
    """Blank-line separated paragraphs of ``text`` that contain ``marker``."""
    return [p for p in text.split("\n\n") if marker in p]


def assert_whole(out, text, marker):
    paras = trace_paragraphs(text, marker)
    assert paras, marker
    for p in paras:
        lines = [l for l in p.strip("\n").split("\n") if l.strip()]
        block = "\n".join(lines)
        assert block in out, f"trace paragraph not kept whole:\n{block[:300]}"


def cut(text, fraction):
    lines = text.splitlines()
    return "\n".join(lines[: int(len(lines) * fraction)]) + "\n"


def test_backtraces_kept_whole():
    fx = fixture("test_backtrace")
    out = run(fx)
    assert_whole(out, fx.request().text, "stack backtrace:")


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
    assert "  --> src/lib.rs:18:13" in out
    assert "for further information visit" not in out


def test_another_tools_output_is_not_ours():
    go = iter_fixtures(Path(__file__).parent / "fixtures" / "go")[0]
    assert formatter.sqz_format(request=FormatRequest(go.request().text, "cargo test", exit_code=1)) is None


def test_json_message_format_is_refused():
    text = fixture("test_fail").request().text
    for cmd in ("cargo test -- -Z unstable-options --format json", "cargo build --message-format=json"):
        assert formatter.sqz_format(request=FormatRequest(text, cmd, exit_code=101)) is None


def test_other_subcommands_are_not_ours():
    text = fixture("test_green").request().text
    for cmd in ("cargo run", "cargo fmt", "cargo --version", "rustc src/lib.rs"):
        assert formatter.sqz_format(request=FormatRequest(text, cmd, exit_code=0)) is None


def test_truncated_test_run_is_refused():
    text = fixture("test_green").request().text
    head = "\n".join(text.splitlines()[:40]) + "\n"   # stops among the `... ok` lines
    assert "running 125 tests" in head and "test result" not in head
    assert formatter.sqz_format(request=FormatRequest(head, "cargo test", exit_code=None)) is None


def test_unexplained_failure_is_refused():
    text = fixture("test_green").request().text
    assert formatter.sqz_format(request=FormatRequest(text, "cargo test", exit_code=101)) is None


def test_nextest_invoked_directly():
    fx = fixture("nextest_fail")
    out = formatter.sqz_format(request=FormatRequest(fx.request().text, "cargo-nextest nextest run", exit_code=100))
    assert out == run(fx)
