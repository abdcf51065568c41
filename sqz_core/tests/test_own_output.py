"""Issue 14: sqz's own output is never shortened or deduplicated again, and content the model got
shortened is never reported to a later read as 'unchanged'.

These are pipeline-level guards, so they hold on every path into the pipeline (the wrapped
command, a PostToolUse-style hook replacing a tool's output after it ran, the MCP server).
"""

import subprocess
from pathlib import Path

import pytest

from sqz_core.expand import resolve
from sqz_core.pipeline import compress, digest_of
from sqz_core.shell import runs_sqz
from sqz_core.store import Store

LISTING = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout


@pytest.fixture
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def _shortened(store) -> bytes:
    first = compress(LISTING, command="ls -la /usr/lib", store=store, session="A")
    assert first.outcome == "compressed" and len(first.output) < len(LISTING)
    return first.output


@pytest.mark.parametrize("verb", [
    "sqz expand {h}", "/home/me/.venv/bin/sqz expand {h}", "'/opt/my tools/sqz' expand {h}",
    "'/usr/bin/python3' -m sqz_core expand {h}", "sqz expand {h} | head -400", "SQZ_SESSION=A sqz expand {h}",
])
def test_expand_output_comes_back_whole(store, verb):
    _shortened(store)
    h = digest_of(LISTING)[:16]
    again = compress(LISTING, command=verb.format(h=h), store=store, session="A")
    assert again.output == LISTING and again.outcome == "passthrough"
    # and a second expand of the same content is still whole (nothing was marked as served by it)
    assert compress(LISTING, command=verb.format(h=h), store=store, session="A").output == LISTING


def test_expand_of_content_served_whole_is_not_a_ref_either(store):
    data = (Path(compress.__code__.co_filename).parent / "abbrev.py").read_bytes()  # a source file
    assert compress(data, tool="Read", store=store, session="A").output == data
    assert compress(data, tool="Read", store=store, session="A").outcome == "ref"  # dedup still works
    assert compress(data, command=f"sqz expand {digest_of(data)[:16]}", store=store, session="A").output == data


def test_shortened_content_is_never_unchanged_to_another_read(store):
    shown = _shortened(store)
    other = compress(LISTING, command="ls -la /usr/lib/", store=store, session="A")
    assert other.outcome != "ref" and b"unchanged" not in other.output
    assert other.output == shown  # the same shortened rendering again, with its recovery line
    rerun = compress(LISTING, command="ls -la /usr/lib", store=store, session="A")
    assert rerun.outcome == "ref"  # a rerun of the same command: a ref that says what the model saw
    text = rerun.output.decode()
    assert "unchanged" not in text and "same output as" in text and "shown shortened then" in text
    assert "this ref prints it in full" in text
    assert resolve(store, text.split()[0]) == LISTING
    saved = compress(LISTING, command="cat /tmp/listing.txt", store=store, session="A")
    assert saved.output == LISTING  # reading the saved listing gives it whole
    # now the model holds it whole: from here on a repeat may say "unchanged"
    assert b"unchanged" in compress(LISTING, command="ls -la /usr/lib/", store=store, session="A").output


@pytest.mark.parametrize("command, mine", [
    ("sqz expand ab12", True), ("cd sub && sqz stats", True), ("python -m sqz_core recall x", True),
    ("grep -rn sqz src/", False), ("cat sqz.toml", False), ("echo 'sqz expand'", False), ("sqz 'unbalanced", False),
])
def test_runs_sqz(command, mine):
    assert runs_sqz(command) is mine
