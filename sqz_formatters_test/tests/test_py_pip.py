"""pip / uv pip: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_core.testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

from sqz_formatters_test import py_pip as formatter

FIXTURES_DIR = Path(__file__).parent / "fixtures"
HERE = FIXTURES_DIR / "pip"
FIXTURES = [fx for fx in iter_fixtures(HERE)]
DECLINED = set()  # outputs with nothing to win or not ours: the formatter must answer None

SHRINKS = {'install_fresh': 0.14, 'install_already': 0.28, 'download': 0.34, 'uv_install': 0.7}  # fixture → max output/input length ratio


def run(fx, **kw):
    return formatter.sqz_format(request=fx.request(**kw))


def other(family, name):
    return load_fixture(FIXTURES_DIR / family / f"{name}.txt")


def test_fixture_set_is_complete():
    names = {fx.name for fx in FIXTURES}
    assert names >= {'download', 'install_already', 'install_fresh', 'install_no_version', 'uv_install', 'uv_install_error'}


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
    text = text_of("pip", "install_fresh")
    assert ask(text, "pip list") is None
    assert ask(text, "pip show requests") is None
    assert ask(text_of("pip", "uv_install"), "uv sync") is None
    assert ask(text_of("pip", "uv_install"), "uv add requests") is None


def test_near_miss_not_pip_output():
    assert ask(text_of("npm", "install_deprecated"), "pip install requests") is None
    assert ask(text_of("pip", "install_fresh"), "uv pip install requests") is None


def test_direct_requirement_keeps_its_version():
    out = run(other("pip", "install_already"))
    assert "Requirement already satisfied: requests in ./venv/lib/python3.11/site-packages (2.34.2)" in out
    assert "4 dependencies already satisfied" in out
