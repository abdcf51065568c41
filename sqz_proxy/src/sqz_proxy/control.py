"""Running the proxy: in the foreground, or in the background with a state file (``sqz proxy start|stop|status``).

The background proxy listens on loopback only. Its state (pid, address, log file) is kept in
``<sqz cache dir>/proxy/state.json``; ``status`` trusts it only when that pid answers the
health endpoint on that port, so a stale file (a killed proxy, a reused pid) reads as "not running".
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_PORT = 8787
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def default_port() -> int:
    try:
        from sqz_core.api import config_env  # the variable, else the config files (sqz config)

        return int(config_env("SQZ_PROXY_PORT") or DEFAULT_PORT)
    except ValueError:
        return DEFAULT_PORT


def state_dir() -> Path:
    from sqz_core.api import cache_dir

    return Path(cache_dir()) / "proxy"


def state_file() -> Path:
    return state_dir() / "state.json"


def run_foreground(host: str, port: int, upstream: str | None, per_provider: dict | None = None, *,
                   quiet: bool = False, fold_answers: bool | None = None) -> int:
    import asyncio

    from .routes import Upstreams
    from .server import serve

    try:
        asyncio.run(serve(host, port, Upstreams(upstream, per_provider), quiet=quiet, fold_answers=fold_answers))
    except OSError as exc:
        sys.stderr.write(f"sqz proxy: cannot listen on {host}:{port}: {exc.strerror or exc}\n")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def health(host: str, port: int, timeout: float = 2.0) -> dict | None:
    """The proxy's health document at host:port, or None when nothing (or something else) answers."""
    import http.client

    try:
        c = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            c.request("GET", "/_sqz/health")
            r = c.getresponse()
            doc = json.loads(r.read()) if r.status == 200 else None
        finally:
            c.close()
    except (OSError, ValueError, http.client.HTTPException):
        return None
    return doc if isinstance(doc, dict) and "sqz_proxy" in doc else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_state() -> dict | None:
    try:
        doc = json.loads(state_file().read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("pid"), int) else None


def status() -> dict:
    """``{"running": bool, "pid", "host", "port", "url", "log", …}`` of the background proxy."""
    st = read_state()
    if st is None:
        return {"running": False, "reason": "not started"}
    doc = health(st.get("host", "127.0.0.1"), int(st.get("port", 0))) if _alive(st["pid"]) else None
    running = doc is not None and doc.get("pid") == st["pid"]
    return dict(st, running=running, **({} if running else {"reason": "not running (stale state file)"}))


def start(host: str = "127.0.0.1", port: int | None = None, upstream: str | None = None,
          per_provider: dict | None = None, wait: float = 20.0, fold_answers: bool = False) -> dict:
    """Start the background proxy (or report the one running); raises ``RuntimeError`` with a reason."""
    if host not in LOOPBACK:
        raise RuntimeError(f"the background proxy listens on loopback only, not {host!r}")
    current = status()
    if current["running"]:
        return dict(current, already=True)
    if port is None:
        port = default_port()
        if not _port_free(host, port):
            port = _free_port(host)
    elif port == 0:
        port = _free_port(host)
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    log = directory / "proxy.log"
    cmd = [sys.executable, "-m", "sqz_proxy", "--host", host, "--port", str(port)]
    if upstream:
        cmd += ["--upstream", upstream]
    for name, url in (per_provider or {}).items():
        if url:
            cmd += [f"--{name}-upstream", url]
    if fold_answers:
        cmd.append("--fold")
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True,
                                close_fds=True)
    st = {"pid": proc.pid, "host": host, "port": port, "url": f"http://{host}:{port}", "log": str(log),
          "started": time.time()}
    tmp = state_file().with_suffix(".tmp")
    tmp.write_text(json.dumps(st))
    os.replace(tmp, state_file())
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the proxy exited at start (status {proc.returncode}); see {log}")
        doc = health(host, port, timeout=1.0)
        if doc is not None and doc.get("pid") == proc.pid:
            return dict(st, running=True)
        time.sleep(0.1)
    proc.terminate()
    raise RuntimeError(f"the proxy did not answer on {host}:{port} within {wait:g} s; see {log}")


def stop(wait: float = 5.0) -> str:
    """Stop the background proxy; says what happened."""
    st = read_state()
    if st is None:
        return "not running"
    pid = st["pid"]
    current = status()
    if not current["running"]:
        state_file().unlink(missing_ok=True)
        return "not running (removed a stale state file)"
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and _alive(pid):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                break
        except ChildProcessError:
            pass
        time.sleep(0.05)
    how = "stopped"
    if _alive(pid) and health(st["host"], st["port"], timeout=0.5) is not None:
        os.kill(pid, signal.SIGKILL)
        how = f"killed (no exit within {wait:g} s)"
    state_file().unlink(missing_ok=True)
    return f"{how} (pid {pid})"
