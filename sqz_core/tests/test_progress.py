"""Issue 28.3: progress (rich) on work over a second, on a terminal only: the plugin index rebuild.

What is asserted is behaviour that does not depend on how long the work takes: the rebuild reports
each entry point to its progress callback, ending at the total; a bar drawn on a pseudo-terminal
names its work and its count; a pipe gets nothing, and the hot path never builds a bar.
"""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys

from sqz_core import plugins
from sqz_core.progress import Progress


def test_the_index_rebuild_reports_every_entry_point_to_its_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "cache"))
    calls: list[tuple[int, int]] = []
    index = plugins.load_index(refresh=True, progress=lambda done, total: calls.append((done, total)))
    total = calls[-1][1]
    assert total >= len(index["plugins"]) > 0
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == list(range(total + 1))


def _read_all(fd: int) -> bytes:
    out = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            piece = os.read(fd, 65536)
        except OSError:
            break
        if not piece:
            break
        out += piece
    return out


def test_a_bar_is_drawn_on_a_terminal_only():
    import pty

    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "w", closefd=False) as term:
            with Progress("sqz plugins: rebuilding the plugin index", after=0, stream=term) as progress:
                progress(3, 7)
            term.flush()
        drawn = _read_all(master).decode("utf-8", "replace")
    finally:
        os.close(slave)
        os.close(master)
    assert "rebuilding the plugin index" in drawn and "3/7" in drawn
    plain = io.StringIO()
    with Progress("sqz plugins: rebuilding the plugin index", after=0, stream=plain) as progress:
        progress(3, 7)
    assert plain.getvalue() == ""


def test_sqz_plugins_refresh_in_a_pipe_prints_no_bar(tmp_path):
    env = dict(os.environ, SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DB_PATH=str(tmp_path / "db.sqlite"))
    r = subprocess.run([sys.executable, "-m", "sqz_core", "plugins", "--refresh"], capture_output=True, env=env,
                       timeout=300)
    assert "rebuilding" not in r.stderr.decode() and "\x1b[" not in r.stderr.decode()
    assert "generic" in r.stdout.decode()


def test_a_compress_call_that_rebuilds_the_index_builds_no_bar(tmp_path):
    """The hot path rebuilds a stale index without a progress callback: neither rich nor the bar loads."""
    env = dict(os.environ, SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DB_PATH=str(tmp_path / "db.sqlite"),
               SQZ_QUIET="1", SQZ_TIME_BUDGET_MS="0")
    probe = ("import sys\nsys.argv = ['sqz', 'compress', '--cmd', 'git status']\n"
             "from sqz_core.__main__ import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('rich', 'sqz_core.progress'))), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", probe], input=b"On branch main\nnothing to commit\n",
                       capture_output=True, env=env, timeout=300)
    assert r.stderr.decode().strip().splitlines()[-1] == "[]", r.stderr
    assert os.listdir(tmp_path / "cache")  # the call did build the index (a fresh cache directory)
