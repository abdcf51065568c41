"""The proxy over real sockets against a fake upstream on 127.0.0.1: wire formats, streaming, bad input."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import threading

import pytest

from sqz_core.api import count_tokens
from sqz_proxy.testing import FakeUpstream, running_proxy, sse

SECRET = "sk-ant-api03-proxy-test-secret-value-0123456789abcdef"


def post(port: int, path: str, body: bytes, headers: dict | None = None, timeout: float = 60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("POST", path, body=body, headers={"content-type": "application/json", **(headers or {})})
    try:
        r = c.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        c.close()


def anthropic_body(real, stream: bool) -> dict:
    return {"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": stream, "messages": [
        {"role": "user", "content": "Run the tests."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "Bash",
                                           "input": {"command": "pytest test_calc.py"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
                                      "content": "Exit code 1\n" + real["pytest_fail"]}]}]}


EVENTS = sse([("message_start", {"type": "message_start", "message": {"id": "msg_1", "content": []}}),
              ("content_block_start", {"type": "content_block_start", "index": 0,
                                       "content_block": {"type": "text", "text": ""}}),
              ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                       "delta": {"type": "text_delta", "text": "Fixed — héllo ✓"}}),
              ("message_stop", {"type": "message_stop"})])


@pytest.mark.parametrize("stream", [True, False])
def test_anthropic_messages_compressed_and_answer_relayed_byte_for_byte(real, stream, capfd):
    answer = b'{"id":"msg_1","type":"message","content":[{"type":"text","text":"ok"}]}'

    def handler(rec):
        if stream:
            return 200, {"content-type": "text/event-stream", "request-id": "req_1"}, list(EVENTS)
        return 200, {"content-type": "application/json", "request-id": "req_1"}, answer

    with FakeUpstream(handler) as up, running_proxy(up.url) as proxy:
        raw = json.dumps(anthropic_body(real, stream)).encode()
        status, headers, got = post(proxy.port, "/v1/messages?beta=true", raw,
                                    {"x-api-key": SECRET, "anthropic-version": "2023-06-01",
                                     "anthropic-beta": "prompt-caching-2024-07-31"})
    assert status == 200 and headers["request-id"] == "req_1"
    assert got == (b"".join(EVENTS) if stream else answer)
    rec = up.requests[0]
    assert rec.path == "/v1/messages?beta=true"
    assert rec.headers["x-api-key"] == SECRET and rec.headers["anthropic-beta"] == "prompt-caching-2024-07-31"
    sent = rec.json()["messages"][2]["content"][0]["content"]
    assert sent.startswith("Exit code 1\n") and "FAILED test_calc.py::test_add[3-3-7]" in sent
    assert count_tokens(sent)[0] < count_tokens("Exit code 1\n" + real["pytest_fail"])[0]
    out, err = capfd.readouterr()
    assert SECRET not in out + err


def test_the_stream_is_relayed_as_it_arrives_not_buffered():
    """The upstream holds its second event until the agent has read the first through the proxy."""
    first_seen = threading.Event()

    def chunks():
        yield EVENTS[0]
        assert first_seen.wait(60), "the proxy held the first event back"
        yield from EVENTS[1:]

    with FakeUpstream(lambda rec: (200, {"content-type": "text/event-stream"}, chunks())) as up, \
            running_proxy(up.url) as proxy:
        c = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=60)
        c.request("POST", "/v1/messages", body=b'{"stream":true,"messages":[]}',
                  headers={"content-type": "application/json"})
        r = c.getresponse()
        assert r.read1(65536) == EVENTS[0]
        first_seen.set()
        assert r.read() == b"".join(EVENTS[1:])
        c.close()


def test_openai_chat_completions_tool_message_compressed(real):
    body = {"model": "gpt-5", "messages": [
        {"role": "user", "content": "Look at the history."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", "git log --stat -n 5"]})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": real["git_log"]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_2", "type": "function",
             "function": {"name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", "git log --stat -n 5"]})}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": real["git_log"]}]}
    with FakeUpstream() as up, running_proxy(up.url) as proxy:
        status, _, _ = post(proxy.port, "/v1/chat/completions", json.dumps(body).encode(),
                            {"authorization": f"Bearer {SECRET}"})
    assert status == 200
    rec = up.requests[0]
    assert rec.headers["authorization"] == f"Bearer {SECRET}"
    msgs = rec.json()["messages"]
    assert msgs[4]["content"].startswith("§ref:") and "call_1" in msgs[4]["content"]
    assert msgs[1] == body["messages"][1] and msgs[0] == body["messages"][0]


def test_openai_responses_function_call_output_compressed_with_codex_status_lines(real):
    sent = "Exit code: 1\nWall time: 2.5 seconds\nOutput:\n" + real["pytest_fail"]
    body = {"model": "gpt-5-codex", "stream": True, "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Run the tests."}]},
        {"type": "function_call", "call_id": "call_1", "name": "shell",
         "arguments": json.dumps({"command": ["bash", "-lc", "pytest test_calc.py"], "workdir": "/repo"})},
        {"type": "function_call_output", "call_id": "call_1", "output": sent}]}
    with FakeUpstream(lambda rec: (200, {"content-type": "text/event-stream"}, [b"event: response.completed\n",
                                                                               b"data: {}\n\n"])) as up, \
            running_proxy(up.url) as proxy:
        status, _, got = post(proxy.port, "/openai/v1/responses", json.dumps(body).encode())
    assert status == 200 and got == b"event: response.completed\ndata: {}\n\n"
    assert up.requests[0].path == "/v1/responses"  # the provider prefix is not sent upstream
    out = up.requests[0].json()["input"][2]["output"]
    assert out.startswith("Exit code: 1\nWall time: 2.5 seconds\nOutput:\n")
    assert "FAILED test_calc.py::test_add[38-38-77]" in out and count_tokens(out)[0] < count_tokens(sent)[0]


def test_gemini_generate_content_function_response_compressed(real):
    def turn(n):
        return [{"role": "model", "parts": [{"functionCall": {"name": "run_shell_command",
                                                              "args": {"command": "git log --stat -n 5"}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                                                                 "response": {"output": real["git_log"]}}}]}]
    body = {"contents": [{"role": "user", "parts": [{"text": "History?"}]}, *turn(1), *turn(2)]}
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    with FakeUpstream(lambda rec: (200, {"content-type": "text/event-stream"}, [b'data: {"candidates":[]}\r\n\r\n'])) \
            as up, running_proxy(up.url) as proxy:
        status, _, got = post(proxy.port, path, json.dumps(body).encode(), {"x-goog-api-key": SECRET})
    assert status == 200 and got == b'data: {"candidates":[]}\r\n\r\n'
    rec = up.requests[0]
    assert rec.path == path and rec.headers["x-goog-api-key"] == SECRET
    parts = [c["parts"][0] for c in rec.json()["contents"]]
    assert parts[2]["functionResponse"]["response"]["output"] == real["git_log"] or \
        count_tokens(parts[2]["functionResponse"]["response"]["output"])[0] < count_tokens(real["git_log"])[0]
    assert parts[4]["functionResponse"]["response"]["output"].startswith("§ref:")


def test_each_provider_has_its_own_upstream(real):
    with FakeUpstream() as a, FakeUpstream() as o, FakeUpstream() as g, \
            running_proxy(per_provider={"anthropic": a.url, "openai": o.url, "gemini": g.url}) as proxy:
        post(proxy.port, "/v1/messages", b'{"messages":[]}', {"anthropic-version": "2023-06-01"})
        post(proxy.port, "/v1/chat/completions", b'{"messages":[]}')
        post(proxy.port, "/v1beta/models/m:generateContent", b'{"contents":[]}')
        post(proxy.port, "/gemini/v1beta/models/m:countTokens", b'{"contents":[]}')
    assert [r.path for r in a.requests] == ["/v1/messages"]
    assert [r.path for r in o.requests] == ["/v1/chat/completions"]
    assert [r.path for r in g.requests] == ["/v1beta/models/m:generateContent", "/v1beta/models/m:countTokens"]


@pytest.mark.parametrize("path,body,headers", [
    ("/v1/messages/count_tokens", None, {}),                        # a path it does not rewrite
    ("/v1/messages", b'{"messages": [ {"role": "user", ', {}),      # malformed JSON
    ("/v1/messages", None, {"content-type": "application/x-msgpack"}),  # unknown content type
    ("/v1/messages", "gzip", {"content-encoding": "gzip"}),          # a compressed body
    ("/v1/messages", b"\xff\xfe not utf-8", {}),                     # not UTF-8
    ("/some/unknown/path", None, {}),
])
def test_what_it_does_not_understand_is_forwarded_untouched(real, path, body, headers):
    raw = json.dumps(anthropic_body(real, False)).encode()
    if body is None:
        body = raw
    elif body == "gzip":
        body = gzip.compress(raw)
    with FakeUpstream() as up, running_proxy(up.url) as proxy:
        status, _, got = post(proxy.port, path, body, headers)
    assert status == 200 and got == b'{"ok":true}'
    assert up.requests[0].body == body and up.requests[0].path == path


def test_a_chunked_upload_is_read_whole_and_compressed(real):
    raw = json.dumps(anthropic_body(real, False)).encode()
    with FakeUpstream() as up, running_proxy(up.url) as proxy:
        c = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=60)
        c.request("POST", "/v1/messages", body=iter([raw[:1000], raw[1000:5000], raw[5000:]]),
                  headers={"content-type": "application/json"}, encode_chunked=True)
        r = c.getresponse()
        assert r.status == 200 and r.read() == b'{"ok":true}'
        c.close()
    assert len(up.requests[0].body) < len(raw)
    assert up.requests[0].json()["messages"][0] == anthropic_body(real, False)["messages"][0]


def test_a_20_mb_request_is_compressed_and_one_over_the_limit_goes_through_untouched(real):
    body = anthropic_body(real, False)
    blob = real["git_status"] * (20 * 1024 * 1024 // len(real["git_status"]))
    body["messages"][0]["content"] = blob  # 20 MB of user text: not a tool result, so not touched
    raw = json.dumps(body).encode()
    assert len(raw) > 20 * 1024 * 1024
    with FakeUpstream() as up, running_proxy(up.url) as proxy:
        status, _, _ = post(proxy.port, "/v1/messages", raw)
    assert status == 200
    sent = up.requests[0].json()
    assert sent["messages"][0]["content"] == blob and len(up.requests[0].body) < len(raw)
    with FakeUpstream() as up, running_proxy(up.url, max_body=1024 * 1024) as proxy:
        status, _, _ = post(proxy.port, "/v1/messages", raw)
    assert status == 200 and up.requests[0].body == raw


def test_upstream_down_is_answered_in_each_providers_error_shape():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    s.close()  # nothing listens there now
    with running_proxy(dead) as proxy:
        a = post(proxy.port, "/v1/messages", b'{"messages":[]}', {"anthropic-version": "2023-06-01"})
        o = post(proxy.port, "/v1/chat/completions", b'{"messages":[]}')
        g = post(proxy.port, "/v1beta/models/m:generateContent", b'{"contents":[]}')
    assert a[0] == o[0] == g[0] == 502
    ea, eo, eg = (json.loads(x[2]) for x in (a, o, g))
    assert ea["type"] == "error" and ea["error"]["type"] == "api_error" and "could not be reached" in ea["error"]["message"]
    assert eo["error"]["type"] == "server_error" and "could not be reached" in eo["error"]["message"]
    assert eg["error"]["code"] == 502 and eg["error"]["status"] == "UNAVAILABLE"
    assert "Traceback" not in (a[2] + o[2] + g[2]).decode()


def test_an_upstream_reset_mid_stream_ends_the_agents_stream_without_a_hang():
    headers = {"content-type": "text/event-stream", "x-test-reset-after": "2"}
    with FakeUpstream(lambda rec: (200, dict(headers), list(EVENTS))) as up, running_proxy(up.url) as proxy:
        c = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=60)
        c.request("POST", "/v1/messages", body=b'{"stream":true}', headers={"content-type": "application/json"})
        r = c.getresponse()
        assert r.status == 200
        with pytest.raises((http.client.IncompleteRead, ConnectionError)):
            r.read()
        c.close()
        # the proxy still serves the next request
        up.handler = lambda rec: (200, {"content-type": "application/json"}, b'{"ok":true}')
        assert post(proxy.port, "/v1/messages", b"{}")[2] == b'{"ok":true}'


def test_a_client_that_disconnects_mid_stream_leaves_the_proxy_serving():
    gone = threading.Event()
    sent_after: list = []

    def chunks():
        yield EVENTS[0]
        assert gone.wait(60)
        for i in range(200):  # keeps writing into the closed connection's pipe
            sent_after.append(i)
            yield b"data: " + b"x" * 4096 + b"\n\n"

    with FakeUpstream(lambda rec: (200, {"content-type": "text/event-stream"}, chunks())) as up, \
            running_proxy(up.url) as proxy:
        s = socket.create_connection(("127.0.0.1", proxy.port), timeout=60)
        s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 2\r\n\r\n{}")
        assert b"200" in s.recv(65536)
        s.close()
        gone.set()
        up.handler = lambda rec: (200, {"content-type": "application/json"}, b'{"ok":true}')
        assert post(proxy.port, "/v1/messages", b"{}")[2] == b'{"ok":true}'


def test_health_endpoint_and_no_auth_header_in_the_store(real):
    with FakeUpstream() as up, running_proxy(up.url) as proxy:
        c = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30)
        c.request("GET", "/_sqz/health")
        doc = json.loads(c.getresponse().read())
        c.close()
        post(proxy.port, "/v1/messages", json.dumps(anthropic_body(real, False)).encode(), {"x-api-key": SECRET})
    assert doc["sqz_proxy"] == "0.2.0" and doc["port"] == proxy.port
    import os

    from sqz_testing import bytes_at_rest

    db = os.environ["SQZ_DB_PATH"]
    at_rest = bytes_at_rest(os.path.dirname(db), os.path.basename(db))
    assert b"pytest test_calc.py" in at_rest  # the proxy did record this call
    assert SECRET.encode() not in at_rest
