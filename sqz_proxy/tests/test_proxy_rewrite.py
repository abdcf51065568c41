"""What the proxy changes in a request: tool-result text only, shorter in cl100k tokens, stable across turns."""

from __future__ import annotations

import copy
import json

from proxy_testlib import numbered
from sqz_core.api import count_tokens
from sqz_testing import fact_kept
from sqz_proxy import wire
from sqz_proxy.rewrite import Rewriter, Stats


def call(cid: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": "Let me look."},
                                             {"type": "tool_use", "id": cid, "name": name, "input": args}]}


def result(cid: str, text: str, error: bool = False, **extra) -> dict:
    block = {"type": "tool_result", "tool_use_id": cid, "content": text, **extra}
    if error:
        block["is_error"] = True
    return {"role": "user", "content": [block]}


def request(*messages, **extra) -> dict:
    return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": True,
            "system": [{"type": "text", "text": "You are a coding agent.", "cache_control": {"type": "ephemeral"}}],
            "tools": [{"name": "Bash", "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "Fix the failing tests."}, *messages], **extra}


def send(rw: Rewriter, body: dict, fmt: str = wire.ANTHROPIC) -> dict:
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return json.loads(rw.rewrite_body(fmt, raw, "claude-code"))


def texts(body: dict, fmt: str = wire.ANTHROPIC) -> list[str]:
    return [s.text for s in wire.slots(fmt, body)]


def masked(body: dict, fmt: str = wire.ANTHROPIC) -> dict:
    """``body`` with every tool result's text blanked: what must not change at all."""
    body = copy.deepcopy(body)
    for s in wire.slots(fmt, body):
        s.set("")
    return body


def test_failing_bash_result_is_compressed_and_keeps_the_exit_line(real):
    rw = Rewriter()
    sent = "Exit code 1\n" + real["pytest_fail"]
    body = request(call("toolu_01", "Bash", {"command": "pytest test_calc.py", "description": "Run the tests"}),
                   result("toolu_01", sent, error=True))
    out = send(rw, body)
    got = texts(out)[0]
    assert got.startswith("Exit code 1\n")
    assert count_tokens(got)[0] < count_tokens(sent)[0]
    for fact in ["FAILED test_calc.py::test_add[3-3-7]", "FAILED test_calc.py::test_add[38-38-77]",
                 "assert 6 == 7", "6 failed, 35 passed", "test_calc.py:10: AssertionError"]:
        assert fact_kept(got, fact), fact
    assert masked(out) == masked(body)  # nothing but tool-result text changed
    assert out["messages"][-1]["content"][0]["is_error"] is True


def test_read_result_is_never_summarised_and_a_short_result_is_left_alone(real):
    rw = Rewriter()
    content = numbered(real["source"])
    body = request(call("toolu_01", "Read", {"file_path": "/repo/src/sqz_proxy/rewrite.py"}),
                   result("toolu_01", content),
                   call("toolu_02", "Bash", {"command": "echo done"}), result("toolu_02", "done\n"))
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    assert Rewriter().rewrite_body(wire.ANTHROPIC, raw) is raw  # nothing shorter: the very bytes go out
    assert texts(send(rw, body)) == [content, "done\n"]


def test_identical_result_still_present_becomes_a_one_line_ref(real):
    rw = Rewriter()
    log = real["git_log"]
    body = request(call("toolu_01", "Bash", {"command": "git log --stat -n 5"}), result("toolu_01", log),
                   call("toolu_02", "Bash", {"command": "git log --stat -n 5"}), result("toolu_02", log))
    first, second = texts(send(rw, body))
    assert "toolu_01" in second and second.count("\n") == 1 and second.startswith("§ref:")
    assert count_tokens(second)[0] < count_tokens(log)[0] / 10
    # the first copy is still whole enough to read every commit from
    for fact in ["notes: release checklist", "pkg0: add mod6 with 46 functions", "pkg0/mod6.py"]:
        assert fact_kept(first, fact)


def test_re_read_after_a_small_edit_is_a_delta_against_the_copy_still_there(real):
    rw = Rewriter()
    before = real["source"]
    lines = before.splitlines(keepends=True)
    after = "".join(lines[:40] + ["# a line the agent inserted\n"] + lines[40:])
    path = {"file_path": "/repo/src/sqz_proxy/rewrite.py"}
    body = request(call("toolu_01", "Read", path), result("toolu_01", numbered(before)),
                   call("toolu_02", "Edit", {"file_path": path["file_path"], "old_string": "x", "new_string": "y"}),
                   result("toolu_02", "The file has been updated."),
                   call("toolu_03", "Read", path), result("toolu_03", numbered(after)))
    got = texts(send(rw, body))
    assert got[0] == numbered(before)  # the base stays whole
    d = got[2]
    assert d.startswith("§delta:") and "toolu_01" in d.splitlines()[0]
    assert "+    41\t# a line the agent inserted" in d
    assert len(d) < len(numbered(after)) / 5
    # a different file is never diffed against this one
    other = request(call("toolu_01", "Read", path), result("toolu_01", numbered(before)),
                    call("toolu_03", "Read", {"file_path": "/repo/other.py"}), result("toolu_03", numbered(after)))
    assert texts(send(Rewriter(), other))[1] == numbered(after)


def test_a_ref_whose_target_was_compacted_away_is_sent_in_full_again(real):
    rw = Rewriter()
    log = real["git_log"]
    turn = [call("toolu_01", "Bash", {"command": "git log --stat -n 5"}), result("toolu_01", log),
            call("toolu_02", "Bash", {"command": "git log --stat -n 5"}), result("toolu_02", log)]
    assert texts(send(rw, request(*turn)))[1].startswith("§ref:")
    compacted = request({"role": "user", "content": "Summary of the earlier conversation."}, *turn[2:])
    again = texts(send(rw, compacted))[0]
    assert not again.startswith("§ref:") and "pkg0: add mod6 with 46 functions" in again


def test_twenty_turns_each_request_starts_with_the_previous_requests_compressed_bytes(real):
    """Prompt caching: turn N+1's compressed request begins with exactly turn N's compressed messages."""
    rw = Rewriter()
    outputs = [("pytest test_calc.py", "Exit code 1\n" + real["pytest_fail"], True),
               ("git log --stat -n 5", real["git_log"], False), ("git status", real["git_status"], False),
               ("pytest test_calc.py -k ok", real["pytest_pass"], False)]
    messages: list = []
    previous = None
    changed_any = 0
    for turn in range(20):
        cmd, text, err = outputs[turn % len(outputs)]
        cid = f"toolu_{turn:03d}"
        messages += [call(cid, "Bash", {"command": cmd}), result(cid, text, error=err)]
        if turn % 5 == 4:  # the agent moves its cache breakpoint forward, as Claude Code does
            messages[-1]["content"][0]["cache_control"] = {"type": "ephemeral"}
        body = request(*copy.deepcopy(messages))
        out = send(rw, body)
        assert masked(out) == masked(body)
        changed_any += sum(a != b for a, b in zip(texts(out), texts(body)))
        encoded = [json.dumps(m, ensure_ascii=False, separators=(",", ":")) for m in out["messages"]]
        if previous is not None:
            assert encoded[:len(previous)] == previous, f"turn {turn}: the cached prefix changed"
        previous = encoded
    assert changed_any >= 20  # the test is about compressed requests
    # cache_control breakpoints stayed where the client put them
    marks = [i for i, m in enumerate(out["messages"]) if isinstance(m["content"], list)
             and any("cache_control" in b for b in m["content"])]
    assert marks == [i for i, m in enumerate(body["messages"]) if isinstance(m["content"], list)
                     and any("cache_control" in b for b in m["content"])] and len(marks) == 4


def test_the_same_prefix_gets_the_same_bytes_from_a_fresh_proxy(real):
    """Without the memo (a restarted proxy) the decision is the same: it depends on the request only."""
    body = request(call("toolu_01", "Bash", {"command": "pytest test_calc.py"}),
                   result("toolu_01", "Exit code 1\n" + real["pytest_fail"], error=True),
                   call("toolu_02", "Bash", {"command": "pytest test_calc.py"}),
                   result("toolu_02", "Exit code 1\n" + real["pytest_fail"], error=True))
    assert texts(send(Rewriter(), body)) == texts(send(Rewriter(), body))


def test_never_worse_every_changed_block_is_shorter_in_cl100k(real):
    rw = Rewriter()
    msgs = []
    for i, (name, args, text) in enumerate([
            ("Bash", {"command": "git status"}, real["git_status"]),
            ("Bash", {"command": "git log --stat -n 5"}, real["git_log"]),
            ("Grep", {"pattern": "def "}, real["source"]),
            ("Bash", {"command": "pytest"}, real["pytest_pass"]),
            ("Bash", {"command": "ls"}, "a\nb\n")]):
        msgs += [call(f"toolu_{i}", name, args), result(f"toolu_{i}", text)]
    body = request(*msgs)
    for before, after in zip(texts(body), texts(send(rw, body))):
        if before != after:
            assert count_tokens(after)[0] < count_tokens(before)[0]


def test_an_internal_error_leaves_the_request_unchanged(real, monkeypatch):
    from sqz_proxy.server import Proxy
    from sqz_proxy.routes import Upstreams

    rw = Rewriter()

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(rw, "rewrite_slots", broken)
    proxy = Proxy(Upstreams("http://127.0.0.1:9", env={}), rewriter=rw, quiet=True)
    raw = json.dumps(request(call("toolu_01", "Bash", {"command": "git log --stat -n 5"}),
                             result("toolu_01", real["git_log"]))).encode()
    assert proxy._rewrite(wire.ANTHROPIC, raw, "claude-code", Stats()) is raw
    assert proxy._rewrite(wire.ANTHROPIC, b'{"messages": [', "claude-code", Stats()) == b'{"messages": ['
    proxy._pool.shutdown()


def test_one_failing_result_is_left_as_sent_and_the_others_still_compressed(real, monkeypatch):
    rw = Rewriter()
    real_compress = rw._compress

    def flaky(raw, exit_code, command, tool):
        if command == "git status":
            raise RuntimeError("boom")
        return real_compress(raw, exit_code, command, tool)

    monkeypatch.setattr(rw, "_compress", flaky)
    body = request(call("toolu_01", "Bash", {"command": "git status"}), result("toolu_01", real["git_status"]),
                   call("toolu_02", "Bash", {"command": "pytest"}),
                   result("toolu_02", "Exit code 1\n" + real["pytest_fail"], error=True))
    got = texts(send(rw, body))
    assert got[0] == real["git_status"] and got[1] != texts(body)[1]


def test_per_call_stats_land_in_the_store(real):
    from sqz_core.api import open_store

    rw = Rewriter()
    body = request(call("toolu_01", "Bash", {"command": "pytest test_calc.py"}),
                   result("toolu_01", "Exit code 1\n" + real["pytest_fail"], error=True))
    send(rw, body)
    send(rw, body)  # a later turn re-sends it: counted once
    rows = [r for r in open_store().calls() if r[12] == "claude-code"]
    assert len(rows) == 1
    ts, session, command, family, plugin, outcome, b_in, b_out, est_in, est_out = rows[0][:10]
    assert (session, command, family, outcome) == ("proxy:claude-code", "pytest test_calc.py", "pytest", "compressed")
    assert b_out < b_in and est_out < est_in


def test_results_past_the_requests_time_budget_go_as_sent_and_stay_so(real, monkeypatch):
    import sqz_proxy.rewrite as rewrite_mod

    real_clock = rewrite_mod.time.monotonic
    clock = iter([0.0] + [100.0] * 50)  # the deadline is read once, then every check is past it
    monkeypatch.setattr(rewrite_mod.time, "monotonic", lambda: next(clock))
    rw = Rewriter(budget_ms=1000)
    body = request(call("toolu_01", "Bash", {"command": "pytest"}),
                   result("toolu_01", "Exit code 1\n" + real["pytest_fail"], error=True))
    assert texts(send(rw, body)) == texts(body)
    monkeypatch.setattr(rewrite_mod.time, "monotonic", real_clock)
    # memoised as sent: a later turn keeps the same bytes for it (the cache prefix holds)
    assert texts(send(rw, body)) == texts(body)
