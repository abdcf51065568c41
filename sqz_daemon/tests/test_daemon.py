"""The warm daemon (`sqz daemon start|stop|status`, sqz_daemon.server, the client in sqz_core.hot).

Every test starts its own daemon in its own temporary SQZ_CACHE_DIR / XDG_RUNTIME_DIR and stops it.
The daemon must answer exactly what the in-process path prints, and any failure of it must fall
back to the in-process path without losing the input.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sqz_daemon.api import TIMEOUT as DAEMON_TIMEOUT
from sqz_core.runnable import RECOVERY_LINE

pytestmark = pytest.mark.skipif(os.name != "posix", reason="Unix sockets")

ROOT = Path(__file__).resolve().parents[2]
SQZ = [sys.executable, "-m", "sqz_core"]
TIMEOUT = 180  # a cap against a hang, never a speed check: a call takes well under a second on a quiet box


class Env(dict):
    """A private environment for one test: its own store, cache and socket directory."""

    def __init__(self) -> None:
        # short: a Unix socket path must stay under ~100 bytes (pytest's tmp_path can be longer)
        self.tmp = Path(tempfile.mkdtemp(prefix="sqzd-", dir="/tmp"))
        base = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "XDG_", "PG"))}
        super().__init__(base, SQZ_CACHE_DIR=str(self.tmp / "cache"), SQZ_DB_PATH=str(self.tmp / "db.sqlite"),
                         XDG_RUNTIME_DIR=str(self.tmp / "run"), XDG_CONFIG_HOME=str(self.tmp / "config"),
                         # no time budget: on a loaded box an in-process call past it would go out unchanged
                         # where the daemon's answered, and "the same bytes" would depend on the load
                         SQZ_TIME_BUDGET_MS="0")
        self.work = self.tmp / "work"
        self.work.mkdir()

    @property
    def sock(self) -> Path:
        return self.tmp / "run" / "sqz" / "daemon.sock"

    @property
    def pidfile(self) -> Path:
        return self.tmp / "run" / "sqz" / "daemon.pid"

    def sqz(self, *args, data: bytes | None = None, cwd=None, **extra) -> subprocess.CompletedProcess:
        return subprocess.run(SQZ + list(args), input=data, capture_output=True, timeout=TIMEOUT,
                              env=dict(self, **extra), cwd=cwd or self.work)

    def start(self, *args) -> int:
        r = self.sqz("daemon", "start", *args)
        assert r.returncode == 0, r.stdout + r.stderr
        return self.pid()

    def pid(self) -> int:
        return int(self.pidfile.read_text())

    def served(self) -> int:
        r = self.sqz("daemon", "status")
        assert r.returncode == 0, r.stdout + r.stderr
        return int(r.stdout.decode().split("served ", 1)[1].split()[0])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def _wait_gone(pid: int, timeout: float = 120) -> bool:  # polls: returns as soon as it is gone
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def env():
    e = Env()
    try:
        yield e
    finally:
        pid = None
        try:
            pid = e.pid()
        except (OSError, ValueError):
            pass
        subprocess.run(SQZ + ["daemon", "stop"], env=e, capture_output=True, timeout=TIMEOUT)
        if pid and _alive(pid):
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(e.tmp, ignore_errors=True)


REPEATS = b"".join(b"line %d of a build that says the same thing again\n" % (i % 7) for i in range(60))


# -- same results -------------------------------------------------------------------------------
RUNNER = textwrap.dedent('''
    import io, json, sys
    base = set(sys.modules)
    from sqz_core import hot
    from sqz_testing import iter_fixtures
    cases = []
    for root in sys.argv[1:]:
        for fx in iter_fixtures(root):
            status = fx.meta.get("exit_code")
            trailer = b"\\n__SQZ_EXIT__=0123abcd4567ef89:%d\\n" % status if isinstance(status, int) else b""
            cases.append((fx.raw + trailer, fx.command))
    out = []
    for data, command in cases:
        for _ in range(2):  # the second time: a ref in this session
            if "sqz_core.plugins" in sys.modules:  # warn-once state: once per call, as in a new process
                sys.modules["sqz_core.plugins"]._reported.clear()
            sys.stdin = io.TextIOWrapper(io.BytesIO(data))
            sys.stdout = io.TextIOWrapper(io.BytesIO())
            sys.stderr = io.StringIO()
            status = hot.main(["compress", "--cmd", command])
            sys.stdout.flush()
            out.append([command, status, sys.stdout.buffer.getvalue().decode("utf-8", "surrogateescape"), sys.stderr.getvalue()])
    sys.__stdout__.write(json.dumps({"calls": out, "pipeline": "sqz_core.pipeline" in sys.modules}))
''')


def _fixture_roots() -> list[str]:
    roots = sorted(str(p) for p in ROOT.glob("sqz_formatters_*/tests/fixtures"))
    return roots + [str(ROOT / "sqz_core" / "tests" / "fixtures")]


def _run_all(env: Env, db: str, **extra) -> dict:
    # ~50 s on a quiet box for 2 x 700 fixtures; the cap only guards against a hang (a box at load 10)
    r = subprocess.run([sys.executable, "-c", RUNNER, *_fixture_roots()], capture_output=True, timeout=1800,
                       env=dict(env, SQZ_DB_PATH=str(env.tmp / db), SQZ_SESSION="fixtures",
                                SQZ_EXIT_NONCE="0123abcd4567ef89", **extra), cwd=env.work)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return json.loads(r.stdout)


def _no_clock(value):
    """``value`` with a repeat's "Ns ago" (wall-clock seconds since the first call) made constant:
    two runs of the same calls on a busy machine differ there and nowhere else."""
    if isinstance(value, bytes):
        return re.sub(rb"\b\d+s ago\b", b"Ns ago", value)
    if isinstance(value, str):
        return re.sub(r"\b\d+s ago\b", "Ns ago", value)
    if isinstance(value, (list, tuple)):
        return [_no_clock(v) for v in value]
    return value


def test_fixtures_give_identical_stdout_stderr_and_status(env):
    env.start()
    inproc = _run_all(env, "a.sqlite", SQZ_DAEMON="0")
    via = _run_all(env, "b.sqlite")
    assert not inproc["calls"] == [] and len(inproc["calls"]) > 200
    assert via["pipeline"] is False and inproc["pipeline"] is True  # the daemon did the work
    assert env.served() == len(via["calls"])
    for a, b in zip(inproc["calls"], via["calls"]):
        assert _no_clock(a) == _no_clock(b), f"{a[0]}: in-process and daemon differ"
    assert len(inproc["calls"]) == len(via["calls"])
    outputs = [c[2] for c in via["calls"]]
    assert any(o.startswith("§ref:") for o in outputs) and any(RECOVERY_LINE.search(o) for o in outputs)
    assert any(c[1] not in (0, None) for c in via["calls"])  # exit trailers carried the status


def test_cli_compress_and_run_match_in_process(env):
    env.start()
    git_log = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()
    cases = [(["compress", "--cmd", "git log --stat"], git_log + b"\n__SQZ_EXIT__=0123abcd4567ef89:1\n"),
             (["compress", "--cmd", "make", "--no-abbrev"], REPEATS),
             (["compress", "--mode", "safe", "--cmd", "cat x"], REPEATS),
             (["run", "--", sys.executable, "-c", "print('same thing\\n' * 80, end=''); raise SystemExit(4)"], None)]
    for args, data in cases:
        for _ in range(2):
            a = env.sqz(*args, data=data, SQZ_DAEMON="0", SQZ_DB_PATH=str(env.tmp / "a.sqlite"),
                        SQZ_EXIT_NONCE="0123abcd4567ef89")
            b = env.sqz(*args, data=data, SQZ_DB_PATH=str(env.tmp / "b.sqlite"), SQZ_EXIT_NONCE="0123abcd4567ef89")
            assert (_no_clock(a.stdout), _no_clock(a.stderr), a.returncode) == \
                (_no_clock(b.stdout), _no_clock(b.stderr), b.returncode), args
    assert env.served() == 2 * len(cases)


def _post_payload(text: bytes, command: str, cwd: str, tool: str = "Bash") -> bytes:
    response = ({"stdout": text.decode(), "stderr": "", "interrupted": False, "isImage": False} if tool == "Bash"
                else {"type": "text", "file": {"filePath": command, "content": text.decode()}})
    tool_input = {"command": command} if tool == "Bash" else {"file_path": command}
    return json.dumps({"session_id": "hook-daemon", "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": tool,
                       "tool_input": tool_input, "tool_use_id": "toolu_1", "tool_response": response}).encode()


def test_hook_post_is_served_by_the_daemon_with_identical_answers(env):
    """``sqz hook claude-code --post`` through the daemon (issue 24.6): the same stdout, stderr and status as
    in-process, call by call (the second call of each a repeat: a ref in both), and the daemon did serve them."""
    env.start()
    git_log = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()
    payloads = [_post_payload(git_log, "git log --stat", str(env.work)),
                _post_payload(REPEATS, "make", str(env.work)),
                b"not json"]
    answers = []
    for payload in payloads:
        for _ in range(2):
            a = env.sqz("hook", "claude-code", "--post", data=payload, SQZ_DAEMON="0",
                        SQZ_DB_PATH=str(env.tmp / "a.sqlite"))
            b = env.sqz("hook", "claude-code", "--post", data=payload, SQZ_DB_PATH=str(env.tmp / "b.sqlite"))
            assert (_no_clock(a.stdout), _no_clock(a.stderr), a.returncode) == \
                (_no_clock(b.stdout), _no_clock(b.stderr), b.returncode), payload[:80]
            answers.append(b.stdout)
    assert env.served() == 2 * len(payloads)
    # the git log: shortened (recoverable), then a ref
    first, repeat = (json.loads(a)["hookSpecificOutput"]["updatedToolOutput"]["stdout"] for a in answers[:2])
    assert RECOVERY_LINE.search(first) and repeat.startswith("§ref:")
    assert answers[4] == answers[5] == b""  # a payload the integration cannot read: no answer (fail open)


def test_refs_follow_the_session_of_each_call(env):
    env.start()
    other = env.tmp / "other"
    other.mkdir()
    first = env.sqz("compress", "--cmd", "make", data=REPEATS)
    assert not first.stdout.startswith(b"\xc2\xa7ref:")
    assert env.sqz("compress", "--cmd", "make", data=REPEATS).stdout.startswith("§ref:".encode())
    # another working directory is another default session: the full output again
    assert not env.sqz("compress", "--cmd", "make", data=REPEATS, cwd=other).stdout.startswith("§ref:".encode())
    # an explicit session (option or variable) is its own, and repeats within it become refs
    for how in ({"args": ["--session", "s1"]}, {"extra": {"SQZ_SESSION": "s2"}}):
        runs = [env.sqz("compress", "--cmd", "make", *how.get("args", []), data=REPEATS, **how.get("extra", {}))
                for _ in range(2)]
        assert not runs[0].stdout.startswith("§ref:".encode()) and runs[1].stdout.startswith("§ref:".encode())
    # settings of one call do not leak into the next: SQZ_NO_DEDUP, SQZ_QUIET
    r = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_NO_DEDUP="1", SQZ_QUIET="1")
    assert not r.stdout.startswith("§ref:".encode()) and r.stderr == b""
    r = env.sqz("compress", "--cmd", "make", data=REPEATS)
    assert r.stdout.startswith("§ref:".encode()) and b"reference" in r.stderr
    # what the daemon stored is what `sqz expand` (in-process) reads
    digest = r.stdout.decode().split("§ref:", 1)[1].split("§", 1)[0]
    assert env.sqz("expand", digest).stdout == REPEATS
    assert env.served() == 9


def test_concurrent_clients_keep_their_own_settings(env):
    env.start()
    results: dict[int, list] = {}

    def client(i: int) -> None:
        extra = {"SQZ_SESSION": f"c{i}"} | ({"SQZ_QUIET": "1"} if i % 2 else {})
        data = REPEATS + b"client %d\n" % i
        results[i] = [env.sqz("compress", "--cmd", "make", data=data, **extra) for _ in range(3)]

    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert sorted(results) == list(range(8))
    for i, runs in results.items():
        assert [r.returncode for r in runs] == [0, 0, 0]
        assert not runs[0].stdout.startswith("§ref:".encode()) and b"client %d" % i in runs[0].stdout
        assert all(r.stdout.startswith("§ref:".encode()) for r in runs[1:])
        assert all((r.stderr == b"") == bool(i % 2) for r in runs)
    assert env.served() == 24


# -- fallbacks ----------------------------------------------------------------------------------------
def test_killed_daemon_clients_fall_back_and_stop_cleans_up(env):
    pid = env.start()
    assert env.sqz("compress", "--cmd", "make", data=REPEATS).returncode == 0
    os.kill(pid, signal.SIGKILL)
    assert _wait_gone(pid)
    assert env.sock.exists()  # left behind by the killed daemon
    expected = env.sqz("compress", "--cmd", "make", data=REPEATS + b"x\n", SQZ_DAEMON="0",
                       SQZ_DB_PATH=str(env.tmp / "a.sqlite"))
    r = env.sqz("compress", "--cmd", "make", data=REPEATS + b"x\n")
    assert (r.stdout, r.stderr, r.returncode) == (expected.stdout, expected.stderr, 0)
    assert env.sqz("daemon", "status").returncode == 1
    env.sqz("daemon", "stop")
    assert not env.sock.exists() and not env.pidfile.exists()
    # and it starts again afterwards
    pid = env.start()
    assert env.sqz("daemon", "stop").returncode == 0
    assert _wait_gone(pid) and not env.sock.exists() and not env.pidfile.exists()


def _fake_daemon(env: Env, behaviour: str):
    """A socket at the daemon's path that reads a request and then hangs up, stays silent or answers garbage."""
    env.sock.parent.mkdir(parents=True, mode=0o700)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(str(env.sock))
    srv.listen(8)
    stop = threading.Event()

    def serve():
        srv.settimeout(0.1)
        conns = []
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            conns.append(conn)
            conn.settimeout(2)
            try:
                while conn.recv(65536):
                    if behaviour == "garbage":
                        conn.sendall(b"\x00\x00\x00\x00\x00\x00\x00\x05hello")
                        break
                    if behaviour == "hangup":
                        break
            except OSError:
                pass
            if behaviour != "silent":
                conn.close()
        for c in conns:
            c.close()
        srv.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return stop, t


