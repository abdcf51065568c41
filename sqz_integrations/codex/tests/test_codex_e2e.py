"""End to end with the real Codex CLI (@openai/codex, pinned by scripts/install_test_agent.sh).

A scripted model on 127.0.0.1 (``cx_scripted_model``, Responses API) drives ``codex exec`` in a
temporary git repository with real commits, under Codex's default sandbox and approvals plus
one execpolicy rule allowing ``git log``; sqz is configured by ``sqz init --only codex`` from
this checkout. The assertions read what the model received.

``--dangerously-bypass-hook-trust`` stands in for the one-time review a user gives the sqz hook
in Codex's ``/hooks`` (non-managed hooks do not run untrusted); nothing else is bypassed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from sqz_agents.testing import make_subject_repo

from cx_scripted_model import ScriptedModel, tool_names, tool_outputs

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
INSTALL = "sqz_integrations/codex/scripts/install_test_agent.sh"
SUBJECTS = [f"Add the {w} parser module" for w in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")]


def codex_bin() -> str:
    path = os.environ.get("SQZ_CODEX_BIN") or os.path.join(ROOT, ".test-agents", "codex", "node_modules", ".bin",
                                                            "codex")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(f"Codex CLI not found at {path}: run {INSTALL} (CI runs it before the tests)")
    return path


def make_env(tmp) -> dict:
    home = tmp / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TMPDIR": str(tmp),
           "CODEX_HOME": str(home / ".codex"), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_CACHE_HOME": str(home / ".cache"),
           "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1", "SCRIPTED_MODEL_KEY": "test", "RUST_LOG": "error"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    (home / ".codex").mkdir()
    return env


def make_repo(tmp, env) -> str:
    return make_subject_repo(tmp, env, SUBJECTS)


def write_config(env: dict, base_url: str) -> None:
    """The user's own config.toml (a local provider, no telemetry) and one rule allowing ``git log``."""
    codex_home = env["CODEX_HOME"]
    with open(os.path.join(codex_home, "config.toml"), "w", encoding="utf-8") as f:
        f.write(f"""model = "scripted"
model_provider = "scripted"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[model_providers.scripted]
name = "Scripted"
base_url = "{base_url}"
env_key = "SCRIPTED_MODEL_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
""")
    os.makedirs(os.path.join(codex_home, "rules"), exist_ok=True)
    with open(os.path.join(codex_home, "rules", "default.rules"), "w", encoding="utf-8") as f:
        f.write('prefix_rule(pattern=["git", "log"], decision="allow")\n')


