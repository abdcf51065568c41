"""Issue 29.4: every client request through ``sqz-mcp proxy`` ends, whatever the upstream does.

Misbehaving upstreams are the stub (``stub_upstream.py``, one mode each); the real servers are
frozen with SIGSTOP or asked for a long operation. Timeouts are the proxy's own ``--timeout`` set
small; the waits for what must arrive are generous (they only detect a hang).
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import time

import pytest
from sqz_mcp import jsonrpc
from sqz_mcp.proxy import START_TIMEOUT, Proxy

from mcp_helpers import (SQZ_MCP, STUB, RawProc, call_msg, everything_server, filesystem_server, git_server, init_msg,
                         run_sdk, texts)

WAIT = 60  # seconds: a hang detector, never the behaviour under test
# The proxy's --timeout in these tests: small, but well above the time a loaded machine takes for an
# answer the upstream does give (initialize, which waits for the start, has its own START_TIMEOUT).
STUB_TIMEOUT = "3"
REAL_TIMEOUT = "8"


def _proxy(*opts: str, mode: str) -> list[str]:
    return SQZ_MCP + ["proxy", *opts, "--", *STUB, mode]


def _until_id(p: RawProc, mid, timeout: float = WAIT):
    return p.recv_until(lambda m: m.get("id") == mid and "method" not in m, timeout)


@pytest.mark.parametrize("mode, why", [("bad-json", "not valid JSON"), ("deep", "nested deeper than 100 levels")])
def test_an_unrelayable_answer_naming_its_id_is_an_error_for_that_request(mode, why):
    # default timeout (120 s): the error comes from the answer itself, not from a clock
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, mode]) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        reply, _ = _until_id(p, 2)
        assert reply["error"]["code"] == jsonrpc.INTERNAL_ERROR
        assert reply["error"]["message"].startswith(
            f"upstream MCP server answered tools/call with a message that cannot be relayed: {why}")
        assert p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}, timeout=WAIT)["result"] == {}
        assert p.finish() == 0
    assert all(json.loads(line) for line in p.raw_lines)  # the client only ever got JSON


def test_a_line_naming_no_id_is_dropped_and_the_request_ends_by_the_timeout():
    with RawProc(_proxy("--timeout", STUB_TIMEOUT, mode="no-id-garbage")) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        reply, _ = _until_id(p, 2)
        assert reply["error"] == {"code": -32001,
                                  "message": "upstream MCP server did not answer tools/call within 3 s "
                                             "(sqz-mcp proxy --timeout)"}
        assert p.finish() == 0
    assert b"dropped a non-JSON line from the upstream's stdout (it names no pending request)" in p.stderr
    assert b"stub: cancelled 2\n" in p.stderr  # the upstream was told


def test_an_answer_with_the_wrong_id_is_relayed_and_the_request_still_ends():
    with RawProc(_proxy("--timeout", STUB_TIMEOUT, mode="wrong-id")) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        seen = {}
        while set(seen) != {2, 1002}:
            msg = p.recv(WAIT)
            seen[msg["id"]] = msg
        assert seen[2]["error"]["code"] == -32001
        assert seen[1002]["result"]["content"][0]["text"].startswith("row 0: status=ok")
        assert p.finish() == 0


def test_a_late_answer_after_the_timeout_is_dropped():
    with RawProc(_proxy("--timeout", STUB_TIMEOUT, mode="hold")) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        assert _until_id(p, 2)[0]["error"]["code"] == -32001
        # the stub now answers the held call, then the ping: only the ping's answer reaches the client
        p.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        reply, before = _until_id(p, 3)
        assert reply["result"] == {} and before == []
        assert p.finish() == 0
    assert b"dropped the upstream's answer to request 2, which came after the 3 s timeout" in p.stderr
    assert b"stub: cancelled 2\n" in p.stderr


def test_the_timeout_comes_from_the_environment_and_bad_values_are_refused():
    env = dict(os.environ, SQZ_MCP_PROXY_TIMEOUT=STUB_TIMEOUT)
    with RawProc(_proxy(mode="silent"), env=env) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        assert _until_id(p, 2)[0]["error"]["message"].endswith("within 3 s (sqz-mcp proxy --timeout)")
        assert p.finish() == 0
    for argv, env in ((_proxy("--timeout", "soon", mode="silent"), None),
                      (_proxy(mode="silent"), dict(os.environ, SQZ_MCP_PROXY_TIMEOUT="-3"))):
        out = subprocess.run(argv, input=b"", capture_output=True, env=env, timeout=WAIT)
        assert out.returncode == 2 and b"timeout" in out.stderr.lower()
    helptext = subprocess.run(SQZ_MCP + ["proxy", "--help"], capture_output=True, timeout=WAIT).stdout
    assert b"--timeout SECONDS" in helptext and b"SQZ_MCP_PROXY_TIMEOUT" in helptext and b"120" in helptext


def test_the_timeout_flag_before_the_command_without_a_separator():
    with RawProc(SQZ_MCP + ["proxy", "--timeout", STUB_TIMEOUT, *STUB, "silent"]) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        assert _until_id(p, 2)[0]["error"]["code"] == -32001
        assert p.finish() == 0


def test_a_client_id_the_proxy_could_not_echo_is_refused_and_never_forwarded():
    with RawProc(_proxy(mode="noisy")) as p:
        p.initialize()
        p.send(b'{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"big"}}\n')
        line = p.lines.get(timeout=WAIT)
        assert line == (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,'
                        b'"message":"Invalid Request: an id must be a string or an integer"}}\n')
        assert p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}, timeout=WAIT)["result"] == {}
        p.send(b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}\n')
        assert json.loads(p.lines.get(timeout=WAIT)) == {"jsonrpc": "2.0", "id": 123456789012345678901234567890,
                                                         "result": {}}  # a big integer is exact
        assert p.finish() == 0


# -- the clock's rules, driven directly (no waiting) -----------------------------------------------
def _offline_proxy(timeout: float = 100.0) -> tuple[Proxy, io.BytesIO]:
    out = io.BytesIO()
    proxy = Proxy(["unused"], no_cache=True, timeout=timeout, stdout=out)
    proxy.upstream_in = jsonrpc.LineWriter(io.BytesIO())  # what the client sends goes nowhere
    return proxy, out


def _answers(out: io.BytesIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_progress_restarts_the_clock_of_its_request_only():
    proxy, out = _offline_proxy()
    for mid, token in ((1, "tok-a"), (2, "tok-b")):
        proxy.on_client_line(json.dumps({"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": {
            "name": "slow", "_meta": {"progressToken": token}}}).encode())
        proxy.pending[str(mid)]["t0"] = 0.0  # both sent at time 0 of this test's clock
    assert proxy.expire(99.0) == 100.0 and out.getvalue() == b""  # nothing due yet
    proxy.on_upstream_line(b'{"jsonrpc":"2.0","method":"notifications/progress",'
                           b'"params":{"progressToken":"tok-a","progress":1}}')
    assert proxy.pending["1"]["t0"] > 0.0 and proxy.pending["2"]["t0"] == 0.0
    proxy.expire(100.0)
    assert [(a["id"], a["error"]["code"]) for a in _answers(out)[1:]] == [(2, -32001)]
    assert list(proxy.pending) == ["1"]
    assert _answers(out)[0]["method"] == "notifications/progress"  # relayed to the client as it came


def test_the_clock_holds_while_the_upstream_waits_for_the_client():
    proxy, out = _offline_proxy()
    proxy.on_client_line(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask"}}')
    proxy.pending["7"]["t0"] = 0.0
    proxy.on_upstream_line(b'{"jsonrpc":"2.0","id":"up-1","method":"elicitation/create","params":{}}')
    proxy.expire(1000.0)  # the user takes long to answer: no timeout meanwhile
    assert "7" in proxy.pending and [a.get("method") for a in _answers(out)] == ["elicitation/create"]
    proxy.on_client_line(b'{"jsonrpc":"2.0","id":"up-1","result":{"action":"decline"}}')
    restarted = proxy.pending["7"]["t0"]
    assert not proxy.awaiting_client and restarted > 0.0  # the client's answer restarted the clock
    proxy.expire(restarted + 99)
    assert "7" in proxy.pending
    proxy.expire(restarted + 100)
    assert _answers(out)[-1] == {"jsonrpc": "2.0", "id": 7, "error": {
        "code": -32001, "message": "upstream MCP server did not answer tools/call within 100 s "
                                   "(sqz-mcp proxy --timeout)"}}


def test_initialize_waits_for_the_upstream_to_start_longer_than_the_timeout():
    proxy, out = _offline_proxy(timeout=3)
    proxy.on_client_line(json.dumps(init_msg()).encode())
    proxy.on_client_line(b'{"jsonrpc":"2.0","id":2,"method":"ping"}')
    for entry in proxy.pending.values():
        entry["t0"] = 0.0
    assert proxy.expire(3.0) == START_TIMEOUT
    assert [a["id"] for a in _answers(out)] == [2] and list(proxy.pending) == ["1"]
    proxy.expire(START_TIMEOUT)
    assert _answers(out)[-1]["error"]["message"] == (
        f"upstream MCP server did not answer initialize within {START_TIMEOUT:g} s (sqz-mcp proxy --timeout)")


def test_top_level_id_reads_the_id_without_parsing():
    deep = "[" * 5000 + "]" * 5000
    assert jsonrpc.top_level_id('{"jsonrpc":"2.0","id":3,"result":{"content":[') == 3
    assert jsonrpc.top_level_id('{"result":{"id":9,"x":' + deep + '},"id":"abc"}') == "abc"
    assert jsonrpc.top_level_id('{"jsonrpc":"2.0","result":' + deep + ',"id":7}') == 7
    assert jsonrpc.top_level_id('{"id":"a\\"b","result":{}}') == 'a"b'
    assert jsonrpc.top_level_id('{"a":"id","b":"id"}') is jsonrpc.NO_ID
    for text in ("not json", '{"id":1.5}', '{"id":true}', '{"id":', '["id",1]', '{"x":{"id":1}}', ""):
        assert jsonrpc.top_level_id(text) is jsonrpc.NO_ID, text


# -- real upstreams -------------------------------------------------------------------------------
def test_everything_server_long_operation_times_out_and_the_session_goes_on():
    from mcp.shared.exceptions import MCPError

    async def body(s):
        try:
            await s.call_tool("trigger-long-running-operation", {"duration": 600, "steps": 1})
        except MCPError as exc:
            error = exc.error
        else:
            raise AssertionError("a 600 s operation was answered within the proxy's timeout")
        return error, await s.call_tool("echo", {"message": "still served"})

    error, echo = run_sdk(SQZ_MCP + ["proxy", "--timeout", REAL_TIMEOUT, "--"] + everything_server(), body)
    assert error.code == -32001 and f"did not answer tools/call within {REAL_TIMEOUT} s" in error.message
    assert texts(echo) == ["Echo: still served"]


def test_everything_server_progress_keeps_a_long_operation_alive():
    seen = []

    async def progress(value, total, message):
        seen.append(value)

    async def body(s):
        return await s.call_tool("trigger-long-running-operation", {"duration": 16, "steps": 8},
                                 progress_callback=progress)

    # a progress notification every 2 s, 16 s in all, against an 8 s clock that each one restarts
    result = run_sdk(SQZ_MCP + ["proxy", "--timeout", REAL_TIMEOUT, "--"] + everything_server(), body)
    assert texts(result) == ["Long running operation completed. Duration: 16 seconds, Steps: 8."]
    assert seen == [1, 2, 3, 4, 5, 6, 7, 8]


def _pid_of(needle: str) -> int:
    """The pid of the process whose command line contains ``needle`` and is not the proxy: its upstream."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as fh:
                        argv = fh.read()
                except OSError:
                    continue
                if needle.encode() in argv and b"sqz_mcp" not in argv and int(entry) != os.getpid():
                    return int(entry)
        time.sleep(0.05)
    raise AssertionError(f"no process runs with {needle!r}")