@pytest.mark.parametrize("behaviour", ["hangup", "garbage", "silent"])
def test_a_broken_daemon_costs_one_line_and_no_input(env, behaviour):
    stop, thread = _fake_daemon(env, behaviour)
    try:
        t = time.monotonic()
        runs = [env.sqz("compress", "--cmd", "make", data=REPEATS) for _ in range(1 if behaviour == "silent" else 2)]
        elapsed = time.monotonic() - t
    finally:
        stop.set()
        thread.join(5)
    expected = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_DAEMON="0",
                       SQZ_DB_PATH=str(env.tmp / "a.sqlite"))
    for r in runs:
        # the request may have been served: the fallback never answers with a ref
        assert r.returncode == 0 and r.stdout == expected.stdout
        lines = r.stderr.decode().splitlines()
        assert lines[0].startswith("sqz: the daemon did not answer") and lines[1:] == expected.stderr.decode().splitlines()
    # the timeout is the behaviour: one DAEMON_TIMEOUT at most per call, plus 3 s each for the
    # interpreter's start-up and the fallback on a loaded machine
    assert elapsed < len(runs) * (DAEMON_TIMEOUT + 3.0), elapsed


def test_sqz_daemon_0_and_a_foreign_socket_are_ignored(env):
    env.start()
    r = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_DAEMON="0")
    assert r.returncode == 0 and b"[\xc3\x9760]" not in r.stderr
    assert env.served() == 0
    assert env.sqz("compress", "--cmd", "make", data=REPEATS).returncode == 0
    assert env.served() == 1


