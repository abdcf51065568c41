"""What model-output folding (``sqz proxy --fold``, issue 26.5) saves on a replayed long conversation.

The replay is a 40-turn Anthropic Messages conversation sent through the proxy's rewriter turn by turn, as
an agent sends it: each turn adds a user question, an assistant answer and a tool call with its result.
The answers are real long markdown texts with headings: the sections of this repository's own documents
(README.md, sqz_proxy/README.md, docs/plugin-authoring.md, sqz_core/README.md), in order, those of 300
cl100k tokens or more; the tool results are the same documents read with a Read tool, so the proxy's own
tool-result handling runs as well. Without and with folding, it reports (cl100k):

- the tokens of the last request's assistant text, and of the whole last request;
- the input tokens of all 40 requests together (what a model without a prompt cache reads);
- the tokens after each request's first changed message (what a prompt cache cannot serve) and how many
  times an earlier message changed (a cache break).

    .venv/bin/python benchmarks/proxy_fold.py [--turns 40] [--every 8] [--json]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "sqz_proxy/README.md", "docs/plugin-authoring.md", "sqz_core/README.md"]


def sections(min_tokens: int = 300) -> list[str]:
    from sqz_core.api import count_tokens

    out = []
    for name in DOCS:
        text = (ROOT / name).read_text()
        for part in re.split(r"\n(?=## )", text):
            if count_tokens(part)[0] >= min_tokens:
                out.append(part.strip("\n"))
    return out


def conversation(turns: int) -> list[dict]:
    answers = sections()
    messages: list[dict] = [{"role": "user", "content": "Explain this project to me, one part at a time."}]
    for i in range(turns):
        doc = DOCS[i % len(DOCS)]
        cid = f"toolu_{i:04d}"
        messages.append({"role": "assistant", "content": [
            {"type": "text", "text": answers[i % len(answers)]},
            {"type": "tool_use", "id": cid, "name": "Read", "input": {"file_path": str(ROOT / doc)}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": cid, "content": (ROOT / doc).read_text()},
            {"type": "text", "text": f"Thanks. Next part ({i + 1})."}]})
    return messages


def replay(turns: int, fold_on: bool, every: int) -> dict:
    from sqz_core.api import count_tokens
    from sqz_proxy import fold, wire
    from sqz_proxy.rewrite import Rewriter

    rw = Rewriter(fold_answers=fold_on, fold_settings=fold.Settings(every=every))
    msgs = conversation(turns)
    total_in = uncached = breaks = 0
    previous: list[str] | None = None
    last = None
    for n in range(1, turns + 1):
        body = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": copy.deepcopy(msgs[:2 * n + 1])}
        raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        out = json.loads(rw.rewrite_body(wire.ANTHROPIC, raw, "replay"))
        encoded = [json.dumps(m, ensure_ascii=False, separators=(",", ":")) for m in out["messages"]]
        tokens = [count_tokens(m)[0] for m in encoded]
        total_in += sum(tokens)
        first_new = len(previous) if previous is not None else 0  # the turn's two new messages
        if previous is not None:
            for i, (a, b) in enumerate(zip(previous, encoded)):
                if a != b:
                    first_new, breaks = i, breaks + 1
                    break
        uncached += sum(tokens[first_new:])
        previous = encoded
        last = out
    answers = wire.answers(wire.ANTHROPIC, last)[0]
    return {"fold": fold_on, "turns": turns, "every": every,
            "last_answers_tokens": sum(count_tokens(a.text)[0] for a in answers),
            "last_request_tokens": sum(count_tokens(m)[0] for m in previous or []),
            "all_requests_tokens": total_in, "uncached_tokens": uncached, "cache_breaks": breaks}


def cached_cost(row: dict) -> float:
    """Input-token equivalents with a prompt cache: what no cache served is written (1.25x), the rest read (0.1x)."""
    return 1.25 * row["uncached_tokens"] + 0.1 * (row["all_requests_tokens"] - row["uncached_tokens"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sqz-fold-") as d:
        os.environ["SQZ_DB_PATH"] = os.path.join(d, "sqz.db")  # the originals a fold keeps for sqz expand
        os.environ.setdefault("SQZ_PROXY_BUDGET_MS", "0")
        rows = [replay(args.turns, False, args.every), replay(args.turns, True, args.every)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"| {args.turns} turns, fold every {args.every} | assistant text, last request | last request | "
          "all requests | not served by a prompt cache | cache breaks |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {'folding on' if r['fold'] else 'folding off (default)'} | {r['last_answers_tokens']:,} | "
              f"{r['last_request_tokens']:,} | {r['all_requests_tokens']:,} | {r['uncached_tokens']:,} | "
              f"{r['cache_breaks']} |")
    off, on = rows
    print(f"\nsaved by folding: {1 - on['all_requests_tokens'] / off['all_requests_tokens']:.1%} of all input "
          f"tokens, {1 - on['last_request_tokens'] / off['last_request_tokens']:.1%} of the last request, "
          f"{on['uncached_tokens'] - off['uncached_tokens']:+,} uncached tokens")
    print(f"with a prompt cache priced as Anthropic's (a cache write 1.25x the input price, a cache read 0.1x): "
          f"{cached_cost(off):,.0f} → {cached_cost(on):,.0f} input-token equivalents "
          f"({cached_cost(on) / cached_cost(off) - 1:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
