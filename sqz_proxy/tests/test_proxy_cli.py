"""``sqz proxy`` as a user runs it: mounted in the sqz command, foreground and background, off the hot path."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time

from sqz_proxy.control import health
from sqz_proxy.testing import FakeUpstream


def sqz(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], capture_output=True, text=True,
                          timeout=timeout)


def post(port: int, path: str, body: bytes) -> bytes:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        c.request("POST", path, body=body, headers={"content-type": "application/json"})
        return c.getresponse().read()
    finally:
        c.close()


def test_the_sqz_command_lists_and_runs_the_proxy_verb():
    r = sqz("--help")
    assert r.returncode == 0 and "proxy" in r.stdout
    r = sqz("proxy", "--help")
    assert r.returncode == 0 and "--upstream" in r.stdout and "start" in r.stdout


def test_start_status_stop_in_the_background():
    with FakeUpstream() as up:
        r = sqz("proxy", "start", "--port", "0", "--upstream", up.url, "--json")
        assert r.returncode == 0, r.stderr
        st = json.loads(r.stdout)
        try:
            assert st["running"] and st["host"] == "127.0.0.1"
            again = sqz("proxy", "start", "--json")
            assert json.loads(again.stdout)["pid"] == st["pid"] and json.loads(again.stdout)["already"]
            status = sqz("proxy", "status", "--json")
            assert status.returncode == 0 and json.loads(status.stdout)["pid"] == st["pid"]
            assert post(st["port"], "/v1/messages", b'{"messages":[]}') == b'{"ok":true}'
            assert up.requests[0].path == "/v1/messages"
        finally:
            stop = sqz("proxy", "stop")
        assert stop.returncode == 0 and "stopped" in stop.stdout
    status = sqz("proxy", "status")
    assert status.returncode == 1 and "not" in status.stdout
    assert health("127.0.0.1", st["port"], timeout=1) is None


def test_the_background_proxy_listens_on_loopback_only():
    r = sqz("proxy", "--host", "0.0.0.0", "start")
    assert r.returncode == 1 and "loopback only" in r.stderr


def test_foreground_proxy_stops_cleanly_on_sigint():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with FakeUpstream() as up:
        p = subprocess.Popen([sys.executable, "-m", "sqz_core", "proxy", "--port", str(port), "--upstream", up.url],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while health("127.0.0.1", port, timeout=1) is None:
                assert p.poll() is None and time.monotonic() < deadline, p.communicate()
                time.sleep(0.1)
            assert post(port, "/v1/chat/completions", b'{"messages":[]}') == b'{"ok":true}'
        finally:
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert f"listening on http://127.0.0.1:{port}" in err and "Traceback" not in err


def test_sqz_compress_imports_nothing_of_the_proxy():
    code = ("import sys; from sqz_core.__main__ import main; sys.stdin = open(sys.argv[1]);"
            "main(['compress', '--cmd', 'git status']);"
            "bad = [m for m in sys.modules if m.startswith(('sqz_proxy', 'aiohttp'))]; sys.stderr.write(repr(bad))")
    path = os.path.abspath(__file__)
    r = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr.rstrip().endswith("[]"), r.stderr


def test_port_and_upstreams_from_the_user_config_file(tmp_path, monkeypatch):
    """``proxy.*`` in ~/.config/sqz/config.yaml, under the SQZ_PROXY_* variables; a project file may not set them."""
    from sqz_proxy.control import default_port
    from sqz_proxy.routes import Upstreams

    (tmp_path / "sqz").mkdir()
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("SQZ_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path / "proj")
    for var in ("SQZ_PROXY_PORT", "SQZ_PROXY_OPENAI_URL", "SQZ_PROXY_ANTHROPIC_URL", "SQZ_PROXY_GEMINI_URL"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "sqz" / "config.yaml").write_text("proxy:\n  port: 9911\n  openai_url: http://127.0.0.1:9/v1\n")
    # a process reads its configuration once per call (a proxy: at start); an earlier test of this process
    # loaded it already: this one starts as a new call does
    from sqz_core import config

    config.refresh()
    assert default_port() == 9911
    ups = Upstreams()
    assert ups.urls["openai"] == "http://127.0.0.1:9/v1" and ups.urls["anthropic"] == "https://api.anthropic.com"
    (tmp_path / "proj" / ".sqz.yaml").write_text("proxy:\n  anthropic_url: http://attacker.example.org\n")
    assert Upstreams().urls["anthropic"] == "https://api.anthropic.com"  # ignored, and said on stderr
    monkeypatch.setenv("SQZ_PROXY_PORT", "9922")
    assert default_port() == 9922
