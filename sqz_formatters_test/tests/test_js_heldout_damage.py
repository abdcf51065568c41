"""Damaged held-out captures: lines lost anywhere, or the text cut anywhere, never crash a JS runner or
package-manager formatter, and never make one print a line the input did not have (beyond its own
counted notes and headers).
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest

from fmt_test_suite import other, text_of
from sqz_formatters_test import js_jest, js_node_test, js_npm, js_vitest, py_pip

CASES = [
    (js_jest, "jest", "big_red_ci", "jest --ci jbig"),
    (js_jest, "jest", "green_coverage", "jest --coverage jcov"),
    (js_vitest, "vitest", "big_red_run", "vitest run vbig"),
    (js_vitest, "vitest", "green_coverage", "vitest run --coverage vcov"),
    (js_node_test, "node", "big_red_spec", "node --test --test-reporter=spec nbig/"),
    (js_node_test, "node", "big_red_tap", "node --test nbig/"),
    (js_node_test, "node", "green_coverage_tap", "node --test --experimental-test-coverage ncov/"),
    (js_npm, "npm", "ci_no_lockfile", "npm ci"),
    (js_npm, "npm", "run_script_crash", "npm run migrate"),
    (js_npm, "npm", "install_legacy_tree", "npm install request@2.88.2"),
    (js_npm, "npm", "pnpm_exec_vitest_big", "pnpm exec vitest run vbig"),
    (js_npm, "npm", "yarn_test_jest_big", "yarn test"),
    (py_pip, "pip", "install_breaks_dependent", "pip install docutils==0.17.1"),
    (py_pip, "pip", "install_conflict", "pip install requests==2.31.0 urllib3<1.21"),
    (py_pip, "pip", "uv_install_many", "uv pip install sphinx"),
]

# lines a formatter writes itself: counted notes, folded frames, section titles, group headers, markers
_OWN = re.compile(
    r"^\s*(?:\(.*\)|\[\d+ frames? in [^\]]*\](?: \{|,)?|⎯ .* ⎯|npm (?:error|warn|ERR!|WARN):|npm warn deprecated:"
    r"|npm error \(\d+ lines? of usage and options dropped\)|Cause: \(the message above\))$")


def _norm(s: str) -> str:
    return re.sub(r"[\s|]+", " ", s).strip()


def _check(mod, text: str, command: str, exit_code: int | None = 1) -> None:
    out = mod.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))
    if out is None:
        return
    whole = _norm(text)
    for line in out.splitlines():
        if not line.strip() or _OWN.match(line):
            continue
        assert _norm(line) in whole, line


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.data())
def test_lost_lines_never_invent_output(case, data):
    mod, family, name, command = case
    lines = text_of(family, name).splitlines()
    keep = data.draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
    _check(mod, "\n".join(x for x, k in zip(lines, keep) if k) + "\n", command)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.floats(min_value=0, max_value=1), st.floats(min_value=0, max_value=1))
def test_cut_text_never_invents_output(case, a, b):
    mod, family, name, command = case
    text = text_of(family, name)
    lo, hi = sorted((int(a * len(text)), int(b * len(text))))
    _check(mod, text[lo:hi], command)


def test_every_case_renders_when_whole():
    for mod, family, name, command in CASES:
        fx = other(family, name)
        out = mod.sqz_format(request=fx.request())
        assert out is not None, name
        _check(mod, text_of(family, name), command, fx.request().exit_code)
