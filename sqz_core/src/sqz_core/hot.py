"""The hot verbs (``compress``, ``run``, ``expand``, ``hook``) without typer: argv parsed by hand.

These run before or after every shell command an agent makes, so this module and
what it imports stay light: no typer, pydantic, jsonschema, ruamel.yaml, pluggy or
tokenizer. Anything this parser does not understand (``--help`` included) is handed
to the typer CLI, which has the same verbs with full help and error messages.
"""

from __future__ import annotations

import os
import sys

NOT_MINE = object()  # "let the full CLI handle this argv"

_COMPRESS_FLAGS = {"--cmd": "command", "--tool": "tool", "--mode": "mode", "--session": "session",
                   "--agent": "agent"}
_MODES = ("auto", "safe", "default", "aggressive")


def _parse(args: list[str], allow_rest: bool):
    """Options for compress/run. Returns (options, rest) or NOT_MINE."""
    opts = {"command": None, "tool": None, "mode": "auto", "session": None, "no_cache": False, "no_abbrev": False,
            "agent": os.environ.get("SQZ_AGENT") or None}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return (opts, args[i + 1:]) if allow_rest else NOT_MINE
        if a == "--no-cache":
            opts["no_cache"] = True
        elif a == "--no-abbrev":
            opts["no_abbrev"] = True
        elif a in _COMPRESS_FLAGS and i + 1 < len(args):
            opts[_COMPRESS_FLAGS[a]] = args[i + 1]
            i += 1
        elif "=" in a and a.split("=", 1)[0] in _COMPRESS_FLAGS:
            k, v = a.split("=", 1)
            opts[_COMPRESS_FLAGS[k]] = v
        elif allow_rest and not a.startswith("-"):
            return opts, args[i:]
        else:
            return NOT_MINE
        i += 1
    if opts["mode"] not in _MODES:
        return NOT_MINE
    # the wrapper's per-call nonce (``exitmarker.wrap_command``): only compress reads a trailer
    opts["exit_nonce"] = None if allow_rest else (os.environ.get("SQZ_EXIT_NONCE") or None)
    return opts, []


def _quiet() -> bool:
    from .config import env

    return env("SQZ_QUIET", "") not in ("", "0")


def _open_store():
    """The configured store, or None after one clear line on stderr (``stores.open_store_or_say``)."""
    from .stores import open_store_or_say

    return open_store_or_say()


def _busy_note() -> None:
    from .stores import busy_note

    busy_note()


def _note(result) -> None:
    if _quiet():
        return
    if result.outcome == "ref":
        msg = "sqz: identical to an earlier output, sent as a reference"
    elif result.outcome == "slice":
        msg = "sqz: lines of a file read earlier, sent as a reference"
    elif result.outcome == "delta":
        msg = f"sqz: changed since read earlier, sent as a delta (~{result.est_in}→{result.est_out} tokens)"
    elif result.outcome in ("compressed", "safe") and result.est_out < result.est_in:
        saved = result.est_in - result.est_out
        pct = 100 * saved // result.est_in if result.est_in else 0
        via = f" via {result.plugin}" if result.plugin and result.plugin != "builtin" else ""
        msg = f"sqz: ~{result.est_in}→{result.est_out} tokens (-{pct}%, estimate){via}"
    elif result.outcome == "safe" and result.reason:
        msg = f"sqz: sent unchanged ({result.reason}; never cached)"
    elif result.outcome == "passthrough" and result.reason.startswith("rule at "):
        msg = f"sqz: sent unchanged ({result.reason})"
    elif result.outcome == "timeout":
        msg = f"sqz: sent unchanged ({result.reason}; SQZ_TIME_BUDGET_MS sets it)"
    else:
        return
    _say(msg)


def compress_bytes(data: bytes, opts: dict, *, store=NOT_MINE, index: dict | None = None):
    """Run the pipeline with the user's store; any failure gives the input back unchanged.

    The warm daemon passes the ``store`` it keeps open (None: unavailable) and its loaded plugin
    ``index``; a store error then sets ``opts["store_failed"]`` so it reopens the store.

    An input of ``CAPPED_MIN_BYTES`` or more with the user's own store is compressed in a forked
    child (``_capped``): at the time budget the original goes out whatever stage is running. A smaller
    one is compressed here under an interval timer (``_alarmed``): a slow plugin is stopped at the budget.
    """
    if store is NOT_MINE:
        budget = _budget_seconds()
        if budget is not None:
            if len(data) >= CAPPED_MIN_BYTES:
                if _can_fork():
                    return _capped(data, opts, budget)
            elif _one_thread():
                return _alarmed(data, opts, budget)
    return _compress_bytes(data, opts, store=store, index=index)


# -- the hard cap: big inputs compressed in a child the parent stops at the deadline -----------------
CAPPED_MIN_BYTES = 64 * 1024  # smaller inputs finish far inside any budget: no fork