def test_compress_never_starts_a_daemon(env):
    r = env.sqz("compress", "--cmd", "make", data=REPEATS)
    assert r.returncode == 0 and not (env.tmp / "run").exists()
    r = env.sqz("run", "--", sys.executable, "-c", "print('hi')")
    assert r.returncode == 0 and r.stdout == b"hi\n" and not (env.tmp / "run").exists()


def test_upgrade_mismatch_falls_back_and_the_daemon_exits(env, monkeypatch):
    from sqz_core import hot

    pid = env.start()
    for k, v in env.items():
        if k.startswith(("SQZ_", "XDG_")):
            monkeypatch.setenv(k, v)
    from sqz_daemon import api as wire

    stamp = wire.daemon_stamp()
    # another install (other interpreter prefix): refused, the daemon keeps serving its own
    monkeypatch.setattr(wire, "daemon_stamp", lambda: stamp[:3] + [b"/elsewhere"])
    assert hot._via_daemon(REPEATS, {"command": "make", "mode": "auto"}) is None
    assert _alive(pid)
    # this install changed on disk (sqz_core's directory mtime): fall back, and the daemon exits
    monkeypatch.setattr(wire, "daemon_stamp", lambda: stamp[:2] + [b"1", stamp[3]])
    assert hot._via_daemon(REPEATS, {"command": "make", "mode": "auto"}) is None
    assert _wait_gone(pid)
    assert not env.sock.exists() and not env.pidfile.exists()


