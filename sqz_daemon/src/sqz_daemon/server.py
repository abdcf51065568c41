"""The optional warm daemon: ``sqz compress``, ``sqz run`` and ``sqz hook`` without Python's cold start.

``sqz daemon start`` runs this module in the background. It listens on a private per-user
Unix socket (``sqz_core.api.daemon_socket()``: ``$XDG_RUNTIME_DIR/sqz/daemon.sock``, else
``<cache dir>/daemon-<uid>/daemon.sock``; directory 0700, socket 0600) and keeps warm what
every call would otherwise rebuild: the imported pipeline and formatter modules, their
compiled regexes, the open store and the loaded plugin index. Nothing starts it implicitly
unless ``SQZ_DAEMON=auto`` (the client then starts it detached, with ``--delay``, when it finds
none); ``SQZ_DAEMON=0`` makes clients ignore it.

The client (``sqz_daemon.api``, imported by the hot path when the socket is there: stdlib only) sends the call's options, cwd, the environment variables
a call depends on and the input bytes; the daemon answers with exactly what the in-process
path would print (stdout bytes, the stderr lines, the exit status). Requests are read and
answered on threads but compressed one at a time, because the pipeline reads ``os.environ``
and the working directory: each request's variables and cwd are applied for its duration
and restored afterwards. The store is reopened after an error or when its file was
replaced; the plugin index is reloaded when ``plugin_index_is_fresh`` says it is stale (and the
daemon exits if an imported plugin's code changed). A client of another sqz version or
install (version, sqz_core's directory mtime, interpreter) gets "mismatch" and compresses
in-process; the daemon exits when it sees that its own install changed. It exits after
``--idle-minutes`` without a request (default 15).

Everything of the core it uses goes through ``sqz_core.api``; the wire format and the client's
constants are ``sqz_daemon.api``'s, shared by client and server, so the two cannot drift apart.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import time

from sqz_core import api as core

from . import api as wire

IDLE_MINUTES = 15.0
START_TIMEOUT = 30.0  # the warm-up imports every plugin: seconds on a loaded machine
# A call still running this long past its time budget is stuck (a plugin in C, a lock never released):
# its client has answered itself with the original at the budget (the client's watchdog, sqz_core.hot),
# and every other client would wait behind it (calls run one at a time), so the daemon is ended and its
# socket and pid file removed; the next call compresses in-process, or starts a fresh daemon. A monitor
# process forked at start-up (``_monitor``) does it, since a call stuck in C holding the GIL stops every
# thread of the daemon; the daemon tells it, through a pipe, when each call starts (with its budget) and ends.
STUCK_GRACE_S = 2.0


def _paths() -> tuple[str, str, str, str]:
    d = core.daemon_dir()
    return d, os.path.join(d, "daemon.sock"), os.path.join(d, "daemon.pid"), os.path.join(d, "daemon.log")


def _private_dir(d: str) -> None:
    """Create ``d`` 0700, or check that an existing one is ours and private."""
    os.makedirs(d, mode=0o700, exist_ok=True)
    st = os.stat(d)
    if st.st_uid != os.getuid():
        raise OSError(f"{d} belongs to another user")
    if st.st_mode & 0o077:
        os.chmod(d, 0o700)


def _managed(key: str) -> bool:
    return key.encode("utf-8", "surrogateescape").startswith(wire.ENV_PREFIXES)


def _log(msg: str) -> None:
    try:
        sys.__stderr__.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {msg}\n")
        sys.__stderr__.flush()
    except Exception:
        pass


class Daemon:
    def __init__(self, idle_minutes: float = IDLE_MINUTES) -> None:
        self.idle = idle_minutes * 60
        self.dir, self.sock_path, self.pid_path, _ = _paths()
        self.stamp = wire.daemon_stamp()
        self.base_env = {k: v for k, v in os.environ.items() if _managed(k)}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.last = time.monotonic()
        self.served = 0
        self.started = time.time()
        self.stores: dict = {}  # (store url, db path, PG* env) -> (store, (dev, ino) of the SQLite file)
        self.indexes: dict = {}  # plugin index path -> index
        self.listener = None
        self.pid_fd = None
        self.call_started = None  # monotonic start of the call running now, and its time budget in s
        self.call_budget = None
        self.monitor_fd = None  # the pipe to the monitor process (``watch_for_stuck_calls``)

    # -- life cycle -----------------------------------------------------------------------
    def acquire(self) -> bool:
        """Take the pid file's lock; False when another daemon holds it."""
        import fcntl

        _private_dir(self.dir)
        for _ in range(5):
            fd = os.open(self.pid_path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            try:  # the file we locked must still be the one at the path (a daemon exiting unlinks it)
                same = os.fstat(fd).st_ino == os.stat(self.pid_path).st_ino
            except OSError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self.pid_fd = fd
                return True
            os.close(fd)
        return False

    def bind(self) -> None:
        import socket

        try:
            os.unlink(self.sock_path)  # a socket left by a daemon that was killed (we hold the lock)
        except FileNotFoundError:
            pass
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            s.bind(self.sock_path)
        finally:
            os.umask(old)
        os.chmod(self.sock_path, 0o600)
        s.listen(64)
        s.settimeout(0.25)
        self.listener = s

    def cleanup(self) -> None:
        if self.monitor_fd is not None:
            try:
                os.close(self.monitor_fd)  # the monitor ends
            except OSError:
                pass
            self.monitor_fd = None
        try:
            if self.listener is not None:
                self.listener.close()
                os.unlink(self.sock_path)
        except OSError:
            pass
        for store, _ in self.stores.values():
            try:
                if store is not None:
                    store.close()
            except Exception:
                pass
        self.stores.clear()
        if self.pid_fd is not None:
            try:
                os.unlink(self.pid_path)
            except OSError:
                pass
            os.close(self.pid_fd)
            self.pid_fd = None

    def warm(self) -> None:
        """Import what calls need (pipeline, store, every formatter) and run the pipeline once."""
        try:
            index = core.load_index()
            self.indexes[core.plugin_index_path()] = index
            for rec in core.enabled_plugins(index.get("plugins", [])):
                core.load_plugin(rec)
            sample = b"warming up\n" * 40 + b"error: something failed\n"
            for command in ("git status", "pytest -q", "cargo build", None):
                core.compress(sample, command=command, store=None, index=index)
        except Exception as exc:  # a broken plugin is reported to the client that uses it, as in-process
            _log(f"warm-up: {type(exc).__name__}: {exc}")
        core.begin_plugin_call()  # failures found while warming up are reported to the call that meets them

    def stuck(self) -> bool:
        """The running call is past its budget + ``STUCK_GRACE_S`` (never with no budget)."""
        started, budget = self.call_started, self.call_budget
        return started is not None and budget is not None and time.monotonic() - started > budget + STUCK_GRACE_S

    def abandon(self) -> None:
        """Exit at once, leaving no socket or pid file, without waiting for the stuck call (a thread that
        cannot be stopped; a store transaction it left open is rolled back by the next open)."""
        _log(f"a call is stuck: {time.monotonic() - self.call_started:.1f} s on a {self.call_budget:g} s "
             "budget; exiting (its client sent the original; the next call compresses in-process)")
        for path in (self.sock_path, self.pid_path):
            try:
                os.unlink(path)
            except OSError:
                pass
        os._exit(3)

    def watch_for_stuck_calls(self) -> None:
        """Fork the monitor (``_monitor``); without one, ``serve_forever`` still checks ``stuck`` itself
        (which a call stuck in C holding the GIL keeps from running)."""
        try:
            r, w = os.pipe()
        except OSError:
            return
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return
        if pid == 0:
            try:
                os.close(w)
                for fd in (self.pid_fd, self.listener.fileno() if self.listener is not None else None):
                    if fd is not None:
                        os.close(fd)  # the pid file's lock must end with the daemon, not with the monitor
                _monitor(r, os.getppid(), self.sock_path, self.pid_path)
            finally:
                os._exit(0)
        os.close(r)
        self.monitor_fd = w

    def _tell_monitor(self, line: bytes) -> None:
        if self.monitor_fd is not None:
            try:
                os.write(self.monitor_fd, line)
            except OSError:
                self.monitor_fd = None

    def serve_forever(self) -> None:
        while not self.stop.is_set():
            if self.stuck():
                self.abandon()
            if self.idle > 0 and time.monotonic() - self.last > self.idle and not self.lock.locked():
                _log(f"idle for {self.idle / 60:g} minutes; exiting")
                break
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                if self.stop.is_set():
                    break
                raise
            self.last = time.monotonic()
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    # -- one connection ---------------------------------------------------------------------
    def handle(self, conn) -> None:
        try:
            conn.settimeout(wire.TIMEOUT)
            if not _same_user(conn):
                return
            try:
                fields = wire.unpack(wire.recv_message(conn, limit=wire.MAX_FRAME))
            except (OSError, ValueError):
                return
            conn.settimeout(30)
            reply = self.answer(fields)
            conn.sendall(wire.pack(reply))
        except Exception as exc:
            _log(f"connection: {type(exc).__name__}: {exc}")
        finally:
            conn.close()
            self.last = time.monotonic()

    def answer(self, fields: list[bytes]) -> list[bytes]:
        if len(fields) != 10 or fields[0] != wire.MAGIC:
            return [b"error: protocol"]
        stamp, verb = fields[1:5], fields[5]
        if stamp != self.stamp:
            if stamp[1] == self.stamp[1] and stamp[3] == self.stamp[3]:  # this install was upgraded or edited
                _log("sqz_core changed since start; exiting")
                self.stop.set()
            return [b"mismatch"]
        if verb == b"ping":
            return [b"ok", b"0", b"", b"", self.status().encode()]
        if verb == b"stop":
            self.stop.set()
            return [b"ok", b"0", b"", b"", b"stopping\n"]
        if verb not in (b"compress", b"hook"):
            return [b"error: unknown verb"]
        cwd = os.fsdecode(fields[6])
        if verb == b"hook":  # fields[7]: the agent, then the hook's arguments
            words = [os.fsdecode(w) for w in fields[7].split(b"\0")] if fields[7] else []
            kv = fields[8].split(b"\0") if fields[8] else []
            env = {os.fsdecode(k): os.fsdecode(v) for k, v in zip(kv[::2], kv[1::2])}
            if not words:
                return [b"error: protocol"]
            with self.lock:
                self.last = time.monotonic()
                try:
                    return self.hook(fields[9], words[0], words[1:], env, cwd)
                finally:
                    self.served += 1
                    self.last = time.monotonic()
        opts = {"command": None, "tool": None, "mode": "auto", "session": None, "no_cache": False,
                "no_abbrev": False, "agent": None, "exit_nonce": None}
        kv = fields[7].split(b"\0") if fields[7] else []
        for k, v in zip(kv[::2], kv[1::2]):
            key = k.decode()
            opts[key] = True if key in ("no_cache", "no_abbrev") else os.fsdecode(v)
        kv = fields[8].split(b"\0") if fields[8] else []
        env = {os.fsdecode(k): os.fsdecode(v) for k, v in zip(kv[::2], kv[1::2])}
        with self.lock:
            self.last = time.monotonic()
            try:
                return self.compress(fields[9], opts, env, cwd)
            finally:
                self.served += 1
                self.last = time.monotonic()

    @contextlib.contextmanager
    def _as_a_call(self, env: dict, cwd: str):
        """The client's directory and environment, its stderr captured, as a new process would have
        them (yields the captured stream, or None when the directory cannot be entered); put back after."""
        try:
            os.chdir(cwd)
        except OSError:
            yield None
            return
        self._apply_env(env)
        err = io.StringIO()
        saved_err = sys.stderr
        sys.stderr = err
        try:
            core.begin_plugin_call()  # "once" means once per call, as in a new process
            yield err
        finally:
            sys.stderr = saved_err
            self._apply_env(self.base_env)
            try:
                os.chdir("/")
            except OSError:
                pass

    @contextlib.contextmanager
    def _timed(self):
        """The call's start and budget, for ``stuck`` (read after the call's environment is applied)."""
        self.call_budget = core.budget_seconds()
        self.call_started = time.monotonic()
        if self.call_budget is not None:
            self._tell_monitor(b"S%r\n" % self.call_budget)
        try:
            yield
        finally:
            if self.call_budget is not None:
                self._tell_monitor(b"E\n")
            self.call_started = self.call_budget = None

    def compress(self, data: bytes, opts: dict, env: dict, cwd: str) -> list[bytes]:
        with self._as_a_call(env, cwd) as err, self._timed():
            if err is None:
                return [b"fallback"]
            index = self._index()
            if index is None:
                return [b"mismatch"]
            store = self._store()
            result = core.compress_bytes(data, opts, store=store, index=index)
            if opts.get("store_failed"):
                self._drop_store()
            before = err.getvalue()
            err.seek(0)
            err.truncate()
            core.print_stats_line(result)
            after = err.getvalue()
            status = result.exit_code if result.exit_code is not None else 0
            return [b"ok", str(status).encode(), before.encode("utf-8", "surrogatepass"),
                    after.encode("utf-8", "surrogatepass"), result.output]

    def hook(self, payload: bytes, agent: str, args: list[str], env: dict, cwd: str) -> list[bytes]:
        """``sqz hook AGENT ARGS…`` as in-process (``run_hook``): its answer and its stderr lines."""
        with self._as_a_call(env, cwd) as err, self._timed():
            if err is None:
                return [b"fallback"]
            if self._index() is None:
                return [b"mismatch"]
            answer = core.run_hook(agent, args, payload) or b""
            return [b"ok", b"0", err.getvalue().encode("utf-8", "surrogatepass"), b"", answer]

    def _apply_env(self, env: dict) -> None:
        for key in [k for k in os.environ if _managed(k) and k not in env]:
            del os.environ[key]
        for key, value in env.items():
            if os.environ.get(key) != value:
                os.environ[key] = value

    # -- warm state ----------------------------------------------------------------------------
    def _store_key(self):
        url = core.store_url()
        pg = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("PG")))
        return (url, None if url and not url.startswith("sqlite:") else self._sqlite_path(url) or core.db_path(), pg)

    @staticmethod
    def _sqlite_path(url):
        return core.sqlite_path_of(url)

    def _store(self):
        """The open store for this request's settings; reopened when its SQLite file was replaced."""
        key = self._store_key()
        self._current_key = key
        entry = self.stores.get(key)
        ident = None
        if key[1] is not None:
            try:
                st = os.stat(key[1])
                ident = (st.st_dev, st.st_ino)
            except OSError:
                ident = None
        if entry is not None and entry[0] is not None and (key[1] is None or entry[1] == ident):
            return entry[0]
        if entry is not None and entry[0] is not None:
            try:
                entry[0].close()
            except Exception:
                pass
        store = core.open_store_or_say()  # None after one line on stderr, as in-process
        if store is not None and key[1] is not None:
            try:
                st = os.stat(key[1])
                ident = (st.st_dev, st.st_ino)
            except OSError:
                ident = None
        if store is not None:
            self.stores[key] = (store, ident)
        else:
            self.stores.pop(key, None)
        return store

    def _drop_store(self) -> None:
        entry = self.stores.pop(getattr(self, "_current_key", None), None)
        if entry is not None and entry[0] is not None:
            try:
                entry[0].close()
            except Exception:
                pass

    def _index(self):
        """The plugin index for this request's cache dir; None when a loaded plugin's code changed."""
        path = core.plugin_index_path()
        index = self.indexes.get(path)
        if index is not None and core.plugin_index_is_fresh(index):
            return index
        new = core.load_index()
        if index is not None:
            old_watch, new_watch = index.get("watch", {}), new.get("watch", {})
            for rec in new.get("plugins", []):
                f = rec.get("file")
                if f and rec.get("module") in sys.modules and old_watch.get(f) != new_watch.get(f):
                    _log(f"plugin {rec['name']!r} changed on disk; exiting")
                    self.stop.set()
                    return None
        self.indexes[path] = new
        return new

    def status(self) -> str:
        return (f"pid {os.getpid()}\nsocket {self.sock_path}\nversion {self.stamp[0].decode()}\n"
                f"served {self.served}\nuptime {time.time() - self.started:.0f}s\n"
                f"idle-exit {self.idle / 60:g} min\n")


