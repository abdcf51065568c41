"""Issue 14: a wrapped command stopped by the agent's timeout (SIGTERM), Ctrl-C (SIGINT) or a hang-up
keeps what it printed so far, and the exit status says it was stopped (128+signal).

Real processes and real signals: ``sqz run`` / ``sqz compress`` as programs, the signal sent once
sqz has installed its handlers (read from /proc), to sqz alone or to its whole process group.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

SLEEP = 60  # the stopped commands' sleep: ending one must take far less

SQZ = [sys.executable, "-m", "sqz_core"]


def _catches(pid: int, sig: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (sig - 1)))
    except OSError:
        return False
    return False


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _wait_until(cond, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("condition not reached in time")
        time.sleep(0.02)


@pytest.fixture()
def env():
    e = dict(os.environ, SQZ_DAEMON="0")
    e.pop("SQZ_QUIET", None)
    return e


def _start_run(env, script: str, **kw) -> subprocess.Popen:
    proc = subprocess.Popen(SQZ + ["run", "--", "sh", "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, **kw)
    _wait_until(lambda: _catches(proc.pid, signal.SIGTERM) and _children(proc.pid))
    return proc


def test_run_stopped_by_sigterm_sends_what_was_printed_and_exits_143(env, tmp_path):
    marker = tmp_path / "printed"
    proc = _start_run(env, f"echo 'first line of output'; echo 'second line'; : > '{marker}'; exec sleep {SLEEP}")
    _wait_until(marker.exists)
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)  # to sqz alone: it passes the signal on to the command
    out, err = proc.communicate(timeout=30)
    assert out == b"first line of output\nsecond line\n"
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"stopped by signal 15" in err
    # the sleep was ended, not waited for: sqz's own stop sequence (hot._stopped_run: at most about
    # 4.5 s of draining and waiting) with a wide margin, far under the command's SLEEP
    assert time.monotonic() - started < SLEEP / 4


def test_run_whole_group_interrupted_keeps_output_and_the_commands_signal_status(env, tmp_path):
    marker = tmp_path / "printed"
    proc = _start_run(env, f"for i in 1 2 3; do echo \"step $i done\"; done; : > '{marker}'; exec sleep 60",
                      start_new_session=True)
    _wait_until(marker.exists)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C or a group-wide timeout does
    out, err = proc.communicate(timeout=30)
    assert out == b"step 1 done\nstep 2 done\nstep 3 done\n"
    assert proc.returncode == 128 + signal.SIGINT


def test_run_command_ignoring_the_signal_is_ended_and_its_output_kept(env, tmp_path):
    marker = tmp_path / "printed"
    proc = _start_run(env, f"trap '' TERM; echo 'still here'; : > '{marker}'; sleep {SLEEP}; echo never")
    _wait_until(marker.exists)
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert out == b"still here\n"
    assert proc.returncode == 128 + signal.SIGKILL  # it would not stop: killed, as the agent asked
    # hot._stopped_run: the signal, at most about 4.5 s of draining and waiting, then SIGKILL; the
    # margin is wide, the bound still far under the command's SLEEP, which it did not wait out
    assert time.monotonic() - started < SLEEP / 4


def test_compress_stopped_while_reading_flushes_the_input_so_far(env):
    """The hook's wrapper is ``{ CMD; } | sqz compress``: sqz stopped mid-stream still prints what arrived."""
    proc = subprocess.Popen(SQZ + ["compress", "--cmd", "npx vite"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _wait_until(lambda: _catches(proc.pid, signal.SIGTERM))
    printed = b"".join(b"  VITE ready, request %d served\n" % i for i in range(40))
    proc.stdin.write(printed)
    proc.stdin.flush()
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert out == printed  # unchanged: no time to compress, nothing lost
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"stopped by signal 15" in err


def test_compress_not_stopped_is_unchanged_by_the_handlers(env):
    from sqz_core.exitmarker import NONCE_ENV, trailer

    nonce = "0123abcd4567ef89"
    data = b"".join(b"  VITE ready, request %d served\n" % i for i in range(40)) + trailer(3, nonce)
    r = subprocess.run(SQZ + ["compress", "--cmd", "npx vite"], input=data, capture_output=True,
                       env=dict(env, **{NONCE_ENV: nonce}), timeout=60)
    assert r.returncode == 3 and b"request 39 served" in r.stdout and b"stopped" not in r.stderr


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (killed, waiting for a reaper that may never come here)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_run_killed_by_sigkill_takes_its_command_with_it(env, tmp_path):
    """Issue 29.8: ``kill -9`` of sqz (no handler can run) must not leave the command running."""
    pid_file = tmp_path / "child.pid"
    child = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(300)"
    proc = subprocess.Popen(SQZ + ["run", "--", sys.executable, "-c", child], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        _wait_until(lambda: pid_file.exists() and pid_file.read_text().strip())
        pid = int(pid_file.read_text())
        assert not _gone(pid) and pid in _children(proc.pid)
        proc.kill()
        assert proc.wait(30) == -signal.SIGKILL
        _wait_until(lambda: _gone(pid), seconds=60)  # the kernel ends it; the deadline is generous
    finally:
        if pid_file.exists() and pid_file.read_text().strip() and not _gone(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
        proc.kill()
        proc.communicate()
