"""No secret at rest, also for what an older sqz stored: `sqz doctor --purge-secrets`; the HTML report.

The store is seeded the way versions before the secret detectors wrote it: the same
INSERT statements, with outputs that hold secrets (the documented-format samples of
test_secrets.py, fake values) and unscrubbed command lines in calls, blobs and the
full-text index.
"""

from __future__ import annotations

import glob
import os
import stat
import subprocess
import sys
import time

from sqz_core.pipeline import digest_of
from sqz_core.store import Store
from test_secrets import COMMANDS, SAMPLES

ORDINARY = "".join(f"row {i}: status ok\n" for i in range(60))


def _seed_like_an_old_version(path: str) -> dict:
    """Rows as the pre-detector store wrote them: every output stored and indexed, commands as given."""
    store = Store.open(path)
    conn = store.conn
    secrets, kept = [], []
    for i, (name, text, secret) in enumerate(SAMPLES):
        command = COMMANDS[i % len(COMMANDS)][0]
        data = text.encode()
        digest = digest_of(data)
        conn.execute("INSERT OR IGNORE INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?)",
                     (digest, data, len(data), time.time(), command))
        conn.execute("INSERT INTO recall(body, hash, command, session, ts) VALUES (?,?,?,?,?)",
                     (text, digest, command, "old", time.time()))
        conn.execute("INSERT INTO served(session, hash, served_at) VALUES (?,?,?)", ("old", digest, time.time()))
        conn.execute("INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, "
                     "est_out, input_hash, output_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                     (time.time(), "old", command, name, None, "compressed", len(data), len(data), 9, 9, digest, None))
        secrets.append(secret)
    for command, secret, _scrubbed in COMMANDS:  # an ordinary output run by a command holding a secret
        data = ORDINARY.encode()
        digest = digest_of(data)
        conn.execute("INSERT OR IGNORE INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?)",
                     (digest, data, len(data), time.time(), command))
        conn.execute("INSERT INTO recall(body, hash, command, session, ts) VALUES (?,?,?,?,?)",
                     (ORDINARY, digest, command, "old", time.time()))
        conn.execute("INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, "
                     "est_out, input_hash, output_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                     (time.time(), "old", command, "x", None, "compressed", 1, 1, 9, 9, digest, None))
        secrets.append(secret)
        kept.append(digest)
    store.close()
    return {"secrets": secrets, "kept": kept}


def _at_rest(path: str) -> bytes:
    data = b""
    for name in sorted(glob.glob(path + "*")):
        with open(name, "rb") as fh:
            data += fh.read()
    return data


def _sqz(*args, env):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], capture_output=True, env=env, timeout=120)


def test_doctor_purges_what_an_old_version_stored(tmp_path):
    path = str(tmp_path / "db.sqlite")
    seeded = _seed_like_an_old_version(path)
    before = _at_rest(path)
    assert sum(s.encode() in before for s in seeded["secrets"]) == len(seeded["secrets"])  # the seed is real
    env = dict(os.environ, SQZ_DB_PATH=path, SQZ_DAEMON="0", SQZ_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SQZ_STORE_URL", None)
    r = _sqz("doctor", "--purge-secrets", env=env)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert f"deleted {len(SAMPLES)} holding a secret" in out
    # every seeded command holds a secret: the rows that stay (calls 27 + 9, the one ordinary blob, its 9
    # index rows) are scrubbed; the rows of deleted outputs are gone with them
    assert f"scrubbed {len(SAMPLES) + len(COMMANDS) + 1 + len(COMMANDS)} command lines" in out, out
    after = _at_rest(path)
    left = [s for s in seeded["secrets"] if s.encode() in after]
    assert left == []  # not in the tables, the index, free pages or the WAL
    store = Store.open(path)
    try:
        assert store.find_hashes("", limit=100) == [seeded["kept"][0]]  # ordinary output stays, expandable
        assert store.search("status") and all(secret not in (h[1] or "") for h in store.search("status")
                                              for secret in seeded["secrets"])
        assert len(store.calls()) == len(SAMPLES) + len(COMMANDS)  # stats rows stay
        assert store.health() == "ok"
    finally:
        store.close()
    again = _sqz("doctor", "--purge-secrets", env=env)  # nothing left to do
    assert "deleted 0 holding a secret and 0 search-index rows; scrubbed 0 command lines" in again.stdout.decode()


def test_report_scrubs_commands_and_is_private(tmp_path):
    """Commands an old version stored unscrubbed (regret signals list them) never reach the page."""
    path = str(tmp_path / "db.sqlite")
    store = Store.open(path)
    now = time.time()
    command, secret, scrubbed = COMMANDS[0]
    for k, outcome in enumerate(("compressed", "compressed")):  # a quick re-run after a shortened answer
        store.conn.execute("INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, "
                           "est_in, est_out, input_hash, output_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                           (now - 10 + k, "s", command, "curl", None, outcome, 900, 100, 300, 30, None, None))
    store.close()
    page = tmp_path / "report.html"
    page.write_text("old report\n")
    os.chmod(page, 0o644)
    env = dict(os.environ, SQZ_DB_PATH=path, SQZ_DAEMON="0", SQZ_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SQZ_STORE_URL", None)
    r = _sqz("report", "--html", str(page), "--model", "claude-sonnet-4", env=env)
    text = page.read_text()
    assert "wrote" in r.stdout.decode(), r.stderr.decode()
    assert "rerun" in text and secret not in text
    assert "Authorization: ***" in text
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
