"""The verbs as a user runs them: ``sqz formatters test|check|list|new`` and ``sqz trust``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from decl_testlib import EXAMPLES, FIXTURES


def sqz(*args, cwd=None, ok=(0,)):
    r = subprocess.run([sys.executable, "-m", "sqz_core", *args], cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode in ok, (args, r.returncode, r.stdout[-800:], r.stderr[-800:])
    return r


def test_formatters_test_prints_before_after_tokens_and_facts():
    fx = FIXTURES / "pnpm" / "run_test_failed"
    r = sqz("formatters", "test", str(EXAMPLES / "pnpm.yaml"), "--on", f"{fx}.txt", "--facts", f"{fx}.json")
    assert "formatter pnpm-run-test" in r.stdout and "command: pnpm run test; exit status: 1" in r.stdout
    assert "--- before: 24 lines" in r.stdout and "(cl100k) ---" in r.stdout
    assert "--- facts: 4 of 4 kept ---" in r.stdout
    data = json.loads(sqz("formatters", "test", str(EXAMPLES / "pnpm.yaml"), "--on", f"{fx}.txt", "--facts",
                          f"{fx}.json", "--json").stdout)
    assert data["formatter"] == "pnpm-run-test" and data["tokenizer"] == "cl100k" and data["facts_missing"] == 0
    assert data["after"]["tokens"] < data["before"]["tokens"]
    assert "ok - ms parses 1s" in data["before"]["text"] and "ok - ms parses 1s" not in data["after"]["text"]


def test_a_lost_fact_exits_1_and_is_named(tmp_path):
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(["ok - ms parses 1s", "19 passed, 1 failed"]))
    r = sqz("formatters", "test", str(EXAMPLES / "pnpm.yaml"), "--on", str(FIXTURES / "pnpm" / "run_test_failed.txt"),
            "--facts", str(facts), "--cmd", "pnpm run test", "--exit", "1", ok=(1,))
    assert '  MISSING "ok - ms parses 1s"' in r.stdout and '  kept    "19 passed, 1 failed"' in r.stdout


def test_a_command_no_spec_matches_is_said(tmp_path):
    r = sqz("formatters", "test", str(EXAMPLES / "pnpm.yaml"), "--on", str(FIXTURES / "pnpm" / "install.txt"),
            "--cmd", "yarn install", ok=(1,))
    assert "no formatter in" in r.stdout and "matches 'yarn install'" in r.stdout


def test_check_names_file_line_and_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nmatch:\n  program: tool\nfold: ['(a|ab)*c']\nhaed: 3\n")
    r = sqz("formatters", "check", str(bad), str(EXAMPLES / "ansible-playbook.yaml"), ok=(1,))
    assert f"{bad}:5: haed: Additional properties are not allowed" in r.stdout
    assert f"{bad}:4: fold[0]: '(a|ab)*c': a nested quantifier" in r.stdout
    assert "ok    " in r.stdout and "(ansible-playbook)" in r.stdout
    data = json.loads(sqz("formatters", "check", str(bad), "--json", ok=(1,)).stdout)
    assert data["errors"] == 2


def test_trust_list_and_revoke_from_the_command_line(tmp_path):
    project = tmp_path / "p"
    (project / ".sqz" / "formatters").mkdir(parents=True)
    shutil.copy(EXAMPLES / "ansible-playbook.yaml", project / ".sqz" / "formatters" / "ansible.yaml")
    listed = json.loads(sqz("formatters", "list", "--json", cwd=project).stdout)
    assert listed["formatters"] == [] and listed["untrusted"][0]["state"] == "untrusted"
    done = json.loads(sqz("trust", "--json", cwd=project).stdout)
    assert [r["formatters"] for r in done["trusted"]] == [["ansible-playbook"]]
    assert "trusted   " in sqz("trust", "--list", cwd=project).stdout
    listed = json.loads(sqz("formatters", "list", "--json", cwd=project).stdout)
    assert [s["name"] for s in listed["formatters"]] == ["ansible-playbook"]
    assert "revoked " in sqz("trust", "--revoke", cwd=project).stdout
    assert "no project formatter is trusted" in sqz("trust", "--list", cwd=project).stdout


def test_formatters_new_scaffolds_a_pack_whose_own_tests_pass(tmp_path):
    r = sqz("formatters", "new", "deploy-tool", "--dir", str(tmp_path))
    root = tmp_path / "sqz-formatters-deploy-tool"
    assert f"created {root}" in r.stdout
    pyproject = (root / "pyproject.toml").read_text()
    assert 'deploy-tool = "sqz_formatters_deploy_tool.deploy_tool"' in pyproject
    assert '[project.entry-points."sqz.formatters"]' in pyproject and "sqz-testing>=0.2,<0.3" in pyproject
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=root, env=env,
                           capture_output=True, text=True, timeout=300)
    assert tests.returncode == 0, tests.stdout[-2000:] + tests.stderr[-2000:]
    assert "4 passed" in tests.stdout
    # the module is a valid plugin as the core's index would describe it
    check = subprocess.run([sys.executable, "-c", "import json; from sqz_core.plugins import describe_plugin; "
                            "import sqz_formatters_deploy_tool.deploy_tool as m; print(json.dumps(describe_plugin(m)))"],
                           cwd=root, env=dict(env, PYTHONPATH=str(root / "src")), capture_output=True, text=True,
                           check=True)
    described = json.loads(check.stdout)
    assert described["problem"] is None and described["commands"] == ["deploy-tool"]
    again = sqz("formatters", "new", "deploy-tool", "--dir", str(tmp_path), ok=(1,))
    assert "already exists" in again.stderr
    assert "is not a pack name" in sqz("formatters", "new", "Bad Name", "--dir", str(tmp_path), ok=(1,)).stderr