class Answer:
    """What a capped call answers (the fields of ``pipeline.Result`` its callers read), without
    importing the pipeline in the parent."""

    __slots__ = ("output", "outcome", "exit_code", "plugin", "reason", "est_in", "est_out", "family", "digest",
                 "stored", "output_digest")

    def __init__(self, output: bytes, outcome: str, exit_code=None, **fields) -> None:
        self.output, self.outcome, self.exit_code = output, outcome, exit_code
        for name in ("plugin", "reason", "family", "digest", "output_digest"):
            setattr(self, name, fields.get(name) or (None if name != "reason" else ""))
        self.est_in, self.est_out = fields.get("est_in", 0), fields.get("est_out", 0)
        self.stored = fields.get("stored", False)


class _OverBudget(BaseException):
    """Raised by the interval timer of ``_alarmed`` in whatever Python code runs at the deadline (a
    plugin sleeping or looping); not an Exception, so no plugin's or stage's ``except Exception`` keeps it."""


# Modules whose Python code the timer never interrupts: a store write cut half-way would lose the
# original a recovery line points at. The timer rings again shortly after, once they are left.
_UNINTERRUPTED = frozenset({"sqz_core.store", "sqz_core.storesql", "sqz_core.spool", "sqz_core.stores",
                            "sqlite3", "sqlite3.dbapi2"})
_RETRY_S = 0.02


def _ring(signum, frame) -> None:
    import _signal

    _signal.setitimer(_signal.ITIMER_REAL, _RETRY_S)  # again soon: the stop may be swallowed, or come in the store
    if _past_hard_deadline():
        _fire()  # the hard cap (``_arm``): the answer goes out and the process ends, whatever the frames
        return  # the main thread is writing its own answer
    f = frame
    while f is not None:
        if f.f_globals.get("__name__") in _UNINTERRUPTED:
            return
        f = f.f_back
    raise _OverBudget


def _alarmed(data: bytes, opts: dict, budget: float):
    """``_compress_bytes`` in this process (a small input: a fork costs more than it finishes in) under
    an interval timer: at ``budget`` seconds a SIGALRM stops whatever Python code runs (a slow plugin)
    and the original goes out unchanged (outcome ``timeout``), as from a capped child. Code stuck inside
    one C call cannot be stopped this way; small inputs meet only linear patterns (test_regex_linearity)."""
    import _signal

    try:
        previous = _signal.signal(_signal.SIGALRM, _ring)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGALRM here
        return _compress_bytes(data, opts)
    try:
        _signal.setitimer(_signal.ITIMER_REAL, budget)
        try:
            return _compress_bytes(data, opts)
        finally:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
    except _OverBudget:
        from .exitmarker import split_trailer

        raw, status = split_trailer(data, opts.get("exit_nonce"))
        answer = Answer(raw, "timeout", status, reason=f"over the {budget:g} s time budget")
        _record_timeout(data, opts, answer)
        return answer
    finally:
        _signal.signal(_signal.SIGALRM, previous if previous is not None else _signal.SIG_DFL)


# -- the hard cap of a whole verb: at the deadline the original goes out and the process ends ------------
# ``_arm`` (called by ``compress``, ``run`` and ``hook`` once their input is read, only in a process of
# their own) starts a watchdog thread (``_thread``: no ``threading`` import) that waits for the call to end.
# At the budget + ``HARD_GRACE_S``, if nothing has been written to stdout yet, it writes the original
# (a hook: no answer, which every host takes as "unchanged") with os.write, says so on stderr and ends
# the process with ``os._exit(status)``: nothing keeps burning CPU, a SQLite transaction left open is
# rolled back by the next open. Whoever writes stdout first takes ``claim``; the other never writes.
# The thread needs the GIL: code stuck in C that holds it is reached instead by the interval timer's
# handler (``_ring``) where that C code checks for signals (``re`` does), and by the forked child of
# ``_capped`` (64 KB and more) in any case. Left: C code below 64 KB that holds the GIL and never
# checks for signals (a C extension's own loop) ends the call only when it returns.
HARD_GRACE_S = 0.03
_hard: dict = {"enabled": False, "claim": None, "done": None, "deadline": None}


def _arm(fallback: bytes, status: int, note: str | None) -> None:
    """Start the watchdog of this verb (see above); a no-op without a budget, in-process callers (tests,
    the daemon: ``main(hard_cap=False)``) and when stdout is not descriptor 1."""
    if not _hard["enabled"] or _hard["claim"] is not None:
        return
    budget = _budget_seconds()
    if budget is None:
        return
    try:
        if sys.stdout is None or sys.stdout.fileno() != 1:
            return
    except (OSError, ValueError, AttributeError):
        return
    import _thread
    import time

    claim, done = _thread.allocate_lock(), _thread.allocate_lock()
    done.acquire()
    deadline = time.monotonic() + budget + HARD_GRACE_S
    line = None if note is None or _quiet() else (note % f"{budget:g}" + "\n").encode("utf-8", "replace")
    _hard.update(claim=claim, done=done, deadline=deadline, fallback=fallback, status=status, note=line)
    try:
        _thread.start_new_thread(_watchdog, (done, budget + HARD_GRACE_S))
    except RuntimeError:  # no thread can start: the interval timer and the capped child still stop it
        pass


