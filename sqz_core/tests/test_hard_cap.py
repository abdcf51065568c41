"""The time budget is a hard cap on the whole verb (issues 24.4, 27.6): past it the original goes out
unchanged with the wrapped command's status and the process ends, even when the call is stuck in C.

Each stall below would last hours (a regex of 2**40 steps per call in a loop that swallows every
stop, a sleep of an hour, a store lock waited on for a minute): finishing at all is the proof. The
only time bound is the subprocess's own, generous one, so a box at load 10 passes too.
"""

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sqz_testing import iter_fixtures

ROOT = Path(__file__).resolve().parents[2]

# A third-party formatter, installed as a distribution with one entry point, that never returns:
# each call into the regex engine (C) runs 2**40 steps, and every stop sqz sends it is swallowed.
STALL_PLUGIN = '''
import re
import time

from sqz_core.api import hookimpl

commands = ("stall", "nap")


@hookimpl
def sqz_format(request):
    while True:
        try:
            if request.program == "nap":
                time.sleep(3600)  # in C, the GIL released
            else:
                re.match(r"(a+)+$", "a" * 40 + "b")  # in C, the GIL held
        except BaseException:  # a bare `except:` keeps no plugin alive past the budget
            pass
'''


@pytest.fixture
def site(tmp_path):
    site = tmp_path / "site"
    (site / "stallplug").mkdir(parents=True)
    (site / "stallplug" / "__init__.py").write_text(STALL_PLUGIN)
    info = site / "sqz_formatters_stallplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sqz-formatters-stallplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[sqz.formatters]\nstall = stallplug\n")
    return site


def real_output(max_bytes: int = 6000) -> bytes:
    """A real captured pytest run (the repository's fixtures), below the forked path's size."""
    for fx in iter_fixtures(ROOT / "sqz_formatters_test" / "tests" / "fixtures"):
        if 2000 < len(fx.raw) < max_bytes:
            return fx.raw
    raise AssertionError("no fixture of that size")