# -- life cycle -------------------------------------------------------------------------------------
def test_private_files_refuses_second_start_and_status(env):
    pid = env.start()
    d = env.sock.parent
    assert d.stat().st_mode & 0o777 == 0o700
    assert env.sock.stat().st_mode & 0o777 == 0o600 and env.pidfile.stat().st_mode & 0o777 == 0o600
    again = env.sqz("daemon", "start")
    assert again.returncode == 1 and b"already running" in again.stdout
    direct = subprocess.run([sys.executable, "-m", "sqz_daemon"], env=env, capture_output=True, timeout=TIMEOUT)
    assert direct.returncode == 1 and b"already running" in direct.stderr
    assert env.pid() == pid and _alive(pid)
    status = env.sqz("daemon", "status")
    assert status.returncode == 0 and f"pid {pid}".encode() in status.stdout
    assert env.sqz("daemon", "stop").returncode == 0 and _wait_gone(pid)
    assert not env.sock.exists() and not env.pidfile.exists()
    assert env.sqz("daemon", "status").returncode == 1


def test_idle_daemon_exits_and_removes_its_files(env):
    pid = env.start("--idle-minutes", "0.05")  # 3 s idle, counted from when it listens
    assert _wait_gone(pid, 300)  # a generous cap: on a loaded box the exit may come late, never early
    assert not env.sock.exists() and not env.pidfile.exists()


