"""A minimal stdio MCP server whose failure behaviour the proxy tests choose (argv[1]).

It stands in for a misbehaving upstream, which real servers cannot be made to be on demand:
  die-on-call     exits with status 3 when a tools/call arrives, without answering
  late-answer     answers a tools/call only after its stdin closes (1 s later)
  stubborn        ignores stdin EOF and SIGTERM (the proxy must SIGKILL it)
  noisy           prints a non-JSON line on stdout before every answer
  bad-json        answers a tools/call with a line cut short: '{"jsonrpc":"2.0","id":ID,"result":{"content":['
  deep            answers a tools/call with valid JSON whose result nests 5,000 levels deep
  no-id-garbage   answers a tools/call with a non-JSON line that names no id
  wrong-id        answers a tools/call with the id plus 1000
  hold            answers a tools/call only when the next ping arrives (before the ping's answer)
  silent          never answers a tools/call
Any mode answers initialize, tools/list (one tool, "big", with a long description) and ping, and
writes each notifications/cancelled it gets to stderr ("stub: cancelled ID").
"""

import json
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
BIG = "".join(f"row {i}: status=ok value={i * 7}\n" for i in range(400))
out = sys.stdout


def write(line: str) -> None:
    out.write(line + "\n")
    out.flush()


def send(msg):
    if MODE == "noisy":
        out.write("this is not JSON\n")
    write(json.dumps(msg))


if MODE == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

held = []
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "notifications/cancelled":
        sys.stderr.write(f"stub: cancelled {json.dumps(msg['params']['requestId'])}\n")
        sys.stderr.flush()
    if "id" not in msg or "method" not in msg:
        continue
    method, mid = msg["method"], msg["id"]
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "stub", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{
            "name": "big", "description": "Returns a big table.\n\n   It has   many rows. " + "Detail. " * 80,
            "inputSchema": {"type": "object", "properties": {}}}]}})
    elif method == "ping":
        if MODE == "hold":
            for r in held:
                send(r)
            held.clear()
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif method == "tools/call":
        if MODE == "die-on-call":
            sys.exit(3)
        result = {"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": BIG}]}}
        if MODE in ("late-answer", "hold"):
            held.append(result)
        elif MODE == "bad-json":
            write('{"jsonrpc":"2.0","id":%s,"result":{"content":[' % json.dumps(mid))
        elif MODE == "deep":
            write('{"jsonrpc":"2.0","id":%s,"result":{"content":[],"structuredContent":{"x":%s%s}}}'
                  % (json.dumps(mid), "[" * 5000, "]" * 5000))
        elif MODE == "no-id-garbage":
            write("Traceback (most recent call last): the tool crashed")
        elif MODE == "wrong-id":
            send({**result, "id": mid + 1000})
        elif MODE != "silent":
            send(result)
if MODE == "late-answer":
    time.sleep(1.0)
    for r in held:
        send(r)
if MODE == "stubborn":
    while True:
        time.sleep(1)
