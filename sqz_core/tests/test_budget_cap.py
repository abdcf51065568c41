"""The time budget is a hard cap: past it the original goes out, whatever stage is running.

A stage stuck in C (a regex backtracking for hours, holding the GIL, where no check between
stages can run) stands for whatever input or plugin a future stage misjudges. No assertion
times the machine: the stuck stage would never end, so finishing at all is the proof; the
only bound is a generous one (a broken cap would hang until pytest's own timeout).
"""

import os
import subprocess
import sys
from pathlib import Path

from sqz_testing import iter_fixtures

ROOT = Path(__file__).resolve().parents[2]

STUCK = r'''
import os, re, sys
from sqz_core import hot, pipeline

compress_bytes = hot._compress_bytes

def child(*args, **kwargs):  # the process that compresses: its pid, for the test to look for
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    return compress_bytes(*args, **kwargs)

def stuck(data, nonce):
    re.match(r"(a+)+$", "a" * 64 + "b")  # 2**64 steps in one C call

hot._compress_bytes = child
pipeline.split_trailer = stuck  # the pipeline's first step
sys.exit(hot.main(["compress", "--cmd", "make"]))
'''


def real_input(min_bytes: int) -> bytes:
    """Real captured outputs (the repository's fixtures), joined until ``min_bytes``."""
    out = b""
    for fx in iter_fixtures(ROOT / "sqz_formatters_test" / "tests" / "fixtures"):
        out += fx.raw
        if len(out) >= min_bytes:
            return out
    raise AssertionError("not enough fixtures")


def test_a_stage_stuck_in_c_is_cut_at_the_budget_and_stops_burning_cpu(tmp_path):
    data = real_input(256 * 1024)
    pid_file = tmp_path / "pid"
    env = dict(os.environ, SQZ_TIME_BUDGET_MS="1000", SQZ_DB_PATH=str(tmp_path / "db.sqlite"),
               SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DAEMON="0", SQZ_QUIET="0")
    proc = subprocess.run([sys.executable, "-c", STUCK, str(pid_file)], input=data, capture_output=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == data  # the original, byte for byte
    assert "time budget" in proc.stderr.decode()
    pid = int(pid_file.read_text())  # the process that compressed (a child: the parent answered)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass  # killed and reaped: nothing keeps burning CPU after the answer
    else:
        raise AssertionError(f"the compressing process {pid} still runs")


def test_a_small_input_is_compressed_in_process(monkeypatch, tmp_path):
    from sqz_core import hot

    def no_fork(*args, **kwargs):
        raise AssertionError("forked for a small input")

    monkeypatch.setattr(hot, "_capped", no_fork)
    opts = {"command": "make", "tool": None, "mode": "auto", "session": "s", "no_cache": True,
            "no_abbrev": False, "agent": None}
    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db.sqlite"))
    data = real_input(1)[: hot.CAPPED_MIN_BYTES - 1]
    assert hot.compress_bytes(data, opts).outcome != "error"


def test_an_input_too_big_for_the_budget_skips_to_the_cheap_stages(monkeypatch):
    from sqz_core import pipeline
    from sqz_core.pipeline import compress

    def no_formatter(*args, **kwargs):
        raise AssertionError("a formatter ran on an input the budget cannot cover")

    data = real_input(64 * 1024)
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "60000")
    monkeypatch.setattr(pipeline, "SURE_BYTES_PER_S", len(data) // 120)  # 60 s cover only half of it
    monkeypatch.setattr(pipeline, "_first_format", no_formatter)
    result = compress(data, command="make", store=None)
    assert result.outcome in ("compressed", "gate", "passthrough", "safe")
    monkeypatch.setattr(pipeline, "SURE_BYTES_PER_S", len(data))  # covered: the formatters are asked
    try:
        compress(data, command="make", store=None)
    except AssertionError as exc:
        assert "formatter ran" in str(exc)
    else:
        raise AssertionError("the formatters were not asked")


def test_a_big_input_within_the_budget_gets_the_same_answer_as_in_process(tmp_path):
    """The capped path (a forked child) answers what the pipeline answers, exit status included."""
    from sqz_core.exitmarker import new_nonce, trailer
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    data = real_input(256 * 1024)
    for nonce, status in ((None, None), (new_nonce(), 3)):
        wrapped = data + (trailer(status, nonce) if nonce else b"")
        env = dict(os.environ, SQZ_TIME_BUDGET_MS="600000", SQZ_DB_PATH=str(tmp_path / f"db{status}.sqlite"),
                   SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DAEMON="0", SQZ_QUIET="1")
        if nonce:
            env["SQZ_EXIT_NONCE"] = nonce
        proc = subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "make", "--no-cache"],
                              input=wrapped, capture_output=True, env=env, timeout=600)
        assert proc.returncode == (status or 0), proc.stderr
        store = Store.open(str(tmp_path / "in-process.sqlite"))
        want = compress(wrapped, command="make", store=store, session="x", no_cache=True, exit_nonce=nonce)
        store.close()
        assert proc.stdout == want.output and proc.stderr == b""


