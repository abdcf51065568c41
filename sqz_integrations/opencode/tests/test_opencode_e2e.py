"""End to end with the real OpenCode CLI (opencode-ai, pinned by scripts/install_test_agent.sh).

A scripted model on 127.0.0.1 (``oc_scripted_model``) drives ``opencode run`` in a temporary
git repository with real commits; sqz is configured by ``sqz init --only opencode`` from this
checkout. Bash permissions are granular (``"*": "ask"`` with allow rules), so a rewritten
command would not match its rule. The assertions read what the model received.
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

from oc_scripted_model import ScriptedModel, tool_results

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
INSTALL = "sqz_integrations/opencode/scripts/install_test_agent.sh"
SUBJECTS = [f"Add the {w} parser module" for w in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")]


def opencode_bin() -> str:
    path = os.environ.get("SQZ_OPENCODE_BIN") or os.path.join(ROOT, ".test-agents", "opencode", "node_modules",
                                                               ".bin", "opencode")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(f"OpenCode CLI not found at {path}: run {INSTALL} (CI runs it before the tests)")
    return path


def make_env(tmp) -> dict:
    home = tmp / "home"
    home.mkdir()
    # no sqz on PATH (a venv's bin the test runner put there included): the hints must run without one
    path = os.pathsep.join(d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "sqz")))
    env = {"PATH": path, "HOME": str(home), "TMPDIR": str(tmp),
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".local" / "state"),
           "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1",
           "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
           "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
           "OPENCODE_DISABLE_CLAUDE_CODE": "1", "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
           "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER": "1",
           # OpenCode npm-installs @opencode-ai/plugin into the config dir: reuse the install script's cache
           "npm_config_cache": os.path.join(ROOT, ".test-agents", "opencode", "npm-cache"),
           "npm_config_prefer_offline": "true", "npm_config_audit": "false", "npm_config_fund": "false",
           "npm_config_update_notifier": "false"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def make_repo(tmp, env) -> str:
    return make_subject_repo(tmp, env, SUBJECTS)


def install_sqz(tmp, env, repo: str, project: bool = False) -> str:
    """A ``sqz`` program running this checkout, written into OpenCode's config by ``sqz init`` (``--project``:
    the project's ``.opencode/plugins/sqz.js`` naming a bare ``sqz``, found on PATH; returns ``sqz`` then)."""
    bindir = tmp / "bin"
    bindir.mkdir()
    shim = bindir / "sqz"
    pp = f"PYTHONPATH={json.dumps(env['PYTHONPATH'])} " if env.get("PYTHONPATH") else ""
    shim.write_text(f"#!/bin/sh\n{pp}exec {json.dumps(sys.executable)} -m sqz_core \"$@\"\n")
    shim.chmod(0o755)
    if project:  # on PATH; the hook prints hints with this interpreter's sqz, the plugin says them as it runs sqz
        env["PATH"] = str(bindir) + os.pathsep + env["PATH"]
    args = [str(shim), "init", *(["--project"] if project else []), "--only", "opencode"]
    r = subprocess.run(args, cwd=repo, env=dict(env, SQZ_BIN=str(shim)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    plugin = (os.path.join(repo, ".opencode", "plugins", "sqz.js") if project
              else os.path.join(env["XDG_CONFIG_HOME"], "opencode", "plugins", "sqz.js"))
    assert os.path.isfile(plugin), r.stdout + r.stderr
    with open(plugin, encoding="utf-8") as f:
        assert json.dumps(["sqz" if project else str(shim)]) in f.read()
    return "sqz" if project else str(shim)


def write_config(repo: str, base_url: str, sqz: str, permission=None, user_permission=None,
                 env: dict | None = None, agent_permission=None) -> None:
    """The project's ``opencode.json`` (a scripted provider; by default granular bash rules: anything else
    asks, and `opencode run` cannot ask) and, with ``user_permission``, the user's own file. No rule for
    ``sqz expand``: the plugin ``sqz init`` wrote must make the hints runnable."""
    cfg = {"$schema": "https://opencode.ai/config.json", "model": "scripted/m", "autoupdate": False,
           "share": "disabled",
           "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                     "options": {"baseURL": base_url, "apiKey": "test"},
                                     "models": {"m": {"name": "m", "tool_call": True}}}},
           "permission": {"bash": {"*": "ask", "git log*": "allow"}} if permission is None else permission}
    if permission is False:
        del cfg["permission"]
    if agent_permission is not None:  # the agent `opencode run` runs (build) with its own rules
        cfg["agent"] = {"build": {"permission": agent_permission}}
    with open(os.path.join(repo, "opencode.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f)
    if user_permission is not None:
        folder = os.path.join(env["XDG_CONFIG_HOME"], "opencode")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "opencode.json"), "w", encoding="utf-8") as f:
            json.dump({"$schema": "https://opencode.ai/config.json", "permission": user_permission}, f)


