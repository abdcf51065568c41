"""Config files: precedence, pyproject, errors naming file/line/key, rules in real calls, the hot path."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sqz_core import config
from sqz_config import settings
from sqz_config.api import schema

ROOT = Path(__file__).resolve().parents[2]
LOG = ["git", "-C", str(ROOT), "log", "--stat", "-n", "15", "6b23c68"]  # a fixed commit: the same bytes every run


@pytest.fixture
def where(tmp_path, monkeypatch):
    """A user config dir and a project (a git work tree with a subdirectory), the cwd in the subdirectory."""
    xdg = tmp_path / "xdg"
    (xdg / "sqz").mkdir(parents=True)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    monkeypatch.delenv("SQZ_CONFIG", raising=False)  # the root conftest's: the user file is found by XDG here
    monkeypatch.chdir(project / "src")
    for setting in settings.SETTINGS:
        if setting[1] != "SQZ_DB_PATH":  # the test's own store (the root conftest's)
            monkeypatch.delenv(setting[1], raising=False)
    config.forget()
    yield {"user": xdg / "sqz" / "config.yaml", "project": project / ".sqz.yaml", "root": project,
           "pyproject": project / "pyproject.toml", "cwd": project / "src"}
    config.forget()


def write(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def test_defaults_then_user_then_project_then_environment(where, monkeypatch, capsys):
    assert settings.value("ref_ttl_secs") == (1800, "default")
    write(where["user"], """
        # mine
        ref_ttl_secs: 600
        time_budget_ms: 900
    """)
    assert settings.value("ref_ttl_secs") == (600, f"{where['user']}:2")
    assert config.env("SQZ_REF_TTL_SECS") == "600"
    write(where["project"], "ref_ttl_secs: 60\n")
    assert settings.value("ref_ttl_secs") == (60, f"{where['project']}:1")
    assert settings.value("time_budget_ms") == (900, f"{where['user']}:3")  # the user's keys the project leaves
    from sqz_core.dedup import ref_ttl

    assert ref_ttl() == 60.0
    monkeypatch.setenv("SQZ_REF_TTL_SECS", "5")
    assert settings.value("ref_ttl_secs") == (5.0, "env SQZ_REF_TTL_SECS")
    assert ref_ttl() == 5.0
    monkeypatch.setenv("SQZ_REF_TTL_SECS", "")  # set, even empty: the variable wins as it always did
    assert config.env("SQZ_REF_TTL_SECS") == ""
    assert capsys.readouterr().err == ""


def test_inverted_and_list_settings_read_as_their_variables(where, monkeypatch):
    write(where["user"], "dedup: false\nabbreviate: false\nplugins:\n  disable: [git, pytest]\nquiet: true\n")
    assert config.env("SQZ_NO_DEDUP") == "1" and config.env("SQZ_NO_ABBREV") == "1"
    assert config.env("SQZ_DISABLE_PLUGINS") == "git,pytest" and config.env("SQZ_QUIET") == "1"
    from sqz_core.plugins import enabled

    names = [r["name"] for r in enabled([{"name": "git"}, {"name": "cargo"}, {"name": "pytest"}])]
    assert names == ["cargo"]
    monkeypatch.setenv("SQZ_DISABLE_PLUGINS", "cargo")
    assert [r["name"] for r in enabled([{"name": "git"}, {"name": "cargo"}])] == ["git"]


def test_pyproject_tool_sqz_is_the_project_config(where):
    write(where["pyproject"], """
        [project]
        name = "x"

        [tool.sqz]
        time_budget_ms = 700

        [[tool.sqz.rules]]
        program = "make"
        passthrough = true
    """)
    assert settings.value("time_budget_ms") == (700, f"{where['pyproject']}:5")
    rule = config.rule_for("make deploy")
    assert rule["file"] == str(where["pyproject"]) and rule["scope"] == "project"
    write(where["project"], "time_budget_ms: 800\n")  # in the same directory .sqz.yaml wins
    assert settings.value("time_budget_ms")[0] == 800
    assert config.rule_for("make deploy") is None


def test_a_pyproject_without_tool_sqz_is_passed_on_the_way_up(where):
    write(where["cwd"] / "pyproject.toml", '[project]\nname = "inner"\n')
    write(where["project"], "time_budget_ms: 800\n")
    assert settings.value("time_budget_ms") == (800, f"{where['project']}:1")


@pytest.mark.parametrize("text, line, key, words", [
    ("quiet: true\ntime_budget_ms: fast\n", 2, "time_budget_ms", "is not of type 'integer'"),
    ("quiet: true\nrules:\n  - program: make\n    level: fastest\n", 4, "rules[0].level", "is not one of"),
    ("quiet: true\nrules:\n  - program: make\n", 3, "rules[0]", "at least one effect"),
    ("rules:\n  - passthrough: true\n", 2, "rules[0]", "at least one matcher"),
    ("quiet: true\npressure:\n  budgett: 5\n", 3, "pressure.budgett", "unknown key"),
    ("quiet: [true\n", 1, None, "invalid YAML"),
])
def test_a_broken_file_is_named_by_line_and_key_and_ignored(where, capsys, text, line, key, words):
    write(where["user"], "ref_ttl_secs: 600\n")
    where["project"].write_text(text, encoding="utf-8")
    cfg = config.load()
    assert cfg.files == [str(where["user"])]  # the project file ignored whole, the user's still used
    assert settings.value("ref_ttl_secs")[0] == 600 and settings.value("quiet")[0] is False
    (err,) = cfg.errors
    assert err.startswith(f"sqz: config {where['project']}:{line}: ") and err.endswith("; file ignored")
    assert words in err and (key is None or f": {key}: " in err), err
    assert capsys.readouterr().err == err + "\n"
    config.load()
    assert capsys.readouterr().err == ""  # said once per process


def test_pyproject_errors_name_their_line(where):
    write(where["pyproject"], '[tool.sqz]\nquiet = true\n\n[[tool.sqz.rules]]\nprogram = "make"\nlevel = "x"\n')
    (err,) = config.load(quiet=True).errors
    assert f"{where['pyproject']}:6: rules[0].level: 'x' is not one of" in err


def test_a_project_may_not_redirect_the_store_or_upstreams(where):
    write(where["project"], "quiet: true\nstore_url: postgresql://evil.example.org/x\n")
    (err,) = config.load(quiet=True).errors
    assert f"{where['project']}:2: store_url: may be set only in the user's config" in err
    assert config.env("SQZ_STORE_URL") is None and config.env("SQZ_QUIET") is None
    write(where["user"], "store_url: sqlite:///tmp/x.db\n")
    config.forget()
    assert config.env("SQZ_STORE_URL") == "sqlite:///tmp/x.db"


def test_sqz_config_names_the_user_file(where, monkeypatch, tmp_path):
    write(where["user"], "time_budget_ms: 900\n")
    other = tmp_path / "elsewhere.yaml"
    write(other, "time_budget_ms: 800\n")
    monkeypatch.setenv("SQZ_CONFIG", str(other))
    assert settings.value("time_budget_ms") == (800, f"{other}:1")
    monkeypatch.setenv("SQZ_CONFIG", "")  # set but empty: no user file at all
    assert settings.value("time_budget_ms") == (2000, "default")


def test_an_edited_file_is_read_again(where):
    write(where["user"], "time_budget_ms: 900\n")
    assert settings.value("time_budget_ms")[0] == 900
    write(where["user"], "time_budget_ms: 12345\n")  # another size: another snapshot key
    assert settings.value("time_budget_ms")[0] == 12345
    where["user"].unlink()
    assert settings.value("time_budget_ms") == (2000, "default")


def test_rules_match_program_subcommand_argv_and_tool(where):
    write(where["project"], """
        rules:
          - argv: "make deploy*"
            passthrough: true
          - program: terraform
            subcommand: apply
            level: aggressive
          - tool: read_*
            cache: false
    """)
    write(where["user"], "rules:\n  - program: make\n    cache: false\n")
    assert config.rule_for("make deploy prod")["line"] == 2  # the project's rules come first
    assert config.rule_for("make test")["scope"] == "user"
    assert config.rule_for("sudo terraform -chdir=x apply -auto-approve")["spec"]["level"] == "aggressive"
    assert config.rule_for("terraform plan") is None
    assert config.rule_for(None, tool="read_file")["spec"] == {"tool": "read_*", "cache": False}
    assert config.rule_for("cat read_me") is None


def test_the_schema_describes_every_setting():
    props = schema()["properties"]
    for key, env, kind, default, scope, _doc in settings.SETTINGS:
        node = props
        *parents, last = key.split(".")
        for p in parents:
            node = node[p]["properties"]
        entry = node[last]
        assert entry["x-env"] == env, key
        assert entry.get("default") == default, key
        assert bool(entry.get("x-user-only")) == (scope == "user"), key
        assert entry.get("x-env-inverted", False) == (kind == "not:bool"), key
    assert props["formatters"]["type"] == "array"  # its items: the declarative formatter specs
    # each formatter is an object: the declarative pack's spec schema, held in $defs/formatter
    item = props["formatters"]["items"]
    assert item == {"$ref": "#/$defs/formatter"}
    assert schema()["$defs"]["formatter"]["type"] == "object"
    assert schema()["$defs"]["formatter"]["required"] == ["name", "match"]


def test_docs_name_every_key_and_variable():
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for key, env, *_ in settings.SETTINGS:
        assert f"`{key}`" in doc and f"`{env}`" in doc, key


# -- real calls ------------------------------------------------------------------------------------
def _env(where) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(XDG_CONFIG_HOME=str(where["user"].parent.parent), SQZ_DB_PATH=os.environ["SQZ_DB_PATH"],
               SQZ_CACHE_DIR=os.environ["SQZ_CACHE_DIR"], SQZ_SESSION="config-test", SQZ_DAEMON="0",
               SQZ_TIME_BUDGET_MS="0")  # no time budget: the same answer on a box at any load
    return env


def _sqz(where, *args, data: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True,
                          cwd=where["cwd"], env=_env(where), timeout=120)


def test_a_passthrough_rule_in_sqz_run_and_compress(where):
    raw = subprocess.run(LOG, capture_output=True, check=True).stdout
    shortened = _sqz(where, "run", "--", *LOG)
    assert shortened.returncode == 0 and len(shortened.stdout) < len(raw) * 0.8  # what the rule changes
    write(where["project"], "rules:\n  - program: git\n    subcommand: log\n    passthrough: true\n")
    ran = _sqz(where, "run", "--", *LOG)
    assert ran.returncode == 0 and ran.stdout == raw
    assert ran.stderr.decode() == "sqz: sent unchanged (rule at ../.sqz.yaml:2)\n"
    piped = _sqz(where, "compress", "--cmd", " ".join(LOG), data=raw)
    assert piped.returncode == 0 and piped.stdout == raw
    other = _sqz(where, "compress", "--cmd", "git -C x show --stat", data=raw)  # not log: not the rule's
    assert len(other.stdout) < len(raw)


def test_a_no_cache_rule_sends_repeats_in_full(where):
    raw = subprocess.run(LOG, capture_output=True, check=True).stdout
    cmd = " ".join(LOG)
    _sqz(where, "compress", "--cmd", cmd, data=raw)
    again = _sqz(where, "compress", "--cmd", cmd, data=raw)
    assert again.stdout.startswith(b"\xc2\xa7ref:")  # without a rule: a ref
    write(where["user"], "rules:\n  - program: git\n    cache: false\n")
    first = _sqz(where, "compress", "--cmd", cmd, data=raw)
    second = _sqz(where, "compress", "--cmd", cmd, data=raw)
    assert not first.stdout.startswith(b"\xc2\xa7ref:") and second.stdout == first.stdout


def test_a_broken_config_never_breaks_the_wrapped_command(where):
    where["project"].write_text("rules:\n  - program: [make\n", encoding="utf-8")
    ran = _sqz(where, "run", "--", "sh", "-c", "echo out; echo err >&2; exit 7")
    assert ran.returncode == 7 and ran.stdout == b"out\nerr\n"
    (line,) = ran.stderr.decode().splitlines()
    assert line.startswith(f"sqz: config {where['project']}:2: invalid YAML") and line.endswith("file ignored")
    again = _sqz(where, "compress", "--cmd", "make", data=b"hello\n")  # warm: still said, still harmless
    assert again.returncode == 0 and again.stdout == b"hello\n" and again.stderr.decode().splitlines() == [line]


def test_a_level_rule_is_the_mode_unless_one_is_given(where):
    # --no-cache: each call shows its own rendering, never a ref to the one before
    # a real `ps aux --sort=-rss` (its sidecar names the version): the default gate keeps it whole (a table that
    # only collapses its padding goes out so since issue 25's no-recovery rule: `ps auxf` no longer serves here),
    # aggressive shortens it
    raw = (ROOT / "sqz_formatters_generic/tests/fixtures/kinds/table/h2_ps_aux_sort_rss.txt").read_bytes()
    assert _sqz(where, "compress", "--no-cache", "--cmd", "ps aux --sort=-rss", data=raw).stdout == raw
    aggressive = _sqz(where, "compress", "--no-cache", "--mode", "aggressive", "--cmd", "ps aux --sort=-rss",
                      data=raw).stdout
    assert len(aggressive) < len(raw)
    write(where["project"], "rules:\n  - program: ps\n    subcommand: aux\n    level: aggressive\n")
    assert _sqz(where, "compress", "--cmd", "ps aux --sort=-rss", "--no-cache", data=raw).stdout == aggressive
    assert _sqz(where, "compress", "--cmd", "ps aux --sort=-rss", "--no-cache", "--mode", "default",
                data=raw).stdout == raw  # --mode wins
    assert _sqz(where, "compress", "--no-cache", "--cmd", "ps ax --sort=-rss", data=raw).stdout == raw  # not the rule's subcommand


def test_a_project_file_of_another_user_is_not_obeyed(where, monkeypatch):
    """As git's safe.directory: a .sqz.yaml someone else could plant above your work (/tmp) is ignored, said."""
    write(where["project"], "rules:\n  - program: make\n    passthrough: true\n")
    assert config.rule_for("make") is not None
    if os.getuid() == 0:  # root (CI): the file really changes hands
        me, owner = 0, 4242
        os.chown(where["project"], owner, owner)
    else:  # a user cannot give a file away: this process plays another user instead
        owner = os.getuid()
        me = owner + 4242
        monkeypatch.setattr(os, "getuid", lambda: me)
    config.forget()
    cfg = config.load(quiet=True)
    assert cfg.rules == [] and cfg.errors == [
        f"sqz: config {where['project']}: owned by uid {owner}, not by you (uid {me}); file ignored"]
