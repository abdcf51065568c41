"""Two members on one team store never share a session; a frozen server costs a call one short wait.

Members are separate processes with their own identity: ``USER`` (what ``getpass`` and
sqz read for the user) and ``SQZ_HOST`` (the documented override of the machine name,
for hosts that share one), and their own HOME, cache and SQLite file. The frozen server
is a server of the test's own, stopped with SIGSTOP: it keeps accepting TCP connections
and never answers, which no connect or statement timeout on the server side can end.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time

import pytest

from pg_testlib import REPO, PgServer, host_env, with_schema
from sqz_core.pipeline import compress
from sqz_store_postgresql import pool
from sqz_store_postgresql.pgstore import open_direct
from sqz_store_postgresql.store import Config

SOURCE = REPO / "sqz_core" / "src" / "sqz_core" / "dedup.py"  # real content: a file an agent reads


def run_in(cwd, env: dict, *args: str, data: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True, env=env,
                          cwd=str(cwd), timeout=120)


def test_two_members_with_the_same_checkout_path_never_share_a_session(tmp_path, schema_url):
    checkout = tmp_path / "src" / "app"  # the same path on both machines
    checkout.mkdir(parents=True)
    data = SOURCE.read_bytes()
    ref = f"§ref:{hashlib.sha256(data).hexdigest()[:12]}§".encode()
    alice = host_env(tmp_path, "alice", schema_url, USER="alice", LOGNAME="alice", SQZ_HOST="laptop-a")
    bob = host_env(tmp_path, "bob", schema_url, USER="bob", LOGNAME="bob", SQZ_HOST="laptop-b")
    alice_b = host_env(tmp_path, "alice-b", schema_url, USER="alice", LOGNAME="alice", SQZ_HOST="laptop-b")
    first = run_in(checkout, alice, "compress", "--cmd", f"cat {SOURCE.name}", data=data)
    assert first.returncode == 0 and first.stdout == data, first.stderr
    again = run_in(checkout, alice, "compress", "--cmd", f"cat {SOURCE.name}", data=data)
    assert again.stdout.startswith(ref), again.stdout[:200]  # alice's agent has it: a ref
    # bob's agent never saw it, nor alice's agent on her other machine: the content in full
    for member in (bob, alice_b):
        theirs = run_in(checkout, member, "compress", "--cmd", f"cat {SOURCE.name}", data=data)
        assert theirs.returncode == 0 and theirs.stdout == data, theirs.stdout[:200]
    store = open_direct(Config(schema_url))
    try:
        sessions = [row[1] for row in store.calls()]
    finally:
        store.close()
    assert len(sessions) == 4 and len(set(sessions)) == 3
    assert sessions[0] == sessions[1] and sessions[0].startswith("cwd:alice@laptop-a:")
    assert sessions[2].startswith("cwd:bob@laptop-b:") and sessions[3].startswith("cwd:alice@laptop-b:")


def _server_pids(data_dir: str) -> list[int]:
    """The postmaster (``postmaster.pid``) and every process it started."""
    with open(os.path.join(data_dir, "postmaster.pid")) as fh:
        root = int(fh.readline())
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


@pytest.fixture
def frozen_server(tmp_path):
    """``(url, freeze, thaw)`` on a server of this test's own, removed afterwards (thawed first)."""
    srv = PgServer("sqz_frozen")
    stopped: list[int] = []

    def freeze() -> None:
        for pid in _server_pids(srv.env["SQZ_PG_DATA"]):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)

    def thaw() -> None:
        while stopped:
            try:
                os.kill(stopped.pop(), signal.SIGCONT)
            except ProcessLookupError:
                pass

    try:
        url = with_schema(srv.run("start"), "frozen_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:10])
        yield url, freeze, thaw
    finally:
        thaw()
        srv.remove()


def test_a_frozen_server_costs_a_call_one_short_wait_and_the_output_passes(tmp_path, frozen_server, monkeypatch):
    url, freeze, thaw = frozen_server
    env = host_env(tmp_path, "host", url)
    del env["SQZ_PG_TIMEOUT_MS"]  # the default bound, which is what is under test
    monkeypatch.setenv("SQZ_CACHE_DIR", env["SQZ_CACHE_DIR"])  # the pool's socket is named by these
    monkeypatch.setenv("SQZ_DB_PATH", env["SQZ_DB_PATH"])
    data = SOURCE.read_bytes()
    log = b"".join(b"step %d: compiling module number %d of the build\n" % (i % 5, i % 5) for i in range(400))
    healthy = run_in(tmp_path, env, "compress", "--cmd", "make", "--session", "s", data=log)
    assert healthy.returncode == 0 and b"unavailable" not in healthy.stderr, healthy.stderr
    assert pool.wait_listening(Config(url), 30)  # the first call started the pooling process
    freeze()
    direct = dict(env, SQZ_PG_POOL="0")
    for n, (environment, payload, command) in enumerate([(env, data, f"cat {SOURCE.name}"), (env, log, "make"),
                                                         (env, log, "make"), (direct, log, "make")]):
        t = time.monotonic()
        proc = run_in(tmp_path, environment, "compress", "--cmd", command, "--session", "s", data=payload)
        took = time.monotonic() - t
        expected = compress(payload, command=command, store=None).output
        assert proc.returncode == 0 and proc.stdout == expected, (n, proc.stderr)  # passes, as without a store
        notes = [line for line in proc.stderr.decode().splitlines() if "store" in line]
        # our own bound, or (once the pool's own connect attempt timed out) the fast-fail marker it left
        assert len(notes) == 1 and ("no answer within 400 ms" in notes[0] or "timeout expired" in notes[0]), (
            n, proc.stderr)
        # the behaviour is one bounded wait (above); a wide margin for a loaded machine — a call on a
        # frozen server used to wait out the 15 s reply timeout and a 2 s connect timeout
        assert took < 12, (n, took)
    thaw()
