"""A minimal stdio MCP server whose failure behaviour the proxy tests choose (argv[1]).

It stands in for a misbehaving upstream, which real servers cannot be made to be on demand:
  die-on-call     exits with status 3 when a tools/call arrives, without answering
  late-answer     answers a tools/call only after its stdin closes (1 s later)
  stubborn        ignores stdin EOF and SIGTERM (the proxy must SIGKILL it)
  noisy           prints a non-JSON line on stdout before every answer
Any mode answers initialize, tools/list (one tool, "big", with a long description) and ping.
"""

import json
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
BIG = "".join(f"row {i}: status=ok value={i * 7}\n" for i in range(400))
out = sys.stdout


def send(msg):
    if MODE == "noisy":
        out.write("this is not JSON\n")
    out.write(json.dumps(msg) + "\n")
    out.flush()


if MODE == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

held = []
for line in sys.stdin:
    msg = json.loads(line)
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
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif method == "tools/call":
        if MODE == "die-on-call":
            sys.exit(3)
        result = {"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": BIG}]}}
        if MODE == "late-answer":
            held.append(result)
        else:
            send(result)
if MODE == "late-answer":
    time.sleep(1.0)
    for r in held:
        send(r)
if MODE == "stubborn":
    while True:
        time.sleep(1)