def _monitor(fd: int, daemon: int, sock_path: str, pid_path: str) -> None:
    """The monitor process: read call starts (``S<budget>``) and ends (``E``) from ``fd``; a call running
    past its budget + ``STUCK_GRACE_S`` gets the daemon killed and its socket and pid file removed. Ends
    when the pipe closes (the daemon exited)."""
    import select

    started = budget = None
    pending = b""
    while True:
        try:
            ready = select.select([fd], [], [], 0.25 if started is not None else None)[0]
        except InterruptedError:
            continue
        if ready:
            piece = os.read(fd, 4096)
            if not piece:
                return
            *lines, pending = (pending + piece).split(b"\n")
            for line in lines:
                if line.startswith(b"S"):
                    started, budget = time.monotonic(), float(line[1:])
                elif line == b"E":
                    started = None
        if started is not None and time.monotonic() - started > budget + STUCK_GRACE_S:
            _log(f"a call is stuck: {time.monotonic() - started:.1f} s on a {budget:g} s budget; "
                 f"ending the daemon (pid {daemon}; its client sent the original, the next call compresses "
                 "in-process)")
            try:
                os.kill(daemon, signal.SIGKILL)
            except OSError:
                return
            try:
                with open(pid_path, encoding="ascii") as fh:
                    ours = fh.read().strip() == str(daemon)
            except OSError:
                ours = False
            if ours:  # not a daemon started meanwhile
                for path in (sock_path, pid_path):
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
            return