def test_store_replaced_under_the_daemon_is_reopened(env):
    env.start()
    assert env.sqz("compress", "--cmd", "make", data=REPEATS).returncode == 0
    for suffix in ("", "-wal", "-shm"):
        Path(env["SQZ_DB_PATH"] + suffix).unlink(missing_ok=True)
    r = env.sqz("compress", "--cmd", "make", data=REPEATS + b"y\n")
    assert not r.stdout.startswith("§ref:".encode())
    assert r.returncode == 0 and r.stdout != REPEATS + b"y\n"
    digest = hashlib.sha256(REPEATS + b"y\n").hexdigest()[:16]
    assert env.sqz("expand", digest).stdout == REPEATS + b"y\n"  # written to the new file, not the unlinked one


def test_stale_plugin_index_is_reloaded(env, monkeypatch):
    from sqz_core import plugins
    from sqz_daemon import server as daemon

    for k, v in env.items():
        if k.startswith(("SQZ_", "XDG_")):
            monkeypatch.setenv(k, v)
    d = daemon.Daemon(1)
    fresh = plugins.load_index()
    d.indexes[plugins.index_path()] = dict(fresh, format=-1)  # stale
    assert d._index() == fresh and not d.stop.is_set()
    # an imported plugin whose file changed since: the daemon would run old code, so it exits
    rec = next(r for r in fresh["plugins"] if r.get("file") and r["module"] in sys.modules)
    d.indexes[plugins.index_path()] = dict(fresh, format=-1, watch=dict(fresh["watch"], **{rec["file"]: 1.0}))
    assert d._index() is None and d.stop.is_set()


