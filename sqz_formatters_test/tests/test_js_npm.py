"""npm / pnpm / yarn / bun: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

from sqz_formatters_test import js_npm as formatter

FIXTURES_DIR = Path(__file__).parent / "fixtures"
HERE = FIXTURES_DIR / "npm"
FIXTURES = [fx for fx in iter_fixtures(HERE)]
DECLINED = {'install_notarget', 'run_missing'}  # outputs with nothing to win or not ours: the formatter must answer None

SHRINKS = {'test_vitest': 0.8, 'test_node': 0.67, 'yarn_add': 0.16, 'pnpm_add': 0.2, 'test_green': 0.42, 'test_jest': 0.98}  # fixture → max output/input length ratio


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def other(family, name):
    return load_fixture(FIXTURES_DIR / family / f"{name}.txt")


def test_fixture_set_is_complete():
    names = {fx.name for fx in FIXTURES}
    assert names >= {'bun_add', 'install_deprecated', 'pnpm_add', 'run_build_fail', 'test_jest', 'test_node', 'test_vitest', 'yarn_add'}


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


def test_near_miss_other_subcommands():
    assert ask(text_of("npm", "test_jest"), "npm ls", 1) is None
    assert ask(text_of("npm", "install_deprecated"), "npm view request") is None


def test_near_miss_unrecognised_script_output():
    # a script whose output no formatter here knows (eslint's) is left alone
    body = "\n> sqzdemo@1.0.0 lint\n> eslint lint\n\n" + text_of("eslint", "errors")
    assert ask(body, "npm run lint", 1) is None
    assert ask(cut_tail(text_of("npm", "test_jest"), 6), "npm test", 1) is None


def test_near_miss_not_an_install():
    assert ask(text_of("ruff", "check_errors"), "npm install", 1) is None


def test_script_output_goes_to_the_right_formatter():
    out = run(other("npm", "test_jest"))
    assert "> jest jtests" not in out and "Test Suites: 2 failed, 1 passed, 3 total" in out
    out = run(other("npm", "test_node"))
    assert "# fail 3" in out and "not ok 2 - throws" in out


def test_near_miss_unexplained_exit_status():
    assert ask(text_of("npm", "test_green"), "npm run test:green", 1) is None
