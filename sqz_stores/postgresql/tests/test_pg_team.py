"""Two machines, sixteen writers, privacy: the team store through the real ``sqz`` command.

Each "host" is a separate process environment (own HOME, cache dir, SQLite file,
pooling process) sharing one PostgreSQL schema.
"""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg

from pg_testlib import REPO, host_env, sqz
from sqz_store_postgresql.pgstore import open_direct
from sqz_store_postgresql.store import Config

# real content: a source file of this repository, read as an agent would
SOURCE = REPO / "sqz_core" / "src" / "sqz_core" / "dedup.py"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def no_store_trouble(proc) -> bool:
    err = proc.stderr.decode()
    return "unavailable" not in err and "store error" not in err and "internal error" not in err


def test_two_hosts_share_originals_pins_and_recall_but_not_refs(tmp_path, schema_url):
    a, b = host_env(tmp_path, "host-a", schema_url), host_env(tmp_path, "host-b", schema_url)
    data = SOURCE.read_bytes()
    first = sqz(a, "compress", "--cmd", f"cat {SOURCE.name}", "--session", "agent-a", data=data)
    assert first.returncode == 0 and no_store_trouble(first), first.stderr
    # host B expands what host A stored
    expanded = sqz(b, "expand", digest(data)[:16])
    assert expanded.returncode == 0, expanded.stderr
    assert expanded.stdout == data
    # refs stay per session: B's agent never saw it, A's agent did
    on_b = sqz(b, "compress", "--cmd", f"cat {SOURCE.name}", "--session", "agent-b", data=data)
    assert on_b.stdout == data  # sent in full (a file read keeps every byte)
    again_a = sqz(a, "compress", "--cmd", f"cat {SOURCE.name}", "--session", "agent-a", data=data)
    assert again_a.stdout.startswith(f"§ref:{digest(data)[:12]}§ ".encode()), again_a.stdout[:200]
    # a pin made on A gives refs on B, in any session
    conventions = (REPO / "docs" / "plugin-authoring.md").read_bytes()
    pinned = sqz(a, "pin", "add", str(REPO / "docs" / "plugin-authoring.md"), "--label", "conventions")
    assert pinned.returncode == 0, pinned.stderr
    on_b = sqz(b, "compress", "--cmd", "cat docs/plugin-authoring.md", "--session", "fresh-b", data=conventions)
    assert on_b.stdout.startswith(f"§ref:{digest(conventions)[:12]}§ pinned content (".encode()), on_b.stdout[:200]
    # recall on B finds A's output; stats hold both hosts' calls
    recall = sqz(b, "recall", "MIN_SHARED")
    assert recall.returncode == 0 and f"§ref:{digest(data)[:12]}§".encode() in recall.stdout, recall.stdout
    store = open_direct(Config(schema_url))
    try:
        sessions = {row[1] for row in store.calls()}
    finally:
        store.close()
    assert {"agent-a", "agent-b", "fresh-b"} <= sessions


WRITERS, CALLS = 16, 3


def test_sixteen_concurrent_writers_lose_nothing(tmp_path, schema_url):
    shared = (REPO / "docs" / "plugin-authoring.md").read_bytes()  # every writer also sends the same bytes

    def writer(n: int) -> list:
        # half share one machine (one pool process), half connect directly, each from its own machine
        env = (host_env(tmp_path, "shared-host", schema_url) if n % 2 == 0
               else host_env(tmp_path, f"direct-{n}", schema_url, SQZ_PG_POOL="0"))
        out = []
        for i in range(CALLS):
            data = shared if i == 0 else "".join(
                f"writer {n} call {i} line {k}: {'ok' if k % 7 else 'retry'}\n" for k in range(60)).encode()
            out.append((data, sqz(env, "compress", "--cmd", "make", "--session", f"w{n}", data=data)))
        return out

    with ThreadPoolExecutor(WRITERS) as pool:
        results = [r for batch in pool.map(writer, range(WRITERS)) for r in batch]
    for data, proc in results:
        assert proc.returncode == 0 and proc.stdout, proc.stderr
        assert no_store_trouble(proc), proc.stderr
    store = open_direct(Config(schema_url))
    try:
        assert len(store.calls()) == WRITERS * CALLS
        for data, _ in results:
            assert store.get_blob(digest(data)) == data
        assert len({row[1] for row in store.calls()}) == WRITERS
    finally:
        store.close()


