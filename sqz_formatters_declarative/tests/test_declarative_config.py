"""Formatters in the config files (``formatters:`` of ``.sqz.yaml``, ``[tool.sqz]``, the user's
``config.yaml``), read through the core's config loader: the project's need trust, pinned by the
list's content; the core's config schema holds this pack's spec schema."""

from __future__ import annotations

import json
from pathlib import Path

from decl_testlib import FIXTURES

from sqz_core.config import refresh
from sqz_formatters_declarative.sources import active as _active
from sqz_formatters_declarative.trust import list_pins, trust_paths

RAW = (FIXTURES / "pnpm" / "run_test_failed.txt").read_bytes()


def active():
    """The declarative state as a new call sees it (the core's config is looked at once per call)."""
    refresh()
    return _active()


SPEC = """formatters:
  - name: pnpm-run-test
    match: {program: pnpm, subcommand: run}
    drop: ['^ok - ']
    on_failure:
      errors: ['^not ok - ', '^  error: ']
"""


def test_a_project_config_formatter_runs_once_trusted(project, sqz_compress):
    (project / ".sqz.yaml").write_text("quiet: false\n" + SPEC)
    state = active()
    assert state["specs"] == [] and state["untrusted"][0]["source"].endswith(".sqz.yaml")
    done, refused = trust_paths(None)
    assert refused == [] and done[0]["path"].endswith(".sqz.yaml#formatters")
    assert [s["name"] for s in active()["specs"]] == ["pnpm-run-test"]
    result = sqz_compress(RAW, command="pnpm run test", no_cache=True)
    assert result.plugin == "declarative" and b"ok - ms parses 1s" not in result.output
    assert b"not ok - semver.maxSatisfying picks 1.3.0" in result.output
    # another setting changes: the formatters are the same, still trusted
    (project / ".sqz.yaml").write_text("quiet: true\n" + SPEC)
    assert [s["name"] for s in active()["specs"]] == ["pnpm-run-test"]
    # the formatter changes: untrusted again
    (project / ".sqz.yaml").write_text("quiet: true\n" + SPEC.replace("'^ok - '", "'.'"))
    assert active()["specs"] == [] and active()["untrusted"][0]["state"] == "changed"
    assert [r["state"] for r in list_pins()] == ["changed"]


def test_a_pyproject_table_counts_as_project_config(project):
    (project / "pyproject.toml").write_text(
        '[tool.sqz]\n[[tool.sqz.formatters]]\nname = "t"\nmatch = {program = "tool"}\ndrop = ["(a+)+"]\n')
    trusted, refused = trust_paths(str(project / "pyproject.toml"))
    assert trusted == [] and "pyproject.toml:" in refused[0]["reason"] and "formatters[0].drop[0]" in refused[0]["reason"]


def test_the_user_config_needs_no_trust(config_home, tmp_path, monkeypatch):
    (config_home / "sqz").mkdir(parents=True)
    (config_home / "sqz" / "config.yaml").write_text(SPEC)
    monkeypatch.chdir(tmp_path)
    assert [(s["name"], s["origin"]) for s in active()["specs"]] == [("pnpm-run-test", "user-config")]


def test_a_non_linear_pattern_in_the_config_is_named_by_line_and_key(config_home, tmp_path, monkeypatch):
    (config_home / "sqz").mkdir(parents=True)
    (config_home / "sqz" / "config.yaml").write_text(SPEC.replace("'^  error: '", "'(\\w+\\s?)*x'"))
    monkeypatch.chdir(tmp_path)
    state = active()
    assert state["specs"] == []
    (error,) = state["problems"][0]["errors"]
    assert error.startswith(str(config_home / "sqz" / "config.yaml") + ":6: formatters[0].on_failure.errors[1]: ")
    assert "nested quantifier" in error


def test_the_config_schema_holds_this_packs_spec_schema():
    from sqz_config.api import schema as config_schema

    from sqz_formatters_declarative.compile import schema

    mine = json.loads(json.dumps(schema()))
    core = config_schema()
    assert core["properties"]["formatters"]["items"] == {"$ref": "#/$defs/formatter"}
    embedded = dict(core["$defs"]["formatter"])
    embedded.pop("description")
    text = json.dumps(mine)
    for name in mine["$defs"]:
        text = text.replace(f'"#/$defs/{name}"', f'"#/$defs/formatter_{name}"')
    expected = json.loads(text)
    defs = expected.pop("$defs")
    for key in ("$schema", "title", "description"):
        expected.pop(key, None)
    assert embedded == expected
    assert {k: core["$defs"][f"formatter_{k}"] for k in defs} == defs


def test_a_schema_error_in_a_config_formatter_is_the_config_loaders_file_line_key(project):
    from sqz_core.api import load_config

    (project / ".sqz.yaml").write_text(SPEC.replace("drop:", "dorp:"))
    cfg = load_config(str(project), quiet=True)
    assert cfg.formatters == [] and any(".sqz.yaml:4: formatters[0].dorp" in e for e in cfg.errors)
    assert Path(project / ".sqz.yaml").exists()
