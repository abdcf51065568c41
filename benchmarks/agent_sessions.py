"""The 12-step session of issues 26 and 27 in each of the five real agent CLIs, without sqz, with sqz's
hooks only, through `sqz proxy` only, and with both: the cl100k tokens of the tool results the model
received, the facts of each step that reached it, and the failing test run's failure lines.

Each run is the real CLI (installed by ``scripts/install_test_deps.sh``) under its default permissions plus
allow rules for exactly the session's commands, driven by a scripted model on 127.0.0.1 (the e2e
harnesses' model servers), in a fresh HOME and a fresh git repository with one bug that makes 6 of 40
parametrised tests fail. The steps, in the agent's own tool vocabulary (Codex reads with ``cat``):

     1 git status                  5 grep -rn "def " --include=*.py .    9 git diff
     2 pytest (fails: 6 of 40)     6 sed -i (fixes the bug)             10 git log --stat -n 5
     3 read calc.py                7 read calc.py again (after the edit) 11 git status
     4 read test_calc.py           8 pytest (passes)                    12 read test_calc.py again

"hooks" is what ``sqz init --only AGENT`` writes (Codex: ``--dangerously-bypass-hook-trust`` stands for the
user's one-time trust in ``/hooks``); "proxy" is ``sqz proxy`` in this process between the agent and the
model (no hooks); the tokens are those of the last main-loop request the model received, which holds every
tool result of the session.

    .venv/bin/python benchmarks/agent_sessions.py [--agents claude-code,codex] [--modes none,proxy]
        [--json FILE] [--markdown]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PYTEST = f"{PY} -m pytest -p no:cacheprovider test_calc.py"
BUG = " + (1 if a % 7 == 3 else 0)"
SED = f"sed -i 's/{BUG}//' calc.py"
GREP = 'grep -rn "def " --include=*.py .'
MODES = ("none", "hooks", "proxy", "hooks+proxy")
AGENTS = ("claude-code", "codex", "gemini-cli", "copilot-cli", "opencode")
FAILED = [f"FAILED test_calc.py::test_add[{i}-{i}-{2 * i}]" for i in range(40) if i % 7 == 3]
# (kind, what): "sh" runs a shell command, "read" reads a file with the agent's read tool
STEPS = [("sh", "git status"), ("sh", PYTEST), ("read", "calc.py"), ("read", "test_calc.py"), ("sh", GREP),
         ("sh", SED), ("read", "calc.py"), ("sh", PYTEST), ("sh", "git diff"), ("sh", "git log --stat -n 5"),
         ("sh", "git status"), ("read", "test_calc.py")]
# the host's exit status line of the failing run: Claude Code "Exit code 1", Codex "Process exited with code 1",
# Gemini CLI "Exit Code: 1", Copilot CLI "<shellId: … exit code 1>" (OpenCode 1.18.33 sends none of its own)
_EXIT_LINE = re.compile(r"(?i)\bexit(?:ed with)? code:? 1\b")
_REF = re.compile(r"§(?:ref|delta):[0-9a-f]{12,}")


def _held(text: str) -> bool:
    """A repeat answered with a ref or delta naming content the model holds earlier in the request."""
    return bool(_REF.search(text)) or "[sqz: same output as" in text or "[sqz: changed since" in text


def _fixed_line(text: str) -> bool:
    """The edited line as it is now; the old one only as a removed line of a delta."""
    lines = [re.sub(r"^ *\d+\t", "", line) for line in text.split("\n")]  # a host's own line numbers
    return any(re.search(r"return a \+ b$", line) for line in lines) and all(
        line.startswith("-") for line in lines if BUG in line)


# what must reach the model at each step (a repeat may be a ref/delta to the copy it holds)
FACTS = [
    [lambda t: "README.md" in t, lambda t: "TODO.txt" in t],
    [*(lambda t, f=f: f in t for f in FAILED), lambda t: "6 failed, 94 passed" in t, lambda t: "assert 7 == 6" in t],
    [lambda t: "def add(a, b):" in t, lambda t: "def helper_59(x):" in t],
    [lambda t: "def test_add(a, b, want):" in t, lambda t: "def test_helper_59():" in t],
    [lambda t: "def helper_0(x):" in t, lambda t: "def helper_59(x):" in t, lambda t: "def test_add(" in t],
    [],
    [_fixed_line],
    [lambda t: "100 passed" in t],
    [lambda t: ("-    return a + b" + BUG) in t, lambda t: bool(re.search(r"^\+    return a \+ b$", t, re.M))],
    [lambda t: "calc: start the helpers" in t, lambda t: "docs: the readme" in t],
    [lambda t: "calc.py" in t, lambda t: "README.md" in t, lambda t: "TODO.txt" in t],
    [lambda t: "def test_helper_59():" in t or _held(t)],
]
TESTS = '''import pytest

import calc
from calc import add


@pytest.mark.parametrize("a,b,want", [(i, i, 2 * i) for i in range(40)])
def test_add(a, b, want):
    assert add(a, b) == want
''' + "".join(f"""

