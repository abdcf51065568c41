"""Held-out pass #2 of the package managers (``npm/h2_*``, ``pip/h2_*``, captured by
scripts/capture_packages_h2.py): what the new renderings keep and drop, near misses, damaged input.

The family modules (test_js_npm, test_py_pip) check every h2 fixture's facts and snapshot; this one
the specific behaviour added for them: npm's request log (``--loglevel=http`` / ``--verbose``), yarn's
dependency list, ``pip uninstall`` / ``pip list`` / ``pip check``, ``uv pip sync``.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqz_core import FormatRequest
from sqz_testing import grows_linearly, load_fixture, missing_facts, nested_repeats, work_done

from fmt_test_suite import other, text_of
from sqz_formatters_test import js_npm, py_pip

CORE_LOG = Path(__file__).resolve().parents[2] / "sqz_formatters_generic" / "tests" / "fixtures" / "kinds" / "log"


def _npm(name):
    return js_npm.sqz_format(request=other("npm", name).request())


def _pip(name):
    return py_pip.sqz_format(request=other("pip", name).request())


def _ask(mod, text, command, exit_code=0):
    return mod.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))


# ---------------------------------------------------------------- npm --loglevel=http / --verbose

def _tarballs(text):
    return {m.group(1) for m in re.finditer(r"/-/([^/\s]+\.tgz) ", text)}


def test_http_log_names_every_tarball_once_and_drops_the_requests():
    text, out = text_of("npm", "h2_npm_install_http_express"), _npm("h2_npm_install_http_express")
    names = _tarballs(text)
    assert len(names) == 71
    summary = [x for x in out.splitlines() if x.startswith("npm http: ")]
    assert len(summary) == 1
    listed = summary[0].split(" tarballs: ", 1)[1].split(", ")
    assert sorted(listed) == sorted(names)            # each tarball once, none invented
    assert summary[0].startswith(f"npm http: {text.count(chr(10) + 'npm http ') + 1} requests answered 2xx/304")
    assert "npm http fetch" not in out and "npm http cache" not in out and "ms (cache" not in out
    assert out.rstrip().endswith("added 71 packages in 8s")
    assert len(out) < len(text) / 6


def test_http_log_keeps_a_request_that_failed():
    text = text_of("npm", "h2_npm_install_loglevel_http")
    bad = "npm http fetch GET 500 https://pkgs.example.org/ms 51ms (cache updated)"
    damaged = text.replace("npm http fetch GET 200 https://pkgs.example.org/ms 51ms (cache updated)", bad)
    assert bad in damaged
    out = _ask(js_npm, damaged, "npm install --loglevel=http debug@4 ms@2 semver@7")
    assert bad + "\n" in out
    assert "npm http: 5 requests" in out and "ms-2.1.3.tgz" in out


def test_verbose_install_drops_npms_invocation_lines_and_keeps_the_rest():
    text, out = text_of("npm", "h2_npm_install_verbose"), _npm("h2_npm_install_verbose")
    for kept in ("npm info using npm@11.19.1", "npm info using node@v20.20.2", "npm verbose exit 0", "npm info ok",
                 "npm verbose logfile /root/.npm/_logs/2026-12-01T12_48_31_817Z-debug-0.log",
                 "added 1 package in 2s", "1 tarball: chalk-5.6.2.tgz"):
        assert kept in out, kept
    for gone in ("npm verbose cli ", "npm verbose title ", "npm verbose argv ", "logs-max:10", "npm verbose cwd ",
                 "npm verbose os ", "npm verbose node ", "npm verbose npm "):
        assert gone in text and gone not in out, gone
    assert "(8 npm verbose lines about npm's own invocation dropped)" in out


def test_a_failing_verbose_install_keeps_its_whole_log():
    """The core's captured `npm install --verbose` with a 404: its log is the evidence, nothing of it goes."""
    fx = load_fixture(CORE_LOG / "npm_install_verbose_404.txt")
    text = fx.request().text
    out = js_npm.sqz_format(request=fx.request())
    log = [x for x in text.splitlines() if x.startswith(("npm verbose ", "npm http ", "npm info "))]
    assert len(log) == 28 and all(x + "\n" in out for x in log)
    assert "npm http:" not in out and "about npm's own invocation" not in out
    # its npm error block is folded under one `npm error:` as before (the pipeline keeps this output whole:
    # its stack makes it safe-mode content)
    assert missing_facts(out, [f for f in fx.facts if not f.startswith("npm error ")]) == []


def test_tarball_names():
    assert js_npm._tarball("https://pkgs.example.org/express/-/express-4.22.3.tgz") == "express-4.22.3.tgz"
    assert js_npm._tarball("https://pkgs.example.org/@types/node/-/node-20.1.0.tgz") == "@types/node-20.1.0.tgz"
    assert js_npm._tarball("https://pkgs.example.org/express") is None      # a packument, not a tarball
    assert js_npm._tarball("https://pkgs.example.org/-/npm/v1/security/advisories/bulk") is None


