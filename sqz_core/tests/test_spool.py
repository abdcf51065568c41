"""The write-behind spool: batches kept whole, claimed by one replayer, given back on failure, never lost."""

import os
import sqlite3
import time

from sqz_core.spool import STALE_SECS, Spool
from sqz_core.store import Store

H = "ab" * 32


def test_append_claim_done(tmp_path):
    spool = Spool(str(tmp_path / "spool"))
    assert spool.waiting() == [] and spool.claim() == []
    spool.append([("put_blob", (H, b"bytes", 5, 1.0, None))])
    spool.append([("record_event", (2.0, None, "expand", None, None))])
    assert len(spool.waiting()) == 2
    assert spool.blob(H) == b"bytes" and spool.hashes("ab") == [H] and spool.hashes("cd") == []
    claimed = spool.claim()
    assert [batch[0][0] for _, batch in claimed] == ["put_blob", "record_event"]  # oldest first
    assert spool.waiting() == [] and Spool(spool.path).claim() == []  # a second replayer gets nothing
    spool.give_back(claimed[1:])
    spool.done(claimed[:1])
    assert [b[0][0] for b in spool.batches()] == ["record_event"]
    assert oct(os.stat(spool.path).st_mode & 0o777) == "0o700"


def test_a_claim_whose_process_died_is_waiting_again(tmp_path):
    spool = Spool(str(tmp_path / "spool"))
    spool.append([("record_event", (1.0, None, "x", None, None))])
    (path, _), = spool.claim()
    assert spool.waiting() == []
    old = time.time() - STALE_SECS - 5
    os.utime(path, (old, old))
    assert len(spool.waiting()) == 1 and len(spool.claim()) == 1


def test_a_torn_batch_is_set_aside_not_retried(tmp_path):
    spool = Spool(str(tmp_path / "spool"))
    os.makedirs(spool.path)
    with open(os.path.join(spool.path, "00000000000000000001-1-000000.batch"), "wb") as fh:
        fh.write(b"\x00not marshal")
    assert spool.claim() == [] and spool.waiting() == []
    assert any(n.endswith(".rejected") for n in os.listdir(spool.path))


def test_the_next_handle_sends_what_a_busy_call_spooled(tmp_path):
    path = str(tmp_path / "db.sqlite")
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock, as in test_busy_store
    hot = Store.open(path, hot=True, write_behind=True)
    hot.put_blob(H, b"kept for later", "make")
    hot.record_call(session="s", command="make", family="make", plugin=None, outcome="compressed", bytes_in=14,
                    bytes_out=5, est_in=4, est_out=2, input_hash=H, output_hash=None)
    assert hot.get_blob(H) == b"kept for later"  # the read flushed, found the lock busy, kept the writes
    hot.close()  # spooled as one batch
    assert len(hot.spool.waiting()) == 1
    holder.execute("ROLLBACK")
    holder.close()
    store = Store.open(path)  # a handle that may wait sends the spool
    try:
        assert store.get_blob(H) == b"kept for later" and [r[5] for r in store.calls()] == ["compressed"]
        assert store.spool.waiting() == []
    finally:
        store.close()


def test_a_database_the_call_cannot_open_spools_the_call(tmp_path, monkeypatch):
    """The open itself found the database busy (a closing handle checkpointing it): reads find nothing,
    the writes wait in the spool and the next handle sends them."""
    from sqz_core.store import SpoolOnly

    path = str(tmp_path / "db.sqlite")
    Store.open(path).close()
    store = SpoolOnly(path)
    store.put_blob(H, b"the original", "make")
    store.record_call(session="s", command="make", family="make", plugin=None, outcome="compressed", bytes_in=12,
                      bytes_out=4, est_in=3, est_out=1, input_hash=H, output_hash=None)
    assert store.last_served("s", H) is None and store.tokens_served("s", 0) == 0 and store.calls() == []
    assert store.get_blob(H) == b"the original" and store.find_hashes("ab") == [H]
    store.close()
    assert store.spool.blob(H) == b"the original"
    reopened = Store.open(path)
    try:
        assert reopened.get_blob(H) == b"the original" and [r[5] for r in reopened.calls()] == ["compressed"]
    finally:
        reopened.close()
