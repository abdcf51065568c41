"""A real PostgreSQL server for the tests: ``SQZ_TEST_PG_URL`` if set, else a throw-away server the
tests start themselves (``scripts/start_test_server.sh`` on a free loopback port, data in a temporary
directory), stopped and removed when the session ends.

Every test gets its own schema (``?schema=…``), dropped afterwards. An unreachable
server fails the tests with the command that starts one: they never skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DIST = HERE.parent
REPO = DIST.parent.parent
START_SCRIPT = DIST / "scripts" / "start_test_server.sh"

# the shared store contract lives with the core's tests
sys.path.insert(0, str(REPO / "sqz_core" / "tests"))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """A PostgreSQL server of the tests' own: free port, temporary data directory."""

    def __init__(self, db: str) -> None:
        import tempfile

        self.dir = tempfile.mkdtemp(prefix="sqz-pg-test-")
        os.chmod(self.dir, 0o755)  # the server runs as `postgres` when the tests run as root
        self.env = dict(os.environ, SQZ_PG_PORT=str(free_port()), SQZ_PG_DATA=os.path.join(self.dir, "data"),
                        SQZ_PG_DB=db)

    def run(self, action: str) -> str:
        proc = subprocess.run(["bash", str(START_SCRIPT), action], capture_output=True, text=True, env=self.env,
                              timeout=120)
        if proc.returncode != 0:
            pytest.fail(f"start_test_server.sh {action} failed: {proc.stderr.strip()}", pytrace=False)
        return proc.stdout.strip()

    def remove(self) -> None:
        import shutil

        subprocess.run(["bash", str(START_SCRIPT), "stop"], capture_output=True, env=self.env, timeout=120)
        shutil.rmtree(self.dir, ignore_errors=True)


def with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


@pytest.fixture(scope="session")
def pg_url():
    import psycopg

    url = os.environ.get("SQZ_TEST_PG_URL")
    server = None
    if not url:
        server = PgServer("sqz_test")
        url = server.run("start")
    try:
        try:
            psycopg.connect(url, connect_timeout=3).close()
        except psycopg.Error as exc:
            pytest.fail(f"no PostgreSQL server at {url} ({str(exc).strip().splitlines()[0]})", pytrace=False)
        yield url
    finally:
        if server:
            server.remove()


def drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def schema_url(pg_url, monkeypatch):
    """A store URL on a schema of this test's own; SQZ_STORE_URL points at it."""
    schema = "t_" + uuid.uuid4().hex[:12]
    url = with_schema(pg_url, schema)
    monkeypatch.setenv("SQZ_STORE_URL", url)
    monkeypatch.setenv("SQZ_PG_POOL_IDLE_SECS", "20")  # pool processes started by a test go away soon
    monkeypatch.delenv("SQZ_STORE_ORIGINALS", raising=False)
    yield url
    drop_schema(pg_url, schema)


def host_env(root: Path, name: str, url: str, **extra) -> dict:
    """The environment of one "machine": its own HOME, cache, SQLite file; the shared team store."""
    home = root / name
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_") and k not in ("XDG_CONFIG_HOME",
                                                                                             "XDG_CACHE_HOME",
                                                                                             "XDG_DATA_HOME")}
    # SQZ_PG_TIMEOUT_MS: a hook call's wait for each answer is a latency bound (400 ms), met or not by
    # how loaded the machine is; tests of a healthy server wait as long as it takes, so a missing
    # answer means a fault, never two cores shared by more processes than usual. The frozen-server
    # test (test_pg_members.py) runs with the default. SQZ_TIME_BUDGET_MS=0 for the same reason: past
    # the pipeline's time budget an output is sent unchanged and not stored, which at load 10 would
    # decide what a storage test finds.
    env.update(HOME=str(home), SQZ_CACHE_DIR=str(home / "cache"), SQZ_DB_PATH=str(home / "sqz.db"),
               SQZ_STORE_URL=url, SQZ_PG_POOL_IDLE_SECS="20", PYTHONDONTWRITEBYTECODE="1",
               SQZ_PG_TIMEOUT_MS="20000", SQZ_TIME_BUDGET_MS="0")
    env.update(extra)
    return env


def sqz(env: dict, *args: str, data: bytes = b"", check: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True, env=env,
                          check=check, timeout=60)
