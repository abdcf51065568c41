"""Retention: `sqz stats --prune --older-than`, `sqz reset [--cache-only|--stats-only]`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sqz_insights.retention import parse_age
from sqz_core.runnable import find_recovery
from sqz_core.store import Store

ROOT = Path(__file__).resolve().parents[2]
RED = (ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_default.txt").read_bytes()
STATUS = (ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt").read_bytes()


def sqz(*args, stdin=b"", env=None):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True, env=env)


def make_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_QUIET="1", SQZ_SESSION="r")
    return env


def totals(env):
    return json.loads(sqz("stats", "--json", env=env).stdout)["total"]


def test_parse_age():
    assert parse_age("90d") == 90 * 86400 and parse_age("12h") == 43200 and parse_age("2w") == 14 * 86400
    assert parse_age("30") == 30 * 86400
    for bad in ("", "d", "90 days", "-1d"):
        try:
            parse_age(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")


def test_prune_older_than(tmp_path):
    env = make_env(tmp_path)
    old = sqz("compress", "--cmd", "pytest", stdin=RED, env=env).stdout
    sqz("compress", "--cmd", "git status", stdin=STATUS, env=env)
    digest = find_recovery(old.decode())[1]
    store = Store.open(str(tmp_path / "sqz.db"))
    store.conn.execute("UPDATE calls SET ts = ts - 100 * 86400 WHERE command = 'pytest'")
    store.conn.execute("UPDATE blobs SET created = created - 100 * 86400 WHERE command = 'pytest'")
    store.conn.execute("UPDATE served SET served_at = served_at - 100 * 86400")
    store.close()
    before = json.loads(sqz("stats", "--json", "--by", "command", env=env).stdout)["by_family"]
    r = sqz("stats", "--prune", "--older-than", "90d", "--json", env=env)
    assert r.returncode == 0, r.stderr
    deleted = json.loads(r.stdout)["deleted"]
    assert deleted["calls"] == 1 and deleted["blobs"] >= 1
    after = json.loads(sqz("stats", "--json", env=env).stdout)
    assert set(after["by_family"]) == {"git"}
    assert after["by_family"]["git"] == before["git"]  # what stays is counted exactly as before
    assert sqz("expand", digest, env=env).returncode == 1  # the old content is gone


def test_reset_cache_only_keeps_exact_stats(tmp_path):
    env = make_env(tmp_path)
    out = sqz("compress", "--cmd", "pytest", stdin=RED, env=env).stdout
    digest = find_recovery(out.decode())[1]
    before = totals(env)
    r = sqz("reset", "--cache-only", "--yes", env=env)
    assert r.returncode == 0 and b"blobs" in r.stdout
    assert sqz("expand", digest, env=env).returncode == 1
    assert totals(env) == before and before["estimated_calls"] == 0


def test_reset_stats_only_and_confirmation(tmp_path):
    env = make_env(tmp_path)
    out = sqz("compress", "--cmd", "pytest", stdin=RED, env=env).stdout
    digest = find_recovery(out.decode())[1]
    r = sqz("reset", stdin=b"n\n", env=env)
    assert r.returncode == 1 and b"nothing deleted" in r.stdout
    assert totals(env)["calls"] == 1
    assert sqz("reset", "--stats-only", "--yes", env=env).returncode == 0
    assert totals(env)["calls"] == 0
    assert sqz("expand", digest, env=env).stdout == RED  # content kept
    assert sqz("reset", "--cache-only", "--stats-only", "--yes", env=env).returncode == 2
    assert sqz("reset", "--yes", env=env).returncode == 0
    assert sqz("expand", digest, env=env).returncode == 1
