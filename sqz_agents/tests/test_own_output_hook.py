"""Issue 14 on the hook path: a PostToolUse-style hook (``post_dedup``) leaves sqz's own output alone.

Moved from sqz_core/tests/test_own_output.py with ``post_dedup`` (sqz_agents.rewrite).
"""

import subprocess

import pytest

from sqz_agents.rewrite import post_dedup
from sqz_core.pipeline import compress, digest_of
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


def test_hook_post_dedup_leaves_sqz_output_alone(store, monkeypatch):
    _shortened(store)
    text = LISTING.decode()
    assert post_dedup(text, "Bash", "A", command=f"sqz expand {digest_of(LISTING)[:16]}") is None
