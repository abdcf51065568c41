"""npm / pnpm / yarn / bun: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from pathlib import Path

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import js_npm as formatter

# refused: outputs with nothing to win or not ours: the formatter must answer None
suite = FormatterSuite(formatter, "npm", refused={'install_notarget', 'run_missing', 'audit_endpoint_error', 'ls_invalid',
                                                  'outdated_table',
                                                  # held-out pass #2: not ours (ls, outdated, audit, npx prettier) or a
                                                  # script whose output no formatter here knows (tsc --listEmittedFiles)
                                                  'h2_npm_audit', 'h2_npm_ls_all', 'h2_npm_outdated',
                                                  'h2_npm_run_build_ok', 'h2_npx_prettier_check'})
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'bun_add', 'install_deprecated', 'pnpm_add', 'run_build_fail', 'test_jest', 'test_node', 'test_vitest', 'yarn_add'},
    ratios={'test_vitest': 0.8, 'test_node': 0.67, 'yarn_add': 0.16, 'pnpm_add': 0.2, 'test_green': 0.42, 'test_jest': 0.98,
            'install_eresolve': 0.85, 'install_force_peer': 0.86, 'install_deprecations_audit': 0.82}))


def test_near_miss_other_subcommands():
    assert ask(text_of("npm", "test_jest"), "npm ls", 1) is None
    assert ask(text_of("npm", "install_deprecated"), "npm view request") is None


def test_near_miss_unrecognised_script_output():
    # a script whose output no formatter here knows (eslint's) is left alone
    body = "\n> sqzdemo@1.0.0 lint\n> eslint lint\n\n" + text_of("eslint", "errors")
    assert ask(body, "npm run lint", 1) is None
    assert ask(cut_tail(text_of("npm", "test_jest"), 6), "npm test", 1) is None


def test_near_miss_not_an_install():
    assert ask(text_of("ruff", "check_errors"), "npm install", 1) is None


def test_script_output_goes_to_the_right_formatter():
    out = run(other("npm", "test_jest"))
    assert "> jest jtests" not in out and "Test Suites: 2 failed, 1 passed, 3 total" in out
    out = run(other("npm", "test_node"))
    assert "# fail 3" in out and "not ok 2 - throws" in out


def test_near_miss_unexplained_exit_status():
    assert ask(text_of("npm", "test_green"), "npm run test:green", 1) is None


def test_npm_test_running_jest_renders_its_traces_and_is_recoverable(tmp_path):
    """`npm test` → jest: the report's stack traces are rendered by the jest formatter through npm
    (reports_traces), so the output is compressed, stored and ends with its recovery line."""
    from sqz_core.pipeline import compress
    from sqz_core.safety import classify
    from sqz_core.store import Store
    from sqz_testing import load_fixture, missing_facts

    assert formatter.reports_traces is True
    fx = load_fixture(Path(__file__).parent / "fixtures" / "npm" / "test_jest.json")
    assert classify(fx.request().text).level == "safe"  # its traces alone would keep it verbatim
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s")
    out = result.output.decode()
    assert result.outcome == "compressed" and result.plugin == "npm"
    from sqz_core.api import decimal_id

    assert out.rstrip("\n").endswith(f"expand {decimal_id(result.digest)}]")  # the recovery line's id
    assert store.get_blob(result.digest) == fx.raw
    assert missing_facts(out, fx.facts) == []
    assert "at Object.toBe (jtests/math.test.js:8:23)" in out
