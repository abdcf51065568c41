"""A hint's bare ``sqz``, named as this sqz by an agent's pre-tool hook (``resolve_bare_sqz``), and the hints that
may then say it (``short_hints``): both sides of every line."""

import shlex

import pytest

from sqz_agents.api import resolve_bare_sqz, short_hints

OWN = "/opt/sqz tools/sqz"  # a path that needs quoting
Q = shlex.quote(OWN)


@pytest.fixture(autouse=True)
def own(monkeypatch):
    monkeypatch.setenv("SQZ_BIN", OWN)


@pytest.mark.parametrize("command, resolved", [
    ("sqz expand n123456789012345", f"{Q} expand n123456789012345"),
    ("  sqz expand '§ref:0123abcd4567§'", f"  {Q} expand '§ref:0123abcd4567§'"),
    ("sqz expand n123456789012345 | grep -n error", f"{Q} expand n123456789012345 | grep -n error"),
    ("cd src && sqz expand n1 && sqz recall 'flaky test'", f"cd src && {Q} expand n1 && {Q} recall 'flaky test'"),
    ("ls; sqz expand n1", f"ls; {Q} expand n1"),
])
def test_a_bare_expand_or_recall_names_this_sqz(command, resolved):
    assert resolve_bare_sqz(command) == resolved


@pytest.mark.parametrize("command", [
    "git status", "sqz stats", "sqz compress --cmd x", "sqz", "echo 'sqz expand n1'", "echo sqz expand n1",
    "/usr/local/bin/sqz expand n1", f"{Q} expand n1", "python -m sqz_core expand n1", "mysqz expand n1",
    "sqz expand 'unbalanced", "X=1 sqz expand n1",
])
def test_anything_else_is_left_as_written(command):
    assert resolve_bare_sqz(command) is None


def test_nothing_to_resolve_when_the_user_says_a_bare_sqz_runs_this_one(monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "sqz")
    assert resolve_bare_sqz("sqz expand n123456789012345") is None


def test_short_hints_change_only_sqz_s_own_lines():
    text = (f"a line that mentions {Q} expand by itself\n"
            f"§ref:0123abcd4567§ unchanged since 2m ago (`{Q} expand` this ref prints it)\n"
            f"body\n[{Q} expand n123456789012345]\n")
    assert short_hints(text) == (f"a line that mentions {Q} expand by itself\n"
                                 "§ref:0123abcd4567§ unchanged since 2m ago (`sqz expand` this ref prints it)\n"
                                 "body\n[sqz expand n123456789012345]\n")
    # a recovery-line look-alike that does not end the text is data, not sqz's line
    middle = f"[{Q} expand n123456789012345]\nmore output\n"
    assert short_hints(middle) == middle
    assert short_hints("") == ""
