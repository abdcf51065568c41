"""A store whose write lock another process holds: the call waits once, briefly, and loses nothing.

The lock is held by a real second process (``BEGIN IMMEDIATE`` in its own connection),
as a long ``sqz stats --prune`` or a stuck writer would hold it. A plain hot handle
gives up after its short wait; the hook call's write-behind handle keeps its writes in
the spool, so the output is what a free store gives and the next handle sends them.
"""

import os
import sqlite3
import subprocess
import sys
import time

import pytest

from sqz_core import hot
from sqz_core.pipeline import compress
from sqz_core.store import HOT_BUSY_MS, Store, StoreBusy

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


class Locked(str):
    """The database path; ``release()`` ends the lock holder before the test does."""

    holder = None

    def release(self) -> None:
        if self.holder.poll() is None:
            self.holder.stdin.close()
            self.holder.wait(timeout=10)


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
    locked = Locked(path)
    locked.holder = holder
    try:
        yield locked
    finally:
        locked.release()
        holder.stdout.close()


def _opts():
    return hot._parse(["--cmd", "make"], allow_rest=False)[0]


def test_hot_handle_gives_up_after_its_short_wait(locked_db):
    store = Store.open(locked_db, hot=True)
    assert store.busy_ms == HOT_BUSY_MS  # one short wait, not the 5 s of a plain handle
    t = time.monotonic()
    with pytest.raises(StoreBusy) as first:
        store.put_blob("ab" * 32, b"x")
    waited = time.monotonic() - t
    assert store.busy and first.value.__cause__ is not None  # sqlite itself said busy, once
    conn, store.conn = store.conn, None  # once busy, later writes and reads fail at once: without touching the database
    with pytest.raises(StoreBusy, match="locked by another process") as later:
        store.get_blob("ab" * 32)
    assert later.value.__cause__ is None
    # the wait is the behaviour: HOT_BUSY_MS once, no retries; 2 s margin for a loaded machine,
    # still under the 5 s a plain handle waits per attempt
    assert waited < HOT_BUSY_MS / 1000 + 2.0, waited
    conn.close()


def _free_store_output(tmp_path) -> bytes:
    """What the call answers with a store nobody else holds (the output a busy store must not change)."""
    free = Store.open(str(tmp_path / "free.sqlite"))
    try:
        return compress(DATA, command="make", store=free).output
    finally:
        free.close()


def test_busy_store_costs_a_call_one_short_wait(locked_db, tmp_path, capsys, monkeypatch):
    """The call waits for the lock once (HOT_BUSY_MS), keeps its writes in the spool: counted, not timed."""
    expected = _free_store_output(tmp_path)
    assert expected != DATA  # the generic stages still run
    waits = []
    retry = Store._retry

    def counting(self, fn, attempts=None):
        def counted():
            try:
                return fn()
            except sqlite3.OperationalError:  # sqlite waited busy_ms for the lock, then said busy
                waits.append(self.busy_ms)
                raise
        return retry(self, counted, attempts)

    monkeypatch.setattr(Store, "_retry", counting)
    result = hot.compress_bytes(DATA, _opts())
    assert result.output == expected and result.exit_code is None and result.stored
    assert waits == [HOT_BUSY_MS], waits  # one short wait, then the spool: no second wait
    assert "store busy" not in capsys.readouterr().err  # nothing was lost: nothing to say
    spool = Store.open(locked_db, hot=True).spool
    assert len(spool.waiting()) == 1  # the call's writes, as one batch
    assert spool.blob(result.digest) == DATA  # and expand finds the original meanwhile


def test_busy_store_through_the_command(locked_db, tmp_path):
    """A real ``sqz compress`` process next to the lock holder: the free-store output and status, the
    usual stats line; its writes wait in the spool and the next handle sends them."""
    env = dict(os.environ, SQZ_DAEMON="0")
    env.pop("SQZ_QUIET", None)
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "make"], input=DATA,
                       capture_output=True, env=env, timeout=60)
    took = time.monotonic() - t
    assert r.returncode == 0 and r.stdout == _free_store_output(tmp_path)
    # (a plugin the environment's entry points name but cannot import may add its own line)
    lines = [line for line in r.stderr.decode().splitlines() if not line.startswith("sqz: plugin ")]
    assert len(lines) == 1 and lines[0].startswith("sqz: ~"), lines  # the usual stats line only
    # the wait is the behaviour: HOT_BUSY_MS once, plus a wide margin for the interpreter's start-up
    # on a loaded machine; a call that retried like a plain handle waited over 30 s here
    assert took < HOT_BUSY_MS / 1000 + 10.0, took
    store = Store.open(locked_db, hot=True)  # a hot handle does not send the spool
    assert store.calls() == []  # nothing half-written
    store.close()
    locked_db.release()
    store = Store.open(locked_db)  # a handle that may wait sends what the spool holds
    try:
        rows = store.calls()
        assert [(row[2], row[5], row[6]) for row in rows] == [("make", "compressed", len(DATA))]
        assert store.get_blob(rows[0][10]) == DATA
        assert store.spool.waiting() == []
    finally:
        store.close()


def test_quiet_busy_store_says_nothing(locked_db):
    env = dict(os.environ, SQZ_DAEMON="0", SQZ_QUIET="1")
    r = subprocess.run([sys.executable, "-m", "sqz_core", "compress"], input=b"hello\n", capture_output=True,
                       env=env, timeout=60)
    assert (r.returncode, r.stdout) == (0, b"hello\n")
    assert [line for line in r.stderr.decode().splitlines() if not line.startswith("sqz: plugin ")] == []

