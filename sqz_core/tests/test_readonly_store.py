"""A store this user may read but not write still serves ``sqz expand``, ``sqz recall`` and ``sqz stats``.

Two ways a store is read-only: the file (mode 0444) and its directory (mode 0555, so
SQLite cannot make the ``-wal``/``-shm`` files beside it). The commands run as a user
who owns neither: this user when the tests run unprivileged, the ``nobody`` uid when
they run as root (root ignores file modes, so a chmod alone would test nothing).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sqz_core.store import Store, StoreReadOnly

REPO = Path(__file__).resolve().parents[2]
# real content: a source file of this repository, as an agent's `cat` prints it
SOURCE = REPO / "sqz_core" / "src" / "sqz_core" / "dedup.py"
NOBODY = 65534


def _as_reader() -> list[str]:
    """The command prefix that runs as a uid owning nothing here when we are root (util-linux ``setpriv``:
    no capabilities left), nothing otherwise."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@pytest.fixture(params=["file-0444", "directory-0555"])
def readonly_store(request):
    root = Path(tempfile.mkdtemp(prefix="sqz-ro-"))  # not under pytest's 0700 tmp dir: the reader must reach it
    os.chmod(root, 0o755)
    data_dir, cache = root / "data", root / "cache"
    data_dir.mkdir(mode=0o755)
    cache.mkdir(mode=0o755)
    db = data_dir / "sqz.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(db), SQZ_CACHE_DIR=str(cache), SQZ_DAEMON="0", HOME=str(root),
               PYTHONDONTWRITEBYTECODE="1")
    data = SOURCE.read_bytes()
    written = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", f"cat {SOURCE.name}",
                              "--session", "writer"], input=data, capture_output=True, env=env, check=True)
    assert written.stdout == data  # a file read: every byte, and stored for expand
    store = Store.open(str(db))
    try:
        assert len(store.calls()) == 1 and store.get_blob(hashlib.sha256(data).hexdigest()) == data
    finally:
        store.close()  # checkpointed: no -wal/-shm left beside the file
    if os.geteuid() == 0:
        os.chown(cache, NOBODY, NOBODY)  # the reader's own cache (plugin index) stays writable to it
        for path in cache.rglob("*"):
            os.chown(path, NOBODY, NOBODY)
    if request.param == "file-0444":
        os.chmod(db, 0o444)
    else:
        if os.geteuid() == 0:
            os.chown(db, NOBODY, NOBODY)  # the reader owns a writable file in a directory it cannot write
        os.chmod(data_dir, 0o555)
    try:
        yield env, data
    finally:
        os.chmod(data_dir, 0o755)
        shutil.rmtree(root, ignore_errors=True)


def sqz(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*_as_reader(), sys.executable, "-m", "sqz_core", *args], capture_output=True, env=env,
                          timeout=60, cwd=env["HOME"])


def test_expand_reads_a_readonly_store(readonly_store):
    env, data = readonly_store
    r = sqz(env, "expand", hashlib.sha256(data).hexdigest()[:16])
    assert r.returncode == 0, r.stderr
    assert r.stdout == data
    assert b"readonly" not in r.stderr and b"unavailable" not in r.stderr


def test_recall_reads_a_readonly_store(readonly_store):
    env, data = readonly_store
    r = sqz(env, "recall", "MIN_SHARED")  # a name in dedup.py
    assert r.returncode == 0, r.stderr
    assert f"§ref:{hashlib.sha256(data).hexdigest()[:12]}§".encode() in r.stdout


def test_stats_reads_a_readonly_store(readonly_store):
    env, data = readonly_store
    r = sqz(env, "stats", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["total"]["calls"] == 1


def test_compress_on_a_readonly_store_never_names_content_it_could_not_keep(readonly_store):
    env, _ = readonly_store
    # a lossy rendering needs its original stored for the recovery line: not here, so none is made
    log = "".join(f"INFO request {i} served in {i % 7} ms\n" for i in range(300)).encode()
    r = subprocess.run([*_as_reader(), sys.executable, "-m", "sqz_core", "compress", "--cmd", "tail app.log"],
                       input=log, capture_output=True, env=env, timeout=60, cwd=env["HOME"])
    assert r.returncode == 0 and r.stdout
    assert b"sqz expand" not in r.stdout


def test_a_readonly_handle_refuses_writes(tmp_path):
    path = str(tmp_path / "ro.sqlite")
    Store.open(path).close()
    store = Store._open_read_only(path, 1.0, hot=False)
    try:
        assert store.readonly and store.calls() == []
        with pytest.raises(StoreReadOnly):
            store.put_blob("ab" * 32, b"x")
        store.save_count("ab" * 32, "cl100k", 3)  # a cache: skipped, not an error
    finally:
        store.close()