def run_opencode(repo: str, env: dict, prompt: str = "Show me the history, then the alpha module.") -> subprocess.CompletedProcess:
    r = subprocess.run([opencode_bin(), "run", prompt], cwd=repo, env=env,
                       capture_output=True, text=True, timeout=180)
    return r


def git_log(repo: str, env: dict) -> str:
    return subprocess.run(["git", "log", "--stat", "-n", "5"], cwd=repo, env=env, capture_output=True, text=True,
                          check=True).stdout


def test_opencode_compresses_bash_output_after_it_ran(tmp_path):
    opencode_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    sqz = install_sqz(tmp_path, env, repo)
    alpha = os.path.join(repo, "alpha.py")
    state = {}

    def step(messages):
        results = tool_results(messages)
        if len(results) == 0:
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "Show history"})
        if len(results) in (1, 2):
            return ("tool", "read", {"filePath": alpha})
        if len(results) == 3:
            m = re.search(r"\[(\S*sqz) expand (n[0-9]{15,})\]", results[0])  # the recovery line
            assert m, results[0]
            state["expand"] = f"{m.group(1)} expand {m.group(2)}"
            return ("tool", "bash", {"command": state["expand"], "description": "Full history"})
        return ("text", "Done.")

    with ScriptedModel(step) as model:
        write_config(repo, model.base_url, sqz)
        r = run_opencode(repo, env)
        assert r.returncode == 0, r.stderr[-3000:]
        last = [q for q in model.requests if q.get("tools")][-1]
        results = tool_results(last["messages"])
    assert len(results) == 4, (results, r.stderr[-3000:])
    log_out, read1, read2, expanded = results
    original = git_log(repo, env)
    # allowed by the "git log*" rule as written, ran in the repository, output compressed with its facts
    assert "permission" not in log_out.lower() and "rejected" not in log_out.lower()
    assert log_out != original and len(log_out) < len(original)
    for subject in SUBJECTS[1:]:
        assert subject in log_out
    for name in ("beta", "gamma", "delta", "epsilon", "zeta"):
        assert f"{name}.py" in log_out
    # the recovery hint says a bare sqz (no sqz on this PATH): the plugin's tool.execute.before names the sqz
    # that init configured in the command the model pasted
    assert shutil.which("sqz", path=env["PATH"]) is None
    assert state["expand"].startswith("sqz expand n") and sqz not in log_out
    # the first read is the file; the second became a ref to it
    assert "def alpha_rule_39(text):" in read1
    assert "§ref:" in read2 and "def alpha_rule_39" not in read2 and len(read2) < len(read1) // 4
    assert "(`sqz expand` this ref" in read2 and sqz not in read2
    # sqz expand ran through OpenCode's bash tool, was not compressed again, and gave the original back
    assert expanded.rstrip("\n") == original.rstrip("\n")


def test_opencode_works_when_sqz_is_gone(tmp_path):
    opencode_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    sqz = install_sqz(tmp_path, env, repo)
    shutil.rmtree(os.path.dirname(sqz))  # the plugin's sqz path no longer exists
    alpha = os.path.join(repo, "alpha.py")

    def step(messages):
        results = tool_results(messages)
        if len(results) == 0:
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "Show history"})
        if len(results) in (1, 2):
            return ("tool", "read", {"filePath": alpha})
        return ("text", "Done.")

    with ScriptedModel(step) as model:
        write_config(repo, model.base_url, sqz)
        r = run_opencode(repo, env)
        assert r.returncode == 0, r.stderr[-3000:]
        results = tool_results([q for q in model.requests if q.get("tools")][-1]["messages"])
    assert len(results) == 3, (results, r.stderr[-3000:])
    assert results[0].rstrip("\n") == git_log(repo, env).rstrip("\n")
    assert "def alpha_rule_39(text):" in results[1] and "def alpha_rule_39(text):" in results[2]


