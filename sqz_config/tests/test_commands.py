"""`sqz config show|get|set|unset|edit|validate|schema`, run as a person would (real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SQZ = [sys.executable, "-m", "sqz_core"]


@pytest.fixture
def home(tmp_path):
    xdg = tmp_path / "xdg"
    (xdg / "sqz").mkdir(parents=True)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "VISUAL", "EDITOR"))}
    env.update(XDG_CONFIG_HOME=str(xdg), SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_DB_PATH=str(tmp_path / "db"))
    return {"env": env, "user": xdg / "sqz" / "config.yaml", "project": project / ".sqz.yaml",
            "cwd": project / "src", "tmp": tmp_path}


def sqz(home, *args, env=None):
    return subprocess.run(SQZ + ["config", *args], capture_output=True, text=True, cwd=home["cwd"],
                          env=dict(home["env"], **(env or {})), stdin=subprocess.DEVNULL, timeout=120)


USER = textwrap.dedent("""\
    # my settings, kept by hand
    time_budget_ms: 1500   # faster than the default
    plugins:
      disable: [kubectl]   # too noisy
    rules:
      - program: kubectl   # always in full
        cache: false
    quiet: true
""")


def test_set_keeps_comments_order_and_style(home):
    home["user"].write_text(USER)
    r = sqz(home, "set", "time_budget_ms", "900")
    assert r.returncode == 0 and r.stdout == f"time_budget_ms = 900 in {home['user']}\n", r.stderr
    assert sqz(home, "set", "rules.0.level", "aggressive").returncode == 0
    assert sqz(home, "set", "pressure.budget", "50000").returncode == 0
    text = home["user"].read_text()
    edited = USER.replace("1500   #", "900    #").replace(  # each comment keeps its column
        "    cache: false\n", "    cache: false\n    level: aggressive\n")
    assert text == edited + "pressure:\n  budget: 50000\n"
    assert sqz(home, "unset", "pressure.budget").returncode == 0
    assert home["user"].read_text() == edited


def test_set_refuses_what_the_schema_rejects_and_leaves_the_file(home):
    home["user"].write_text(USER)
    r = sqz(home, "set", "time_budget_ms", "soon")
    assert r.returncode == 1
    assert f"{home['user']}:2: time_budget_ms: 'soon' is not of type 'integer'" in r.stderr
    assert "left unchanged" in r.stderr and home["user"].read_text() == USER
    r = sqz(home, "set", "time_budgt", "5")
    assert r.returncode == 2 and "unknown key 'time_budgt' (did you mean time_budget_ms?)" in r.stderr
    r = sqz(home, "set", "--project", "store_url", "postgresql://x.example.org/db")
    assert r.returncode == 1 and "store_url: may be set only in the user's config" in r.stderr
    assert not home["project"].exists()


def test_set_project_writes_the_repository_root(home):
    r = sqz(home, "set", "--project", "rules", "[{argv: 'make deploy*', passthrough: true}]")
    assert r.returncode == 0, r.stderr
    assert home["project"].exists()
    got = json.loads(sqz(home, "get", "rules", "--json").stdout)
    assert got["value"] == [{"spec": {"argv": "make deploy*", "passthrough": True},
                             "source": f"{home['project']}:4", "scope": "project"}]


def test_show_and_get_say_where_each_value_came_from(home):
    home["user"].write_text(USER)
    home["project"].write_text("time_budget_ms: 700\n")
    shown = json.loads(sqz(home, "show", "--json", env={"SQZ_REF_TTL_SECS": "60"}).stdout)
    s = shown["settings"]
    assert s["time_budget_ms"] == {"value": 700, "source": f"{home['project']}:1", "env": "SQZ_TIME_BUDGET_MS",
                                   "scope": "any", "help": s["time_budget_ms"]["help"]}
    assert s["quiet"]["value"] is True and s["quiet"]["source"] == f"{home['user']}:8"
    assert s["ref_ttl_secs"]["value"] == 60.0 and s["ref_ttl_secs"]["source"] == "env SQZ_REF_TTL_SECS"
    assert s["max_bytes"]["source"] == "default"
    assert shown["files"] == [str(home["user"]), str(home["project"])] and shown["errors"] == []
    text = sqz(home, "show").stdout
    assert f"project file: {home['project']}" in text and "1. program='kubectl' → no cache" in text
    assert sqz(home, "get", "time_budget_ms").stdout == "700\n"
    assert sqz(home, "get", "plugins.disable").stdout == '["kubectl"]\n'
    assert json.loads(sqz(home, "get", "plugins", "--json").stdout)["value"] == {"load": None, "disable": ["kubectl"]}


def _editor(home, body: str) -> str:
    path = home["tmp"] / "editor.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_edit_keeps_a_valid_edit(home):
    home["user"].write_text(USER)
    r = sqz(home, "edit", env={"EDITOR": _editor(home, 'echo "ref_ttl_secs: 60" >> "$1"\n')})
    assert r.returncode == 0 and r.stdout == f"saved {home['user']}\n"
    assert home["user"].read_text() == USER + "ref_ttl_secs: 60\n"


def test_edit_never_keeps_an_invalid_file_and_says_so(home):
    home["user"].write_text(USER)
    r = sqz(home, "edit", env={"VISUAL": _editor(home, 'echo "  - argv: [" >> "$1"\n')})
    assert r.returncode == 1
    assert f"sqz config edit: {home['user']}:9: invalid YAML" in r.stderr
    assert f"not saved: {home['user']} left unchanged; your edit is in {home['user']}.rejected" in r.stderr
    assert home["user"].read_text() == USER
    assert Path(f"{home['user']}.rejected").read_text().endswith("  - argv: [\n")
    assert sorted(p.name for p in home["user"].parent.iterdir()) == ["config.yaml", "config.yaml.rejected"]


def test_validate_names_every_problem_and_exits_1(home):
    home["user"].write_text(USER)
    home["project"].write_text("quiet: maybe\nrules:\n  - program: make\n")
    r = sqz(home, "validate")
    assert r.returncode == 1 and r.stdout == f"ok: {home['user']}\n"
    assert r.stderr.splitlines() == [
        f"{home['project']}:1: quiet: 'maybe' is not of type 'boolean'",
        f"{home['project']}:3: rules[0]: a rule needs at least one effect: passthrough, cache or level"]
    got = json.loads(sqz(home, "validate", "--json").stdout)
    assert got["ok"] is False and [f["ok"] for f in got["files"]] == [True, False]
    home["project"].write_text("quiet: false\n")
    assert sqz(home, "validate").returncode == 0


def test_schema_is_printed_and_is_the_shipped_file(home):
    r = sqz(home, "schema")
    shipped = Path(__file__).resolve().parents[1] / "src" / "sqz_config" / "config.schema.json"
    assert json.loads(r.stdout) == json.loads(shipped.read_text())


def test_config_help_names_every_verb(home):
    r = subprocess.run(SQZ + ["config", "--help"], capture_output=True, text=True, env=home["env"], timeout=120)
    for verb in ("show", "get", "set", "unset", "edit", "validate", "schema"):
        assert verb in r.stdout
    assert "[tool.sqz]" in r.stdout