def install_sqz(tmp, env, repo: str) -> str:
    """``sqz`` and ``sqz-mcp`` programs running this checkout, written into Codex's config by ``sqz init``."""
    bindir = tmp / "bin"
    bindir.mkdir()
    pp = f"PYTHONPATH={json.dumps(env['PYTHONPATH'])} " if env.get("PYTHONPATH") else ""
    shim, mcp = bindir / "sqz", bindir / "sqz-mcp"
    shim.write_text(f"#!/bin/sh\nSQZ_BIN={json.dumps(str(shim))} {pp}exec {json.dumps(sys.executable)} -m sqz_core \"$@\"\n")
    mcp.write_text(f"#!/bin/sh\n{pp}exec {json.dumps(sys.executable)} -m sqz_mcp \"$@\"\n")
    for p in (shim, mcp):
        p.chmod(0o755)
    r = subprocess.run([str(shim), "init", "--only", "codex"], cwd=repo,
                       env=dict(env, SQZ_BIN=str(shim), SQZ_MCP_BIN=str(mcp)), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    with open(os.path.join(env["CODEX_HOME"], "hooks.json"), encoding="utf-8") as f:
        hooks = json.load(f)
    assert hooks["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == f"{shim} hook codex"
    return str(shim)


def run_codex(repo: str, env: dict) -> subprocess.CompletedProcess:
    r = subprocess.run([codex_bin(), "exec", "--dangerously-bypass-hook-trust", "Show me the history."], cwd=repo,
                       env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    return r


def shell_call(request: dict, command: str):
    names = tool_names(request)
    assert "exec_command" in names, names  # the shell tool of this Codex version
    return ("tool", "exec_command", {"cmd": command})


def git_log(repo: str, env: dict) -> str:
    return subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, env=env, capture_output=True, text=True,
                          check=True).stdout


def test_codex_gets_compressed_shell_output(tmp_path):
    codex_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    state = {}

    def step(request):
        results = tool_outputs(request)
        if len(results) == 0:
            return shell_call(request, "git log --stat -n 5")
        if len(results) in (1, 2):
            return shell_call(request, "cat alpha.py")
        if len(results) == 3:
            m = re.search(r"\[(\S*sqz) expand (n[0-9]{15,})\]", results[0])  # the recovery line
            assert m, results[0]
            state["expand"] = f"{m.group(1)} expand {m.group(2)}"
            return shell_call(request, state["expand"])
        if len(results) == 4:  # the ref of the second read, pasted as its hint says
            m = re.search(r"(§ref:[0-9a-z]+(?::L\d+-\d+)?§)[^\n]*\(`([^`\n]+ expand)` this ref", results[2])
            assert m, results[2]
            state["pasted"] = f"{m.group(2)} '{m.group(1)}'"
            return shell_call(request, state["pasted"])
        return ("text", "Done.")

    with ScriptedModel(step) as model:
        write_config(env, model.base_url)
        sqz = install_sqz(tmp_path, env, repo)
        r = run_codex(repo, env)
        assert r.returncode == 0, r.stderr[-3000:]
        results = tool_outputs(model.requests[-1])
    assert len(results) == 5, (results, r.stderr[-3000:])
    log_out, read1, read2, expanded, pasted = results
    # the pasted ref ran as printed (under the execpolicy rule init wrote) and gave the first read back
    assert state["pasted"].startswith(sqz + " expand '§ref:")
    assert "Process exited with code 0" in pasted and "def alpha_rule_39(text):" in pasted, pasted
    assert pasted.split("Output:\n", 1)[1].rstrip("\n") == read1.split("Output:\n", 1)[1].rstrip("\n")
    original = git_log(repo, env)
    # the command ran as asked, in the repository; the model got sqz's output with the exit status
    assert log_out.startswith("Process exited with code 0\nOutput:\n"), log_out
    assert len(log_out) < len(original)
    for subject in SUBJECTS[1:]:
        assert subject in log_out
    for name in ("beta", "gamma", "delta", "epsilon", "zeta"):
        assert f"{name}.py" in log_out
    assert state["expand"].startswith(sqz + " expand ")
    # first read: the file; second read: a ref to it
    assert "def alpha_rule_39(text):" in read1
    assert "§ref:" in read2 and "def alpha_rule_39" not in read2 and len(read2) < len(read1) // 4
    # sqz expand ran through Codex's shell tool, untouched by the hook, and gave the original back
    assert "Output:\n" in expanded and expanded.split("Output:\n", 1)[1].rstrip("\n") == original.rstrip("\n")


def test_codex_works_when_sqz_is_gone(tmp_path):
    codex_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)

    def step(request):
        results = tool_outputs(request)
        if len(results) == 0:
            return shell_call(request, "git log --stat -n 5")
        if len(results) in (1, 2):
            return shell_call(request, "cat alpha.py")
        return ("text", "Done.")

    with ScriptedModel(step) as model:
        write_config(env, model.base_url)
        sqz = install_sqz(tmp_path, env, repo)
        shutil.rmtree(os.path.dirname(sqz))  # the hook's sqz path no longer exists
        r = run_codex(repo, env)
        assert r.returncode == 0, r.stderr[-3000:]
        results = tool_outputs(model.requests[-1])
    assert len(results) == 3, (results, r.stderr[-3000:])
    assert results[0].split("Output:\n", 1)[1].rstrip("\n") == git_log(repo, env).rstrip("\n")
    assert "def alpha_rule_39(text):" in results[1] and "def alpha_rule_39(text):" in results[2]


def test_doctor_says_when_codex_has_not_trusted_the_hook_and_how_to_trust_it(tmp_path):
    """The real Codex lists its hooks with their trust (``codex app-server``, ``hooks/list``): doctor reads it."""
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    write_config(env, "http://127.0.0.1:9")  # never contacted: doctor only lists hooks
    env["PATH"] = os.path.dirname(codex_bin()) + os.pathsep + env["PATH"]
    shim = install_sqz(tmp_path, env, repo)

    def doctor() -> str:
        r = subprocess.run([shim, "doctor", "--only", "codex"], cwd=repo,
                           env=dict(env, SQZ_BIN=shim, SQZ_MCP_BIN=str(tmp_path / "bin" / "sqz-mcp")),
                           capture_output=True, text=True, timeout=300)
        return r.stdout + r.stderr

    out = doctor()
    assert "configured: yes" in out, out
    assert "Codex skips sqz's hook" in out and "is not trusted yet" in out and "/hooks" in out, out
    # what trusting it in Codex's /hooks records: the hook's key and the hash Codex computed for it
    from sqz_integration_codex.integration import hook_trust

    listed = hook_trust(codex_bin(), repo, env=env)
    assert listed and listed[0]["trustStatus"] == "untrusted"
    with open(os.path.join(env["CODEX_HOME"], "config.toml"), "a", encoding="utf-8") as f:
        f.write(f'\n[hooks.state."{listed[0]["key"]}"]\ntrusted_hash = "{listed[0]["currentHash"]}"\n')
    out = doctor()
    assert "Codex skips" not in out and "configured: yes" in out, out


def test_project_init_compresses_once_codex_trusts_the_project(tmp_path):
    """``sqz init --project`` writes ``.codex/hooks.json`` naming a bare ``sqz``. Measured with 0.171.0: Codex
    runs hooks with the PATH it was started with (not ``bash -lc``'s), so the bare name is found; but it
    loads nothing of an untrusted project's ``.codex/`` (the hook never runs, not even with hook trust
    bypassed). ``sqz doctor`` says so and how to trust the project; done as it says, the hook compresses."""
    codex_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    pp = f"PYTHONPATH={json.dumps(env['PYTHONPATH'])} " if env.get("PYTHONPATH") else ""
    shim = bindir / "sqz"
    shim.write_text(f"#!/bin/sh\n{pp}exec {json.dumps(sys.executable)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    # sqz on the PATH the user starts Codex with (a login shell's /etc/profile would not have it)
    env["PATH"] = os.pathsep.join([str(bindir), os.path.dirname(codex_bin()), env["PATH"]])
    r = subprocess.run(["sqz", "init", "--project", "--only", "codex"], cwd=repo, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    with open(os.path.join(repo, ".codex", "hooks.json"), encoding="utf-8") as f:
        assert json.load(f)["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "sqz hook codex"

    def doctor() -> str:
        d = subprocess.run(["sqz", "doctor", "--project", "--only", "codex"], cwd=repo, env=env, capture_output=True, text=True,
                           timeout=300)
        return d.stdout + d.stderr

    def session(trust: str = ""):
        state = {}

        def step(request):
            results = tool_outputs(request)
            if len(results) == 0:
                return shell_call(request, "git log --stat -n 5")
            if len(results) == 1:
                m = re.search(r"\[(\S*sqz) expand ([0-9a-z]{12,64})\]", results[0])  # the recovery line
                if not m:
                    return ("text", "Done.")
                state["expand"] = f"{m.group(1)} expand {m.group(2)}"
                return shell_call(request, state["expand"])
            return ("text", "Done.")

        with ScriptedModel(step) as model:
            write_config(env, model.base_url)
            with open(os.path.join(env["CODEX_HOME"], "config.toml"), "a", encoding="utf-8") as f:
                f.write(trust)
            c = run_codex(repo, env)
            assert c.returncode == 0, c.stderr[-3000:]
            return tool_outputs(model.requests[-1]), state

    write_config(env, "http://127.0.0.1:9")  # never contacted: doctor only lists hooks
    out = doctor()
    assert "the project is not trusted" in out and "/hooks" in out, out
    m = re.search(r'add to \S+config\.toml: (\[projects\."[^"]+"\]) (trust_level = "trusted")', out)
    assert m and os.path.realpath(repo) in m.group(1), out
    results, state = session()
    original = git_log(repo, env)
    assert len(results) == 1 and "Original token count" in results[0], results  # untrusted project: raw
    assert results[0].split("Output:\n", 1)[1].rstrip("\n") == original.rstrip("\n")
    # the user does what doctor said
    trust = f"\n{m.group(1)}\n{m.group(2)}\n"
    with open(os.path.join(env["CODEX_HOME"], "config.toml"), "a", encoding="utf-8") as f:
        f.write(trust)
    out = doctor()
    assert "the project is not trusted" not in out and "is not trusted yet" in out, out  # now only /hooks is left
    results, state = session(trust)
    assert len(results) == 2, results
    log_out, expanded = results
    assert log_out.startswith("Process exited with code 0\nOutput:\n") and len(log_out) < len(original), log_out
    for subject in SUBJECTS[1:]:
        assert subject in log_out
    # the hint ran as printed under Codex's `bash -lc` and gave the original back
    assert "Output:\n" in expanded and expanded.split("Output:\n", 1)[1].rstrip("\n") == original.rstrip("\n")


def test_project_hint_runs_in_the_sandbox_with_the_store_outside_every_writable_root(tmp_path):
    """``sqz init --project`` writes no execpolicy rule, so the hint runs inside Codex's default sandbox.
    Measured with 0.171.0 (bubblewrap): the sandbox mounts everything read-only but the workspace, ``/tmp``
    and ``$TMPDIR``. With the user's data dir outside all of them (here under ``/var/tmp``, as
    ``~/.local/share`` is), ``sqz expand`` opens the store read-only (no ``-wal``/``-shm`` can be made,
    no expand event is written) and prints the original; a write there is refused (the probe), so the
    hint did not need one."""
    import tempfile

    codex_bin()
    env = make_env(tmp_path)
    outside = tempfile.mkdtemp(prefix="sqz-codex-home-", dir="/var/tmp")
    try:
        home = os.path.join(outside, "home")
        shutil.copytree(env["HOME"], home)
        env.update(HOME=home, CODEX_HOME=os.path.join(home, ".codex"), XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_DATA_HOME=os.path.join(home, ".local", "share"), XDG_CACHE_HOME=os.path.join(home, ".cache"))
        repo = make_repo(tmp_path, env)
        bindir = tmp_path / "bin"
        bindir.mkdir()
        pp = f"PYTHONPATH={json.dumps(env['PYTHONPATH'])} " if env.get("PYTHONPATH") else ""
        shim = bindir / "sqz"
        shim.write_text(f"#!/bin/sh\n{pp}exec {json.dumps(sys.executable)} -m sqz_core \"$@\"\n")
        shim.chmod(0o755)
        env["PATH"] = os.pathsep.join([str(bindir), os.path.dirname(codex_bin()), env["PATH"]])
        r = subprocess.run(["sqz", "init", "--project", "--only", "codex"], cwd=repo, env=env, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        assert not os.path.exists(os.path.join(repo, ".codex", "rules"))  # no rule: the sandbox decides
        assert not os.path.exists(os.path.join(env["CODEX_HOME"], "rules", "sqz.rules"))
        store_dir = os.path.join(env["XDG_DATA_HOME"], "sqz")
        probe = os.path.join(store_dir, "probe")
        state = {}

        def step(request):
            results = tool_outputs(request)
            if len(results) == 0:
                return shell_call(request, "git log --stat -n 5")
            if len(results) == 1:
                m = re.search(r"\[(\S*sqz) expand (n[0-9]{15,})\]", results[0])  # the recovery line
                assert m, results[0]
                state["expand"] = f"{m.group(1)} expand {m.group(2)}"
                return shell_call(request, state["expand"])
            if len(results) == 2:
                return shell_call(request, f"touch {probe}")
            return ("text", "Done.")

        with ScriptedModel(step) as model:
            write_config(env, model.base_url)
            with open(os.path.join(env["CODEX_HOME"], "config.toml"), "a", encoding="utf-8") as f:
                f.write(f'\n[projects."{os.path.realpath(repo)}"]\ntrust_level = "trusted"\n')
            c = run_codex(repo, env)
            assert c.returncode == 0, c.stderr[-3000:]
            results = tool_outputs(model.requests[-1])
        assert len(results) == 3, (results, c.stderr[-3000:])
        log_out, expanded, touched = results
        original = git_log(repo, env)
        assert log_out.startswith("Process exited with code 0\nOutput:\n") and len(log_out) < len(original), log_out
        assert os.path.isfile(os.path.join(store_dir, "sqz.db"))  # the hook (outside the sandbox) wrote it there
        assert re.fullmatch(r"\S*sqz expand n[0-9]{15,}", state["expand"]), state  # the hint, run as printed
        assert "Process exited with code 0\n" in expanded and "Output:\n" in expanded, expanded  # Codex's own form
        assert expanded.split("Output:\n", 1)[1].rstrip("\n") == original.rstrip("\n")
        # the sandbox refused a write beside the store: the expand above ran read-only
        assert not os.path.exists(probe) and "Process exited with code 0" not in touched, touched
        assert "Read-only file system" in touched, touched
    finally:
        shutil.rmtree(outside, ignore_errors=True)
