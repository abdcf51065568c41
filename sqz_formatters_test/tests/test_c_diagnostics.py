"""gcc/g++/clang diagnostics formatter on real captured compiler runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, missing_facts
from sqz_formatters_test import c_diagnostics as formatter

FIX = Path(__file__).parent / "fixtures" / "cc"
ALL = iter_fixtures(FIX)
REFUSED = {"gcc_de_locale"}  # captured on purpose to be refused (another locale)
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


@pytest.mark.parametrize("fx", [f for f in ALL if f.name in REFUSED], ids=lambda f: f.name)
def test_other_locale_is_refused(fx):
    assert run(fx) is None


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


def test_error_snippets_kept_warning_snippets_dropped():
    out = run(fixture("gcc_errors"))
    assert "   10 |     total = words + p.z;" in out          # error: snippet kept
    assert "   16 |     printf(" not in out                    # warning: snippet dropped
    assert "[-Wformat=]" in out


def test_repeated_candidate_notes_are_counted():
    out = run(fixture("gxx_template_error"))
    assert "repeated note lines dropped]" in out
    assert out.count("note: candidate: ‘template<class _IteratorL,") == 1


def test_preprocess_only_is_not_ours():
    text = fixture("gcc_errors").request().text
    assert formatter.sqz_format(request=FormatRequest(text, "gcc -E src/main.c", exit_code=1)) is None


def test_make_echo_lines_are_not_diagnostics():
    text = (Path(__file__).parent / "fixtures" / "make" / "build_green.txt").read_text()
    assert formatter.sqz_format(request=FormatRequest(text, "gcc -O2 -c x.c", exit_code=0)) is None


def test_failure_without_error_line_is_refused():
    text = fixture("gcc_errors").request().text
    warnings_only = "\n".join(l for l in text.splitlines() if "error" not in l) + "\n"
    assert formatter.sqz_format(request=FormatRequest(warnings_only, "gcc -c x.c", exit_code=1)) is None