def _watchdog(done, seconds: float) -> None:
    if done.acquire(True, seconds):
        return  # the verb ended in time
    _fire()


def _past_hard_deadline() -> bool:
    if _hard["deadline"] is None:
        return False
    import time

    return time.monotonic() >= _hard["deadline"]


def _fire() -> None:
    """The deadline: unless the verb's own answer is being written, the original goes out and the process ends."""
    claim = _hard["claim"]
    if claim is None or not claim.acquire(False):
        return
    if _hard.get("child"):
        _kill(_hard["child"])  # a capped child compressing: it must not outlive the answer
    try:
        view = memoryview(_hard["fallback"])
        while view:
            view = view[os.write(1, view):]
        if _hard["note"]:
            os.write(2, _hard["note"])
    except OSError:
        pass
    os._exit(_hard["status"])


def _claim_stdout() -> None:
    """Before the verb writes stdout: from now on the watchdog never writes. If it already does, this
    waits for the ``os._exit`` that follows its write."""
    claim = _hard["claim"]
    if claim is not None:
        claim.acquire()
        _hard["claim"] = _hard["deadline"] = None


def _disarm() -> None:
    """The verb is over: the watchdog never answers now (if it already does, wait for its ``os._exit``)."""
    _claim_stdout()
    done = _hard["done"]
    if done is not None:
        _hard["done"] = None
        try:
            done.release()
        except RuntimeError:
            pass


def _budget_seconds() -> float | None:
    """``SQZ_TIME_BUDGET_MS`` in seconds (as ``pipeline.time_budget``); None when unlimited."""
    try:
        from .config import env

        ms = int(env("SQZ_TIME_BUDGET_MS", "2000") or "2000")
    except ValueError:
        ms = 2000
    return ms / 1000 if ms > 0 else None


def _can_fork() -> bool:
    """A POSIX process with no other thread running (a fork copies only the calling thread)."""
    if not hasattr(os, "fork") or os.environ.get("SQZ_NO_FORK") == "1":
        return False
    return _one_thread()


def _one_thread() -> bool:
    """No other thread runs (so this is the main thread, where signal handlers run)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


_ANSWER_FIELDS = ("outcome", "exit_code", "plugin", "reason", "est_in", "est_out", "family", "digest",
                  "output_digest", "stored")


def _capped(data: bytes, opts: dict, budget: float):
    """``_compress_bytes`` in a forked child; past ``budget`` seconds the child is killed and the
    original goes out unchanged (outcome ``timeout``), as it would at a check between stages."""
    import time

    deadline = time.monotonic() + budget
    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return _compress_bytes(data, opts)
    if pid == 0:  # the child: compress, send the answer, leave without the parent's clean-up
        _hard.update(enabled=False, claim=None, done=None, deadline=None, child=None)  # the parent's watchdog
        code = 0
        try:
            os.close(r)
            result = _compress_bytes(data, opts)
            fields = [b"" if getattr(result, f, None) is None else str(getattr(result, f)).encode("utf-8", "replace")
                      for f in _ANSWER_FIELDS]
            view = memoryview(pack([b"ok", *fields, result.output]))
            while view:
                view = view[os.write(w, view):]
        except BaseException:
            code = 1
        finally:
            try:
                sys.stderr.flush()
            except Exception:
                pass
            os._exit(code)
    os.close(w)
    _hard["child"] = pid
    chunks: list[bytes] = []
    done = False
    try:
        done = _read_until(r, chunks, deadline)
    finally:
        os.close(r)
        if not done:
            _kill(pid)
        try:
            os.waitpid(pid, 0)
        except (OSError, InterruptedError):
            pass
        _hard["child"] = None
    message = b"".join(chunks)
    if done:
        try:
            fields = unpack(message[8:])
            if fields[0] == b"ok" and len(fields) == len(_ANSWER_FIELDS) + 2:
                return _answer_from(fields[1:-1], fields[-1])
        except ValueError:
            pass
    from .exitmarker import split_trailer

    raw, status = split_trailer(data, opts.get("exit_nonce"))
    if not done:
        answer = Answer(raw, "timeout", status, reason=f"over the {budget:g} s time budget")
        _record_timeout(data, opts, answer)
        return answer
    sys.stderr.write("sqz: internal error (the compressing process ended without an answer); output sent unchanged\n")
    opts["store_failed"] = True
    return Answer(raw, "error", status)


def _read_until(fd: int, chunks: list[bytes], deadline: float) -> bool:
    """Read one framed message from ``fd`` into ``chunks``; False when ``deadline`` passed first
    (or the writer ended early)."""
    import select
    import time

    need = None
    got = 0
    while need is None or got < need:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            ready = select.select([fd], [], [], left)[0]
        except InterruptedError:
            continue
        if not ready:
            return False
        piece = os.read(fd, 1 << 20)
        if not piece:
            return False
        chunks.append(piece)
        got += len(piece)
        if need is None and got >= 8:
            head = chunks[0] if len(chunks[0]) >= 8 else b"".join(chunks)
            need = 8 + int.from_bytes(head[:8], "big")
    return True


def _kill(pid: int) -> None:
    try:
        os.kill(pid, 9)
    except OSError:
        pass


def _answer_from(fields: list[bytes], output: bytes) -> Answer:
    values = dict(zip(_ANSWER_FIELDS, (f.decode("utf-8", "replace") for f in fields)))
    code = values.pop("exit_code")
    exit_code = int(code) if code else None
    outcome = values.pop("outcome")
    est = {k: int(values.pop(k) or 0) for k in ("est_in", "est_out")}
    stored = values.pop("stored") == "True"
    return Answer(output, outcome, exit_code, stored=stored, **est, **{k: v or None for k, v in values.items()})


def _record_timeout(data: bytes, opts: dict, answer: Answer) -> None:
    """The call's stats row (outcome ``timeout``), as the in-process check would leave it; never fails."""
    try:
        store = _open_store()
        if store is None:
            return
        try:
            from .request import FormatRequest

            family = FormatRequest("", opts["command"], tool=opts["tool"]).program or (
                opts["tool"].lower() if opts["tool"] else None)
            store.record_call(
                session=opts["session"] or _default_session(), command=opts["command"] or opts["tool"],
                family=family, plugin=None, outcome="timeout", bytes_in=len(data), bytes_out=len(answer.output),
                est_in=0, est_out=0, input_hash=None, output_hash=None, agent=opts.get("agent"), cwd=_cwd())
        finally:
            store.close()
    except Exception:
        pass


