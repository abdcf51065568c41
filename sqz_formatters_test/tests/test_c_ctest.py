"""ctest formatter on real captured runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import c_ctest as formatter

FIX = Path(__file__).parent / "fixtures" / "ctest"
ALL = iter_fixtures(FIX)
REFUSED: set = set()
GOOD = [f for f in ALL if f.name not in REFUSED]


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def fixture(name):
    return next(f for f in ALL if f.name == name)


def test_fixtures_present():
    assert len(GOOD) >= 3


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


def test_failure_output_is_kept():
    out = run(fixture("ctest_output_on_failure"))
    assert "test_counts: expected 3 words, got 2" in out
    assert "(+ 3 passed)" in out


def test_truncated_run_is_refused():
    text = fixture("ctest_fail").request().text
    assert formatter.sqz_format(request=FormatRequest(cut(text, 0.5), "ctest --test-dir build", exit_code=None)) is None


def test_verbose_run_is_not_ours():
    text = fixture("ctest_fail").request().text
    assert formatter.sqz_format(request=FormatRequest(text, "ctest -V --test-dir build", exit_code=8)) is None


def test_cmake_output_is_not_ours():
    text = (Path(__file__).parent / "fixtures" / "cmake" / "configure.txt").read_text()
    assert formatter.sqz_format(request=FormatRequest(text, "ctest", exit_code=0)) is None
