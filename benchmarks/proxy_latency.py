"""What `sqz proxy` adds to a model call, and what it holds in memory.

One run, three processes on 127.0.0.1: a local upstream (a stdlib HTTP server answering every
request with a 20-event SSE stream), the proxy (``python -m sqz_proxy``, its own store in a temp
dir) and this client. The request is an Anthropic Messages body of about 200 KB with 40 tool
results, each a real captured output from the repository's fixtures (a Bash call with the
fixture's command). Direct and proxied calls alternate, so both see the same machine load.

- ``warm``: the same request again and again (every result memoised: a session's later turns);
- ``cold``: fresh tool-call ids on every request (all 40 results compressed again: the worst case,
  but for token counts of the same texts, which the proxy memoises by content);
- time to first byte (first SSE chunk) and total, p50 and p99, direct and through the proxy, and
  the added time (proxied minus direct, paired per iteration);
- memory: the proxy's resident set idle, then at its peak while 50 streams are open at once
  (each a 200 KB request whose answer the upstream sends slowly).

    .venv/bin/python benchmarks/proxy_latency.py [--iterations 40] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_BYTES = 200 * 1024
RESULTS = 40


def tool_outputs() -> list[tuple[str, str]]:
    """40 (command, output) pairs from the real fixtures, about 5 KB each, of many commands."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from quality import fixture_roots

    from sqz_testing import iter_fixtures

    per = TARGET_BYTES // RESULTS
    picked, programs = [], {}
    for root in fixture_roots():
        for fx in iter_fixtures(root):
            size = len(fx.text.encode())
            prog = fx.command.split()[0] if fx.command else "?"
            if 0.5 * per <= size <= 1.5 * per and programs.get(prog, 0) < 4:
                picked.append((fx.command, fx.text))
                programs[prog] = programs.get(prog, 0) + 1
    picked.sort(key=lambda p: (p[0], len(p[1])))
    step = max(1, len(picked) // RESULTS)
    chosen = picked[::step][:RESULTS]
    if len(chosen) < RESULTS:
        raise SystemExit(f"only {len(chosen)} fixtures of about {per} bytes")
    return chosen


def request_body(outputs, tag: str) -> bytes:
    messages = [{"role": "user", "content": "Work through the failing build."}]
    for i, (command, text) in enumerate(outputs):
        cid = f"toolu_{tag}_{i:03d}"
        messages.append({"role": "assistant", "content": [{"type": "tool_use", "id": cid, "name": "Bash",
                                                            "input": {"command": command}}]})
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "content": text}]})
    return json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": True, "messages": messages},
                      ensure_ascii=False, separators=(",", ":")).encode()