def _compress_bytes(data: bytes, opts: dict, *, store=NOT_MINE, index: dict | None = None):
    """``compress_bytes`` in this process."""
    from .pipeline import Result, compress
    from .store import StoreBusy, StoreError

    own = store is NOT_MINE
    if own:
        store = _open_store()

    def run(store, no_cache: bool):
        return compress(data, command=opts["command"], tool=opts["tool"], mode=opts["mode"], session=opts["session"],
                        store=store, no_cache=no_cache, index=index, exit_nonce=opts.get("exit_nonce"),
                        abbreviate=False if opts.get("no_abbrev") else None)
    try:
        try:
            result = run(store, opts["no_cache"])
        except StoreError as exc:
            opts["store_failed"] = True
            if isinstance(exc, StoreBusy):
                _busy_note()
            else:
                sys.stderr.write(f"sqz: store error ({exc}); compressing without dedup or expand\n")
            result = run(None, True)
            store_for_stats = None
        else:
            store_for_stats = store
        if store_for_stats is not None:
            try:
                store_for_stats.record_call(
                    session=opts["session"] or _default_session(), command=opts["command"] or opts["tool"],
                    family=result.family, plugin=result.plugin, outcome=result.outcome, bytes_in=len(data),
                    bytes_out=len(result.output), est_in=result.est_in, est_out=result.est_out,
                    input_hash=result.digest if result.stored else None, output_hash=result.output_digest,
                    agent=opts.get("agent"), cwd=_cwd())
                from .paths import budgets_path

                if os.path.exists(budgets_path()):  # no budget set: nothing read, sqz-insights not imported
                    try:
                        from sqz_insights.api import budget_check
                    except ImportError:  # sqz-insights (``sqz budget``) uninstalled since: no warning
                        warning = None
                    else:
                        warning = budget_check(store_for_stats, opts["session"] or _default_session(),
                                               opts.get("agent"))
                    if warning:
                        sys.stderr.write(warning + "\n")
            except StoreError:
                opts["store_failed"] = True
        return result
    except Exception as exc:  # never break the agent's command
        opts["store_failed"] = True
        from .exitmarker import split_trailer

        raw, status = split_trailer(data, opts.get("exit_nonce"))
        sys.stderr.write(f"sqz: internal error ({type(exc).__name__}: {exc}); output sent unchanged\n")
        return Result(raw, "error", exit_code=status)
    finally:
        if own and store is not None:
            store.close()
        elif store is not None and getattr(store, "deferred", False):
            try:  # a store kept open across calls (the daemon's): this call's writes go now
                store.flush()
            except StoreError:
                opts["store_failed"] = True


def _cwd() -> str | None:
    try:
        return os.path.realpath(os.getcwd())
    except OSError:
        return None


def _default_session() -> str:
    from .sessions import default_session

    return default_session()


