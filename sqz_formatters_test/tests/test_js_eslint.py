"""eslint: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

from sqz_formatters_test import js_eslint as formatter

FIXTURES_DIR = Path(__file__).parent / "fixtures"
HERE = FIXTURES_DIR / "eslint"
FIXTURES = [fx for fx in iter_fixtures(HERE)]
DECLINED = {'clean'}  # outputs with nothing to win or not ours: the formatter must answer None

SHRINKS = {'errors': 0.91}  # fixture → max output/input length ratio


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def other(family, name):
    return load_fixture(FIXTURES_DIR / family / f"{name}.txt")


def test_fixture_set_is_complete():
    names = {fx.name for fx in FIXTURES}
    assert names >= {'clean', 'errors', 'errors_color'}


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


def test_near_miss_other_formats_and_tools():
    assert ask(text_of("eslint", "errors"), "eslint -f json lint", 1) is None
    assert ask(text_of("eslint", "errors"), "eslint --format=compact lint", 1) is None
    assert ask(text_of("tsc", "errors"), "eslint lint", 1) is None


def test_near_miss_truncated_report():
    assert ask(cut_tail(text_of("eslint", "errors"), 3), "eslint lint", 1) is None