def env_for(tmp_path, site=None, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "XDG_RUNTIME"))}
    env.update(SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DAEMON="0",
               SQZ_QUIET="0", SQZ_TIME_BUDGET_MS="1000", XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    if site is not None:
        env["PYTHONPATH"] = str(site)
    env.update(extra)
    return env


def sqz(args, data: bytes, env: dict, timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True, env=env,
                          timeout=timeout)


def warm_index(site, tmp_path) -> None:
    """Build the plugin index first, without a budget (a cold index build may take seconds at load)."""
    r = sqz(["compress", "--cmd", "true"], b"x\n", env_for(tmp_path, site, SQZ_TIME_BUDGET_MS="0"))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("program", ["stall", "nap"])
def test_a_plugin_stuck_in_c_gets_the_original_out_and_the_process_ends(site, tmp_path, program):
    warm_index(site, tmp_path)
    data = real_output()
    proc = sqz(["compress", "--cmd", f"{program} --all"], data, env_for(tmp_path, site))
    assert proc.stdout == data  # byte for byte
    assert proc.returncode == 0
    assert b"time budget" in proc.stderr


def test_the_wrapped_commands_status_is_the_exit_status(site, tmp_path):
    from sqz_core.exitmarker import new_nonce, trailer

    warm_index(site, tmp_path)
    data, nonce = real_output(), new_nonce()
    proc = sqz(["compress", "--cmd", "stall --all"], data + trailer(7, nonce),
               env_for(tmp_path, site, SQZ_EXIT_NONCE=nonce))
    assert proc.stdout == data  # the trailer stripped, as on every other path
    assert proc.returncode == 7


def test_sqz_run_sends_what_the_command_printed_with_its_status(site, tmp_path):
    warm_index(site, tmp_path)
    data = real_output()
    (tmp_path / "out.txt").write_bytes(data)
    proc = sqz(["run", "--cmd", "stall --all", "--", "sh", "-c", f"cat '{tmp_path / 'out.txt'}'; exit 3"], b"",
               env_for(tmp_path, site))
    assert proc.stdout == data
    assert proc.returncode == 3


def test_a_hook_answers_no_change_at_the_budget(site, tmp_path):
    """Claude Code's PostToolUse: no answer (exit 0, nothing on stdout) leaves the tool's output as it was."""
    warm_index(site, tmp_path)
    payload = {"session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
               "tool_input": {"command": "stall --all"},
               "tool_response": {"stdout": real_output().decode(), "stderr": "", "interrupted": False}}
    proc = sqz(["hook", "claude-code", "--post"], json.dumps(payload).encode(), env_for(tmp_path, site))
    assert proc.returncode == 0
    assert proc.stdout == b""
    assert b"time budget" in proc.stderr and b"left unchanged" in proc.stderr


def test_a_call_waiting_in_sqlite_for_a_lock_gets_the_original_and_the_store_stays_whole(tmp_path):
    """Another process holds the store's write lock and this call may wait a minute for it (in SQLite's C
    code, where no signal handler runs): the watchdog answers at the budget and ends the call."""
    env = env_for(tmp_path, SQZ_TIME_BUDGET_MS="0")
    first = real_output()
    assert sqz(["compress", "--cmd", "pytest -v"], first, env).returncode == 0  # the store exists, with a row
    holder = sqlite3.connect(str(tmp_path / "db.sqlite"), timeout=60)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        data = b"".join(b"line %d of a build log\n" % i for i in range(200))
        proc = sqz(["compress", "--cmd", "make"], data,
                   env_for(tmp_path, SQZ_BUSY_TIMEOUT_MS="60000"), timeout=50)  # the lock is waited on 60 s
    finally:
        holder.rollback()
        holder.close()
    assert proc.stdout == data and proc.returncode == 0
    assert b"time budget" in proc.stderr
    db = sqlite3.connect(str(tmp_path / "db.sqlite"))
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


MID_TRANSACTION = r'''
import sys, time
from sqz_core import hot
from sqz_core.store import Store

execute = Store._execute

def stuck(self, batch):  # the call's writes are made, its transaction is open: then it never ends
    execute(self, batch)
    while True:
        try:
            time.sleep(3600)
        except BaseException:
            pass

Store._execute = stuck
sys.exit(hot.main(sys.argv[1:], hard_cap=True))
'''


def test_ended_inside_a_store_transaction_the_store_is_rolled_back_whole(tmp_path):
    """``os._exit`` with a write transaction open: the next open sees the store as before that call."""
    env = env_for(tmp_path, SQZ_TIME_BUDGET_MS="0")
    first = real_output()
    assert sqz(["compress", "--cmd", "pytest -v"], first, env).returncode == 0
    db = sqlite3.connect(str(tmp_path / "db.sqlite"))
    before = db.execute("SELECT count(*) FROM calls").fetchone()[0]
    db.close()
    data = b"".join(b"step %d of a deploy\n" % i for i in range(300))
    proc = subprocess.run([sys.executable, "-c", MID_TRANSACTION, "compress", "--cmd", "deploy"], input=data,
                          capture_output=True, env=env_for(tmp_path), timeout=120)
    assert proc.stdout == data and proc.returncode == 0
    db = sqlite3.connect(str(tmp_path / "db.sqlite"))
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("SELECT count(*) FROM calls").fetchone()[0] == before  # nothing of the cut call
    db.close()
    again = sqz(["compress", "--cmd", "deploy"], data, env)  # the store takes writes again
    assert again.returncode == 0 and b"store error" not in again.stderr
    db = sqlite3.connect(str(tmp_path / "db.sqlite"))
    assert db.execute("SELECT count(*) FROM calls").fetchone()[0] == before + 1
    db.close()


def test_a_call_within_the_budget_is_untouched_by_the_watchdog(tmp_path):
    """The same bytes as without any budget, and no timeout note."""
    data = real_output()
    capped = sqz(["compress", "--cmd", "pytest -v", "--no-cache"], data, env_for(tmp_path, SQZ_TIME_BUDGET_MS="600000"))
    free = sqz(["compress", "--cmd", "pytest -v", "--no-cache"], data, env_for(tmp_path, SQZ_TIME_BUDGET_MS="0"))
    assert capped.returncode == free.returncode == 0
    assert capped.stdout == free.stdout and b"time budget" not in capped.stderr


def test_in_process_callers_are_never_ended(monkeypatch, tmp_path):
    """``hot.main`` called by another program (a test, the daemon) arms no watchdog: only the sqz process's
    own command line does (``__main__``), so nothing can ``os._exit`` a host."""
    import io

    from sqz_core import hot

    class Stdout:  # looks like descriptor 1, so only the caller decides
        buffer = io.BytesIO()

        def fileno(self):
            return 1

    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db.sqlite"))
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "60000")
    started = []
    monkeypatch.setattr(hot, "_watchdog", lambda *a: started.append(a))
    for argv in (["compress", "--cmd", "make"], ["hook", "claude-code", "--post"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a line\n" * 30)))
        monkeypatch.setattr(sys, "stdout", Stdout())
        hot.main(argv)
    assert started == [] and hot._hard["claim"] is None
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a line\n" * 30)))
    monkeypatch.setattr(sys, "stdout", Stdout())
    monkeypatch.setattr(hot, "_disarm", lambda: None)  # keep what was armed, to look at it
    try:
        hot.main(["compress", "--cmd", "make"], hard_cap=True)  # the sqz process's own command line
        assert len(started) == 1  # armed (the thread stubbed: it never fires)
        assert started[0][1] == 60 + hot.HARD_GRACE_S  # at the budget and its grace
    finally:
        hot._hard.update(enabled=False, claim=None, done=None, deadline=None)
