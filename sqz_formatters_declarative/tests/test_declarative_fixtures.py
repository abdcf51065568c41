"""The example specs on real captures (ansible-playbook, pnpm): every fact kept, the chatter gone,
and through the whole pipeline a compressed result that ``sqz expand`` gives back byte for byte."""

from __future__ import annotations

import shutil

import pytest
from decl_testlib import EXAMPLES, FIXTURES

from sqz_core.api import FormatRequest, clean_terminal
from sqz_formatters_declarative.compile import compile_file
from sqz_formatters_declarative.engine import apply, matches
from sqz_testing import assert_facts_kept, assert_recoverable, assert_snapshot, iter_fixtures

CASES = iter_fixtures(FIXTURES)
SPEC_FILE = {"ansible": "ansible-playbook.yaml", "pnpm": "pnpm.yaml"}


def _spec_for(fx):
    specs, errors = compile_file(str(EXAMPLES / SPEC_FILE[fx.path.parent.name]), "user")
    assert errors == []
    request = FormatRequest(clean_terminal(fx.text), fx.command, exit_code=fx.meta["exit_code"])
    found = [s for s in specs if matches(s, request)]
    assert len(found) == 1, fx.command
    return found[0], request


def test_the_captures_are_here():
    assert {f"{fx.path.parent.name}/{fx.path.stem}" for fx in CASES} == {
        "ansible/playbook_failed", "ansible/playbook_failed_colour", "ansible/playbook_ok",
        "pnpm/install", "pnpm/run_test_failed"}


@pytest.mark.parametrize("fx", CASES, ids=lambda fx: f"{fx.path.parent.name}/{fx.path.stem}")
def test_facts_kept_chatter_dropped_and_the_snapshot(fx):
    spec, request = _spec_for(fx)
    out = apply(spec, request.text, request.exit_code)
    assert_facts_kept(out, fx.facts)
    for gone in fx.meta["dropped"]:
        assert gone not in out
    assert len(out) < len(request.text) * 0.8
    assert "\x1b" not in out
    assert_snapshot(out, FIXTURES.parent / "snapshots" / fx.path.parent.name / f"{fx.path.stem}.txt")


@pytest.mark.parametrize("fx", [fx for fx in CASES if fx.meta["exit_code"] != 0],
                         ids=lambda fx: f"{fx.path.parent.name}/{fx.path.stem}")
def test_a_failing_run_keeps_every_line_its_error_patterns_match(fx):
    import re

    spec, request = _spec_for(fx)
    out_lines = set(apply(spec, request.text, request.exit_code).splitlines())
    errors = [re.compile(p) for p, _ in spec["errors"]]
    hits = [line for line in request.text.splitlines() if any(rx.search(line) for rx in errors)]
    assert hits and all(line in out_lines for line in hits)


def test_near_misses_are_not_theirs():
    specs, _ = compile_file(str(EXAMPLES / "pnpm.yaml"), "user")
    for command in ("pnpm outdated", "npm install", "pnpm", "yarn run test"):
        assert not any(matches(s, FormatRequest("x\n", command)) for s in specs), command
    ansible, _ = compile_file(str(EXAMPLES / "ansible-playbook.yaml"), "user")
    assert not matches(ansible[0], FormatRequest("x\n", "ansible localhost -m ping"))


@pytest.mark.parametrize("name", ["playbook_failed", "playbook_ok"])
def test_the_whole_pipeline_with_a_trusted_project_spec(name, project, sqz_compress):
    from sqz_formatters_declarative.trust import trust_paths

    fx = next(fx for fx in CASES if fx.path.stem == name)
    shutil.copy(EXAMPLES / "ansible-playbook.yaml", project / ".sqz" / "formatters" / "ansible.yaml")
    done, refused = trust_paths(None)
    assert refused == [] and len(done) == 1
    result = sqz_compress(fx.raw, command=fx.command, no_cache=True)
    assert result.outcome == "compressed" and result.plugin == "declarative"
    out = result.output.decode()
    assert_facts_kept(out, fx.facts)
    assert "expand" in out.splitlines()[-1]  # the core's recovery line
    assert_recoverable(fx.raw, result, sqz_compress.store)
