"""pytest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

from sqz_formatters_test import py_pytest as formatter

FIXTURES_DIR = Path(__file__).parent / "fixtures"
HERE = FIXTURES_DIR / "pytest"
FIXTURES = [fx for fx in iter_fixtures(HERE)]
DECLINED = set()  # outputs with nothing to win or not ours: the formatter must answer None

SHRINKS = {'red_default': 0.7, 'red_verbose': 0.23, 'red_quiet': 0.75, 'red_xdist': 0.74, 'red_tb_no': 0.47, 'red_tb_line': 0.63, 'red_report_all': 0.5, 'green_default': 0.1, 'collect_error': 0.95, 'no_tests': 0.22}  # fixture → max output/input length ratio


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def other(family, name):
    return load_fixture(FIXTURES_DIR / family / f"{name}.txt")


def test_fixture_set_is_complete():
    names = {fx.name for fx in FIXTURES}
    assert names >= {'collect_error', 'green_default', 'red_default', 'red_report_all', 'red_tb_no', 'red_verbose', 'red_xdist'}


def text_of(family, name):
    return other(family, name).request().text


def cut_tail(text, n):
    """The output with its last ``n`` lines missing (an interrupted or truncated capture)."""
    return "\n".join(text.splitlines()[:-n]) + "\n"


def ask(text, command, exit_code=None):
    return formatter.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_facts_survive(fx):
    out = run(fx)
    if fx.name in DECLINED:
        assert out is None
        return
    assert out is not None, "formatter declined a fixture it should handle"
    assert fx.facts, "a fixture without facts proves nothing"
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("fx", [fx for fx in FIXTURES if fx.dropped], ids=lambda fx: fx.name)
def test_noise_is_dropped(fx):
    out = run(fx)
    assert out is not None
    kept = [d for d in fx.dropped if d in out]
    assert kept == []


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_snapshot(fx):
    out = run(fx)
    assert_snapshot(out if out is not None else "<None>\n", HERE / f"{fx.name}.expected")


@pytest.mark.parametrize("name,ratio", sorted(SHRINKS.items()))
def test_outputs_shrink(name, ratio):
    """Measured in tokens' stand-in (characters): the noise-heavy fixtures must lose most of it."""
    fx = load_fixture(HERE / f"{name}.txt")
    out = run(fx)
    assert out is not None
    assert len(out) <= ratio * len(fx.request().text)


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_deterministic(fx):
    assert run(fx) == run(fx)


def test_near_miss_other_runners_output():
    assert ask(text_of("unittest", "red_default"), "pytest", 1) is None
    assert ask(text_of("jest", "red_default"), "pytest", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("pytest", "red_default"), 1), "pytest red", 1) is None
    assert ask(cut_tail(text_of("pytest", "red_verbose"), 8), "pytest -v red", 1) is None


def test_near_miss_unexplained_exit_status():
    # a green summary with a failing status (e.g. a plugin failed the run): not ours to explain
    assert ask(text_of("pytest", "green_default"), "pytest green", 1) is None


def test_collection_error_is_not_reported_as_pass():
    out = run(other("pytest", "collect_error"))
    assert "Interrupted: 2 errors during collection" in out
    assert "2 errors in" in out and "passed" not in out


def test_failure_sections_are_verbatim():
    fx = other("pytest", "red_default")
    text = fx.request().text
    start, end = text.index("= ERRORS ="), text.index("= warnings summary =")
    body = text[text.rindex("\n", 0, start) + 1:text.rindex("\n", 0, end)]
    assert body in run(fx)


def test_warnings_keep_non_deprecations_and_count_the_rest():
    out = run(other("pytest", "red_default"))
    assert "RuntimeWarning: overflow encountered in scale()" in out
    assert "UserWarning: cache directory missing" in out
    assert "legacy_call('a') is deprecated" in out
    assert "legacy_call('b') is deprecated" not in out
    assert "(+ 6 more deprecation warning entries folded: 17 warnings in red/test_legacy.py, red/test_math.py)" in out
