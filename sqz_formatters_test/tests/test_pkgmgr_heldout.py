"""Held-out package-manager captures (npm ci/ls/outdated/audit/ERESOLVE/script crash, pnpm, pip/uv): what
survives, what goes, and damaged input.

The fixtures are real runs captured by scripts/capture_python_js.py (capture_npm_heldout,
capture_pip_heldout); the family modules check their facts and snapshots, this one the specific renderings.
"""

from __future__ import annotations

from sqz_core import FormatRequest

from fmt_test_suite import other, text_of
from sqz_formatters_test import js_npm, py_pip


def _npm(name, **kw):
    return js_npm.sqz_format(request=other("npm", name).request(**kw))


def _pip(name):
    return py_pip.sqz_format(request=other("pip", name).request())


def _ask(mod, text, command, exit_code=None):
    return mod.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))


# ---------------------------------------------------------------- npm EUSAGE

def test_npm_usage_error_keeps_message_drops_the_reference():
    text, out = text_of("npm", "ci_no_lockfile"), _npm("ci_no_lockfile")
    assert "Sets the strategy for installing packages" in text
    assert "code EUSAGE" in out
    assert "The `npm ci` command can only install with an existing package-lock.json or" in out
    assert 'Run "npm help ci" for more info' in out
    assert "A complete log of this run can be found in:" in out
    for gone in ("Clean install a project", "Usage:", "--install-strategy", "aliases: clean-install", "Options:"):
        assert gone not in out, gone
    assert "(90 lines of usage and options dropped)" in out
    assert len(out) < len(text) / 5


def test_npm_usage_error_from_any_subcommand():
    """The EUSAGE report is npm's own, whatever the command: `npm ls --bogus` gets the same treatment."""
    out = _ask(js_npm, text_of("npm", "ci_no_lockfile"), "npm ls --bogus", 1)
    assert out is not None and "usage and options dropped" in out


def test_npm_usage_error_cut_before_the_help_pointer_is_not_trimmed():
    text = text_of("npm", "ci_no_lockfile")
    cut = text[:text.index('npm error Run "npm help ci"')]
    assert js_npm.drop_usage(cut.splitlines()) is None
    out = _ask(js_npm, cut, "npm ci", 1)
    assert out is None or "--install-strategy" in out   # never a summary claiming a dropped block it did not see


def test_npm_usage_without_eusage_code_is_not_trimmed():
    lines = text_of("npm", "ci_no_lockfile").replace("npm error code EUSAGE", "npm error code E404").splitlines()
    assert js_npm.drop_usage(lines) is None


# ---------------------------------------------------------------- installs

def test_held_back_install_scripts_name_their_packages():
    text, out = text_of("npm", "install_legacy_tree"), _npm("install_legacy_tree")
    assert "added 356 packages in 23s" in out
    assert "npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:" in out
    assert "core-js@2.6.12 (postinstall: node -e" in out
    assert "Run `npm install-scripts ls` to review" in text and "Run `npm install-scripts ls`" not in out
    assert "npm warn install-scripts\n" not in out


def test_pnpm_peer_issue_warning_kept_progress_dropped():
    out = _npm("pnpm_peer_issues")
    assert '[WARN] Issues with peer dependencies found. Run "pnpm peers check" to list them.' in out
    assert "+ eslint 9.39.5 (10.15.0 is available)" in out and "Packages: +231" in out
    assert "Progress: resolved" not in out and "Content-addressable store is at" not in out


def test_eresolve_report_keeps_both_sides_of_the_conflict():
    out = _npm("install_eresolve_eslint")
    assert "npm error:" in out.splitlines()
    for part in ("code ERESOLVE", "Found: eslint@9.39.5",
                 'peer eslint@"^7.32.0 || ^8.2.0" from eslint-config-airbnb@19.0.4',
                 'eslint-config-airbnb@"19" from the root project', "--legacy-peer-deps"):
        assert part in out, part


def test_npm_reports_with_nothing_to_drop_are_refused():
    assert _npm("audit_endpoint_error") is None
    assert _npm("outdated_table") is None
    assert _npm("ls_invalid") is None


# ---------------------------------------------------------------- npm run: a crashing node script

def test_crashing_script_keeps_its_frames_and_folds_nodes():
    text, out = text_of("npm", "run_script_crash"), _npm("run_script_crash")
    assert "Error: ENOENT: no such file or directory, scandir './migrations'" in out
    for frame in ("at Object.readdirSync (node:fs:1521:26)",
                  "at readMigrations (/tmp/sqz-capture/pyjs/npmcrash/scripts/migrate.js:4:13)",
                  "at main (/tmp/sqz-capture/pyjs/npmcrash/scripts/migrate.js:8:17)",
                  "at Object.<anonymous> (/tmp/sqz-capture/pyjs/npmcrash/scripts/migrate.js:12:1)"):
        assert frame in out, frame
    assert "Module._compile" in text and "Module._compile" not in out
    assert "[6 frames in node:internal/modules/cjs/loader, node:internal/modules/run_main, " \
           "node:internal/main/run_main_module] {" in out
    assert out.rstrip().endswith("Node.js v20.20.2")
    assert "code: 'ENOENT'" in out and "path: './migrations'" in out


