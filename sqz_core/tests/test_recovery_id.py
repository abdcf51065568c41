"""The recovery line ``[sqz expand ID]``: ID is ``n`` + the leading bits of the original's hash as
15 decimal digits (18, 21… when a stored hash shares those bits), unique in the store when sqz
wrote it, so ``sqz expand ID`` never answers "ambiguous"; always 11 cl100k tokens bare.

Collisions on 49 bits are rare by chance, so they are constructed: hashes that share leading
bits with the real digest are put in the store directly before the lossy result is made.
Ids sqz printed before (hex prefixes, ``§ref:HEX§``) still expand.
"""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core.expand import ExpandError, parse_ref, resolve, short_id
from sqz_core.pipeline import compress, digest_of
from sqz_core.runnable import bits, encode, short_decimal
from sqz_core.runnable import find_recovery
from sqz_core.store import Store
from sqz_core.tokens import count

ROOT = Path(__file__).resolve().parents[2]
GIT_LOG = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()


@pytest.fixture()
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def _twin(digest: str, shared_bits: int) -> str:
    """A 64-hex hash sharing exactly ``shared_bits`` leading bits with ``digest``."""
    return format(int(digest, 16) ^ (1 << (255 - shared_bits)), "064x")


def _recovery_id(out: bytes) -> str:
    text = out.decode()
    found = find_recovery(text)
    assert found is not None, text[-300:]
    assert text.endswith(f"[{found[0]} expand {found[1]}]\n")  # the last line, on its own
    return found[1]


def test_decimal_digits_hold_the_most_bits_they_can():
    for digits in range(15, 78):
        b = bits(digits)
        assert 2 ** b <= 10 ** digits and (b == 256 or 2 ** (b + 1) > 10 ** digits), digits
    assert bits(15) == 49 and bits(18) == 59 and bits(21) == 69


def test_the_id_is_the_leading_bits_in_decimal():
    digest = "f" * 64
    assert encode(digest) == "n" + str(2 ** 49 - 1)
    assert encode("0" * 64) == "n" + "0" * 15  # zero-padded: always 15 digits
    assert encode("0" * 12 + "8" + "0" * 51) == "n000000000000001"  # the 49th bit: 12 hex digits lacked it
    assert encode("0" * 11 + "8" + "0" * 52) == "n000000000000016"  # the 45th bit


def test_no_collision_fifteen_digits_that_expand(store):
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    assert r.outcome == "compressed" and r.plugin
    ref_id = _recovery_id(r.output)
    assert ref_id == encode(r.digest) and len(ref_id) == 16 and ref_id[1:].isdigit()
    assert resolve(store, ref_id) == GIT_LOG
    assert resolve(store, ref_id.upper()) == GIT_LOG  # ``N…`` typed by hand


@pytest.mark.parametrize("shared,digits", [(49, 18), (50, 18), (58, 18), (59, 21), (70, 24)])
def test_a_stored_hash_sharing_the_bits_lengthens_the_id(store, shared, digits):
    digest = digest_of(GIT_LOG)
    store.put_blob(_twin(digest, shared), b"another output\n", "echo other")
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    ref_id = _recovery_id(r.output)
    assert ref_id == encode(digest, digits) and len(ref_id) == digits + 1
    with pytest.raises(ExpandError, match="more than one"):
        resolve(store, encode(digest, digits - 3))  # three digits fewer would have been ambiguous
    assert resolve(store, ref_id) == GIT_LOG  # byte-exact, not the twin


def test_sharing_twelve_hex_digits_but_not_49_bits_changes_nothing(store):
    """The first lookup (12 hex digits, 48 bits) finds a neighbour the 49th bit tells apart."""
    digest = digest_of(GIT_LOG)
    store.put_blob(_twin(digest, 48), b"another output\n", None)
    assert short_decimal(store, digest) == encode(digest)
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    assert _recovery_id(r.output) == encode(digest) and resolve(store, encode(digest)) == GIT_LOG


def test_more_neighbours_than_one_query_returns(store):
    """Eight stored hashes share 49 to 70 bits: the id outgrows every one of them."""
    digest = digest_of(GIT_LOG)
    for shared in (49, 52, 55, 58, 61, 64, 67, 70):
        store.put_blob(_twin(digest, shared), f"neighbour {shared}\n".encode(), None)
    assert short_decimal(store, digest) == encode(digest, 24)  # 79 bits > 70
    r = compress(GIT_LOG, command="git log --stat", session="s", store=store)
    ref_id = _recovery_id(r.output)
    assert ref_id == encode(digest, 24) and resolve(store, ref_id) == GIT_LOG


