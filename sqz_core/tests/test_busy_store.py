"""A store whose write lock another process holds: the call goes on without it, at once.

The lock is held by a real second process (``BEGIN IMMEDIATE`` in its own connection),
as a long ``sqz stats --prune`` or a stuck writer would hold it.
"""

import os
import subprocess
import sys
import time

import pytest

from sqz_core import hot
from sqz_core.pipeline import compress
from sqz_core.store import Store, StoreBusy

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO events(ts, kind) VALUES (0, 'holder')")
print("locked", flush=True)
sys.stdin.read()  # hold the write lock until the test closes our stdin
conn.execute("ROLLBACK")
"""

# output the generic stages shrink (repeated lines), long enough to be stored and indexed
DATA = b"".join(b"step %d: compiling module number %d of the build\n" % (i % 5, i % 5) for i in range(400))


@pytest.fixture
def locked_db(tmp_path, monkeypatch):
    path = str(tmp_path / "db.sqlite")
    Store.open(path).close()
    monkeypatch.setenv("SQZ_DB_PATH", path)
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "cache"))  # its own plugin index
    monkeypatch.delenv("SQZ_STORE_URL", raising=False)
    monkeypatch.delenv("SQZ_BUSY_TIMEOUT_MS", raising=False)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert holder.stdout.readline() == b"locked\n"
    try:
        yield path
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
        holder.stdout.close()


def _opts():
    return hot._parse(["--cmd", "make"], allow_rest=False)[0]


def test_hot_handle_gives_up_after_its_short_wait(locked_db):
    store = Store.open(locked_db, hot=True)
    t = time.perf_counter()
    with pytest.raises(StoreBusy):
        store.put_blob("ab" * 32, b"x")
    first = time.perf_counter() - t
    t = time.perf_counter()
    with pytest.raises(StoreBusy):  # once busy, later writes and reads fail at once
        store.get_blob("ab" * 32)
    assert first < 1.0 and time.perf_counter() - t < 0.01
    store.close()


def test_busy_store_costs_a_call_under_100_ms(locked_db, capsys):
    expected = compress(DATA, command="make", store=None).output
    assert expected != DATA  # the generic stages still run
    best_plain = min(_timed(lambda: compress(DATA, command="make", store=None))[1] for _ in range(3))
    for _ in range(3):
        result, took = _timed(lambda: hot.compress_bytes(DATA, _opts()))
        if took < 2 * best_plain + 0.1:
            break
    assert result.output == expected and result.exit_code is None
    assert took < 2 * best_plain + 0.1, f"{took:.3f} s with the lock held (pipeline alone {best_plain:.3f} s)"
    assert "store busy" in capsys.readouterr().err


def test_busy_store_through_the_command(locked_db, tmp_path):
    """A real ``sqz compress`` process next to the lock holder: output, status, one quiet line, no row."""
    env = dict(os.environ, SQZ_DAEMON="0")
    env.pop("SQZ_QUIET", None)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "make"], input=DATA,
                       capture_output=True, env=env, timeout=60)
    took = time.perf_counter() - t
    assert r.returncode == 0 and r.stdout == compress(DATA, command="make", store=None).output
    # (a plugin the environment's entry points name but cannot import may add its own line)
    lines = [line for line in r.stderr.decode().splitlines() if not line.startswith("sqz: plugin ")]
    assert lines[0] == "sqz: store busy (another process holds its write lock); sent without caching"
    assert len(lines) == 2 and lines[1].startswith("sqz: ~")  # and the usual stats line
    assert took < 5.0  # start-up included; main waited over 30 s here
    store = Store.open(locked_db)
    assert store.calls() == []  # nothing half-written
    store.close()


def test_quiet_busy_store_says_nothing(locked_db):
    env = dict(os.environ, SQZ_DAEMON="0", SQZ_QUIET="1")
    r = subprocess.run([sys.executable, "-m", "sqz_core", "compress"], input=b"hello\n", capture_output=True,
                       env=env, timeout=60)
    assert (r.returncode, r.stdout) == (0, b"hello\n")
    assert [line for line in r.stderr.decode().splitlines() if not line.startswith("sqz: plugin ")] == []


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t