def test_script_output_without_nodes_trailer_is_not_ours():
    text = text_of("npm", "run_script_crash").replace("Node.js v20.20.2", "")
    assert _ask(js_npm, text, "npm run migrate", 1) is None
    # a script printing frames but exiting normally is not a crash report either
    assert not js_npm.is_node_crash(["    at x (/a.js:1:1)", "done"])


# ---------------------------------------------------------------- npm test → jest (big)

def test_npm_test_big_jest_run_goes_through_jest():
    out = _npm("test_jest_big")
    assert "> jest --ci jbig" not in out
    assert "Tests:       12 failed, 171 passed, 183 total" in out
    assert "Cause: (the message above)" in out


# ---------------------------------------------------------------- pip / uv

def test_pip_downgrade_keeps_the_replaced_version_and_the_conflict():
    text, out = text_of("pip", "install_breaks_dependent"), _pip("install_breaks_dependent")
    assert "Successfully uninstalled docutils-0.22.4" in out.splitlines()
    assert "sphinx 9.0.4 requires docutils<0.23,>=0.20, but you have docutils 0.17.1 which is incompatible." in out
    assert "Successfully installed docutils-0.17.1" in out
    assert "Attempting uninstall" in text and "Attempting uninstall" not in out
    assert "Found existing installation" not in out


def test_pip_conflict_keeps_causes_drops_generic_advice():
    out = _pip("install_conflict")
    assert "The conflict is caused by:" in out
    assert "    The user requested urllib3<1.21" in out.splitlines()
    assert "    requests 2.31.0 depends on urllib3<3 and >=1.21.1" in out.splitlines()
    assert "ERROR: ResolutionImpossible" in out
    for gone in ("To fix this you could try to:", "1. loosen the range", "2. remove package versions",
                 "INFO: pip is looking at multiple versions"):
        assert gone not in out, gone


def test_pip_large_install_is_its_result_line():
    out = _pip("install_many")
    assert out.splitlines()[0].startswith("Successfully installed Jinja2-3.1.6 ")
    assert "Processing " not in out and "WARNING: Location" not in out and "Downloading" not in out
    assert out.splitlines()[-1] == "(58 lines of index/download/progress output dropped)"


def test_uv_large_install_keeps_every_package_drops_downloads():
    text, out = text_of("pip", "uv_install_many"), _pip("uv_install_many")
    added = [x for x in text.splitlines() if x.startswith(" + ")]
    assert len(added) == 22 and all(x in out.splitlines() for x in added)
    assert " Downloaded babel" in text and "Downloaded" not in out and "Downloading" not in out
    assert "Installed 22 packages in 80ms" in out


def test_uv_conflict_keeps_the_whole_explanation():
    text, out = text_of("pip", "uv_install_conflict"), _pip("uv_install_conflict")
    assert out == text.split("\n", 1)[1]   # only uv's `Using Python … environment` line goes


# ---------------------------------------------------------------- pnpm / yarn running the same suites

def test_pnpm_and_yarn_test_scripts_go_through_jest():
    for name, trailer in (("pnpm_test_jest_big", "[ELIFECYCLE] Test failed. See above for more details."),
                          ("yarn_test_jest_big", "error Command failed with exit code 1.")):
        out = _npm(name)
        assert out is not None, name
        assert "$ jest --ci jbig" not in out and "yarn run v1.22.22" not in out
        assert "Tests:       12 failed, 171 passed, 183 total" in out
        assert trailer in out


def test_pnpm_exec_has_no_banner_and_is_still_recognised():
    text, out = text_of("npm", "pnpm_exec_vitest_big"), _npm("pnpm_exec_vitest_big")
    assert not text.lstrip().startswith(("$ ", "> "))
    assert out is not None and "⎯ Failed Tests 6 ⎯" in out and "✓ total > line 0" not in out


def test_exec_of_an_unknown_binary_is_not_ours():
    body = text_of("npm", "run_script_crash").split("\n", 3)[3]   # the crash without npm's banner
    assert _ask(js_npm, text_of("eslint", "errors"), "pnpm exec eslint lint", 1) is None
    assert _ask(js_npm, "hello\nworld\n", "npm exec cowsay hello", 0) is None
    assert _ask(js_npm, cut_body(body), "pnpm dlx some-tool", 1) is None


def cut_body(body):
    """The crash output cut before node's closing ``Node.js vX`` line (not a complete crash report)."""
    return body[:body.index("Node.js v")]


def test_uv_add_conflict_has_nothing_to_drop():
    """`uv add`/`uv remove` get the uv pip install rendering; a resolution error has no chatter: left alone."""
    assert _pip("uv_add_conflict") is None


def test_uv_indented_build_lines_are_chatter_package_lines_stay():
    text = ("Resolved 3 packages in 10ms\n   Building demo @ file:///w/demo\n      Built demo @ file:///w/demo\n"
            "Prepared 1 package in 2ms\nInstalled 1 package in 1ms\n ~ demo==0.1.0 (from file:///w/demo)\n")
    out = _ask(py_pip, text, "uv pip install -e .")
    assert out == "Installed 1 package in 1ms\n ~ demo==0.1.0 (from file:///w/demo)\n"