def test_the_digest_itself_stored_already_does_not_count(store):
    digest = digest_of(GIT_LOG)
    store.put_blob(digest, GIT_LOG, "git log --stat")
    assert short_decimal(store, digest) == encode(digest)
    store.put_blob(_twin(digest, 49), b"x\n", None)
    assert short_decimal(store, digest) == encode(digest, 18)


def test_hex_ids_and_refs_sqz_printed_before_still_expand(store):
    """Transcripts hold ``[sqz expand <12 hex>]`` lines and ``§ref:HEX§`` refs: both still resolve."""
    digest = digest_of(GIT_LOG)
    store.put_blob(digest, GIT_LOG, "git log --stat")
    for ref in (digest[:12], digest, f"§ref:{digest[:12]}§", f"[sqz expand {digest[:12]}]",
                f"[sqz: full output: sqz expand {digest[:16]}]", f"§ref:{short_id(store, digest)}§ unchanged since 2m ago"):
        assert resolve(store, ref) == GIT_LOG, ref
    assert resolve(store, f"[sqz expand {encode(digest)}]") == GIT_LOG  # the new line, pasted whole
    assert resolve(store, f"{encode(digest)}:L1-2") == b"".join(GIT_LOG.splitlines(keepends=True)[:2])
    assert parse_ref(f"§ref:{encode(digest)}§") == (encode(digest), None)


@pytest.mark.parametrize("bad", ["n999999999999999",  # 15 digits past 2**49: no hash has it
                                 "n" + "0" * 15])
def test_an_id_no_stored_hash_has_is_unknown_not_an_error(store, bad):
    store.put_blob(digest_of(GIT_LOG), GIT_LOG, None)
    assert encode(digest_of(GIT_LOG)) != bad
    with pytest.raises(ExpandError, match="no stored output"):
        resolve(store, bad)


@pytest.mark.parametrize("bad", ["n12345", "n1234567890123456789x", "m123456789012345"])
def test_a_short_or_malformed_decimal_id_is_not_a_reference(store, bad):
    with pytest.raises(ExpandError, match="not a reference"):
        parse_ref(bad)


def test_the_bare_recovery_line_is_eleven_tokens_for_every_hash():
    """cl100k groups digits by three: ``[sqz expand n`` + 15 digits + ``]`` is 11 tokens whatever the hash
    (the 12-hex line it replaces was 10 to 17)."""
    sizes = set()
    for i in range(600):
        digest = hashlib.sha256(f"output {i}".encode()).hexdigest()
        sizes.add(count(f"[sqz expand {encode(digest)}]\n"))
    assert sizes == {(11, "cl100k")}
    hexed = {count(f"[sqz expand {hashlib.sha256(f'output {i}'.encode()).hexdigest()[:12]}]\n")[0] for i in range(600)}
    assert max(hexed) > 11  # what it replaces: uneven


def test_the_cli_expands_the_printed_id(tmp_path):
    """End to end: the id sqz compress printed, given to sqz expand, gives the original back."""
    db = tmp_path / "db.sqlite"
    digest = digest_of(GIT_LOG)
    s = Store.open(str(db))
    s.put_blob(_twin(digest, 50), b"another output\n", None)
    s.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(db), SQZ_DAEMON="0", SQZ_SESSION="cli")
    sqz = [sys.executable, "-m", "sqz_core"]
    out = subprocess.run(sqz + ["compress", "--cmd", "git log --stat"], input=GIT_LOG, env=env,
                         capture_output=True, check=True).stdout
    ref_id = _recovery_id(out)
    assert ref_id == encode(digest, 18)
    back = subprocess.run(sqz + ["expand", ref_id], env=env, capture_output=True)
    assert back.returncode == 0 and back.stdout == GIT_LOG, back.stderr
    old = subprocess.run(sqz + ["expand", digest[:13]], env=env, capture_output=True)  # a hex id still works
    assert old.returncode == 0 and old.stdout == GIT_LOG, old.stderr
    s = Store.open(str(db))
    try:  # each expand is recorded by the hash's hex prefix, the decimal one too (sqz stats' regret signals)
        refs = [e[3] for e in s.events() if e[2] == "expand"]
    finally:
        s.close()
    assert refs == [f"ref:{digest[:16]}"] * 2