UPSTREAM = r'''
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
events = [f"event: content_block_delta\ndata: {json.dumps({'type': 'content_block_delta', 'index': 0, 'delta': {'type': 'text_delta', 'text': 'word %d ' % i}})}\n\n".encode() for i in range(20)]
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # as real API servers: no 40 ms Nagle/delayed-ACK stall on a reused connection
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        slow = self.headers.get("x-bench-slow") == "1"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for e in events:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(e), e)); self.wfile.flush()
            if slow: time.sleep(0.25)
        self.wfile.write(b"0\r\n\r\n"); self.wfile.flush()
s = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
s.daemon_threads = True
s.request_queue_size = 128
s.serve_forever()
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"process exited: {proc.args}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def call(port: int, body: bytes, headers: dict | None = None) -> tuple[float, float, int]:
    """(seconds to the first body byte, seconds to the end, bytes received)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    t0 = time.perf_counter()
    c.request("POST", "/v1/messages", body=body, headers={"content-type": "application/json",
                                                          "anthropic-version": "2023-06-01", **(headers or {})})
    r = c.getresponse()
    first = r.read1(65536)
    t1 = time.perf_counter()
    rest = r.read()
    t2 = time.perf_counter()
    c.close()
    return t1 - t0, t2 - t0, len(first) + len(rest)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def summary(ms: list[float]) -> dict:
    return {"p50": round(pct(ms, 50), 2), "p99": round(pct(ms, 99), 2)}


def run(iterations: int = 40) -> dict:
    outputs = tool_outputs()
    warm_body = request_body(outputs, "warm")
    tmp = tempfile.mkdtemp(prefix="sqz-proxy-bench-")
    env = dict(os.environ, SQZ_DB_PATH=os.path.join(tmp, "sqz.db"), SQZ_CACHE_DIR=os.path.join(tmp, "cache"))
    up_port, px_port = free_port(), free_port()
    upstream = subprocess.Popen([sys.executable, "-c", UPSTREAM, str(up_port)], env=env)
    proxy = subprocess.Popen([sys.executable, "-m", "sqz_proxy", "--port", str(px_port), "--upstream",
                              f"http://127.0.0.1:{up_port}", "--quiet"], env=env)
    try:
        wait_port(up_port, upstream)
        wait_port(px_port, proxy)
        rss_idle = rss_kb(proxy.pid)
        sent = call(px_port, warm_body)  # the first call loads the tokenizer and the formatters
        assert sent[2] > 0
        rows: dict[str, dict[str, list[float]]] = {m: {"ttfb": [], "total": [], "ttfb_added": [], "total_added": []}
                                                   for m in ("warm", "cold")}
        direct = {"ttfb": [], "total": []}
        for i in range(iterations):
            for mode in ("warm", "cold"):
                body = warm_body if mode == "warm" else request_body(outputs, f"cold{i}")
                d = call(up_port, body)
                p = call(px_port, body)
                direct["ttfb"].append(d[0] * 1000)
                direct["total"].append(d[1] * 1000)
                rows[mode]["ttfb"].append(p[0] * 1000)
                rows[mode]["total"].append(p[1] * 1000)
                rows[mode]["ttfb_added"].append((p[0] - d[0]) * 1000)
                rows[mode]["total_added"].append((p[1] - d[1]) * 1000)
        # 50 concurrent streams of the warm request, each answered slowly (20 events, 0.25 s apart)
        peak = [rss_kb(proxy.pid)]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak.append(rss_kb(proxy.pid))
                time.sleep(0.05)

        errors: list[str] = []

        def one():
            try:
                call(px_port, warm_body, {"x-bench-slow": "1"})
            except Exception as exc:  # reported, not hidden
                errors.append(f"{type(exc).__name__}: {exc}")

        sampler = threading.Thread(target=sample)
        sampler.start()
        clients = [threading.Thread(target=one) for _ in range(50)]
        for t in clients:
            t.start()
        for t in clients:
            t.join()
        done.set()
        sampler.join()
        # what the proxy sent upstream for the warm request, in cl100k
        from sqz_core.api import count_tokens

        sys.path.insert(0, str(ROOT / "sqz_proxy" / "src"))
        from sqz_proxy import wire
        from sqz_proxy.rewrite import Rewriter

        before = sum(count_tokens(t)[0] for _, t in outputs)
        os.environ["SQZ_DB_PATH"] = os.path.join(tmp, "measure.db")  # a store of its own: lossy results recoverable
        rewritten = json.loads(Rewriter().rewrite_body(wire.ANTHROPIC, warm_body))
        after = sum(count_tokens(s.text)[0] for s in wire.slots(wire.ANTHROPIC, rewritten))
        return {
            "request": {"bytes": len(warm_body), "tool_results": len(outputs),
                        "tool_result_tokens_cl100k": before, "after_proxy_cl100k": after},
            "iterations": iterations,
            "direct_ms": {k: summary(v) for k, v in direct.items()},
            "proxy_ms": {m: {k: summary(v) for k, v in r.items()} for m, r in rows.items()},
            "memory_kb": {"idle": rss_idle, "peak_50_streams": max(peak)},
            "stream_errors": errors,
        }
    finally:
        for p in (proxy, upstream):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = run(args.iterations)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    r = res["request"]
    print(f"request: {r['bytes'] / 1024:.0f} KB, {r['tool_results']} tool results, "
          f"{r['tool_result_tokens_cl100k']} cl100k tokens of tool output "
          f"({r['after_proxy_cl100k']} after the proxy)")
    print(f"{'ms':<22}{'ttfb p50':>10}{'ttfb p99':>10}{'total p50':>11}{'total p99':>11}")
    d = res["direct_ms"]
    print(f"{'direct':<22}{d['ttfb']['p50']:>10}{d['ttfb']['p99']:>10}{d['total']['p50']:>11}{d['total']['p99']:>11}")
    for mode, row in res["proxy_ms"].items():
        print(f"{'proxy ' + mode:<22}{row['ttfb']['p50']:>10}{row['ttfb']['p99']:>10}"
              f"{row['total']['p50']:>11}{row['total']['p99']:>11}")
        print(f"{'  added (paired)':<22}{row['ttfb_added']['p50']:>10}{row['ttfb_added']['p99']:>10}"
              f"{row['total_added']['p50']:>11}{row['total_added']['p99']:>11}")
    m = res["memory_kb"]
    print(f"memory: {m['idle'] / 1024:.0f} MB idle, {m['peak_50_streams'] / 1024:.0f} MB at peak with 50 concurrent "
          f"streams; stream errors: {len(res['stream_errors'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