def _same_user(conn) -> bool:
    """On Linux, the peer's uid from SO_PEERCRED (the 0700 directory already keeps others out)."""
    import socket

    if not hasattr(socket, "SO_PEERCRED"):
        return True
    import struct

    try:
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                              struct.calcsize("3i")))
    except OSError:
        return True
    return uid == os.getuid()


def serve(idle_minutes: float = IDLE_MINUTES, delay: float = 0.0) -> int:
    """Run the daemon in this process until stopped, idle or upgraded; 1 if one is already running.

    ``delay``: seconds to wait before the warm-up (a daemon started on demand, ``SQZ_DAEMON=auto``: its
    warm-up, seconds of CPU, would otherwise compete with the call that started it)."""
    d = Daemon(idle_minutes)
    if not d.acquire():
        sys.stderr.write(f"sqz daemon: already running (pid file {d.pid_path})\n")
        return 1
    try:
        os.chdir("/")
        if delay > 0:
            time.sleep(delay)
        d.warm()
        d.bind()
        d.watch_for_stuck_calls()
        d.last = time.monotonic()  # idle time counts from the first moment a client can connect, not
        # from before the warm-up (which takes seconds on a loaded machine)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, lambda *_: d.stop.set())
        _log(f"listening on {d.sock_path} (sqz {d.stamp[0].decode()}, idle exit {idle_minutes:g} min)")
        d.serve_forever()
    finally:
        d.cleanup()
        _log(f"stopped after {d.served} requests")
    return 0