def _write_out(payload: bytes) -> bool:
    """Write ``payload`` to stdout; False, after one line on stderr, when it cannot be written.

    A reader that went away (``sqz compress | head``) is not a failure: nothing more to say.
    A full disk, a closed or bad stdout is. Either way stdout then points at /dev/null, so
    the interpreter's final flush stays quiet.
    """
    _claim_stdout()
    try:
        if not payload:
            return True  # nothing to lose (a 0-byte write() to /dev/full still fails)
        if sys.stdout is None:
            raise OSError("stdout is closed")
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return True
    except BrokenPipeError:
        _stdout_to_devnull()
        return True
    except (OSError, ValueError) as exc:
        _stdout_to_devnull()
        _say(f"sqz: cannot write the output ({getattr(exc, 'strerror', None) or exc})")
        return False


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def _say(line: str, end: str = "\n") -> None:
    """One line on stderr, if stderr can take it."""
    try:
        sys.stderr.write(line + end)
        sys.stderr.flush()
    except Exception:
        pass


def _guard_std_fds() -> None:
    """Closed stdin/stdout/stderr (``<&-``, ``>&-``): put /dev/null on those descriptors.

    Otherwise the next file opened (the database) would take descriptor 0, 1 or 2 and a
    child process or a stray write would use it. ``sys.stdout`` stays None, so the output
    is reported as unwritable instead of vanishing.
    """
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        try:
            devnull = os.open(os.devnull, os.O_RDWR)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        except OSError:
            continue
        if name != "stdout" and getattr(sys, name) is None:
            try:
                setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))
            except OSError:
                pass


# -- stops (the agent's timeout, Ctrl-C): what was printed so far still reaches the agent -------------
class _Stopped(BaseException):
    """SIGTERM/SIGINT/SIGHUP while sqz waited for or worked on the output (not an Exception: nothing swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_stop: dict = {"raise": False, "got": None}


def _on_stop(signum, frame) -> None:
    _stop["got"] = _stop["got"] or signum
    if _stop["raise"]:
        _stop["raise"] = False  # one unwind; a second signal during the flush is only recorded
        raise _Stopped(signum)


def _catch_stops() -> int | None:
    """Record SIGTERM, SIGINT and SIGHUP instead of dying; returns a descriptor readable once one came.

    ``_signal`` (no enum import on the hot path). While reading, a stop is only recorded and the
    read loop sees it through the returned descriptor (``set_wakeup_fd``), so no piece already
    read can be lost to an exception; while compressing (``_stop["raise"]``) it unwinds.
    """
    import _signal

    _stop["raise"], _stop["got"], _stop["old"] = False, None, {}
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        sig = getattr(_signal, name, None)
        if sig is None:
            continue
        try:
            previous = _signal.getsignal(sig)
            if previous == _signal.SIG_IGN:  # nohup: the user asked to ignore it
                continue
            _signal.signal(sig, _on_stop)
            _stop["old"][sig] = previous
        except (OSError, ValueError, TypeError):  # not the main thread (the daemon's workers, tests)
            return None
    if os.name != "posix":
        _stop["raise"] = True
        return None
    try:
        r, w = os.pipe()
        os.set_blocking(w, False)
        _stop["old"]["wakeup"] = _signal.set_wakeup_fd(w)
        _stop["pipe"] = (r, w)
        return r
    except (OSError, ValueError):
        _stop["raise"] = True
        return None


def _release_stops() -> None:
    """Give back the handlers found (sqz called in-process, by tests or the warm daemon)."""
    import _signal

    _stop["raise"] = False
    old = _stop.pop("old", {})
    try:
        if "wakeup" in old:
            _signal.set_wakeup_fd(old.pop("wakeup"))
        for sig, handler in old.items():
            _signal.signal(sig, handler if handler is not None else _signal.SIG_DFL)
    except (OSError, ValueError, TypeError):
        pass
    for fd in _stop.pop("pipe", ()):
        try:
            os.close(fd)
        except OSError:
            pass


def _hold_stops() -> None:
    """From here on a stop is only recorded: the output is being written and must not be cut."""
    _stop["raise"] = False


def _unwind_on_stop() -> None:
    """From here on (compressing) a stop unwinds at once; one that came already does so now."""
    if _stop["got"]:
        raise _Stopped(_stop["got"])
    _stop["raise"] = True


def _read_to_end(fd: int, chunks: list[bytes], wake: int | None) -> None:
    """Read ``fd`` to its end into ``chunks``; raise ``_Stopped`` (keeping every piece read) on a stop."""
    import select

    while True:
        if _stop["got"]:
            raise _Stopped(_stop["got"])
        if wake is not None:
            try:
                ready = select.select([fd, wake], [], [])[0]
            except (OSError, ValueError):
                ready = [fd]
            if fd not in ready:
                continue
        try:
            piece = os.read(fd, 1 << 16)
        except OSError:
            return
        if not piece:
            return
        chunks.append(piece)


def _stdin_fd() -> int | None:
    """stdin's descriptor; None when ``sys.stdin`` is not one (in-process callers hand in a buffer)."""
    if sys.stdin is None:
        return 0  # closed: ``_guard_std_fds`` put /dev/null there
    try:
        return sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _flush_on_stop(data: bytes, signum: int, verb: str) -> int:
    """Stopped: write what the command printed so far, unchanged (no time to compress), and exit 128+signal."""
    _hold_stops()
    from .exitmarker import split_trailer

    raw, status = split_trailer(data)
    _say(f"sqz {verb}: stopped by signal {signum}; the output so far is sent uncompressed")
    _write_out(raw)
    return status if status else 128 + signum