def test_a_frame_costs_what_arrives_not_what_it_declares():
    """A peer that declares a large frame and sends nothing must not make the daemon allocate it."""
    import tracemalloc

    from sqz_daemon import api as wire

    a, b = socket.socketpair()
    try:
        b.sendall((2 << 30).to_bytes(8, "big"))  # 2 GB declared: refused before any read
        with pytest.raises(ValueError, match="too large"):
            wire.recv_message(a)
        b.sendall(wire.MAX_FRAME.to_bytes(8, "big") + b"x" * 10)  # allowed size, 10 bytes, then gone
        b.close()
        tracemalloc.start()
        try:
            with pytest.raises(ValueError, match="closed"):
                wire.recv_message(a)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 1 << 20, peak
    finally:
        a.close()
    # a real message still arrives whole, in chunks
    a, b = socket.socketpair()
    payload = os.urandom(3 * 65536 + 123)
    t = threading.Thread(target=b.sendall, args=(wire.pack([b"x", payload]),))
    t.start()
    assert wire.unpack(wire.recv_message(a)) == [b"x", payload]
    t.join()
    a.close()
    b.close()



# -- `sqz daemon stop` tells what happened to the process ----------------------------------------------
def test_stop_waits_until_the_process_is_gone(env):
    pid = env.start()
    r = env.sqz("daemon", "stop")
    assert r.returncode == 0 and r.stdout.decode() == f"sqz daemon: stopped (pid {pid})\n"
    assert not _alive(pid)  # already gone when stop returns: no waiting needed here
    assert not env.sock.exists() and not env.pidfile.exists()


def test_stop_of_a_daemon_that_does_not_exit_kills_it_and_says_so(env):
    """A daemon that cannot answer nor exit (stopped with SIGSTOP, as a process stuck in a long call)."""
    pid = env.start()
    os.kill(pid, signal.SIGSTOP)
    try:
        t = time.monotonic()
        r = env.sqz("daemon", "stop", "--wait", "1")
        took = time.monotonic() - t
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    out = r.stdout.decode()
    assert r.returncode == 0 and out.startswith(f"sqz daemon: killed (pid {pid}): it did not exit within 1 s"), out
    assert not _alive(pid)
    assert not env.sock.exists() and not env.pidfile.exists()
    # the bound is the product's own: the stop request's timeout, the 1 s asked for, the wait after
    # SIGKILL (daemon.request's and daemon.stop's defaults), plus 5 s for start-up on a loaded machine
    from inspect import signature

    from sqz_daemon import server as daemon

    budget = (signature(daemon.request).parameters["timeout"].default + 1
              + signature(daemon.stop).parameters["kill_wait"].default + 5.0)
    assert took < budget, (took, budget)
    assert env.sqz("daemon", "status").returncode == 1


def test_config_files_apply_through_the_daemon(env):
    """The daemon reads each caller's config files (its cwd, its XDG_CONFIG_HOME) as they are at that call."""
    env.start()
    before = env.served()
    proj = env.work / "proj"
    (proj / ".git").mkdir(parents=True)
    git_log = (ROOT / "sqz_formatters_git/tests/fixtures/log/sqz_repo_stat.txt").read_bytes()
    plain = env.sqz("compress", "--cmd", "git log --stat", data=git_log, cwd=proj)
    assert plain.returncode == 0 and len(plain.stdout) < len(git_log)
    (proj / ".sqz.yaml").write_text("rules:\n  - program: git\n    passthrough: true\n")
    kept = env.sqz("compress", "--cmd", "git log --stat", data=git_log, cwd=proj)
    assert kept.stdout == git_log and kept.stderr == b"sqz: sent unchanged (rule at .sqz.yaml:2)\n"
    (proj / ".sqz.yaml").write_text("rules:\n  - program: [git\n")
    line = f"sqz: config {proj}/.sqz.yaml:2: invalid YAML".encode()
    for _ in range(2):  # said on every call, not once per daemon
        broken = env.sqz("run", "--", "sh", "-c", "echo hi; exit 5", cwd=proj)
        assert broken.returncode == 5 and broken.stdout == b"hi\n"
        assert broken.stderr.startswith(line) and broken.stderr.count(b"\n") == 1, broken.stderr
    assert env.served() == before + 4  # every call went through the daemon


# -- a call stuck in the daemon (issues 24.4, 27.6) -------------------------------------------------
STALL_PLUGIN = '''
import re

from sqz_core.api import hookimpl

commands = ("stall",)


@hookimpl
def sqz_format(request):
    while True:  # 2**40 regex steps per call, in C with the GIL held: every thread of the daemon waits
        try:
            re.match(r"(a+)+$", "a" * 40 + "b")
        except BaseException:
            pass
'''


