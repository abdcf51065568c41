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


def test_tox_drops_set_up_steps_and_results_the_report_repeats():
    out = suite.run(suite.fixture("red_envs"))
    lines = out.splitlines()
    assert "install_deps>" not in out
    assert "green: OK ✔ in 2.69 seconds" not in lines  # the closing report lists green again
    assert "  green: OK (2.69=setup[2.34]+cmd[0.35] seconds)" in lines
    # the failing command's exit line names the command: its echo goes; a passing one's stays
    assert "red: commands[0]> pytest -q red/test_strings.py" not in lines
    assert "red: exit 1 (0.23 seconds) /tmp/sqz-capture/pyjs/py> pytest -q red/test_strings.py pid=913" in lines
    assert "green: commands[0]> pytest -q green" in lines
    assert "E       AssertionError: assert ['a', 'b', 'c'] == ['a', 'b', 'c', 'd']" in lines


def test_nox_drops_set_up_steps_and_results_the_report_repeats():
    out = suite.run(suite.fixture("nox_red"))
    lines = out.splitlines()
    assert "Creating virtual environment" not in out and "pip install" not in out
    assert "nox > Session green was successful in 2 seconds." not in lines
    assert "nox > * green: success, took 2 seconds" in lines
    assert "nox > Session red failed." in lines
    assert "nox > Command pytest -q red/test_strings.py failed with exit code 1" in lines