# Typed at a terminal, `sqz compress` would wait silently for input: say so, then still read (pasting
# an output and pressing Ctrl-D is a legitimate use, as with `cat` or `wc`; exiting would break it).
STDIN_TTY_HINT = ("sqz compress: reading the output to compress from stdin (end with Ctrl-D); "
                  "usually: CMD | sqz compress --cmd \"CMD\"")


def cmd_compress(opts: dict) -> int:
    try:
        return _cmd_compress(opts)
    finally:
        _disarm()
        _release_stops()


def _cmd_compress(opts: dict) -> int:
    wake = _catch_stops()
    chunks: list[bytes] = []
    try:
        fd = _stdin_fd()
        if fd is not None and os.isatty(fd):  # a person at a terminal (shown even with SQZ_QUIET)
            _say(STDIN_TTY_HINT)
        if fd is None:
            try:
                chunks.append(sys.stdin.buffer.read())
            except (OSError, ValueError, AttributeError):
                pass
        else:
            _read_to_end(fd, chunks, wake)
        data = b"".join(chunks)
        if _hard["enabled"]:
            from .exitmarker import split_trailer

            raw, code = split_trailer(data, opts.get("exit_nonce"))
            _arm(raw, code or 0, _TIMEOUT_NOTE)
        code, written = _answer(data, opts)
    except _Stopped as stop:
        return _flush_on_stop(b"".join(chunks), stop.signum, "compress")
    status = code or (128 + _stop["got"] if _stop["got"] else 0)
    return status if written else (status or 1)  # output lost: never report success


def _answer(data: bytes, opts: dict) -> tuple[int | None, bool]:
    """Compress ``data`` (through a running daemon when there is one) and write the answer: ``(the exit
    status it carries, whether stdout took it)``. A stop while compressing raises ``_Stopped``."""
    _unwind_on_stop()
    answer = _via_daemon(data, opts)
    if answer is not None and answer is not _SENT:
        _hold_stops()
        return _daemon_answer(answer)
    # _SENT: the daemon may have served it, so never answer with a ref now
    result = compress_bytes(data, dict(opts, no_cache=True) if answer is _SENT else opts)
    _hold_stops()
    written = _write_out(result.output)
    if written:
        _note(result)
    return result.exit_code, written


def _drain(fd: int, chunks: list[bytes], seconds: float) -> None:
    """Read what the stopped command still prints, for at most ``seconds`` (a grandchild may hold the pipe)."""
    import select
    import time

    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        try:
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return
            piece = os.read(fd, 1 << 16)
        except (OSError, ValueError):
            return
        if not piece:
            return
        chunks.append(piece)


def cmd_run(opts: dict, argv: list[str]) -> int:
    """Run ``argv`` with stdout and stderr merged, compress what it printed, exit with its status.

    Stopped (SIGTERM, SIGINT, SIGHUP: the agent's timeout, Ctrl-C), the signal is passed on to
    the command, what it printed so far is written out unchanged and the status is 128+signal.
    """
    try:
        return _cmd_run(opts, argv)
    finally:
        _disarm()
        _release_stops()


def _cmd_run(opts: dict, argv: list[str]) -> int:
    import subprocess

    if not argv:
        sys.stderr.write("sqz run: no command given (usage: sqz run -- CMD [ARGS…])\n")
        return 2
    if opts["command"] is None:
        import shlex

        opts["command"] = shlex.join(argv)
    wake = _catch_stops()
    chunks: list[bytes] = []
    proc = None
    try:
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=None,
                                    preexec_fn=_dies_with_parent())
        except FileNotFoundError:
            sys.stderr.write(f"sqz run: command not found: {argv[0]}\n")
            return 127
        except PermissionError:
            sys.stderr.write(f"sqz run: permission denied: {argv[0]}\n")
            return 126
        except OSError as exc:
            sys.stderr.write(f"sqz run: cannot run {argv[0]}: {exc}\n")
            return 126
        assert proc.stdout is not None  # stdout=PIPE
        _read_to_end(proc.stdout.fileno(), chunks, wake)
        while True:  # output closed; the command may still be ending
            try:
                status = proc.wait(timeout=0.2 if wake is not None else None)
                break
            except subprocess.TimeoutExpired:
                if _stop["got"]:
                    raise _Stopped(_stop["got"]) from None
    except _Stopped as stop:
        _hold_stops()
        if proc is None:
            return 128 + stop.signum
        return _stopped_run(proc, chunks, stop.signum)
    if status < 0:  # killed by a signal: the shell's convention
        status = 128 - status
    data = b"".join(chunks)
    _arm(data, status, _TIMEOUT_NOTE)  # the command has ended: its status is the exit status, whatever happens
    try:
        written = _answer(data, opts)[1]
    except _Stopped as stop:
        _flush_on_stop(data, stop.signum, "run")
        return status or 128 + stop.signum
    return status if written else (status or 1)  # the command's status; 1 if it succeeded but its output was lost