SECRET = "ghp_" + "Zq8" * 12  # a GitHub token format the safety classifier knows


def team_rows(url: str, schema: str) -> str:
    """Every text and byte value of the team store, as one string to search."""
    parts = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'SET search_path = "{schema}"')
        for table in ("blobs", "served", "calls", "recall", "pins", "events"):
            for row in conn.execute(f"SELECT * FROM {table}"):
                parts.extend(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in row)
    return "\n".join(parts)


def test_secrets_never_reach_the_team_store(tmp_path, schema_url, pg_url):
    env = host_env(tmp_path, "host", schema_url)
    leaky = (f"export GITHUB_TOKEN={SECRET}\n" + "".join(f"step {i} done\n" for i in range(50))).encode()
    proc = sqz(env, "compress", "--cmd", "cat .env", "--session", "s", data=leaky)
    assert proc.stdout == leaky  # safe content: sent unchanged
    command = sqz(env, "run", "--cmd", f"curl -H 'Authorization: token {SECRET}' https://api.example.org",
                  "--", "python3", "-c", "print('fine\\n' * 50)")
    assert command.returncode == 0
    schema = schema_url.rsplit("schema=", 1)[1]
    stored = team_rows(pg_url, schema)
    assert "step 49 done" not in stored  # the leaky output: not stored, not indexed
    assert SECRET not in stored
    assert "[command withheld: it holds a credential]" in stored  # the call itself is counted


def test_store_originals_off_sends_only_hashes_and_stats(tmp_path, schema_url, pg_url):
    url = schema_url + "&store_originals=0"
    a = host_env(tmp_path, "private", url)
    b = host_env(tmp_path, "other", schema_url)
    data = SOURCE.read_bytes()
    sqz(a, "compress", "--cmd", f"cat {SOURCE.name}", "--session", "s", data=data, check=True)
    again = sqz(a, "compress", "--cmd", f"cat {SOURCE.name}", "--session", "s", data=data, check=True)
    assert again.stdout.startswith(b"\xc2\xa7ref:")  # refs work on this machine (local store)
    assert sqz(a, "expand", digest(data)[:16]).stdout == data  # and so does expand
    assert sqz(b, "expand", digest(data)[:16]).returncode == 1  # not from the team store
    schema = schema_url.split("schema=", 1)[1]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'SET search_path = "{schema}"')
        blobs = conn.execute("SELECT hash, data IS NULL, size FROM blobs WHERE hash = %s", (digest(data),)).fetchall()
        assert blobs == [(digest(data), True, len(data))]
        assert conn.execute("SELECT count(*) FROM blobs WHERE data IS NOT NULL").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM recall").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM served").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM calls").fetchone()[0] == 2


def test_an_unreachable_server_fails_fast_in_one_line_without_credentials(tmp_path, monkeypatch):
    from sqz_core.api import StoreError
    from sqz_store_postgresql.store import open_store

    monkeypatch.setenv("SQZ_PG_POOL", "0")
    url = "postgresql://sqz:hunter2secret@127.0.0.1:9/team"  # port 9 (discard): nothing listens
    t0 = time.monotonic()
    try:
        open_store(url)
    except StoreError as exc:
        message = str(exc)
    else:
        raise AssertionError("open_store succeeded without a server")
    # the protocol bound under test: one connect attempt, capped by the store's connect_timeout
    # (1 s), not retried; the margin is for a loaded machine, this is not a speed claim
    assert time.monotonic() - t0 < 1 + 5
    assert "\n" not in message and "hunter2secret" not in message and "127.0.0.1" in message
