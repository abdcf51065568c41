"""Issue 29.5: the MCP server's reads are bounded whatever the file, ids are echoed as valid JSON,
and the HTTP transport serves 100 clients at once without a connection reset."""

from __future__ import annotations

import http.client
import json
import os
import re
import resource
import subprocess
import threading
import tracemalloc

import pytest
from sqz_mcp import file_tools
from sqz_mcp.roots import Roots

from mcp_helpers import SQZ_MCP, RawProc, call_msg

MB = 1024 * 1024
TEXT = b"".join(b"line %d of the text part\n" % i for i in range(420))  # about 10 KB


@pytest.fixture()
def sparse(tmp_path):
    """2 GB: 10 KB of text, then a hole (truncate: no disk blocks), the case of issue 29."""
    path = tmp_path / "sparse.log"
    path.write_bytes(TEXT)
    os.truncate(path, 2 * 1024 * MB)
    return path


def _read(path, args):
    tracemalloc.start()
    try:
        data, header, whole = file_tools.read_file(str(path), path.name, args, Roots([str(path.parent)]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return data, header, whole, peak


@pytest.mark.parametrize("args", [{}, {"max_bytes": 0}, {"offset": 400}])
def test_a_sparse_file_is_read_without_reading_its_hole(sparse, args):
    data, header, whole, peak = _read(sparse, args)
    first = args.get("offset", 1)
    assert data == b"".join(TEXT.splitlines(keepends=True)[first - 1:])
    assert header == (f"[sqz_read_file: sparse.log lines {first}-420 shown; line 421 holds NUL bytes (binary "
                      "content or a sparse file's hole) and is not shown; continue_with_offset=422]")
    assert not whole
    assert peak < 64 * MB  # generous: the hole alone is 2048 MB, which the old read held at once


def test_offsets_past_a_hole_skip_it_and_count_its_line(sparse):
    data, header, _, peak = _read(sparse, {"offset": 422})
    assert data == b"" and header == "[sqz_read_file: sparse.log has 421 lines; offset 422 is past the end]"
    data, header, _, _ = _read(sparse, {"offset": 421})
    assert data == b"" and "line 421 holds NUL bytes" in header and "continue_with_offset=422" in header
    assert peak < 64 * MB


def test_a_huge_single_line_costs_what_the_cap_does(tmp_path):
    path = tmp_path / "one-line.min.js"
    with open(path, "wb") as fh:
        for _ in range(48):
            fh.write(b"x" * MB)  # 48 MB on one line, no newline
    data, header, _, peak = _read(path, {})
    assert data == b"x" * file_tools.DEFAULT_READ_CAP
    assert header.startswith("[sqz_read_file: one-line.min.js line 1 is longer than the 262144-byte cap and was cut")
    assert peak < 16 * MB  # generous: the line is 48 MB
    data, header, _, _ = _read(path, {"max_bytes": 0})
    assert len(data) == file_tools.READ_CEILING
    assert (f"line 1 is longer than the {file_tools.READ_CEILING}-byte ceiling of one read "
            "(max_bytes cannot lift it)") in header
    data, header, _, _ = _read(path, {"offset": 2})
    assert header == "[sqz_read_file: one-line.min.js has 1 lines; offset 2 is past the end]"


def test_the_stdio_server_reads_the_sparse_file_in_bounded_memory(sparse):
    with RawProc(SQZ_MCP + ["--root", str(sparse.parent)], cwd=str(sparse.parent)) as p:
        p.initialize()
        reply = p.request(call_msg(2, "sqz_read_file", {"path": str(sparse)}), timeout=120)
        text = reply["result"]["content"][0]["text"]
        assert text.endswith(TEXT.decode()) and "line 421 holds NUL bytes" in text
        assert p.finish() == 0
    # the largest child this test process has waited for (earlier tests' servers included): generous,
    # against the 4.3 GB the old read took
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 < 1024 * MB


# -- ids ------------------------------------------------------------------------------------------
REFUSED = (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,'
           b'"message":"Invalid Request: an id must be a string or an integer"}}\n')


def test_ids_are_echoed_exactly_or_refused_over_stdio(tmp_path):
    with RawProc(SQZ_MCP, cwd=str(tmp_path)) as p:
        p.initialize()
        for token in (b"1e400", b"1.5", b"-1E2", b"true", b"[1]", b'{"a":1}'):
            p.send(b'{"jsonrpc":"2.0","id":%s,"method":"ping"}\n' % token)
            assert p.lines.get(timeout=60) == REFUSED, token
        p.send(b'{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"sqz_list_dir"}}\n')
        assert p.lines.get(timeout=60) == REFUSED
        for token in (b"123456789012345678901234567890", b"-7", b'"\\u00e9\\"x"', b'"id-1"'):
            p.send(b'{"jsonrpc":"2.0","id":%s,"method":"ping"}\n' % token)
            assert json.loads(p.lines.get(timeout=60)) == {"jsonrpc": "2.0", "id": json.loads(token), "result": {}}
        assert p.finish() == 0


# -- HTTP ----------------------------------------------------------------------------------------
@pytest.fixture()
def http_port(tmp_path):
    token_file = tmp_path / "run" / "token"
    proc = subprocess.Popen(SQZ_MCP + ["--transport", "http", "--port", "0", "--token-file", str(token_file)],
                            cwd=str(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = None
    for line in proc.stderr:
        m = re.search(rb"http://127\.0\.0\.1:(\d+)/mcp", line)
        port = int(m.group(1)) if m else port
        if b"bearer token" in line:
            break
    assert port, "the server did not start"
    drain = threading.Thread(target=proc.stderr.read, daemon=True)
    drain.start()
    yield port, token_file.read_text().strip()
    proc.terminate()
    proc.wait(30)
    drain.join(30)
    proc.stderr.close()


def _post(port, token, body: bytes, sid=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
               "Accept": "application/json", "Connection": "close"}
    if sid:
        headers["Mcp-Session-Id"] = sid
    try:
        conn.request("POST", "/mcp", body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.getheader("Mcp-Session-Id"), resp.read()
    finally:
        conn.close()


def _session(port, token) -> str:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    status, sid, _ = _post(port, token, json.dumps(init).encode())
    assert status == 200 and sid
    return sid


def test_http_ids_are_echoed_exactly_or_refused(http_port):
    port, token = http_port
    sid = _session(port, token)
    status, _, body = _post(port, token, b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}', sid)
    assert (status, body) == (200, REFUSED)
    status, _, body = _post(port, token, b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
                            sid)
    assert body == b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}\n'


def test_http_serves_100_concurrent_clients_without_a_reset(http_port):
    port, token = http_port
    sid = _session(port, token)
    clients, rounds = 100, 3
    start = threading.Barrier(clients)
    answered, failures = [], []

    def client(i: int) -> None:
        start.wait()  # all connect at once: the burst a backlog of 5 reset
        for k in range(rounds):  # a new connection per request, the hardest case for the listener
            mid = i * 100 + k
            try:
                ping = json.dumps({"jsonrpc": "2.0", "id": mid, "method": "ping"}).encode()
                status, _, body = _post(port, token, ping, sid)
                answered.append((status, json.loads(body)["id"] == mid))
            except Exception as exc:  # ConnectionResetError before the fix
                failures.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert failures == []
    assert answered == [(200, True)] * (clients * rounds)
