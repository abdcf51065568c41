"""Diagnostics grouped by file (``_diag``) and rustc errors without source echo (``rust_diag``).

On the real multi-file captures of ``scripts/capture_compilers.py``: every path printed
once, every diagnostic's location, code and message kept on one line, order within a
file kept; near misses (one diagnostic per file, a foreign line) give None.
"""

from __future__ import annotations

import re

from fmt_test_suite import other, text_of
from sqz_formatters_test._diag import group_lines
from sqz_formatters_test.rust_diag import compress_error

from sqz_core import FormatRequest
from sqz_formatters_test import (
    c_diagnostics,
    js_npm,
    js_tsc,
    py_mypy,
    py_pip,
    py_ruff,
    rust_cargo,
)


def fmt(module, family, name):
    return module.sqz_format(request=other(family, name).request())


def diag_paths(text: str, rx: str) -> list[str]:
    """The path of every diagnostic line of the raw output, in order."""
    return [m.group(1) for m in re.finditer(rx, text, re.MULTILINE)]


def test_each_path_printed_once_in_raw_order():
    cases = [
        (js_tsc, "tsc", "multi_file", r"^(\S+?)\(\d+,\d+\): error "),
        (js_tsc, "tsc", "multi_file_pretty", r"^(\S+?):\d+:\d+ - error "),
        (py_mypy, "mypy", "multi_file", r"^(\S+?):\d+: (?:error|note): "),
        (py_ruff, "ruff", "multi_file_concise", r"^(\S+?):\d+:\d+: [A-Z]+\d+ "),
        (c_diagnostics, "cc", "multi_file", r"^(\S+?):\d+:\d+: (?:error|warning|note): "),
    ]
    for module, family, name, rx in cases:
        raw = other(family, name).request().text
        paths = list(dict.fromkeys(diag_paths(raw, rx)))
        assert len(paths) >= 3, (family, name)
        out = fmt(module, family, name)
        headers = [line for line in out.splitlines() if line in paths]
        assert headers == paths, (family, name)          # once each, in order of first appearance
        for p in paths:
            assert not re.search(rf"^{re.escape(p)}[:(]\d", out, re.MULTILINE), (family, name, p)


def test_diagnostics_keep_their_order_within_a_file():
    raw = text_of("tsc", "multi_file")
    want = [m.group(1) for m in re.finditer(r"^src/services/userService\.ts(\(\d+,\d+\)): ", raw, re.MULTILINE)]
    out = fmt(js_tsc, "tsc", "multi_file")
    block = out.split("src/services/userService.ts\n", 1)[1].split("\nsrc/", 1)[0]
    assert [m.group(1) for m in re.finditer(r"^  (\(\d+,\d+\)): ", block, re.MULTILINE)] == want


def test_mypy_pretty_wrapped_messages_rejoined():
    out = fmt(py_mypy, "mypy", "errors_pretty")
    assert ('  6: error: Incompatible types in assignment (expression has type "int", variable has type "str")'
            in out)


def test_one_diagnostic_per_file_is_left_alone():
    lines = ["a.ts(1,2): error TS1: x", "b.ts(3,4): error TS2: y"]
    assert js_tsc.group_plain(lines) is None
    assert js_tsc.sqz_format(request=FormatRequest("\n".join(lines) + "\n", "tsc -p .", exit_code=2)) is None


def test_a_foreign_line_refuses_grouping():
    lines = text_of("tsc", "multi_file").splitlines()
    assert js_tsc.group_plain(lines) is not None
    assert js_tsc.group_plain(lines[:3] + ["Segmentation fault"] + lines[3:]) is None


def test_kept_lines_stay_after_their_file():
    """clang prints `N warnings generated.` after each file: it stays after that file's group."""
    out = fmt(c_diagnostics, "cc", "clang_errors_color")
    assert out.index("2 warnings and 3 errors generated.") < out.index("src/util.c\n")
    assert out.rstrip().endswith("3 warnings generated.")


def test_group_lines_continuations_follow_their_diagnostic():
    lines = ["x.ts(1,1): error TS1: a", "  detail of a", "x.ts(2,2): error TS2: b", "Found 2 errors."]
    head = lambda l: (l[:4], l[4:]) if l.startswith("x.ts(") else None
    assert group_lines(lines, head, lambda l: l.startswith("Found")) == [
        "x.ts", "  (1,1): error TS1: a", "    detail of a", "  (2,2): error TS2: b", "Found 2 errors."]


def test_template_chains_are_not_regrouped():
    out = fmt(c_diagnostics, "cc", "gxx_template_error")
    assert "src/total.cpp:12:14:   required from here" in out  # the chain keeps its paths and order


def test_rustc_error_keeps_labels_and_suggestion_drops_echo():
    out = fmt(rust_cargo, "cargo", "build_multi_file")
    assert "error[E0308]: mismatched types --> src/account.rs:8:19\n  ^ expected `String`, found `&str`\n" in out
    assert "  1: - expected `Vec<u64>` because of return type" in out      # under another line than the location's
    assert "  - arguments to this method are incorrect\nnote: method defined here --> src/account.rs:11:12\n" in out
    assert '10 |     println!("{} {}", acct.name, total);' in out           # the help's suggested code
    assert '10 |     println!("{} {}", acct.name, totl);' not in out        # the echoed source
    assert "^^^^" not in out.split("warning: unused variable")[0]


def test_compress_error_without_snippet_is_unchanged():
    block = ["error[E0601]: `main` function not found in crate `x`",
             "  = note: consider adding a `main` function to `src/main.rs`"]
    assert compress_error(block) == block


def test_npm_short_prefix_runs_stay_verbatim():
    out = js_npm.fold_prefix_runs(text_of("npm", "install_notarget").splitlines())
    assert out[0] == "npm error code ETARGET"
    folded = fmt(js_npm, "npm", "install_eresolve")
    assert folded.startswith("npm error:\n  code ERESOLVE\n") and "\nnpm error " not in folded


def test_pip_requirements_file_entries_and_dependencies_kept():
    out = fmt(py_pip, "pip", "install_requirements_again")
    assert out.count("Requirement already satisfied: ") == 16   # 3 from the file, 13 dependencies, each whole


def test_npm_each_deprecation_message_once_with_every_package():
    raw = text_of("npm", "install_deprecations_audit")
    out = fmt(js_npm, "npm", "install_deprecations_audit")
    wall = [line for line in raw.splitlines() if line.startswith("npm warn deprecated ")]
    messages = {line.split(": ", 1)[1] for line in wall}
    assert len(wall) == 6 and len(messages) == 4
    for msg in messages:
        assert out.count(msg) == 1
    for line in wall:
        pkg, msg = line[len("npm warn deprecated "):].split(": ", 1)
        assert any(pkg in o and msg in o for o in out.splitlines()), pkg
    assert "looking for funding" not in out and "4 high severity vulnerabilities" in out


def test_ruff_full_format_keeps_each_location_as_printed():
    """The full format's ` --> path:line:col` is one string in the raw output: it stays one."""
    raw = text_of("ruff", "multi_file_full")
    locs = re.findall(r"^ *--> (\S+:\d+:\d+)$", raw, re.MULTILINE)
    out = fmt(py_ruff, "ruff", "multi_file_full")
    assert len(locs) == 10
    assert [line.split(": ", 1)[0] for line in out.splitlines()[:10]] == locs
