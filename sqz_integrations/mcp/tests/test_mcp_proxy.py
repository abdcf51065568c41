"""``sqz-mcp proxy`` around real upstream MCP servers (the official SDK client on the other side),
and around a stub upstream for the failure cases real servers cannot be made to show."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time

import mcp_types as types
from sqz_mcp.proxy import GRACE
import pytest

from mcp_helpers import (SQZ_MCP, STUB, RawProc, call_msg, everything_server, filesystem_server, git_server,
                         run_sdk, texts)

PROXY = SQZ_MCP + ["proxy", "--"]


@pytest.fixture()
def files(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    (root / "service.py").write_text("".join(f"def endpoint_{i}(req):\n    return {{'id': {i}}}\n\n" for i in range(80)))
    (root / "spaced.txt").write_text("keep   these  spaces   \n\ttabs\there\n" * 20)
    return root


def _tool_list_and_reads(s, root):
    async def body(s):
        out = {"tools": (await s.list_tools()).tools}
        path = str(root / "service.py")
        out["r1"] = await s.call_tool("read_text_file", {"path": path})
        out["r2"] = await s.call_tool("read_text_file", {"path": path})
        out["spaced1"] = await s.call_tool("read_text_file", {"path": str(root / "spaced.txt")})
        out["missing"] = await s.call_tool("read_text_file", {"path": str(root / "nope.txt")})
        out["outside"] = await s.call_tool("read_text_file", {"path": "/etc/hostname"})
        out["listing"] = await s.call_tool("list_directory", {"path": str(root)})
        return out
    return body


def test_filesystem_server_through_the_proxy_matches_direct_except_refs(files):
    direct = run_sdk(filesystem_server(str(files)), _tool_list_and_reads(None, files))
    proxied = run_sdk(PROXY + filesystem_server(str(files)), _tool_list_and_reads(None, files))

    dtools = {t.name: t for t in direct["tools"]}
    ptools = {t.name: t for t in proxied["tools"]}
    assert list(ptools) == list(dtools) + ["sqz_expand"]
    for name, t in dtools.items():
        p = ptools[name]
        assert p.input_schema == t.input_schema and p.output_schema == t.output_schema
        assert p.annotations == t.annotations
        flat = " ".join(t.description.split())
        assert p.description == flat if len(flat) <= 400 else (len(p.description) <= 400 and p.description.endswith("…")
                                                               and flat.startswith(p.description[:-1]))
    # first read identical; the repeat is a ref that sqz_expand resolves byte-exact
    assert texts(proxied["r1"]) == texts(direct["r1"]) == [(files / "service.py").read_text()]
    ref = texts(proxied["r2"])[0]
    assert re.fullmatch(r"§ref:[0-9a-f]{12,}§ unchanged since \d+s ago \(`[^`]+ expand` this ref prints it\)\n",
                        ref), ref
    assert texts(direct["r2"]) == texts(direct["r1"])
    # whitespace in file content survives untouched
    assert texts(proxied["spaced1"]) == [(files / "spaced.txt").read_text()]
    # error results pass verbatim
    for key in ("missing", "outside"):
        assert proxied[key].is_error and texts(proxied[key]) == texts(direct[key])
    assert texts(proxied["listing"]) == texts(direct["listing"])

    async def expand(s):
        await s.call_tool("read_text_file", {"path": str(files / "service.py")})
        again = texts(await s.call_tool("read_text_file", {"path": str(files / "service.py")}))[0]
        return texts(await s.call_tool("sqz_expand", {"ref": again.split(" ")[0]}))

    assert run_sdk(PROXY + filesystem_server(str(files)), expand) == [(files / "service.py").read_text()]


def test_everything_server_relays_sampling_elicitation_roots_and_images():
    seen = {"sampling": []}

    async def sampling(ctx, params):
        seen["sampling"].append(params.messages[0].content.text)
        return types.CreateMessageResult(role="assistant", model="test-model",
                                         content=types.TextContent(type="text", text="sampled by the test"))

    async def elicit(ctx, params):
        return types.ElicitResult(action="decline")

    async def roots(ctx):
        return types.ListRootsResult(roots=[types.Root(uri="file:///srv/root-from-test", name="test-root")])

    async def body(s):
        out = {}
        init_tools = None
        for _ in range(50):  # the server registers its client-capability tools after initialize
            init_tools = [t.name for t in (await s.list_tools()).tools]
            if "trigger-sampling-request" in init_tools:
                break
            await __import__("anyio").sleep(0.1)
        out["tools"] = init_tools
        out["echo"] = await s.call_tool("echo", {"message": "hello through sqz"})
        out["image"] = await s.call_tool("get-tiny-image", {})
        out["structured"] = await s.call_tool("get-structured-content", {"location": "Chicago"})
        out["sampling"] = await s.call_tool("trigger-sampling-request", {"prompt": "say hi"})
        out["elicit"] = await s.call_tool("trigger-elicitation-request", {})
        out["roots"] = await s.call_tool("get-roots-list", {})
        out["ping"] = await s.send_ping()
        return out

    direct = run_sdk(everything_server(), body, sampling_callback=sampling, elicitation_callback=elicit,
                     list_roots_callback=roots)
    proxied = run_sdk(PROXY + everything_server(), body, sampling_callback=sampling, elicitation_callback=elicit,
                      list_roots_callback=roots)
    assert proxied["tools"] == direct["tools"] + ["sqz_expand"]
    for key in ("echo", "image", "structured", "sampling", "elicit", "roots"):
        assert proxied[key].model_dump() == direct[key].model_dump(), key
    assert [c.type for c in proxied["image"].content] == [c.type for c in direct["image"].content]
    assert "image" in [c.type for c in proxied["image"].content]
    assert "sampled by the test" in json.dumps(proxied["sampling"].model_dump())
    assert "root-from-test" in texts(proxied["roots"])[0]
    assert seen["sampling"] == ["Resource trigger-sampling-request context: say hi"] * 2  # once direct, once proxied


def _git_repo(path):
    path.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z"}
    run = lambda *a: subprocess.run(["git", *a], cwd=path, env=env, check=True, capture_output=True)  # noqa: E731
    run("init", "-q", "-b", "main")
    for i in range(12):
        (path / f"mod{i}.py").write_text(f"VALUE = {i}\n")
        run("add", ".")
        run("commit", "-q", "-m", f"Add module {i} with its value")
    (path / "mod3.py").write_text("VALUE = 333\n")
    return path


def test_git_server_through_the_proxy(tmp_path):
    repo = _git_repo(tmp_path / "repo")

    async def body(s):
        return {"status": await s.call_tool("git_status", {"repo_path": str(repo)}),
                "log1": await s.call_tool("git_log", {"repo_path": str(repo), "max_count": 12}),
                "log2": await s.call_tool("git_log", {"repo_path": str(repo), "max_count": 12}),
                "diff": await s.call_tool("git_diff_unstaged", {"repo_path": str(repo)}),
                "bad": await s.call_tool("git_status", {"repo_path": str(tmp_path / "absent")})}

    direct = run_sdk(git_server(str(repo)), body)
    proxied = run_sdk(PROXY + git_server(str(repo)), body)
    assert texts(proxied["status"]) == texts(direct["status"])
    assert texts(proxied["diff"]) == texts(direct["diff"])  # a patch is never summarised
    assert texts(proxied["log1"]) == texts(direct["log1"])
    assert texts(proxied["log2"])[0].startswith("§ref:") and texts(direct["log2"]) == texts(direct["log1"])
    assert proxied["bad"].is_error == direct["bad"].is_error and texts(proxied["bad"]) == texts(direct["bad"])


# -- flags -------------------------------------------------------------------------------------------
def _list_and_call(argv):
    with RawProc(argv) as p:
        init = p.initialize()
        tools = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
        calls = [p.request(call_msg(3 + i, "big", {}))["result"] for i in range(2)]
        help_ = p.request(call_msg(9, "sqz_tool_help", {"name": "big"}))
        assert p.finish() == 0
    return init["result"], tools, calls, help_


def test_flags_lazy_tools_no_desc_no_cache():
    init, tools, calls, _ = _list_and_call(SQZ_MCP + ["proxy", "--", *STUB])
    assert [t["name"] for t in tools] == ["big", "sqz_expand"]
    assert tools[0]["description"].startswith("Returns a big table. It has many rows. Detail.")
    assert len(tools[0]["description"]) <= 400 and tools[0]["description"].endswith("…")
    assert "§ref:HASH§" in init["instructions"]
    assert calls[1]["content"][0]["text"].startswith("§ref:")

    init, tools, calls, help_ = _list_and_call(SQZ_MCP + ["proxy", "--lazy-tools", "--", *STUB])
    assert [t["name"] for t in tools] == ["big", "sqz_expand", "sqz_tool_help"]
    assert tools[0]["description"] == "Returns a big table. …"
    assert help_["result"]["content"][0]["text"].startswith("Returns a big table.\n\n   It has   many rows. Detail.")

    init, tools, calls, help_ = _list_and_call(SQZ_MCP + ["proxy", "--no-desc", "--no-cache", "--", *STUB])
    assert [t["name"] for t in tools] == ["big"]
    assert tools[0]["description"].startswith("Returns a big table.\n\n   It has   many rows.")
    assert "nothing is cached" in init["instructions"] and "§ref" not in init["instructions"]
    assert not calls[1]["content"][0]["text"].startswith("§ref:")
    # not injected without --lazy-tools: the call went to the upstream (the stub answers any name)
    assert help_["result"]["content"][0]["text"].startswith("row 0: status=ok")


# -- raw protocol and failures ------------------------------------------------------------------------
def test_garbage_from_the_client_gets_a_parse_error_and_never_reaches_the_upstream():
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, "noisy"]) as p:
        p.initialize()
        p.send(b"\xff\xfe not utf-8\n")
        assert p.recv()["error"]["code"] == -32700
        p.send(b"{broken json\n")
        assert p.recv()["error"]["code"] == -32700
        assert p.request({"jsonrpc": "2.0", "id": 5, "method": "ping"}) == {"jsonrpc": "2.0", "id": 5, "result": {}}
        p.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert p.silent_for(0.3)
        assert p.finish() == 0
    assert all(json.loads(line) for line in p.raw_lines)  # the upstream's non-JSON lines were dropped
    assert b"dropped a non-JSON line" in p.stderr


def test_upstream_death_answers_pending_requests_with_an_error():
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, "die-on-call"]) as p:
        p.initialize()
        # the error arrives at all (the timeouts are hang detectors: without the fix it never comes)
        reply = p.request(call_msg(2, "big", {}), timeout=30)
        assert reply["error"] == {"code": -32000, "message": "upstream MCP server exited with status 3 before answering"}
        assert p.proc.wait(30) == 1


def test_shutdown_passes_on_a_result_read_after_stdin_closed():
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, "late-answer"]) as p:
        p.initialize()
        p.send(call_msg(2, "big", {}))
        time.sleep(0.2)
        t0 = time.monotonic()
        p.close_stdin()
        reply = p.recv(10)
        assert reply["id"] == 2 and reply["result"]["content"][0]["text"].startswith("row 0: status=ok")
        assert p.proc.wait(10) == 0
        # the protocol bound under test: the upstream exited by itself before the proxy's grace period
        # (GRACE) ran out, so it was never signalled; not a speed claim
        assert time.monotonic() - t0 < GRACE


def test_shutdown_stops_a_stubborn_upstream_and_errors_what_it_never_answered():
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, "stubborn"]) as p:
        p.initialize()
        p.send({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        p.recv_until(lambda m: m.get("id") == 7)
        p.send({"jsonrpc": "2.0", "id": 8, "method": "resources/list"})  # the stub never answers this
        t0 = time.monotonic()
        p.close_stdin()
        reply = p.recv(2 * GRACE + 10)
        elapsed = time.monotonic() - t0
        assert reply["id"] == 8 and reply["error"]["code"] == -32000
        assert reply["error"]["message"] == "upstream MCP server was killed by signal 9 before answering"
        assert p.proc.wait(10) == 0
        # the protocol bound under test: GRACE after stdin closed, SIGTERM (ignored), GRACE more, SIGKILL;
        # the lower bound is the behaviour, the upper one the same plus a generous margin for a loaded machine
        assert 2 * GRACE - 0.1 < elapsed < 2 * GRACE + 10


def test_unstartable_upstream_exits_127():
    out = subprocess.run(PROXY + ["/nonexistent/mcp-server"], input=b"", capture_output=True, timeout=30)
    assert out.returncode == 127 and out.stdout == b""
    assert b"cannot start the upstream MCP server" in out.stderr
    usage = subprocess.run(SQZ_MCP + ["proxy"], capture_output=True, timeout=30)
    assert usage.returncode == 2 and b"command is missing" in usage.stderr


def test_lazy_tools_adds_no_help_tool_when_no_description_was_shortened(tmp_path):
    repo = _git_repo(tmp_path / "repo")

    async def body(s):
        return (await s.list_tools()).tools

    direct = run_sdk(git_server(str(repo)), body)
    lazy = run_sdk(SQZ_MCP + ["proxy", "--lazy-tools", "--"] + git_server(str(repo)), body)
    assert all(not d.description.rstrip().endswith(("…", "...")) for d in direct)
    assert [t.name for t in lazy] == [t.name for t in direct] + ["sqz_expand"]
    assert [t.description for t in lazy[:-1]] == [" ".join(t.description.split()) for t in direct]


def test_deeply_nested_json_from_the_client_is_rejected_and_the_proxy_keeps_serving():
    deep = b"[" * 1000 + b"]" * 1000
    with RawProc(SQZ_MCP + ["proxy", "--", *STUB, "noisy"]) as p:
        p.initialize()
        p.send(deep + b"\n")
        assert p.recv(timeout=5) == {"jsonrpc": "2.0", "id": None, "error": {
            "code": -32600, "message": "Invalid Request: JSON nested deeper than 100 levels"}}
        assert p.request({"jsonrpc": "2.0", "id": 5, "method": "ping"}, timeout=5) == {
            "jsonrpc": "2.0", "id": 5, "result": {}}
        assert p.finish() == 0
    assert b"Traceback" not in p.stderr
