"""Issue 29.3: a direct (``SQZ_PG_POOL=0``) hook call on a frozen server falls back before importing
psycopg, with the wrapped command's output and exit status intact.

The frozen server is the throw-away server of ``pg_testlib`` stopped with SIGSTOP (it keeps
accepting TCP connections and never answers). What these tests assert is behaviour — which path
the call took, what reached stdout, the exit status — never how long it took; the time is
measured by ``benchmarks/pg_frozen.py``.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys

import pytest

from pg_testlib import PgServer, host_env, sqz, with_schema
from sqz_core.pipeline import compress
from sqz_store_postgresql.probe import probe, target

from test_pg_members import _server_pids


def test_target_names_the_one_server_a_url_names():
    assert target("postgresql://u:p@db.internal:6432/app?sslmode=require") == ("tcp", "db.internal", 6432)
    assert target("postgresql://u@[::1]:6000/app") == ("tcp", "::1", 6000)
    assert target("postgresql://u@127.0.0.1/app") == ("tcp", "127.0.0.1", 5432)
    assert target("postgresql:///app?host=/var/run/postgresql&port=5433") == (
        "unix", "/var/run/postgresql/.s.PGSQL.5433", 5433)
    assert target("postgresql://u@%2Ftmp%2Fpg/app") == ("unix", "/tmp/pg/.s.PGSQL.5432", 5432)
    assert target("postgresql://u@h/app?hostaddr=10.0.0.7&port=7000") == ("tcp", "10.0.0.7", 7000)
    # several hosts, or libpq's compiled-in socket directory: left to libpq
    assert target("postgresql://u@h1:5432,h2:5432/app") is None
    assert target("postgresql://u@h/app?host=a,b") is None


def test_target_reads_pghost_when_the_url_names_no_host(monkeypatch):
    monkeypatch.delenv("PGPORT", raising=False)
    monkeypatch.delenv("PGHOST", raising=False)
    assert target("postgresql:///app") is None
    monkeypatch.setenv("PGHOST", "/run/pg")
    monkeypatch.setenv("PGPORT", "5499")
    assert target("postgresql:///app") == ("unix", "/run/pg/.s.PGSQL.5499", 5499)


def test_a_listener_that_never_answers_is_found_silent():
    """A socket that completes TCP handshakes (the kernel's backlog) and never reads: a frozen server."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        reason = probe(f"postgresql://u@127.0.0.1:{port}/app", 0.2)
    assert reason == "postgresql: no answer within 200 ms (server frozen or overloaded)"


def test_a_closed_port_is_unreachable_and_says_so_without_credentials():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends
    reason = probe(f"postgresql://alice:s3cret-pw@127.0.0.1:{port}/app", 2.0)
    assert reason is not None and reason.startswith("postgresql: server unreachable")
    assert "s3cret" not in reason and "alice" not in reason


def test_a_healthy_server_answers_the_probe(pg_url):
    assert probe(pg_url, 30.0) is None  # a generous bound: a loaded machine still answers


@pytest.fixture
def frozen(tmp_path):
    srv = PgServer("sqz_probe")
    stopped: list[int] = []
    try:
        url = with_schema(srv.run("start"), "probe_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:10])
        yield url, srv, stopped
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        srv.remove()


def test_a_direct_call_on_a_frozen_server_falls_back_before_importing_psycopg(tmp_path, frozen):
    url, srv, stopped = frozen
    env = host_env(tmp_path, "host", url, SQZ_PG_POOL="0")
    del env["SQZ_PG_TIMEOUT_MS"]  # the default bound of a hook call
    log = b"".join(b"step %d: compiling module number %d of the build\n" % (i % 5, i % 5) for i in range(400))
    healthy = sqz(env, "compress", "--cmd", "make", "--session", "s", data=log)  # creates the schema
    assert healthy.returncode == 0 and b"unavailable" not in healthy.stderr, healthy.stderr
    for pid in _server_pids(srv.env["SQZ_PG_DATA"]):
        os.kill(pid, signal.SIGSTOP)
        stopped.append(pid)

    # in a process of its own, as a hook call: the store is refused and psycopg never imported
    check = ("import sys\n"
             "from sqz_core.api import StoreError\n"
             "from sqz_store_postgresql.store import open_store\n"
             "try:\n"
             f"    open_store({url!r}, hot=True)\n"
             "except StoreError as exc:\n"
             "    print('refused:', exc)\n"
             "print('psycopg imported:', 'psycopg' in sys.modules)\n")
    probe_env = dict(env)
    probe_env.pop("SQZ_STORE_URL")
    r = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=probe_env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "refused: postgresql: no answer within 400 ms" in r.stdout, r.stdout
    assert "psycopg imported: False" in r.stdout, r.stdout

    # sqz compress: the output as without a store, one line on stderr
    os.remove(os.path.join(env["SQZ_CACHE_DIR"], next(f for f in os.listdir(env["SQZ_CACHE_DIR"])
                                                      if f.startswith("pg-down-"))))  # not the fast-fail marker
    proc = sqz(env, "compress", "--cmd", "make", "--session", "s", data=log)
    assert proc.returncode == 0 and proc.stdout == compress(log, command="make", store=None).output
    notes = [line for line in proc.stderr.decode().splitlines() if "store" in line]
    assert len(notes) == 1 and "no answer within 400 ms" in notes[0], proc.stderr
    # sqz run: the wrapped command's output and exit status intact
    run = sqz(env, "run", "--session", "s", "--", "sh", "-c", "echo partial output; exit 3")
    assert run.returncode == 3 and run.stdout == b"partial output\n", run.stderr
    assert "store unavailable" in run.stderr.decode()
