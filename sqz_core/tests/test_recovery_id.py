"""The recovery line ``[sqz expand ID]``: ID is the shortest digest prefix (12 hex digits or more)
unique in the store when sqz wrote it, so ``sqz expand ID`` never answers "ambiguous".

Collisions on 12 hex digits (48 bits) are rare by chance, so they are constructed: hashes that
share a prefix with the real digest are put in the store directly before the lossy result is made.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core.expand import ExpandError, resolve, short_id
from sqz_core.pipeline import compress, digest_of
from sqz_core.runnable import find_recovery
from sqz_core.store import Store

ROOT = Path(__file__).resolve().parents[2]
GIT_LOG = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()


@pytest.fixture()
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def _twin(digest: str, shared: int) -> str:
    """A 64-hex hash sharing exactly ``shared`` leading digits with ``digest``."""
    flip = "0" if digest[shared] != "0" else "1"
    return digest[:shared] + flip + digest[shared + 1:]


def _recovery_id(out: bytes) -> str:
    text = out.decode()
    found = find_recovery(text)
    assert found is not None, text[-300:]
    assert text.endswith(f"[{found[0]} expand {found[1]}]\n")  # the last line, on its own
    return found[1]


def test_no_collision_twelve_digits_that_expand(store):
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    assert r.outcome == "compressed" and r.plugin
    ref_id = _recovery_id(r.output)
    assert ref_id == r.digest[:12]
    assert resolve(store, ref_id) == GIT_LOG


@pytest.mark.parametrize("shared", [12, 13, 15, 20])
def test_a_stored_hash_sharing_the_prefix_lengthens_the_id(store, shared):
    digest = digest_of(GIT_LOG)
    store.put_blob(_twin(digest, shared), b"another output\n", "echo other")
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    ref_id = _recovery_id(r.output)
    assert ref_id == digest[:shared + 1]
    with pytest.raises(ExpandError, match="more than one"):
        resolve(store, digest[:shared])  # one digit fewer would have been ambiguous
    assert resolve(store, ref_id) == GIT_LOG  # byte-exact, not the twin


def test_more_neighbours_than_one_query_returns(store):
    """Six stored hashes share 12 to 17 digits: the id outgrows every one of them."""
    digest = digest_of(GIT_LOG)
    for shared in range(12, 18):
        store.put_blob(_twin(digest, shared), f"neighbour {shared}\n".encode(), None)
    assert short_id(store, digest) == digest[:18]
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    ref_id = _recovery_id(r.output)
    assert ref_id == digest[:18] and resolve(store, ref_id) == GIT_LOG


def test_the_digest_itself_stored_already_does_not_count(store):
    digest = digest_of(GIT_LOG)
    store.put_blob(digest, GIT_LOG, "git log --stat")
    assert short_id(store, digest) == digest[:12]
    store.put_blob(_twin(digest, 12), b"x\n", None)
    assert short_id(store, digest) == digest[:13]


def test_the_cli_expands_the_printed_id(tmp_path):
    """End to end: the id sqz compress printed, given to sqz expand, gives the original back."""
    db = tmp_path / "db.sqlite"
    digest = digest_of(GIT_LOG)
    s = Store.open(str(db))
    s.put_blob(_twin(digest, 12), b"another output\n", None)
    s.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(db), SQZ_DAEMON="0", SQZ_SESSION="cli")
    sqz = [sys.executable, "-m", "sqz_core"]
    out = subprocess.run(sqz + ["compress", "--cmd", "git log --stat"], input=GIT_LOG, env=env,
                         capture_output=True, check=True).stdout
    ref_id = _recovery_id(out)
    assert ref_id == digest[:13]
    back = subprocess.run(sqz + ["expand", ref_id], env=env, capture_output=True)
    assert back.returncode == 0 and back.stdout == GIT_LOG, back.stderr