def test_http_log_cut_mid_line_does_not_crash():
    text = text_of("npm", "h2_npm_install_http_express")
    for cut in (len(text) // 3, len(text) // 2 + 7, len(text) - 30):
        out = _ask(js_npm, text[:cut], "npm install --loglevel=http express@4 body-parser@1")
        assert out is None or "added" in text[:cut]          # no result line: passthrough


def test_http_log_is_linear():
    line = "npm http fetch GET 200 https://pkgs.example.org/pkg{0}/-/pkg{0}-1.0.{0}.tgz 12ms (cache miss)"
    small = [line.format(i) for i in range(200)] + ["", "added 200 packages in 3s"]
    large = [line.format(i) for i in range(2000)] + ["", "added 2000 packages in 3s"]
    _, w_small = work_done(js_npm.compact_install, small)
    _, w_large = work_done(js_npm.compact_install, large)
    assert grows_linearly(w_small, w_large, 10)
    for rx in (js_npm._HTTP_FETCH, js_npm._HTTP_CACHE, js_npm._TARBALL, js_npm._VERBOSE_ENV):
        assert nested_repeats(rx.pattern) == [], rx.pattern


# ---------------------------------------------------------------- yarn's dependency lists

def test_yarn_short_dependency_list_is_kept_on_one_line():
    text, out = text_of("npm", "h2_yarn_add_dev"), _npm("h2_yarn_add_dev")
    assert "info Direct dependencies\n├─ @types/react@18.3.32\n└─ typescript@5.9.3\n" in out
    assert "info All dependencies (besides the direct ones): @types/prop-types@15.7.15, csstype@3.2.4\n" in out
    assert "info All dependencies\n" in text and "info All dependencies\n" not in out
    out = _npm("h2_yarn_upgrade")
    assert "info All dependencies (besides the direct ones): react-router@6.22.0\n" in out


def test_yarn_long_dependency_list_is_still_counted():
    out = _npm("yarn_add")
    assert "(46 transitive dependencies not listed)" in out and "accepts@1.3.8" not in out


# ---------------------------------------------------------------- pip uninstall / list / check

def test_pip_uninstall_keeps_what_was_removed_with_its_version():
    text, out = text_of("pip", "h2_pip_uninstall"), _pip("h2_pip_uninstall")
    assert out.splitlines()[:3] == ["Successfully uninstalled httpx-0.27.2", "Successfully uninstalled httpcore-1.0.9",
                                    "Successfully uninstalled anyio-4.16.0"]
    assert "Found existing installation" in text and "Found existing installation" not in out
    assert "Uninstalling " not in out and len(out.splitlines()) == 3


def test_pip_list_keeps_the_table_whole():
    text, out = text_of("pip", "h2_pip_list_outdated"), _pip("h2_pip_list_outdated")
    table = [x for x in text.splitlines() if not x.startswith("WARNING: Location")]
    assert out.splitlines()[:len(table)] == table
    assert out.splitlines()[len(table):] == ["(37 WARNINGs that an index location is ignored dropped)"]


def test_pip_other_subcommands_near_misses():
    # an install's output called `pip list` / `pip uninstall`: not their shape, left alone
    assert _ask(py_pip, text_of("pip", "h2_pip_install_upgrade"), "pip list") is None
    assert _ask(py_pip, text_of("pip", "h2_pip_list_outdated"), "pip uninstall -y x") is None
    # pip check with nothing but its verdict: nothing to drop
    assert _pip("h2_pip_check") is None
    text = text_of("pip", "h2_pip_check")
    noisy = ("WARNING: Location 'file:///pkgs.example.org/simple/x/' is ignored: it is neither a file nor a "
             "directory.\n" + text)
    assert _ask(py_pip, noisy, "pip check", 1) == text + "(1 WARNING that an index location is ignored dropped)\n"
    # other warnings stay
    other_warning = "WARNING: Skipping requests as it is not installed.\n"
    out = _ask(py_pip, other_warning + text_of("pip", "h2_pip_uninstall"), "pip uninstall -y requests httpx")
    assert out.startswith(other_warning)


# ---------------------------------------------------------------- uv pip sync

def test_uv_pip_sync_keeps_every_package_change():
    text, out = text_of("pip", "h2_uv_pip_sync"), _pip("h2_uv_pip_sync")
    changes = [x for x in text.splitlines() if x.startswith((" + ", " - "))]
    assert len(changes) == 33 and out.splitlines()[2:] == changes
    assert out.splitlines()[:2] == ["Uninstalled 27 packages in 1.20s", "Installed 6 packages in 199ms"]
    for gone in ("Using Python", "Resolved 9 packages", "Downloading pydantic-core", "Prepared 6 packages"):
        assert gone in text and gone not in out, gone
    assert _ask(py_pip, text, "uv pip compile requirements.in") is None


# ---------------------------------------------------------------- pip: already-satisfied chains

def test_already_satisfied_chain_cut_to_its_origin():
    text, out = text_of("pip", "h2_pip_install_requirements_again"), _pip("h2_pip_install_requirements_again")
    line = ("Requirement already satisfied: annotated-types>=0.6.0 in ./venv/lib/python3.11/site-packages (from "
            "pydantic!=1.8,!=1.8.1,!=2.0.0,!=2.0.1,!=2.1.0,<3.0.0,>=1.7.4->fastapi==0.115.0->-r requirements.txt "
            "(line 2)) (0.8.0)")
    assert line in text
    assert ("Requirement already satisfied: annotated-types>=0.6.0 in ./venv/lib/python3.11/site-packages "
            "(from …->-r requirements.txt (line 2)) (0.8.0)\n") in out
    # a direct requirement's one-link provenance stays whole
    assert ("Requirement already satisfied: fastapi==0.115.0 in ./venv/lib/python3.11/site-packages "
            "(from -r requirements.txt (line 2)) (0.115.0)\n") in out
    assert out.count("Requirement already satisfied: ") == text.count("Requirement already satisfied: ") == 30


def test_shorten_chain_leaves_other_shapes_alone():
    cut = py_pip.shorten_chain
    one = "Requirement already satisfied: certifi in ./v (from requests==2.28.2) (2026.10.19.post1)"
    assert cut(one) == one
    plain = "Requirement already satisfied: requests in ./venv/lib/python3.11/site-packages (2.34.2)"
    assert cut(plain) == plain
    for odd in ("Requirement already satisfied: x (from a->b", "Requirement already satisfied: x (from a->b)",
                "Requirement already satisfied: ", "Collecting x (from a->b) (1.0)", ""):
        assert cut(odd) == odd, odd
    assert cut("Requirement already satisfied: x in ./v (from a->b->sphinx) (1.0)") == \
        "Requirement already satisfied: x in ./v (from …->sphinx) (1.0)"


# ---------------------------------------------------------------- yarn 2+ (berry)

def test_berry_install_keeps_every_message_and_the_verdict():
    text, out = text_of("npm", "h2_yarn_berry_install"), _npm("h2_yarn_berry_install")
    messages = [x for x in text.splitlines() if x.startswith("➤ YN") and not x.startswith("➤ YN0000: ")]
    assert len(messages) == 6
    for x in messages:
        code, body = x[2:].split(": ", 1)
        assert f"{code}: {body.removeprefix('│ ')}\n" in out, x
    assert out.splitlines()[-1] == "YN0000: · Done with warnings in 12s 14ms"
    for gone in ("┌ Resolution step", "┌ Fetch step", "┌ Link step", "└ Completed", "· Yarn 4.18.1", "➤", "│"):
        assert gone not in out, gone
    assert len(out.splitlines()) == 7


def test_berry_failure_keeps_the_error_and_its_details():
    text, out = text_of("npm", "h2_yarn_berry_add_missing"), _npm("h2_yarn_berry_add_missing")
    verdict = text.splitlines()[-1]
    assert verdict.startswith("➤ YN0000: · Failed with errors in ")
    assert out.splitlines() == [
        "YN0035: sqz-no-such-package-h2@npm:^1: Package not found", "YN0035:   Response Code: 404 (Not Found)",
        "YN0035:   Request Method: GET", "YN0035:   Request URL: https://pkgs.example.org/sqz-no-such-package-h2",
        verdict[2:]]


def test_berry_near_misses():
    text = text_of("npm", "h2_yarn_berry_add")
    # a line that is not berry's (a script's own output, say): left alone
    mixed = text.replace("➤ YN0000: ┌ Link step\n", "➤ YN0000: ┌ Link step\nbuilding native addon...\n")
    assert "building native addon" in mixed and _ask(js_npm, mixed, "yarn add zod@^3 lodash@^4") is None
    # cut before the verdict: no summary claiming a finished install
    cut = text[:text.index("➤ YN0000: ┌ Link step")]
    assert _ask(js_npm, cut, "yarn add zod@^3 lodash@^4") is None
    # a step that did not complete cleanly keeps its frame line
    odd = text.replace("➤ YN0000: └ Completed in ", "➤ YN0000: └ Completed with errors in ", 1)
    assert "└ Completed with errors in " in odd
    assert "YN0000: └ Completed with errors in " in _ask(js_npm, odd, "yarn add zod@^3 lodash@^4", 1)
    for rx in (js_npm._BERRY_LINE, js_npm._BERRY_FRAME, js_npm._BERRY_VERDICT):
        assert nested_repeats(rx.pattern) == [], rx.pattern
