"""sqz_recall and expand serve only what the caller's roots may read (or what this session was sent).

The store is shared by every project and every agent of the user: a hook call in one
directory stores that directory's outputs. A client whose roots are another project must
not search or expand them. Content without a recorded origin (an older sqz's rows, text
given to the compress tool) is refused unless this session was sent it.
"""

from __future__ import annotations

import pytest

from mcp_helpers import call_msg
from sqz_core import hot
from sqz_core.pipeline import digest_of
from sqz_core.store import Store
from sqz_mcp.compression import Compressor
from sqz_mcp.roots import Roots
from sqz_mcp.server import McpServer


def _output(word: str) -> bytes:
    # a build log the generic stages shorten: stored, indexed and expandable
    return "".join(f"[{i % 4}] compiling {word} module {i % 4}\n" for i in range(200)).encode()


def _hook_call(monkeypatch, cwd, data: bytes) -> str:
    monkeypatch.chdir(cwd)
    opts = hot._parse(["--cmd", "make"], allow_rest=False)[0]
    result = hot.compress_bytes(data, opts)
    assert result.stored
    return result.digest


@pytest.fixture
def setup(tmp_path, monkeypatch):
    proj, other = tmp_path / "proj", tmp_path / "other"
    proj.mkdir()
    other.mkdir()
    (proj / "app.py").write_text("".join(f"def handler_{i}(request):\n    return {i}\n\n" for i in range(60)))
    db = tmp_path / "db.sqlite"
    monkeypatch.setenv("SQZ_DB_PATH", str(db))
    monkeypatch.delenv("SQZ_STORE_URL", raising=False)
    monkeypatch.setenv("SQZ_QUIET", "1")
    digests = {"inside": _hook_call(monkeypatch, proj, _output("zebrainside")),
               "outside": _hook_call(monkeypatch, other, _output("zebraoutside"))}
    # as an older sqz stored it: a call without a working directory
    data = _output("zebraunknown")
    store = Store.open(str(db))
    digests["unknown"] = digest_of(data)
    store.put_blob(digests["unknown"], data, "make")
    store.index_text(digests["unknown"], data.decode(), "make", "old")
    store.record_call(session="old", command="make", family="make", plugin=None, outcome="compressed",
                      bytes_in=len(data), bytes_out=10, est_in=100, est_out=10, input_hash=digests["unknown"],
                      output_hash=None)
    store.close()
    server = McpServer(Roots([str(proj)]), Compressor())
    yield server, proj, digests
    server.compressor.close()


def _call(server, name, args, session="mcp:test"):
    res = server.handle(call_msg(7, name, args), session)["result"]
    return res.get("isError", False), res["content"][0]["text"]


def test_recall_finds_only_what_lies_within_the_roots(setup):
    server, _proj, _digests = setup
    err, text = _call(server, "sqz_recall", {"query": "compiling"})
    assert not err and "zebrainside" in text
    assert "zebraoutside" not in text and "zebraunknown" not in text
    err, text = _call(server, "sqz_recall", {"query": "zebraoutside"})
    assert not err and "nothing stored within this server's roots" in text


def test_expand_refuses_content_from_outside_the_roots(setup):
    server, _proj, digests = setup
    err, text = _call(server, "expand", {"ref": digests["inside"][:16]})
    assert not err and "zebrainside" in text
    for key in ("outside", "unknown"):
        err, text = _call(server, "expand", {"ref": f"§ref:{digests[key][:16]}§"})
        assert err and "outside this server's roots" in text and "zebra" not in text


def test_what_this_session_was_sent_always_expands(setup):
    server, proj, _digests = setup
    err, first = _call(server, "sqz_read_file", {"path": "app.py"})
    err, again = _call(server, "sqz_read_file", {"path": "app.py"})
    assert again.startswith("§ref:")
    err, text = _call(server, "expand", {"ref": again.split()[0]})
    assert not err and text == (proj / "app.py").read_text(), (again, text)
    # the file's origin is recorded: another session of a server with the same roots finds it too
    err, text = _call(server, "expand", {"ref": again.split()[0]}, session="mcp:other")
    assert not err and text == (proj / "app.py").read_text()
    # a server whose roots do not contain the file does not
    elsewhere = McpServer(Roots([str(proj.parent / "other")]), server.compressor)
    err, text = _call(elsewhere, "expand", {"ref": again.split()[0]}, session="mcp:third")
    assert err and "outside this server's roots" in text
