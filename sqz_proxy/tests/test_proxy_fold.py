"""Model-output folding (issue 26.5): off by default; when on, long earlier answers are cut to their
opening and headings at a stable point, and ``sqz expand`` gives the whole answer back.

The answers are real long markdown texts: this repository's own documents (the proxy's README and
the plugin-authoring guide), the shape of a long model answer (an opening, headings, code blocks).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from sqz_core.api import count_tokens, open_store, resolve
from sqz_proxy import fold, wire
from sqz_proxy.__main__ import parser
from sqz_proxy.rewrite import Rewriter, Stats

ROOT = Path(__file__).resolve().parents[2]
LONG = [(ROOT / "sqz_proxy" / "README.md").read_text(), (ROOT / "docs" / "plugin-authoring.md").read_text()]
HINT = re.compile(r"`(?:\S*sqz) expand ([0-9a-f]{12,})` prints it whole\)\]\Z")


def turns(n: int, fmt: str = wire.ANTHROPIC) -> dict:
    """A request of ``n`` user/assistant turns, each answer a long real document, the last a user turn."""
    if fmt == wire.GEMINI:
        contents = []
        for i in range(n):
            contents += [{"role": "user", "parts": [{"text": f"question {i}"}]},
                         {"role": "model", "parts": [{"text": LONG[i % 2]}]}]
        return {"contents": contents + [{"role": "user", "parts": [{"text": "next"}]}]}
    if fmt == wire.OPENAI_RESPONSES:
        items = []
        for i in range(n):
            items += [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"q {i}"}]},
                      {"type": "message", "role": "assistant",
                       "content": [{"type": "output_text", "text": LONG[i % 2]}]}]
        return {"model": "gpt-5", "input": items + [{"type": "message", "role": "user", "content": "next"}]}
    messages = []
    for i in range(n):
        answer = ([{"type": "text", "text": LONG[i % 2]}] if fmt == wire.ANTHROPIC else LONG[i % 2])
        messages += [{"role": "user", "content": f"question {i}"}, {"role": "assistant", "content": answer}]
    return {"model": "m", "messages": messages + [{"role": "user", "content": "next"}]}


def send(rw: Rewriter, body: dict, fmt: str = wire.ANTHROPIC, stats: Stats | None = None) -> bytes:
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return rw.rewrite_body(fmt, raw, "claude-code", stats)


def answer_texts(body: dict, fmt: str = wire.ANTHROPIC) -> list[str]:
    return [a.text for a in wire.answers(fmt, body)[0]]


def test_folding_is_off_by_default_the_very_bytes_go_out(monkeypatch):
    monkeypatch.delenv("SQZ_PROXY_FOLD", raising=False)
    body = turns(24)
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    assert Rewriter().rewrite_body(wire.ANTHROPIC, raw, "claude-code") is raw
    assert Rewriter().fold is None
    assert parser().parse_args([]).fold is None and parser().parse_args(["--fold"]).fold is True


def test_on_earlier_long_answers_fold_to_opening_and_headings_and_expand_gives_them_back(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    rw = Rewriter(fold_settings=fold.Settings(every=8))
    body = turns(20)
    stats = Stats()
    out = json.loads(send(rw, body, stats=stats))
    got, sent = answer_texts(out), answer_texts(body)
    # 20 turns: the boundary is at 8 (a multiple of 8 with 8 or more newer turns whole)
    assert [g != s for g, s in zip(got, sent)] == [True] * 8 + [False] * 12
    assert stats.folded == 8
    store = open_store()
    for g, s in zip(got[:8], sent[:8]):
        assert count_tokens(g)[0] < count_tokens(s)[0] / 4
        paragraphs = [p for p in s.split("\n\n") if p.strip()]
        assert g.startswith(paragraphs[0] + "\n")  # the title
        prose = next(p for p in paragraphs if not p.startswith("#"))
        assert prose.split("\n")[0] in g.split("\n")  # the opening paragraph's first line
        headings = [line for line in s.split("\n") if line.startswith("## ")]
        assert headings and all(h in g.split("\n") for h in headings)
        m = HINT.search(g)
        assert m, g[-300:]
        assert resolve(store, m.group(1)) == s.encode()  # lossless: the exact answer comes back
    # nothing else in the request changed
    for a in wire.answers(wire.ANTHROPIC, out)[0] + wire.answers(wire.ANTHROPIC, body)[0]:
        a.set("")
    assert out == body


def test_headings_inside_code_blocks_are_not_headings():
    text = LONG[1]  # the plugin guide: '# src/sqz_formatters_foo/foo.py' is a comment inside a code block
    assert "# src/sqz_formatters_foo/foo.py" in text
    kept, left_out = fold.outline(text)
    assert "# src/sqz_formatters_foo/foo.py" not in kept and "## The whole plugin" in kept and left_out > 50
    assert not any(line.startswith("```") for line in kept)


def test_the_fold_point_is_stable_the_cache_breaks_at_most_once_per_fold_point(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    rw = Rewriter(fold_settings=fold.Settings(every=4))
    previous = None
    breaks = []
    for n in range(1, 26):
        out = json.loads(send(rw, turns(n)))
        encoded = [json.dumps(m, ensure_ascii=False, separators=(",", ":")) for m in out["messages"][:-1]]
        if previous is not None and encoded[:len(previous)] != previous:
            breaks.append(n)
        previous = encoded
    # the boundary moves at 8, 12, 16, 20, 24 assistant turns: the prefix changes then and only then
    assert breaks == [8, 12, 16, 20, 24]
    got = answer_texts(out)
    assert sum(g != s for g, s in zip(got, answer_texts(turns(25)))) == 20


def test_a_fresh_proxy_folds_the_same_prefix_to_the_same_bytes(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    body = turns(17)
    assert send(Rewriter(), body) == send(Rewriter(), body)


def test_without_a_store_nothing_is_folded_it_could_not_be_expanded(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    body = turns(20)
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    assert Rewriter(use_store=False).rewrite_body(wire.ANTHROPIC, raw, "claude-code") is raw


def test_short_answers_tool_calls_and_the_newest_turns_stay_whole(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    body = turns(20)
    body["messages"][1]["content"] = [{"type": "text", "text": "Running the tests now."},
                                      {"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                       "input": {"command": "pytest"}}]
    before = copy.deepcopy(body["messages"][1])
    out = json.loads(send(Rewriter(), body))
    assert out["messages"][1] == before
    assert out["messages"][3] != body["messages"][3]


def test_every_wire_format_folds_its_assistant_answers(monkeypatch):
    monkeypatch.setenv("SQZ_PROXY_FOLD", "1")
    for fmt in (wire.OPENAI_CHAT, wire.OPENAI_RESPONSES, wire.GEMINI):
        body = turns(16, fmt)
        out = json.loads(send(Rewriter(), body, fmt))
        got, sent = answer_texts(out, fmt), answer_texts(body, fmt)
        assert len(got) == 16, fmt
        assert [g != s for g, s in zip(got, sent)] == [True] * 8 + [False] * 8, fmt
        assert all(HINT.search(g) for g in got[:8]), fmt


def test_an_answer_written_in_long_one_line_paragraphs_keeps_the_start_of_its_first():
    # the proxy README from its paragraph on path prefixes on, each paragraph on one line, as models write them
    paragraphs = [" ".join(p.split("\n")) if not p.startswith(("#", "```", "|")) else p
                  for p in LONG[0].split("\n\n")]
    start = next(i for i, p in enumerate(paragraphs) if p.startswith("A path may carry its provider"))
    text = "\n\n".join(paragraphs[start:])
    assert len(paragraphs[start]) > fold.OPENING_CHARS
    kept, left_out = fold.outline(text)
    assert kept[0].endswith(" …") and paragraphs[start].startswith(kept[0][:-2])
    assert len(kept[0]) <= fold.OPENING_CHARS + 2 and "## What it changes" in kept and left_out > 10
