"""Budgets: `sqz budget set`, and one warning line from `sqz compress` when a session crosses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RED = (ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_default.txt").read_bytes()
STATUS = (ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt").read_bytes()


def sqz(*args, stdin=b"", env=None):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True, env=env)


def make_env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "data" / "sqz.db"), SQZ_QUIET="1", **extra)
    return env


def test_warning_once_per_session_crossing(tmp_path):
    env = make_env(tmp_path, SQZ_AGENT="claude-code")
    r = sqz("budget", "set", "--agent", "claude-code", "800", env=env)
    assert r.returncode == 0 and b"800 tokens per session" in r.stdout
    assert json.loads((tmp_path / "data" / "budgets.json").read_text()) == {"claude-code": 800}
    errs = []
    for data, cmd in ((STATUS, "git status"), (RED, "pytest"), (STATUS, "git status -v"), (RED, "pytest -x")):
        r = sqz("compress", "--cmd", cmd, "--session", "s1", stdin=data, env=env)
        assert r.returncode == 0 and r.stdout
        errs.append(r.stderr.decode())
    warned = [i for i, e in enumerate(errs) if "sqz: budget:" in e]
    assert warned == [1], errs  # the second call crosses 800 (102 + 802 served, estimate)
    line = errs[warned[0]].strip()
    assert "session s1" in line and "800-token budget for agent claude-code" in line and "(estimate)" in line
    # another session of the same agent gets its own warning; another agent none
    r = sqz("compress", "--cmd", "pytest", "--session", "s2", stdin=RED * 3, env=env)
    assert b"sqz: budget: session s2" in r.stderr
    r = sqz("compress", "--cmd", "pytest", "--session", "s3", "--agent", "codex", stdin=RED * 3, env=env)
    assert b"budget" not in r.stderr
    listing = json.loads(sqz("budget", "list", "--json", env=env).stdout)
    assert {s["session"] for s in listing["sessions"]} == {"s1", "s2"}
    stats = json.loads(sqz("stats", "--json", env=env).stdout)
    assert stats["budget_warnings"] == 2


def test_wildcard_and_remove(tmp_path):
    env = make_env(tmp_path)
    assert sqz("budget", "set", "--agent", "*", "10", env=env).returncode == 0
    r = sqz("compress", "--cmd", "pytest", "--session", "w", stdin=RED, env=env)
    assert b"over the 10-token budget for agent (unknown)" in r.stderr
    assert sqz("budget", "remove", "--agent", "*", env=env).returncode == 0
    assert sqz("budget", "remove", "--agent", "*", env=env).returncode == 1
    r = sqz("compress", "--cmd", "pytest", "--session", "w2", stdin=RED, env=env)
    assert b"budget" not in r.stderr
