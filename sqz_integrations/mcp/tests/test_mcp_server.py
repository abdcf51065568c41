"""The sqz-mcp server over stdio and streamable HTTP: the official SDK client, raw protocol lines, faults."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import time
import warnings

import pytest

from mcp_helpers import SQZ_MCP, RawProc, call_msg, init_msg, run_sdk, texts
from sqz_mcp import jsonrpc
from sqz_mcp.compression import Compressor
from sqz_mcp.roots import Roots
from sqz_mcp.server import McpServer
from sqz_testing import grows_linearly, work_done


@pytest.fixture()
def proj(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "app.py").write_text("".join(f"def handler_{i}(request):\n    return {i}\n\n" for i in range(60)))
    (root / "notes.md").write_text("# Notes\n\nneedle one\n")
    return root


# -- the official SDK client over stdio ------------------------------------------------------------
def test_sdk_client_session_read_reread_edit_reread(proj):
    async def body(s):
        out = {}
        tools = (await s.list_tools()).tools
        out["names"] = [t.name for t in tools]
        out["schemas"] = [t.input_schema for t in tools]
        out["outputs"] = [t.output_schema for t in tools]
        out["read1"] = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
        out["read2"] = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
        out["slice"] = texts(await s.call_tool("sqz_read_file", {"path": "app.py", "offset": 31, "limit": 90}))
        (proj / "app.py").write_text((proj / "app.py").read_text().replace("return 30\n", "return 3000\n"))
        out["read3"] = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
        ref = out["read2"][0].split("§")[1]
        out["expanded"] = texts(await s.call_tool("expand", {"ref": ref}))
        out["grep"] = texts(await s.call_tool("sqz_grep", {"pattern": "needle"}))
        out["ls"] = texts(await s.call_tool("sqz_list_dir", {}))
        out["outside"] = await s.call_tool("sqz_read_file", {"path": "/etc/hostname"})
        out["passthrough"] = texts(await s.call_tool("passthrough", {"text": "§ref:x§ as is"}))
        out["compress"] = texts(await s.call_tool("compress", {"text": "same line\n" * 200}))
        out["ping"] = await s.send_ping()
        return out

    original = (proj / "app.py").read_text()
    out = run_sdk(SQZ_MCP, body, cwd=str(proj))
    assert out["names"] == ["sqz_read_file", "sqz_grep", "sqz_list_dir", "compress", "passthrough", "expand",
                            "sqz_recall"]
    assert all(s["type"] == "object" for s in out["schemas"])
    assert all(o is None or o.get("type") == "object" for o in out["outputs"])
    assert out["read1"] == [original]
    assert re.fullmatch(r"§ref:[0-9a-f]{12,}§ unchanged since \d+s ago \(`[^`]+ expand` this ref prints it\)\n",
                        out["read2"][0])
    assert out["slice"][0].startswith("§ref:") and ":L31-120§" in out["slice"][0]
    delta = out["read3"][0]
    assert "-    return 30\n+    return 3000\n" in delta and len(delta) < len(original) / 4
    assert out["expanded"] == [original]
    assert out["grep"] == ["notes.md:3:needle one\n"]
    assert out["ls"] == ["app.py\nnotes.md\n"]
    assert out["outside"].is_error and "outside the allowed roots" in texts(out["outside"])[0]
    assert out["passthrough"] == ["§ref:x§ as is"]
    assert len(out["compress"][0]) < 200 and "same line" in out["compress"][0]


def test_sdk_recall_finds_an_earlier_read(proj):
    async def body(s):
        await s.call_tool("sqz_read_file", {"path": "app.py"})
        return texts(await s.call_tool("sqz_recall", {"query": "handler_42"}))

    [hits] = run_sdk(SQZ_MCP, body, cwd=str(proj))
    first = hits.splitlines()[0]
    assert re.match(r"§ref:[0-9a-f]{12,}§ \d+s ago: sqz_read_file app\.py$", first)
    assert "handler_42" in hits


def test_sdk_initialize_advertises_tools_list_changed_false(proj):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    import anyio

    async def main():
        params = StdioServerParameters(command=SQZ_MCP[0], args=SQZ_MCP[1:], cwd=str(proj), env=dict(os.environ))
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w):
                async with ClientSession(r, w) as s:
                    return await s.initialize()

    init = anyio.run(main)
    assert init.capabilities.tools.list_changed is False
    assert "§ref:HASH§" in init.instructions and init.server_info.name == "sqz-mcp"


# -- raw protocol lines ----------------------------------------------------------------------------
def test_raw_protocol_errors_ping_and_notification_silence(proj):
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        init = p.initialize(version="2025-03-26")
        assert init["result"]["protocolVersion"] == "2025-03-26"
        assert init["result"]["capabilities"] == {"tools": {"listChanged": False}}
        p.send(b"this is not json\n")
        assert p.recv() == {"jsonrpc": "2.0", "id": None,
                            "error": {"code": -32700, "message": "Parse error: Expecting value: line 1 column 1 (char 0)"}}
        p.send(b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"\xff\xfe"}}\n')
        err = p.recv()
        assert err["id"] is None and err["error"]["code"] == -32700 and "not valid UTF-8" in err["error"]["message"]
        assert p.request({"jsonrpc": "2.0", "id": "p1", "method": "ping"}) == {"jsonrpc": "2.0", "id": "p1", "result": {}}
        for note in ({"jsonrpc": "2.0", "method": "notifications/initialized"},
                     {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
                     {"jsonrpc": "2.0", "method": "notifications/whatever"}):
            p.send(note)
        assert p.silent_for(0.5)
        assert p.request({"jsonrpc": "2.0", "id": 7, "method": "resources/list"})["error"]["code"] == -32601
        assert p.request(call_msg(8, "no_such_tool", {}))["error"] == {"code": -32602, "message": "Unknown tool: no_such_tool"}
        assert p.request(init_msg(9, version="1999-01-01"))["result"]["protocolVersion"] == "2025-11-25"
        tools = p.request({"jsonrpc": "2.0", "id": 10, "method": "tools/list"})["result"]["tools"]
        assert all(t["inputSchema"]["type"] == "object" and "outputSchema" not in t for t in tools)
        assert p.finish() == 0
    lines = p.raw_lines
    assert all(json.loads(line) for line in lines) and all(line.endswith(b"\n") for line in lines)


SLOW = {"pattern": r"(x+x+)+y", "regex": True, "path": "slow.txt"}  # catastrophic backtracking: ~1 s


def test_raw_ping_is_answered_while_a_tool_call_runs_and_stdin_eof_finishes_the_queue(proj):
    (proj / "slow.txt").write_text("x" * 23 + "\n")
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        p.initialize()
        p.send(call_msg(2, "sqz_grep", SLOW))
        p.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        p.close_stdin()
        first, second = p.recv(), p.recv()
        assert first == {"jsonrpc": "2.0", "id": 3, "result": {}}
        assert second == {"jsonrpc": "2.0", "id": 2, "result": {
            "content": [{"type": "text", "text": "no matches for '(x+x+)+y' under slow.txt\n"}]}}
        assert p.proc.wait(10) == 0


def test_cancelled_queued_call_is_not_answered(proj):
    (proj / "slow.txt").write_text("x" * 23 + "\n")
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        p.initialize()
        p.send(call_msg(2, "sqz_grep", SLOW))
        p.send(call_msg(3, "sqz_read_file", {"path": "app.py"}))
        p.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
        p.send(call_msg(4, "sqz_list_dir", {}))
        p.close_stdin()
        ids = []
        while True:
            try:
                ids.append(p.recv(10)["id"])
            except EOFError:
                break
        assert ids == [2, 4]


# -- faults, in process ----------------------------------------------------------------------------
def test_a_request_that_raises_is_answered_and_the_next_is_served(proj, monkeypatch):
    server = McpServer(Roots([str(proj)]), Compressor())

    def boom(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("sqz_mcp.file_tools.read_file", boom)
    err = server.handle(call_msg(1, "sqz_read_file", {"path": "app.py"}), "s")
    assert err == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603,
                                                        "message": "Internal error: RuntimeError: disk on fire"}}
    ok = server.handle(call_msg(2, "sqz_list_dir", {}), "s")
    assert ok["result"]["content"][0]["text"] == "app.py\nnotes.md\n"

    monkeypatch.setattr("sqz_core.api.compress", boom)  # the name sqz_mcp imports
    text = "some text\n" * 50
    res = server.handle(call_msg(3, "compress", {"text": text}), "s")
    assert res["result"] == {"content": [{"type": "text", "text": text}]}
    assert server.handle({"jsonrpc": "2.0", "id": 4, "method": "ping"}, "s")["result"] == {}


def test_handle_rejects_malformed_messages(proj):
    server = McpServer(Roots([str(proj)]), Compressor())
    assert server.handle({"jsonrpc": "2.0", "id": 1}, "s")["error"]["code"] == -32600
    assert server.handle({"id": 1, "method": "ping"}, "s")["error"]["code"] == -32600
    assert server.handle({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}, "s")["error"]["code"] == -32602
    assert server.handle({"jsonrpc": "2.0", "id": 1, "result": {}}, "s") is None
    assert server.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}}, "s")["error"]["code"] == -32602
    with pytest.raises(jsonrpc.BadLine):
        jsonrpc.decode_line(b"42")


# -- streamable HTTP -------------------------------------------------------------------------------
class HttpServer(int):
    """The port, plus the bearer token the server printed and the file it wrote it to."""
    token: str
    token_file: str


@pytest.fixture()
def http_server(proj, tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path / "run"))
    proc = subprocess.Popen(SQZ_MCP + ["--transport", "http", "--port", "0"], cwd=str(proj),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    line = proc.stderr.readline().decode()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
    assert m, line
    line = proc.stderr.readline().decode()
    t = re.search(r"also in (\S+), mode 0600\): (\S+)$", line)
    assert t, line
    server = HttpServer(int(m.group(1)))
    server.token_file, server.token = t.group(1), t.group(2)
    yield server
    proc.terminate()
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    assert not os.path.exists(server.token_file)  # removed at exit


def _post(port, body, headers=None, auth=True):
    conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
    hdrs = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if auth:
        hdrs["Authorization"] = f"Bearer {port.token}"
    hdrs.update(headers or {})
    conn.request("POST", "/mcp", body=body if isinstance(body, bytes) else json.dumps(body), headers=hdrs)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), data


def test_http_with_the_sdk_client(http_server, proj):
    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    async def main():
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {http_server.token}"}) as client:
            async with streamable_http_client(f"http://127.0.0.1:{http_server}/mcp", http_client=client) as streams:
                async with ClientSession(streams[0], streams[1]) as s:
                    init = await s.initialize()
                    a = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
                    b = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
                    await s.send_ping()
                    return init, a, b

    init, a, b = anyio.run(main)
    assert init.capabilities.tools.list_changed is False
    assert a == [(proj / "app.py").read_text()] and b[0].startswith("§ref:")


def test_http_needs_the_bearer_token(http_server, proj):
    """Another local user can reach a loopback port: without the token nothing is served."""
    import stat

    assert stat.S_IMODE(os.stat(http_server.token_file).st_mode) == 0o600
    with open(http_server.token_file) as fh:
        assert fh.read().strip() == http_server.token
    assert len(http_server.token) >= 40
    read = call_msg(2, "sqz_read_file", {"path": "app.py"})
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {http_server.token}"},
                    {"Authorization": f"Bearer {http_server.token}x"}):
        for body in (init_msg(), read):
            status, hdrs, data = _post(http_server, body, headers, auth=bool(headers))
            assert status == 401 and hdrs["WWW-Authenticate"].startswith("Bearer"), headers
            assert b"def handler_" not in data
    conn = http.client.HTTPConnection("127.0.0.1", int(http_server), timeout=10)
    conn.request("DELETE", "/mcp", headers={"Mcp-Session-Id": "x"})
    resp = conn.getresponse()
    resp.read()
    resp.close()
    conn.close()
    assert resp.status == 401
    status, headers, _ = _post(http_server, init_msg())
    assert status == 200
    status, _, data = _post(http_server, read, {"Mcp-Session-Id": headers["Mcp-Session-Id"]})
    assert status == 200 and b"def handler_0" in data


def test_http_one_slow_request_does_not_block_others(http_server, proj):
    """Each HTTP request has its own thread: a client that sends half a body stalls only itself."""
    import socket

    status, headers, _ = _post(http_server, init_msg())
    sid = headers["Mcp-Session-Id"]
    stuck = socket.create_connection(("127.0.0.1", int(http_server)), timeout=10)
    stuck.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + http_server.token.encode()
                  + b"\r\nMcp-Session-Id: " + sid.encode() + b"\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{\"jsonrpc\"")
    try:
        for i in range(5):
            status, _, data = _post(http_server, {"jsonrpc": "2.0", "id": 10 + i, "method": "ping"},
                                    {"Mcp-Session-Id": sid})
            assert status == 200 and json.loads(data)["result"] == {}
        # the pings were answered while the stalled request was still open, not after it was given
        # up on: its body can still be finished, and it is answered now (an order, not a clock)
        body = b'{"jsonrpc":"2.0","id":99,"method":"ping"}'
        stuck.sendall(b":" + body[len(b'{"jsonrpc"') + 1:].ljust(1000 - len(b'{"jsonrpc"') - 1, b" "))
        reply = stuck.makefile("rb")
        assert reply.readline().startswith(b"HTTP/1.1 200")
        headers = dict(line.decode().strip().lower().split(": ", 1) for line in iter(reply.readline, b"\r\n"))
        assert json.loads(reply.read(int(headers["content-length"]))) == {"jsonrpc": "2.0", "id": 99, "result": {}}
    finally:
        stuck.close()


def test_http_raw_rules(http_server):
    port = http_server
    status, headers, data = _post(port, init_msg())
    assert status == 200 and headers["Content-Type"] == "application/json"
    sid = headers["Mcp-Session-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", sid) and json.loads(data)["result"]["capabilities"]["tools"]["listChanged"] is False
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    assert _post(port, ping)[0] == 400  # no session id
    assert _post(port, ping, {"Mcp-Session-Id": "nope"})[0] == 404
    status, _, data = _post(port, ping, {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"})
    assert status == 200 and json.loads(data) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert _post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, {"Mcp-Session-Id": sid})[:3:2] == (202, b"")
    assert _post(port, ping, {"Mcp-Session-Id": sid, "Origin": "http://evil.example"})[0] == 403
    assert _post(port, ping, {"Mcp-Session-Id": sid, "Origin": "http://localhost:5173"})[0] == 200
    assert _post(port, ping, {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01"})[0] == 400
    status, _, data = _post(port, b"{not json", {"Mcp-Session-Id": sid})
    assert status == 400 and json.loads(data)["error"]["code"] == -32700
    status, headers, data = _post(port, ping, {"Mcp-Session-Id": sid, "Accept": "text/event-stream"})
    assert headers["Content-Type"] == "text/event-stream" and data.startswith(b"event: message\ndata: {")
    auth = {"Authorization": f"Bearer {port.token}"}
    conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
    conn.request("GET", "/mcp", headers={"Accept": "text/event-stream", "Mcp-Session-Id": sid, **auth})
    resp = conn.getresponse()
    resp.read()
    assert resp.status == 405
    conn.request("DELETE", "/mcp", headers={"Mcp-Session-Id": sid, **auth})
    resp = conn.getresponse()
    resp.read()
    assert resp.status == 200
    conn.close()
    assert _post(port, ping, {"Mcp-Session-Id": sid})[0] == 404


def test_version_flag():
    out = subprocess.run(SQZ_MCP + ["--version"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and re.fullmatch(r"sqz-mcp \d+\.\d+\.\d+\n", out.stdout)


# -- hostile input: special files, deep nesting ----------------------------------------------------
DEEP = b"[" * 1000 + b"]" * 1000  # about 2 KB; json.loads would recurse 1,000 levels
DEEP_REQUEST = (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + b'{"b":' * 1000 + b"1"
                + b"}" * 1000 + b"}}")


def test_a_fifo_read_is_a_tool_error_at_once_and_the_server_still_answers(proj):
    os.mkfifo(proj / "pipe")
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        p.initialize()
        # opening a FIFO with no writer blocks for ever: any answer at all is the fix, so the bound is a
        # generous hang detector, not a speed claim
        res = p.request(call_msg(2, "sqz_read_file", {"path": "pipe"}), timeout=60)
        assert res["result"] == {"content": [{"type": "text", "text": "pipe is not a regular file"}], "isError": True}
        assert p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}) == {"jsonrpc": "2.0", "id": 3, "result": {}}
        res = p.request(call_msg(4, "sqz_grep", {"pattern": "needle"}), timeout=5)
        assert res["result"]["content"][0]["text"] == "notes.md:3:needle one\n"
        assert p.finish() == 0


def test_deeply_nested_json_is_rejected_and_the_server_keeps_serving(proj):
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        p.initialize()
        for line in (DEEP, DEEP_REQUEST):
            p.send(line + b"\n")
            assert p.recv(timeout=5) == {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "Invalid Request: JSON nested deeper than 100 levels"}}
        assert p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}) == {"jsonrpc": "2.0", "id": 3, "result": {}}
        assert p.finish() == 0
    assert b"Traceback" not in p.stderr


def test_depth_check_skips_strings_and_is_linear():
    assert not jsonrpc.too_deep('{"a":"' + "[" * 5000 + '"}')
    assert not jsonrpc.too_deep('["\\"[[[[", ' + "[" * 100 + "]" * 100 + "]", limit=101)
    assert jsonrpc.too_deep("[" * 101 + "]" * 101)
    assert not jsonrpc.too_deep("[" * 100 + "]" * 100)
    big = '{"jsonrpc":"2.0","id":1,"result":{"rows":[' + ",".join(['["a\\\\","]{["]'] * 200_000) + "]}}"
    assert not jsonrpc.too_deep(big)
    # linear: 4 × the rows, about 4 × the lines of Python (a rescan per bracket: 16 ×); counted, not timed
    rows = lambda n: '{"jsonrpc":"2.0","id":1,"result":{"rows":[' + ",".join(['["a\\\\","]{["]'] * n) + "]}}"
    (_, n_small), (_, n_large) = work_done(jsonrpc.too_deep, rows(5_000)), work_done(jsonrpc.too_deep, rows(20_000))
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


# -- client roots ----------------------------------------------------------------------------------
def test_client_roots_replace_the_working_directory_and_follow_list_changed(proj, tmp_path):
    """A client started elsewhere (its cwd is not the project) sends its roots; the server reads there."""
    import mcp_types as types

    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (elsewhere / "private.txt").write_text("not the project\n")
    second = tmp_path / "second"
    second.mkdir()
    (second / "app.py").write_text("print('second project')\n")
    current = {"dir": proj}

    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=current["dir"].as_uri(), name="project")])

    async def body(s):
        out = {"app": texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))}
        out["private"] = await s.call_tool("sqz_read_file", {"path": str(elsewhere / "private.txt")})
        out["ls"] = texts(await s.call_tool("sqz_list_dir", {}))
        current["dir"] = second
        with warnings.catch_warnings():  # the SDK flags roots as deprecated from protocol 2026-07-28 on
            warnings.simplefilter("ignore", Warning)
            await s.send_roots_list_changed()
        out["app2"] = texts(await s.call_tool("sqz_read_file", {"path": "app.py"}))
        out["old"] = await s.call_tool("sqz_read_file", {"path": str(proj / "notes.md")})
        return out

    out = run_sdk(SQZ_MCP, body, cwd=str(elsewhere), list_roots_callback=list_roots)
    assert out["app"] == [(proj / "app.py").read_text()]
    assert out["private"].is_error and "outside the allowed roots" in texts(out["private"])[0]
    assert out["ls"] == ["app.py\nnotes.md\n"]
    assert out["app2"] == ["print('second project')\n"]
    assert out["old"].is_error and "outside the allowed roots" in texts(out["old"])[0]


def test_explicit_root_stays_allowed_next_to_client_roots(proj, tmp_path):
    import mcp_types as types

    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "lib.txt").write_text("from --root\n")

    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=proj.as_uri())])

    async def body(s):
        return (texts(await s.call_tool("sqz_read_file", {"path": "notes.md"})),
                texts(await s.call_tool("sqz_read_file", {"path": str(extra / "lib.txt")})))

    notes, lib = run_sdk(SQZ_MCP + ["--root", str(extra)], body, cwd=str(tmp_path), list_roots_callback=list_roots)
    assert notes == ["# Notes\n\nneedle one\n"] and lib == ["from --root\n"]


def test_a_catastrophic_regex_is_a_tool_error_and_never_freezes_the_server(proj):
    """`(a|aa)+$` on a line of 40 a's backtracks exponentially: under Python's re it held the
    interpreter lock for good, so even a ping went unanswered. Now other requests are answered
    while it runs, and it ends as a tool error after its time limit."""
    from sqz_mcp.file_tools import REGEX_SECONDS

    (proj / "slow.txt").write_text("a" * 40 + "!\n")
    with RawProc(SQZ_MCP, cwd=str(proj)) as p:
        p.initialize()
        t0 = time.monotonic()
        p.send(call_msg(2, "sqz_grep", {"pattern": "(a|aa)+$", "regex": True, "path": "slow.txt"}))
        time.sleep(0.3)
        # the ping is answered while the regex still runs: its reply comes before the grep's (an
        # order, not a clock; the bounds below are hang detectors, the product's limit plus a margin)
        p.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        ping, before = p.recv_until(lambda m: m.get("id") == 3, timeout=REGEX_SECONDS + 30)
        assert ping["result"] == {} and before == []
        reply, _ = p.recv_until(lambda m: m.get("id") == 2, timeout=REGEX_SECONDS + 30)
        assert reply["result"]["isError"] and "ran over" in reply["result"]["content"][0]["text"]
        # the grep ended at the product's own limit, REGEX_SECONDS, not when the backtracking did
        # (years for 40 a's); the margin is for a loaded machine
        assert time.monotonic() - t0 < REGEX_SECONDS + 30
        res = p.request(call_msg(4, "sqz_grep", {"pattern": "needle (o|t)ne", "regex": True}), timeout=10)
        assert "notes.md:3:needle one" in res["result"]["content"][0]["text"]