def test_a_call_stuck_in_the_daemon_gets_the_original_and_the_daemon_is_ended_cleanly(env):
    """The client answers itself with the original at its budget; the daemon, whose every thread the stuck
    call holds, is ended by its monitor with its socket and pid file removed, and the next call compresses
    in-process. Every wait is a generous bound on a hang, never a speed check."""
    site = env.tmp / "site"
    (site / "stallplug").mkdir(parents=True)
    (site / "stallplug" / "__init__.py").write_text(STALL_PLUGIN)
    info = site / "sqz_formatters_stallplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sqz-formatters-stallplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[sqz.formatters]\nstall = stallplug\n")
    env["PYTHONPATH"] = str(site)
    pid = env.start()
    data = b"".join(b"line %d of what a stalling tool printed\n" % i for i in range(80))
    r = env.sqz("compress", "--cmd", "stall --all", data=data, SQZ_TIME_BUDGET_MS="1000")
    assert r.stdout == data and r.returncode == 0
    assert b"time budget" in r.stderr
    assert _wait_gone(pid)  # the monitor ended it (budget + STUCK_GRACE_S after the call began)
    deadline = time.monotonic() + 60
    while (env.sock.exists() or env.pidfile.exists()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not env.sock.exists() and not env.pidfile.exists()
    r = env.sqz("compress", "--cmd", "make", data=REPEATS)  # in-process now
    assert r.returncode == 0 and b"daemon" not in r.stderr
    log = (env.tmp / "run" / "sqz" / "daemon.log").read_text()
    assert "stuck" in log
    pid = env.start()  # and a new one starts
    assert env.sqz("daemon", "stop").returncode == 0 and _wait_gone(pid)


# -- started on demand (SQZ_DAEMON=auto; issue 24.6) ------------------------------------------------
def _wait_served(env: Env, timeout: float = 120) -> None:
    """Until a daemon answers ``status`` (started in the background by a call; a bound on a hang)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if env.sock.exists() and env.sqz("daemon", "status").returncode == 0:
            return
        time.sleep(0.1)
    raise AssertionError("no daemon started")


def test_auto_starts_a_daemon_for_later_calls_with_the_same_bytes(env):
    expected = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_DAEMON="0", SQZ_DB_PATH=str(env.tmp / "a.db"))
    first = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_DAEMON="auto")  # none yet: in-process
    assert (first.stdout, first.stderr, first.returncode) == (expected.stdout, expected.stderr, 0)
    _wait_served(env)
    pid = env.pid()
    served = env.served()
    again = env.sqz("compress", "--cmd", "make", data=REPEATS + b"x\n", SQZ_DAEMON="auto",
                    SQZ_DB_PATH=str(env.tmp / "b.db"))
    want = env.sqz("compress", "--cmd", "make", data=REPEATS + b"x\n", SQZ_DAEMON="0",
                   SQZ_DB_PATH=str(env.tmp / "c.db"))
    assert (again.stdout, again.stderr, again.returncode) == (want.stdout, want.stderr, 0)
    assert env.served() == served + 1  # the daemon answered it
    os.kill(pid, signal.SIGKILL)  # gone, its socket left: the next call starts another, which clears it
    assert _wait_gone(pid)
    (env.tmp / "run" / "sqz" / "daemon.started").unlink()  # the start attempts' rate limit
    r = env.sqz("compress", "--cmd", "make", data=REPEATS, SQZ_DAEMON="auto")
    assert r.returncode == 0
    _wait_served(env)
    assert env.pid() != pid


def test_auto_start_holds_no_pipe_of_the_caller_open(env):
    """The daemon started for later calls must not keep the agent's stdout open (the agent waits for EOF)."""
    proc = subprocess.Popen(SQZ + ["compress", "--cmd", "make"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(env, SQZ_DAEMON="auto"), cwd=env.work)
    out, err = proc.communicate(REPEATS, timeout=TIMEOUT)  # returns at EOF of both pipes
    assert proc.returncode == 0 and out
    _wait_served(env)
