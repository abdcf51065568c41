"""tox / nox: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import py_tox as formatter

suite = FormatterSuite(formatter, "tox")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_env', 'nox_red', 'red_envs'},
    ratios={'red_envs': 0.84, 'nox_red': 0.78, 'green_env': 0.62}))


def test_near_miss_plain_pytest_output():
    assert ask(text_of("pytest", "red_default"), "tox", 1) is None


def test_near_miss_nox_output_under_tox_and_back():
    assert ask(text_of("tox", "nox_red"), "tox", 1) is None
    assert ask(text_of("tox", "red_envs"), "nox", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("tox", "red_envs"), 1), "tox", 1) is None
    assert ask(cut_tail(text_of("tox", "nox_red"), 4), "nox", 1) is None


def test_tox_keeps_set_up_steps_drops_results_the_report_repeats():
    out = suite.run(suite.fixture("red_envs"))
    lines = out.splitlines()
    # issue 25: which deps an env installed is a fact (these lines went before)
    assert "green: install_deps> python -I -m pip install pytest" in lines
    assert "red: install_deps> python -I -m pip install pytest" in lines
    assert "green: OK ✔ in 2.69 seconds" not in lines  # the closing report lists green again
    assert "  green: OK (2.69=setup[2.34]+cmd[0.35] seconds)" in lines
    # issue 25: every command echo stays, the failing one's too (its exit line follows)
    assert "red: commands[0]> pytest -q red/test_strings.py" in lines
    assert "red: exit 1 (0.23 seconds) /tmp/sqz-capture/pyjs/py> pytest -q red/test_strings.py pid=913" in lines
    assert "green: commands[0]> pytest -q green" in lines
    assert "E       AssertionError: assert ['a', 'b', 'c'] == ['a', 'b', 'c', 'd']" in lines


def test_nox_keeps_set_up_steps_drops_results_the_report_repeats():
    out = suite.run(suite.fixture("nox_red"))
    lines = out.splitlines()
    # issue 25: the venv a session made and what it installed are facts (these lines went before)
    assert "nox > Creating virtual environment (virtualenv) using python3 in .nox/green" in lines
    assert "nox > Creating virtual environment (virtualenv) using python3 in .nox/red" in lines
    assert "nox > Session green was successful in 2 seconds." not in lines
    assert "nox > * green: success, took 2 seconds" in lines
    assert "nox > Session red failed." in lines
    assert "nox > Command pytest -q red/test_strings.py failed with exit code 1" in lines


def test_fam_tox_keeps_install_deps_commands_and_collected_lines():
    """issue 25's real drops: ``install_deps>``/``commands[0]>`` and ``collected N items`` survive."""
    out = suite.run(suite.fixture("fam_tox_green_red"))
    lines = out.splitlines()
    for env in ("green", "red"):
        assert f"{env}: install_deps> python -I -m pip install pytest" in lines
    assert "green: commands[0]> pytest tests/test_green.py" in lines
    assert "collected 42 items" in lines and "collected 3 items" in lines
    assert "E       ZeroDivisionError: division by zero" in lines
    # the passing run's progress dots and pytest's banner go
    assert not any(line.startswith("tests/test_green.py ..") for line in lines)
    assert "=" * 29 + " test session starts " + "=" * 30 not in lines


def test_fam_nox_keeps_every_session_step_and_collected_lines():
    out = suite.run(suite.fixture("fam_nox_three_sessions"))
    lines = out.splitlines()
    assert "nox > python -m py_compile famcalc.py" in lines
    assert lines.count("nox > python -m pip install pytest") == 2
    assert "collected 42 items" in lines and "collected 3 items" in lines
    assert "nox > Command pytest tests/test_red.py failed with exit code 1" in lines
    assert not any(line.startswith("tests/test_green.py ..") for line in lines)