# -- what the `sqz daemon` commands call (client side) --------------------------------------------
def request(verb: bytes, timeout: float = 2.0) -> str | None:
    """Send ``ping`` or ``stop``; the daemon's text answer, or None when none is running/answering."""
    import socket

    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None
    try:
        s.settimeout(timeout)
        s.connect(core.daemon_socket())
        s.sendall(wire.pack([wire.MAGIC, *wire.daemon_stamp(), verb, b"/", b"", b"", b""]))
        reply = wire.unpack(wire.recv_message(s))
    except (OSError, ValueError):
        return None
    finally:
        s.close()
    if reply[0] == b"mismatch":
        return "mismatch"
    return reply[4].decode() if reply[0] == b"ok" and len(reply) == 5 else None


def _pid() -> int | None:
    try:
        with open(_paths()[2], encoding="ascii") as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return None


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie (our own child that exited) counts as gone
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def _locked() -> bool:
    """Whether a daemon holds the pid file's lock."""
    import fcntl

    try:
        fd = os.open(_paths()[2], os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def start(idle_minutes: float = IDLE_MINUTES, foreground: bool = False, echo=print) -> int:
    import subprocess

    if os.name != "posix":
        echo("sqz daemon: needs Unix sockets (Linux, macOS); calls are compressed in-process")
        return 2
    d, sock, _pid_path, log = _paths()
    answer = request(b"ping")
    if answer is not None and answer != "mismatch" or _locked():
        echo(f"sqz daemon: already running (pid {_pid()}); `sqz daemon stop` first")
        return 1
    if len(os.fsencode(sock)) > 100:
        echo(f"sqz daemon: socket path too long for a Unix socket: {sock}")
        return 2
    try:
        _private_dir(d)
    except OSError as exc:
        echo(f"sqz daemon: cannot use {d}: {exc}")
        return 2
    if foreground:
        return serve(idle_minutes)
    with open(log, "ab") as fh:
        os.chmod(log, 0o600)
        proc = subprocess.Popen([sys.executable, "-m", "sqz_daemon", "--idle-minutes", str(idle_minutes)],
                                stdin=subprocess.DEVNULL, stdout=fh, stderr=fh, start_new_session=True,
                                close_fds=True, cwd="/")
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        answer = request(b"ping", timeout=1.0)
        if answer and answer != "mismatch":
            echo(f"sqz daemon: started (pid {proc.pid}, socket {sock}, idle exit {idle_minutes:g} min)")
            return 0
        code = proc.poll()
        if code is not None:
            echo(f"sqz daemon: did not start (exit {code}); see {log}")
            return 1
        time.sleep(0.02)
    echo(f"sqz daemon: no answer after {START_TIMEOUT:g}s; see {log}")
    return 1


def _identity(pid: int) -> str | None:
    """The process's start time (Linux ``/proc/PID/stat``), so a pid reused meanwhile is never signalled."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _still(pid: int, ident: str | None) -> bool:
    """``pid`` is alive and still the process we looked at first."""
    return _alive(pid) and (ident is None or _identity(pid) == ident)


def _wait_exit(pid: int, ident: str | None, seconds: float) -> bool:
    """Wait up to ``seconds`` for the process to exit; True once it is gone."""
    deadline = time.monotonic() + seconds
    while _still(pid, ident):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def stop(echo=print, timeout: float = 5.0, kill_wait: float = 3.0) -> int:
    """Ask the daemon to stop, wait for its process to exit, SIGKILL it after ``timeout`` s; say what happened.

    A daemon busy inside a long call, or stuck exiting, answers the stop request (or not) but
    lives on: what counts is the process, so this waits on the pid that held the pid file's
    lock when we started, and reports "stopped", "killed" or "still running" (exit 1).
    """
    import signal as _signal

    d, sock, pid_path, _log_path = _paths()
    pid = _pid()
    ours = pid is not None and _alive(pid) and _locked()  # the lock holder is the daemon this pid file names
    ident = _identity(pid) if ours else None
    asked = request(b"stop") not in (None, "mismatch")
    how = "asked"
    if not asked and ours:
        try:
            os.kill(pid, _signal.SIGTERM)
            asked, how = True, "SIGTERM"
        except ProcessLookupError:
            pass
        except PermissionError as exc:
            echo(f"sqz daemon: cannot signal pid {pid} ({exc.strerror})")
            return 1
    killed = False
    gone = _wait_exit(pid, ident, timeout) if ours else True
    if not gone:
        try:
            os.kill(pid, _signal.SIGKILL)
            killed = True
        except ProcessLookupError:
            pass
        except PermissionError as exc:
            echo(f"sqz daemon: pid {pid} did not exit within {timeout:g} s and cannot be killed ({exc.strerror})")
            return 1
        gone = _wait_exit(pid, ident, kill_wait)
    if gone and not _locked():  # nobody serves: remove what a killed daemon left behind
        for path in (sock, pid_path):
            try:
                os.unlink(path)
            except OSError:
                pass
    if not gone:
        echo(f"sqz daemon: pid {pid} is still running {kill_wait:g} s after SIGKILL")
        return 1
    if killed:
        echo(f"sqz daemon: killed (pid {pid}): it did not exit within {timeout:g} s of being "
             + ("asked to stop" if how == "asked" else "sent SIGTERM (the stop request got no answer)"))
        return 0
    if asked and ours:
        echo(f"sqz daemon: stopped (pid {pid})" + (", by SIGTERM: the stop request got no answer"
                                                    if how == "SIGTERM" else ""))
        return 0
    if asked:
        echo("sqz daemon: asked to stop (no pid file to wait on)")
        return 0
    echo("sqz daemon: not running")
    return 0


def status(echo=print, results: dict | None = None) -> int:
    """Say whether a daemon serves this user; ``results`` (``sqz daemon status --json``) gets ``running``,
    ``state`` (running, not-running, other-install), ``used`` (False under ``SQZ_DAEMON=0``), ``stale_socket``
    and, from a running daemon, ``pid``, ``socket``, ``version``, ``served``, ``uptime_seconds``,
    ``idle_exit_minutes``."""
    out = {} if results is None else results
    answer = request(b"ping")
    if answer == "mismatch":
        out.update(running=True, state="other-install", pid=_pid(), used=False)
        echo(f"sqz daemon: running (pid {_pid()}) for another sqz version or install; calls are compressed "
             "in-process")
        return 1
    if answer is None:
        stale = os.path.exists(core.daemon_socket()) and not _locked()
        out.update(running=False, state="not-running", stale_socket=stale, used=False)
        echo("sqz daemon: not running" + (" (a stale socket is left; `sqz daemon stop` removes it)" if stale else ""))
        return 1
    enabled = os.environ.get("SQZ_DAEMON") != "0"
    out.update(running=True, state="running", used=enabled, stale_socket=False)
    for line in answer.splitlines():
        key, _, value = line.partition(" ")
        if key == "pid" or key == "served":
            out[key] = int(value) if value.isdigit() else value
        elif key == "uptime":
            out["uptime_seconds"] = int(value.rstrip("s")) if value.rstrip("s").isdigit() else value
        elif key == "idle-exit":
            out["idle_exit_minutes"] = float(value.split()[0]) if value else None
        elif key in ("socket", "version"):
            out[key] = value
    echo("sqz daemon: running" + ("" if enabled else " (SQZ_DAEMON=0: not used by this shell)"))
    for line in answer.splitlines():
        echo(f"  {line}")
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m sqz_daemon", description="Serve sqz compress requests.")
    ap.add_argument("--idle-minutes", type=float, default=IDLE_MINUTES)
    ap.add_argument("--delay", type=float, default=0.0, help="seconds to wait before warming up")
    args = ap.parse_args(argv)
    return serve(args.idle_minutes, args.delay)


if __name__ == "__main__":
    sys.exit(main())