SLOW_PLUGIN = r'''
import sys, time
from sqz_core import hot, pipeline

def slow(data, nonce):  # a plugin or stage that sleeps far past any budget, on a small input
    time.sleep(600)

pipeline.split_trailer = slow  # the pipeline's first step
sys.exit(hot.main(["compress", "--cmd", "make"]))
'''


def test_a_slow_stage_on_a_small_input_is_cut_at_the_budget(tmp_path):
    """Issue 27.6: a plugin that sleeps holds no call past the budget, however small the input (no fork
    below CAPPED_MIN_BYTES: an interval timer stops it in process). Finishing at all is the proof (the
    stage sleeps 600 s; the subprocess bound is a generous 120 s); the original goes out byte for byte."""
    from sqz_core import hot

    data = real_input(1)[:4096]
    assert len(data) < hot.CAPPED_MIN_BYTES
    env = dict(os.environ, SQZ_TIME_BUDGET_MS="1000", SQZ_DB_PATH=str(tmp_path / "db.sqlite"),
               SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DAEMON="0", SQZ_QUIET="0")
    proc = subprocess.run([sys.executable, "-c", SLOW_PLUGIN], input=data, capture_output=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == data
    assert "time budget" in proc.stderr.decode()


def test_the_timer_is_off_and_the_handler_back_after_a_call(monkeypatch, tmp_path):
    """A call under the interval timer leaves no timer running and SIGALRM's handler as it found it."""
    import signal

    from sqz_core import hot

    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db.sqlite"))
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "60000")
    seen = []
    previous = signal.signal(signal.SIGALRM, lambda *a: seen.append(a))
    try:
        opts = {"command": "make", "tool": None, "mode": "auto", "session": "s", "no_cache": True,
                "no_abbrev": False, "agent": None}
        data = real_input(1)[:4096]
        assert hot.compress_bytes(data, opts).outcome != "timeout"
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is not hot._ring
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert seen == []


def test_the_timer_never_cuts_a_store_write_half_way(monkeypatch):
    """At the deadline inside the store's code the timer does not raise: it rings again a moment later,
    once the write is done, so no original a recovery line points at is lost half-written."""
    import signal

    from sqz_core import hot

    class Frame:  # the shape of a frame the handler walks: module name, caller
        def __init__(self, module, back=None):
            self.f_globals, self.f_back = {"__name__": module}, back

    rearmed = []
    monkeypatch.setattr(signal, "setitimer", lambda which, secs: rearmed.append(secs))
    import _signal

    monkeypatch.setattr(_signal, "setitimer", lambda which, secs: rearmed.append(secs))
    hot._ring(signal.SIGALRM, Frame("sqz_core.store", Frame("sqz_core.pipeline")))
    assert rearmed == [hot._RETRY_S]
    try:
        hot._ring(signal.SIGALRM, Frame("some_plugin", Frame("sqz_core.pipeline")))
    except hot._OverBudget:
        pass
    else:
        raise AssertionError("the timer did not stop a plugin past the budget")
    assert not isinstance(hot._OverBudget(), Exception)  # no plugin's `except Exception` keeps it
