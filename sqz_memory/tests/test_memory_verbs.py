"""`sqz compact`, `sqz pin`, `sqz recall` and `sqz sessions`, mounted from this distribution's entry points
and run as a person would (real processes, a store of the test's own; the outputs are a real file of this
repository and a real `git log` of a fixed commit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOG = ["git", "-C", str(ROOT), "log", "--stat", "-n", "15", "6b23c68"]  # a fixed commit: the same bytes every run


@pytest.fixture
def sqz(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DAEMON="0",
               SQZ_SESSION="memory-verbs", SQZ_BIN="sqz", SQZ_QUIET="1", SQZ_CONFIG="",
               SQZ_TIME_BUDGET_MS="0")  # no time budget: the same answer on a box at any load

    def run(*args: str, data: bytes | None = None, ok: int = 0) -> str:
        r = subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, env=env, capture_output=True,
                           timeout=120)
        assert r.returncode == ok, (args, r.stdout, r.stderr)
        assert b"Traceback" not in r.stderr
        return r.stdout.decode()

    return run


def test_the_verbs_are_this_distributions_entry_points():
    eps = {ep.name: ep.value for ep in metadata.entry_points(group="sqz.commands") if ep.dist.name == "sqz-memory"}
    assert eps == {"compact": "sqz_memory.commands:compact", "pin": "sqz_memory.commands:pin_app",
                   "recall": "sqz_memory.commands:recall", "sessions": "sqz_memory.commands:sessions"}


def test_pin_add_list_remove_round_trip(sqz, tmp_path):
    doc = ROOT / "docs" / "configuration.md"
    added = json.loads(sqz("pin", "add", str(doc), "--label", "config docs", "--json"))
    assert added["bytes"] == len(doc.read_bytes()) and added["label"] == "config docs"
    assert added["ref"] == f"§ref:{added['id']}§" and added["hash"].startswith(added["id"])
    listed = json.loads(sqz("pin", "list", "--json"))
    assert [(p["hash"], p["label"], p["bytes"]) for p in listed] == [(added["hash"], "config docs", added["bytes"])]
    assert sqz("pin", "list").startswith(f"§ref:{added['id']}§ ")
    removed = json.loads(sqz("pin", "remove", added["ref"], "--json"))
    assert removed == {"ref": added["ref"], "id": added["id"], "hash": added["hash"], "unpinned": True}
    assert sqz("pin", "list") == "no pinned entries\n"
    assert sqz("pin", "remove", added["ref"], ok=1) == ""  # not pinned any more: exit 1, said on stderr
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    sqz("pin", "add", str(empty), ok=1)


def test_sessions_recall_and_compact_over_what_was_served(sqz):
    raw = subprocess.run(LOG, capture_output=True, check=True).stdout
    sqz("compress", "--cmd", " ".join(LOG), data=raw)
    again = sqz("compress", "--cmd", " ".join(LOG), data=raw)
    assert again.startswith("§ref:")  # the session was served it: a ref
    (row,) = json.loads(sqz("sessions", "--json"))
    assert row["session"] == "memory-verbs" and row["served"] >= 1 and row["pressure"] in ("default", "high", "critical")
    word = next(w for w in raw.decode().split() if w.isalpha() and len(w) > 6)
    hits = json.loads(sqz("recall", "--json", word))
    assert hits and all(h["ref"].startswith("§ref:") for h in hits)
    assert sqz("recall", "zzqqxxnotaword", ok=1) == "no match for 'zzqqxxnotaword'\n"
    done = json.loads(sqz("compact", "--json"))
    assert done["session"] == "memory-verbs" and done["forgotten"] >= 1
    after = sqz("compress", "--cmd", " ".join(LOG), data=raw)
    assert not after.startswith("§ref:")  # compacted: sent again, never a ref to text the agent forgot
    assert sqz("sessions", "--json") != "[]\n"  # served again after the compaction