# the user's rules in each shape where OpenCode asks before a bash command (and `opencode run` cannot ask):
# (where: user file or project file, the permission value), plus OpenCode's defaults
HINT_SHAPES = [
    ("default", False, None),
    ("bash-string-user", False, {"bash": "ask"}),
    ("bash-string-project", {"bash": "ask"}, None),
    ("star-project", {"*": "ask", "read": "allow"}, None),
    ("star-project-over-user", {"bash": {"*": "ask"}}, {"bash": {"*": "allow"}}),
    ("permission-string-user", {"read": "allow"}, "ask"),
    ("project-scope-init", {"bash": "ask"}, None),  # `sqz init --project`: the project's plugin, a bare sqz
    ("star-after-bash-project", {"bash": {"git log*": "allow"}, "*": "ask", "read": "allow"}, None),  # "*" decides bash
    ("agent-build-project", False, None),  # agent.build.permission: {"bash": "ask"} (AGENT_RULES)
]
AGENT_RULES = {"agent-build-project": {"bash": "ask"}}


@pytest.mark.parametrize("shape,project,user", HINT_SHAPES, ids=[s[0] for s in HINT_SHAPES])
def test_pasted_ref_hint_runs_as_printed_and_nothing_else_does(tmp_path, shape, project, user):
    """A second read becomes ``§ref:ID§ … (`<sqz> expand` this ref prints it)``; the model pastes it
    (``<sqz> expand '§ref:ID§'``) and gets the file. The same words with a redirection, and a plain
    ``touch``, still ask (refused in ``opencode run``) wherever the user's rules ask."""
    opencode_bin()
    env = make_env(tmp_path)
    repo = make_repo(tmp_path, env)
    sqz = install_sqz(tmp_path, env, repo, project=shape == "project-scope-init")
    alpha = os.path.join(repo, "alpha.py")
    pwned, touched = os.path.join(repo, "pwned.txt"), os.path.join(repo, "touched.txt")
    state = {}

    def step(messages):
        results = tool_results(messages)
        if len(results) in (0, 1):
            return ("tool", "read", {"filePath": alpha})
        if len(results) == 2:
            m = re.search(r"(§ref:[0-9a-z]+(?::L\d+-\d+)?§)[^\n]*\(`([^`\n]+ expand)` this ref", results[1])
            assert m, results[1]
            state["expand"] = f"{m.group(2)} '{m.group(1)}'"
            return ("tool", "bash", {"command": state["expand"], "description": "The file again"})
        if len(results) == 3:
            return ("tool", "bash", {"command": f"{state['expand']} > {pwned}", "description": "Save it"})
        if len(results) == 4:
            return ("tool", "bash", {"command": f"touch {touched}", "description": "Touch"})
        return ("text", "Done.")

    with ScriptedModel(step) as model:
        write_config(repo, model.base_url, sqz, permission=project, user_permission=user, env=env,
                     agent_permission=AGENT_RULES.get(shape))
        r = run_opencode(repo, env, "Read the alpha module twice, then print it in full.")
        assert r.returncode == 0, r.stderr[-3000:]
        results = tool_results([q for q in model.requests if q.get("tools")][-1]["messages"])
    # a refused permission ends `opencode run` (the touch's refusal reaches no model); the default runs it
    assert len(results) == (5 if shape == "default" else 4), (results, r.stderr[-3000:])
    read1, read2, expanded, redirected = results[:4]
    assert "def alpha_rule_39(text):" in read1 and "§ref:" in read2, read2
    assert state["expand"].startswith("sqz expand '§ref:")  # bare: the plugin names its sqz in the command
    # the pasted ref ran as printed and gave back, whole, the read the model was first served
    assert expanded.rstrip("\n") == read1.rstrip("\n"), expanded[-500:]
    if shape == "default":  # OpenCode's defaults allow bash: the user's choice, nothing of sqz's
        assert os.path.exists(pwned) and os.path.exists(touched)
        return
    # the rule sqz added allows only the hint itself: the redirection and `touch` were refused, nothing ran
    assert not os.path.exists(pwned) and "allows only" in redirected, redirected
    assert not os.path.exists(touched) and "rejected permission" in r.stdout + r.stderr, r.stderr[-2000:]
