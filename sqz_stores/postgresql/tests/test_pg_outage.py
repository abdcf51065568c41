"""The server stops mid-run: commands keep working (one stderr line, exit status kept), writes a
call had buffered are kept in the local spool and reach the server once it is back.

Uses a server of its own (free port, temporary directory, removed afterwards), so stopping
it does not disturb the other tests.
"""

from __future__ import annotations

import hashlib
import time

import pytest

from pg_testlib import PgServer, host_env, sqz, with_schema
from sqz_store_postgresql.pgstore import open_direct, spooled_batches
from sqz_store_postgresql.store import Config

@pytest.fixture
def own_server():
    srv = PgServer("sqz_outage")
    try:
        yield srv
    finally:
        srv.remove()


def test_server_stopped_mid_run(tmp_path, own_server, monkeypatch):
    url = with_schema(own_server.run("start"), "outage_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:10])
    env = host_env(tmp_path, "host", url)
    monkeypatch.setenv("SQZ_CACHE_DIR", env["SQZ_CACHE_DIR"])
    monkeypatch.setenv("SQZ_DB_PATH", env["SQZ_DB_PATH"])
    cfg = Config(url)
    before = "".join(f"build step {i}: compiled module_{i}.o\n" for i in range(80)).encode()
    first = sqz(env, "compress", "--cmd", "make", "--session", "s", data=before)
    assert first.returncode == 0 and first.stderr.count(b"\n") <= 1 and b"unavailable" not in first.stderr

    # a call that has buffered writes when the server goes away
    in_flight = open_direct(cfg)
    in_flight.record_call(session="s", command="in flight", family=None, plugin=None, outcome="compressed",
                          bytes_in=1, bytes_out=1, est_in=1, est_out=1, input_hash=None, output_hash=None)
    in_flight.put_blob("cd" * 32, b"buffered original", "in flight")
    own_server.run("stop")
    in_flight.close()  # cannot commit: spooled, no exception
    assert spooled_batches(cfg) == 1

    during = "".join(f"test_{i} PASSED\n" for i in range(80)).encode()
    proc = sqz(env, "compress", "--cmd", "pytest", "--session", "s", data=during)
    assert proc.returncode == 0 and proc.stdout == during  # nothing lost: sent whole, nothing to expand
    assert proc.stderr.decode().count("\n") == 1 and "store unavailable" in proc.stderr.decode(), proc.stderr
    run = sqz(env, "run", "--session", "s", "--", "sh", "-c", "echo partial output; exit 3")
    assert run.returncode == 3 and run.stdout == b"partial output\n"
    assert run.stderr.decode().count("\n") == 1 and "store unavailable" in run.stderr.decode(), run.stderr

    own_server.run("start")
    time.sleep(2.2)  # the pool's fast-fail window after a failed connect
    after = sqz(env, "compress", "--cmd", "make", "--session", "s", data=before)
    assert after.returncode == 0 and b"unavailable" not in after.stderr, after.stderr
    assert after.stdout.startswith("§ref:".encode())  # the session memory from before the outage is intact
    restored = sqz(env, "expand", hashlib.sha256(before).hexdigest()[:16])
    assert restored.stdout == before
    store = open_direct(cfg)
    try:
        assert spooled_batches(cfg) == 0
        assert store.get_blob("cd" * 32) == b"buffered original"
        assert "in flight" in [row[2] for row in store.calls()]
    finally:
        store.close()