def _dies_with_parent():
    """A ``preexec_fn`` that makes the command end when sqz dies, even by SIGKILL; None where unsupported.

    Linux's ``PR_SET_PDEATHSIG`` (through ctypes, about 3 ms of imports, only on the run path): the
    kernel sends SIGKILL to the command when sqz is gone, since nobody is then left to escalate from
    SIGTERM or to read its output. The command stays in sqz's process group, so a terminal's Ctrl-C
    and a group-wide kill reach it (and its own children) directly, as before.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
        args = (ctypes.c_int(1), ctypes.c_ulong(9), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    except (ImportError, OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:  # in the forked child, before exec
        prctl(*args)  # PR_SET_PDEATHSIG = 1, SIGKILL = 9
        if os.getppid() != parent:  # sqz died between the fork and the line above: nobody will signal
            os.kill(os.getpid(), 9)

    return preexec


def _stopped_run(proc, chunks: list[bytes], signum: int) -> int:
    """The command is still running and sqz was stopped: pass the signal on, keep what it prints for a moment."""
    _drain(proc.stdout.fileno(), chunks, 0.3)  # a group-wide signal has reached it already: let it end
    if proc.poll() is None:
        try:
            proc.send_signal(signum)
        except OSError:
            pass
        _drain(proc.stdout.fileno(), chunks, 2.0)
    try:
        status = proc.wait(timeout=1.0)
    except Exception:  # it ignored the signal: the agent asked for it to end
        try:
            proc.kill()
            status = proc.wait(timeout=1.0)
        except Exception:
            status = -9
    _drain(proc.stdout.fileno(), chunks, 0.2)
    _flush_on_stop(b"".join(chunks), signum, "run")
    if status < 0:
        return 128 - status
    return status if status else 128 + signum


def cmd_expand(args: list[str]) -> int:
    if len(args) != 1 or args[0].startswith("-"):
        return NOT_MINE  # type: ignore[return-value]
    from .expand import ExpandError, parse_ref, resolve, unique_hash

    store = _open_store()
    if store is None:
        return 1
    try:
        data = resolve(store, args[0])
        try:  # an expand soon after a ref is a regret signal for the stats
            prefix, rng = parse_ref(args[0])  # the id alone, also from a whole pasted ref line
            prefix = unique_hash(store, prefix)[:16]  # as a hex prefix, a decimal id too (stats match by it)
            ref = f"ref:{prefix}" + (f":L{rng[0]}-{rng[1]}" if rng else "")
            store.record_event("expand", session=os.environ.get("SQZ_SESSION") or None, ref=ref[:64])
        except Exception:
            pass
    except ExpandError as exc:
        sys.stderr.write(f"sqz expand: {exc}\n")
        return 1
    finally:
        store.close()
    return 0 if _write_out(data) else 1


def cmd_hook(args: list[str]) -> int:
    """``sqz hook AGENT [ARGS…]``: the agent's hook JSON on stdin, its answer on stdout.

    Fails open: an unknown agent, a broken integration or any error prints nothing and
    exits 0, so the agent's tool call goes ahead unchanged. A running daemon answers when it
    can (``run_hook`` there, the same function as here, so the same bytes).
    """
    if not args:
        return NOT_MINE  # type: ignore[return-value]
    try:
        return _cmd_hook(args[0], args[1:])
    finally:
        _disarm()


def _cmd_hook(agent: str, rest: list[str]) -> int:
    try:
        payload = sys.stdin.buffer.read()
    except (OSError, ValueError):
        payload = b""
    _arm(b"", 0, f"sqz hook {agent}: over the %s s time budget; command left unchanged (SQZ_TIME_BUDGET_MS sets it)")
    via = _via_daemon(payload, None, hook=[agent, *rest])
    if via is _SENT:
        return 0  # delivered, answer lost: the daemon may have recorded it as served, so no answer (fail open)
    if via is not None:
        _daemon_answer(via)  # the hook's status is always 0 (fail open)
        return 0
    answer = run_hook(agent, rest, payload)
    if answer:
        _write_out(answer)
    return 0


def run_hook(agent: str, rest: list[str], payload: bytes) -> bytes | None:
    """The answer of ``agent``'s integration to a hook ``payload`` (None: print nothing); any error is
    one line on stderr and no answer (in-process and in the daemon alike)."""
    try:
        if agent == "precompact":
            from .sessions import hook_precompact

            answer = hook_precompact(payload, rest)
        else:
            from .plugins import integration_module

            module = integration_module(agent)
            if module is None or not hasattr(module, "hook"):
                sys.stderr.write(f"sqz hook: no integration named {agent!r} is installed; command left unchanged\n")
                return None
            answer = module.hook(payload, rest)
    except Exception as exc:  # fail open
        _say(f"sqz hook {agent}: {type(exc).__name__}: {exc}; command left unchanged")
        return None
    if not answer:
        return None
    return answer if isinstance(answer, bytes) else answer.encode("utf-8")


# -- the warm daemon (``sqz daemon start``; client and server are sqz_daemon's) ---------------------------
# The hot path only looks for the daemon's socket (one stat): sqz_daemon.api (os, sys and the C module _socket)
# is imported when one is there (or SQZ_DAEMON=auto may start one), so a call with no daemon imports nothing
# more, and one that goes through it imports no pipeline, store, regex or JSON module.
_SENT = object()  # the daemon received the request but no usable answer came back


def daemon_dir() -> str:
    """Private per-user directory of the socket and pid file: ``$XDG_RUNTIME_DIR/sqz``, else the cache dir's."""
    run = os.environ.get("XDG_RUNTIME_DIR")
    if run:
        return os.path.join(run, "sqz")
    from .paths import cache_dir

    return os.path.join(cache_dir(), f"daemon-{os.getuid()}")


