"""go test (plain, -v, -json), go build and go vet formatter on real captured runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import go_tool as formatter

FIX = Path(__file__).parent / "fixtures" / "go"
ALL = iter_fixtures(FIX)
REFUSED: set = set()
GOOD = [f for f in ALL if f.name not in REFUSED]


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def fixture(name):
    return next(f for f in ALL if f.name == name)


def test_fixtures_present():
    assert len(GOOD) >= 7


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
    assert formatter.sqz_format(request=FormatRequest(half, "go test -json ./...", exit_code=None)) is None


def test_truncated_verbose_run_is_refused():
    text = fixture("test_verbose_green").request().text
    assert formatter.sqz_format(request=FormatRequest(cut(text, 0.3), "go test -v ./...", exit_code=None)) is None


def test_cargo_output_is_not_ours():
    text = (Path(__file__).parent / "fixtures" / "cargo" / "test_fail.txt").read_text()
    assert formatter.sqz_format(request=FormatRequest(text, "go test ./...", exit_code=1)) is None


def test_other_verbs_and_shapes_are_not_ours():
    text = fixture("test_verbose_green").request().text
    for cmd in ("go run .", "go mod tidy", "go test -bench=. ./...", "go test -list . ./..."):
        assert formatter.sqz_format(request=FormatRequest(text, cmd, exit_code=0)) is None