def _git_repo(path):
    path.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, check=True)
    (path / "a.py").write_text("A = 1\n")
    subprocess.run(["git", "add", "."], cwd=path, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "one"], cwd=path, check=True, env=env)
    return path


@pytest.mark.parametrize("server", ["git", "filesystem"])
def test_a_frozen_real_upstream_times_out_and_serves_again_when_it_thaws(tmp_path, server):
    from mcp.shared.exceptions import MCPError

    root = _git_repo(tmp_path / f"frozen-{server}-root")
    if server == "git":
        argv, tool, args = git_server(str(root)), "git_status", {"repo_path": str(root)}
    else:
        argv, tool, args = filesystem_server(str(root)), "read_text_file", {"path": str(root / "a.py")}

    async def body(s):
        first = await s.call_tool(tool, args)
        pid = _pid_of(str(root))
        os.kill(pid, signal.SIGSTOP)
        try:
            try:
                await s.call_tool(tool, args)
            except MCPError as exc:
                frozen = exc.error
            else:
                raise AssertionError("a stopped upstream answered")
        finally:
            os.kill(pid, signal.SIGCONT)
        return first, frozen, await s.call_tool(tool, args)

    first, frozen, thawed = run_sdk(SQZ_MCP + ["proxy", "--no-cache", "--timeout", REAL_TIMEOUT, "--"] + argv, body)
    assert frozen.code == -32001
    assert not thawed.is_error and texts(thawed) == texts(first)