def daemon_socket() -> str:
    return os.path.join(daemon_dir(), "daemon.sock")


def pack(fields: list[bytes]) -> bytes:
    """One message (the daemon's wire, the capped child's pipe): its length, then each field as an 8-byte
    big-endian length and its bytes."""
    body = b"".join([len(f).to_bytes(8, "big") + f for f in fields])
    return len(body).to_bytes(8, "big") + body


def unpack(body: bytes) -> list[bytes]:
    out, i, n = [], 0, len(body)
    while i < n:
        size = int.from_bytes(body[i:i + 8], "big")
        i += 8
        if size < 0 or i + size > n:
            raise ValueError("truncated message")
        out.append(body[i:i + size])
        i += size
    return out


def _via_daemon(data: bytes, opts: dict | None, hook: list[str] | None = None):
    """Compress (or, with ``hook`` = ``[agent, args…]``, answer a hook) through a running daemon:
    ``(stdout, stderr before, stderr after, status)``.

    None: compress in-process (no daemon, ``SQZ_DAEMON=0``, sqz-daemon not installed, refused, another
    version…); ``_SENT``: the request was delivered but the answer was lost, so the caller compresses
    in-process without refs (the daemon may already have recorded the output as served).
    """
    mode = os.environ.get("SQZ_DAEMON")
    if mode == "0" or os.name != "posix":
        return None
    try:
        path = daemon_socket()
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except Exception:
        return None
    if st is None and mode != "auto":
        return None
    try:
        from sqz_daemon.api import via_daemon
    except ImportError:
        return None
    answer = via_daemon(data, opts, hook, path, st)
    return _SENT if answer is False else answer


def _daemon_answer(answer) -> tuple[int, bool]:
    """Print the daemon's answer: ``(status, whether stdout took the output)``."""
    out, before, after, status = answer
    written = True
    for text in (before, None, after):
        if text is None:
            written = _write_out(out)
        elif text:
            _say(text, "")
    return status, written


_TIMEOUT_NOTE = "sqz: sent unchanged (over the %s s time budget; SQZ_TIME_BUDGET_MS sets it)"


def main(argv: list[str], *, hard_cap: bool = False):
    """Handle a hot verb and return its exit status, or ``NOT_MINE``.

    ``hard_cap``: this process is the verb's own (the ``sqz`` command), so at the time budget a watchdog
    may answer with the original and end it (``_arm``); never for a caller that hosts other work."""
    if not argv or any(a in ("-h", "--help") for a in argv):
        return NOT_MINE
    _hard["enabled"] = hard_cap
    if argv[0] in ("compress", "run", "expand", "hook"):
        _guard_std_fds()
        from . import config, lazyre

        lazyre.keep_forms_in(config.cache_dir())  # patterns built from what earlier calls compiled
    verb, args = argv[0], argv[1:]
    if verb == "compress":
        parsed = _parse(args, allow_rest=False)
        return parsed if parsed is NOT_MINE else cmd_compress(parsed[0])
    if verb == "run":
        parsed = _parse(args, allow_rest=True)
        return parsed if parsed is NOT_MINE else cmd_run(parsed[0], parsed[1])
    if verb == "expand":
        return cmd_expand(args)
    if verb == "hook":
        return cmd_hook(args)
    if verb in ("--version", "-V", "version") and not args:
        from ._version import VERSION

        sys.stdout.write(f"sqz {VERSION}\n")
        return 0
    return NOT_MINE