def test_helper_{i}():
    \"\"\"helper_{i} scales by {i} and adds {i % 5}.\"\"\"
    assert calc.helper_{i}(2) == {2 * i + i % 5}
    assert calc.helper_{i}(0) == {i % 5}
""" for i in range(60))


def make_repo(root: Path) -> Path:
    """A git repository: calc.py (a bug in add and 60 helpers), its tests, a README; then an uncommitted edit
    of the README and an untracked TODO.txt."""
    repo = root / "repo"
    repo.mkdir(parents=True)
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.org", GIT_COMMITTER_NAME="Ada",
               GIT_COMMITTER_EMAIL="ada@example.org", GIT_CONFIG_NOSYSTEM="1")

    def git(*a):
        subprocess.run(["git", "-c", "init.defaultBranch=main", *a], cwd=repo, env=env, check=True,
                       capture_output=True)

    git("init", "-q")
    helpers = "".join(f"\n\ndef helper_{i}(x):\n    \"\"\"Step {i} of the pipeline.\"\"\"\n    return x * {i} + {i % 5}\n"
                      for i in range(60))
    (repo / "calc.py").write_text(f"def add(a, b):\n    return a + b{BUG}\n" + helpers)
    git("add", ".")
    git("commit", "-qm", "calc: start the helpers")
    (repo / "test_calc.py").write_text(TESTS)
    git("add", ".")
    git("commit", "-qm", "calc: tests for add")
    (repo / "README.md").write_text("# calc\n\nA small calculator.\n")
    git("add", ".")
    git("commit", "-qm", "docs: the readme")
    (repo / "README.md").write_text("# calc\n\nA small calculator, with helpers.\n")
    (repo / "TODO.txt").write_text("fix add\n")
    return repo


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


class Plan:
    """Which step each tool call the scripted model made belongs to (a Codex poll belongs to its step)."""

    def __init__(self, call):
        self.call = call  # step index -> ("tool", name, args)
        self.steps: list[int] = []

    def next(self, results: list[str], poll=None):
        n = len(results)
        del self.steps[n:]  # a request asked again answers the same way
        if n and poll is not None:
            found = poll(results[-1])
            if found is not None:
                self.steps.append(self.steps[-1])
                return found
        step = self.steps[-1] + 1 if n else 0
        if step >= len(STEPS):
            return ("text", "done")
        self.steps.append(step)
        return self.call(step)

    def per_step(self, results: list[str]) -> list[str | None]:
        out: list[str | None] = [None] * len(STEPS)
        for step, text in zip(self.steps, results):  # a polled step: its results together
            out[step] = text if out[step] is None else out[step] + "\n" + text
        return out


def _proxy(url: str, on: bool):
    import contextlib

    if not on:
        return contextlib.nullcontext(None)
    from sqz_proxy.testing import running_proxy

    return running_proxy(url)


def _port_url(proxy, prefix: str) -> str:
    return f"http://127.0.0.1:{proxy.port}{prefix}"


# -- the agents ---------------------------------------------------------------------------------------

def run_claude(tmp: Path, hooks: bool, proxy: bool) -> tuple[list[str], str]:
    harness = _load("claude_scripted_model_sessions", ROOT / "sqz_integrations/claude_code/tests/e2e/"
                                                            "claude_scripted_model.py")
    claude = ROOT / ".cache/agents/claude/node_modules/.bin/claude"
    home, bindir = tmp / "home", tmp / "bin"
    home.mkdir()
    bindir.mkdir()
    repo = make_repo(tmp)
    shim = bindir / "sqz"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(PY)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "SQZ_"))}
    env.update(HOME=str(home), SQZ_BIN=str(shim), SQZ_DB_PATH=str(tmp / "sqz.db"), SQZ_CACHE_DIR=str(tmp / "cache"),
               SQZ_NO_DAEMON="1", PATH=f"{claude.parent}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p), ANTHROPIC_API_KEY="sk-ant-test-dummy",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1",
               DISABLE_ERROR_REPORTING="1")
    (repo / ".claude").mkdir()
    rules = ["Bash(git status:*)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(grep:*)", "Bash(sed -i:*)",
             f"Bash({PY} -m pytest:*)"]
    (repo / ".claude" / "settings.local.json").write_text(json.dumps({"permissions": {"allow": rules}}))
    if hooks:
        r = subprocess.run([str(shim), "init", "--only", "claude-code", "--yes"], env=env, cwd=repo,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr

    def call(step):
        kind, what = STEPS[step]
        if kind == "read":
            return ("tool", "Read", {"file_path": str(repo / what)})
        return ("tool", "Bash", {"command": what, "description": f"step {step + 1}"})

    plan = Plan(call)

    def script(messages):
        return plan.next([harness.result_text(b) for b in harness.tool_results(messages)])

    with harness.ScriptedModel(script) as model, _proxy(model.url, proxy) as px:
        if px is not None:
            env["ANTHROPIC_BASE_URL"] = _port_url(px, "")
        else:
            env["ANTHROPIC_BASE_URL"] = model.url
        r = subprocess.run([str(claude), "-p", "Fix the failing tests."], cwd=repo, env=env, capture_output=True,
                           text=True, timeout=900, stdin=subprocess.DEVNULL)
    got = [harness.result_text(b) for b in harness.tool_results(model.requests[-1]["messages"])] \
        if model.requests else []
    return plan.per_step(got), f"exit {r.returncode}: {r.stdout.strip()[-200:]} {r.stderr.strip()[-300:]}"


def run_codex(tmp: Path, hooks: bool, proxy: bool) -> tuple[list[str], str]:
    harness = _load("codex_e2e_harness_sessions", ROOT / "sqz_integrations/codex/tests/test_codex_e2e.py")
    harness.codex_bin()
    env = harness.make_env(tmp)
    repo = make_repo(tmp)

    def call(step):
        kind, what = STEPS[step]
        return ("tool", "exec_command", {"cmd": f"cat {what}" if kind == "read" else what, "yield_time_ms": 30000})

    def poll(last):
        m = re.search(r"Process running with session ID (\d+)", last)
        return ("tool", "write_stdin", {"session_id": int(m.group(1)), "chars": "", "yield_time_ms": 30000}) \
            if m else None

    plan = Plan(call)
    model = harness.ScriptedModel(lambda req: plan.next(harness.tool_outputs(req), poll))
    with model, _proxy(model.base_url.rsplit("/v1", 1)[0], proxy) as px:
        harness.write_config(env, _port_url(px, "/openai/v1") if px is not None else model.base_url)
        with open(os.path.join(env["CODEX_HOME"], "rules", "default.rules"), "a", encoding="utf-8") as f:
            for pattern in (["git", "status"], ["git", "diff"], ["grep"], ["sed", "-i"], ["cat"],
                            [PY, "-m", "pytest"]):
                f.write(f"prefix_rule(pattern={json.dumps(pattern)}, decision=\"allow\")\n")
        if hooks:
            harness.install_sqz(tmp, env, str(repo))
        r = subprocess.run([harness.codex_bin(), "exec", "--dangerously-bypass-hook-trust", "Fix the failing tests."],
                           cwd=repo, env=env, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    got = harness.tool_outputs(model.requests[-1]) if model.requests else []
    return plan.per_step(got), f"exit {r.returncode}: {r.stdout.strip()[-200:]} {r.stderr.strip()[-300:]}"


def run_gemini(tmp: Path, hooks: bool, proxy: bool) -> tuple[list[str], str]:
    harness = _load("gemini_e2e_harness_sessions", ROOT / "sqz_integrations/gemini_cli/tests/test_gemini_cli_e2e.py")
    harness.require_gemini()
    repo = make_repo(tmp)
    env = harness.setup_agent(tmp, sqz=hooks)
    env = {k: v for k, v in env.items() if not k.startswith("SQZ_") or k in ("SQZ_DB_PATH", "SQZ_CACHE_DIR")}
    path = tmp / "home" / ".gemini" / "settings.json"
    settings = json.loads(path.read_text())
    settings["tools"]["allowed"] = [f"run_shell_command({c})" for c in
                                    ("git status", "git diff", "git log", "grep", "sed -i", f"{PY} -m pytest")]
    path.write_text(json.dumps(settings, indent=2) + "\n")

    def call(step):
        kind, what = STEPS[step]
        if kind == "read":
            return [{"functionCall": {"name": "read_file", "args": {"file_path": what}}}]
        return [{"functionCall": {"name": "run_shell_command", "args": {"command": what, "description": f"step {step + 1}"}}}]

    plan = Plan(call)

    def script(contents):
        done = [harness.response_text(f) for f in harness.function_responses(contents)]
        answer = plan.next(done)
        return [{"text": answer[1]}] if answer[0] == "text" else answer

    server = harness.ScriptedGemini(script)
    try:
        with _proxy(server.url, proxy) as px:
            class Via:
                url = _port_url(px, "/gemini") if px is not None else server.url

            r = harness.run_gemini(tmp, env, Via, "Fix the failing tests.", repo)
    finally:
        server.close()
    main = [q["body"] for q in server.requests if "streamGenerateContent" in q["path"]]
    got = [harness.response_text(f) for f in harness.function_responses(main[-1]["contents"])] if main else []
    return plan.per_step(got), f"exit {r.returncode}: {r.stdout.strip()[-200:]} {r.stderr.strip()[-300:]}"


def run_copilot(tmp: Path, hooks: bool, proxy: bool) -> tuple[list[str], str]:
    harness = _load("copilot_e2e_harness_sessions", ROOT / "sqz_integrations/copilot_cli/tests/"
                                                          "test_copilot_cli_e2e.py")
    harness.require_copilot()
    repo = make_repo(tmp)
    env = harness.setup_agent(tmp, sqz=hooks)

    def call(step):
        kind, what = STEPS[step]
        if kind == "read":
            return ("tool", "view", {"path": str(repo / what)})
        return ("tool", "bash", {"command": what, "description": f"step {step + 1}"})

    plan = Plan(call)
    server = harness.ScriptedOpenAI(lambda messages: plan.next(harness.tool_messages(messages)))
    allow = []
    for c in ("git status", "git diff", "grep", "sed", f"{PY}:*"):
        allow += ["--allow-tool", f"shell({c})"]
    # a command naming a program outside the working directory also needs that directory (Copilot 1.0.102
    # checks the interpreter's real path too)
    allow += ["--add-dir", str(Path(PY).parent.parent), "--add-dir", os.path.dirname(os.path.realpath(PY))]
    try:
        with _proxy(server.url.rsplit("/v1", 1)[0], proxy) as px:
            class Via:
                url = _port_url(px, "/openai/v1") if px is not None else server.url

            r = harness.run_copilot(env, Via, "Fix the failing tests.", repo, *allow)
    finally:
        server.close()
    bodies = [q["body"] for q in server.requests if q["body"] and q["body"].get("messages")]
    got = harness.tool_messages(bodies[-1]["messages"]) if bodies else []
    return plan.per_step(got), f"exit {r.returncode}: {r.stdout.strip()[-200:]} {r.stderr.strip()[-300:]}"


def run_opencode(tmp: Path, hooks: bool, proxy: bool) -> tuple[list[str], str]:
    harness = _load("opencode_e2e_harness_sessions", ROOT / "sqz_integrations/opencode/tests/test_opencode_e2e.py")
    harness.opencode_bin()
    env = harness.make_env(tmp)
    repo = make_repo(tmp)

    def call(step):
        kind, what = STEPS[step]
        if kind == "read":
            return ("tool", "read", {"filePath": str(repo / what)})
        return ("tool", "bash", {"command": what, "description": f"step {step + 1}"})

    plan = Plan(call)
    model = harness.ScriptedModel(lambda messages: plan.next(harness.tool_results(messages)))
    with model, _proxy(model.base_url.rsplit("/v1", 1)[0], proxy) as px:
        sqz = harness.install_sqz(tmp, env, str(repo)) if hooks else "sqz"
        harness.write_config(str(repo), _port_url(px, "/openai/v1") if px is not None else model.base_url, sqz)
        cfg = json.loads((repo / "opencode.json").read_text())
        for c in ("git status*", "git diff*", "grep *", "sed -i *", f"{PY} -m pytest*"):
            cfg["permission"]["bash"][c] = "allow"
        (repo / "opencode.json").write_text(json.dumps(cfg))
        r = subprocess.run([harness.opencode_bin(), "run", "Fix the failing tests."], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=900)
    main = [q for q in model.requests if q.get("tools")]
    got = harness.tool_results(main[-1]["messages"]) if main else []
    return plan.per_step(got), f"exit {r.returncode}: {r.stdout.strip()[-200:]} {r.stderr.strip()[-300:]}"


RUNNERS = {"claude-code": run_claude, "codex": run_codex, "gemini-cli": run_gemini, "copilot-cli": run_copilot,
           "opencode": run_opencode}


def measure(agent: str, mode: str) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"sqz-session-{agent}-") as d:
        tmp = Path(d)
        os.environ["SQZ_DB_PATH"] = str(tmp / "proxy-store" / "sqz.db")  # the in-process proxy's store
        os.environ["SQZ_CACHE_DIR"] = str(tmp / "proxy-cache")
        started = time.monotonic()
        try:
            per_step, note = RUNNERS[agent](tmp, "hooks" in mode, "proxy" in mode)
        except Exception as exc:  # an agent that could not run is reported, never silently skipped
            per_step, note = [None] * len(STEPS), f"{type(exc).__name__}: {exc}"
        seconds = time.monotonic() - started
    return score({"agent": agent, "mode": mode, "seconds": round(seconds, 1), "note": note, "results": per_step})


def score(row: dict) -> dict:
    """Tokens, facts and the failing run's lines of one run's results (``--rescore`` reads them back)."""
    from sqz_core.api import count_tokens

    per_step = row["results"]
    tokens = [count_tokens(t)[0] if t is not None else 0 for t in per_step]
    facts = [(sum(1 for f in FACTS[i] if t is not None and f(t)), len(FACTS[i])) for i, t in enumerate(per_step)]
    fail = per_step[1] or ""
    return dict(row, steps_answered=sum(t is not None for t in per_step), tokens=sum(tokens),
                per_step_tokens=tokens, facts_kept=sum(k for k, _ in facts), facts=sum(n for _, n in facts),
                per_step_facts=facts, failing_run_tokens=tokens[1],
                failing_run_failed_lines=sum(1 for f in FAILED if f in fail),
                failing_run_summary_kept="6 failed, 94 passed" in fail,
                failing_run_exit_line=bool(_EXIT_LINE.search(fail)))


def versions() -> dict:
    out = {}
    bins = {"claude-code": ROOT / ".cache/agents/claude/node_modules/.bin/claude",
            "codex": ROOT / ".test-agents/codex/node_modules/.bin/codex",
            "gemini-cli": ROOT / "sqz_integrations/gemini_cli/.test_agent/node_modules/.bin/gemini",
            "copilot-cli": ROOT / "sqz_integrations/copilot_cli/.test_agent/node_modules/.bin/copilot",
            "opencode": ROOT / ".test-agents/opencode/node_modules/.bin/opencode"}
    for agent, path in bins.items():
        try:
            r = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, COPILOT_OFFLINE="true", NO_COLOR="1"))
            out[agent] = (r.stdout.strip() or r.stderr.strip()).splitlines()[0][:60]
        except (OSError, IndexError, subprocess.TimeoutExpired) as exc:
            out[agent] = f"not runnable: {exc}"
    return out


def markdown(rows: list[dict], meta: dict) -> str:
    lines = [f"Measured {meta['date']} on {meta['machine']} (load average {meta['load_before']} before, "
             f"{meta['load_after']} after); `{meta['command']}`.", "",
             "Agent versions: " + ", ".join(f"{a} {v}" for a, v in meta["versions"].items()) + ".", "",
             "| agent | mode | steps answered | tool-result tokens the model received (cl100k) | vs without sqz | "
             "facts kept | failing run: tokens | failing run: FAILED lines | failing run: summary | "
             "failing run: exit line |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    base = {r["agent"]: r["tokens"] for r in rows if r["mode"] == "none"}
    for r in rows:
        b = base.get(r["agent"])
        vs = f"{1 - r['tokens'] / b:+.0%}".replace("+", "−") if b and r["mode"] != "none" else "—"
        if b and r["mode"] != "none" and r["tokens"] > b:
            vs = f"+{r['tokens'] / b - 1:.0%}"
        lines.append(f"| {r['agent']} | {r['mode']} | {r['steps_answered']}/12 | {r['tokens']:,} | {vs} | "
                     f"{r['facts_kept']}/{r['facts']} | {r['failing_run_tokens']:,} | "
                     f"{r['failing_run_failed_lines']}/6 | {'kept' if r['failing_run_summary_kept'] else 'lost'} | "
                     f"{'kept' if r['failing_run_exit_line'] else 'none'} |")
    lines += ["", "Per step (tokens the model received, steps 1–12):", ""]
    for r in rows:
        lines.append(f"- {r['agent']} / {r['mode']}: " + " · ".join(str(t) for t in r["per_step_tokens"])
                     + (f" — {r['note']}" if r["steps_answered"] < 12 else ""))
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agents", default=",".join(AGENTS))
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--json", help="write every row (with the texts the model received) to this file")
    ap.add_argument("--markdown", action="store_true", help="print the markdown report")
    ap.add_argument("--rescore", metavar="FILE", help="score the results a --json run wrote again (no agent runs)")
    args = ap.parse_args()
    if args.rescore:
        doc = json.loads(Path(args.rescore).read_text())
        print(markdown([score(r) for r in doc["rows"]], doc["meta"]))
        return 0
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": f"{os.cpu_count()} cores",
            "load_before": " ".join(f"{x:.1f}" for x in os.getloadavg()), "versions": versions(),
            "command": "python benchmarks/agent_sessions.py " + " ".join(sys.argv[1:])}
    rows = []
    for agent in args.agents.split(","):
        for mode in args.modes.split(","):
            row = measure(agent, mode)
            rows.append(row)
            sys.stderr.write(f"{agent:12} {mode:12} {row['steps_answered']:2}/12 steps {row['tokens']:6} tokens "
                             f"facts {row['facts_kept']}/{row['facts']} failing {row['failing_run_failed_lines']}/6 "
                             f"{row['seconds']} s  {row['note'][:160] if row['steps_answered'] < 12 else ''}\n")
    meta["load_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1, ensure_ascii=False))
    if args.markdown:
        print(markdown(rows, meta))
    return 0 if all(r["steps_answered"] == 12 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
