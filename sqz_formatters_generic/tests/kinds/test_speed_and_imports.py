"""The kinds run on every call: import-light, and linear in their input (counted, not timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_testing import load_fixture
from sqz_testing import grows_linearly, work_done

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"
MB = 1_000_000


def test_importing_the_package_loads_no_kind_module():
    code = ("import sys; import sqz_core, sqz_formatters_generic; before = set(sys.modules); "
            "import sqz_formatters_generic.kinds; print(sorted(set(sys.modules) - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['sqz_formatters_generic.kinds']"


def test_the_plugin_module_loads_no_kind_module():
    """``hooks`` is imported on every call that reaches the formatters: the kinds stay unloaded."""
    code = ("import sys; import sqz_core; before = set(sys.modules); import sqz_formatters_generic.hooks; "
            "print(sorted(m for m in set(sys.modules) - before if m.startswith('sqz')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['sqz_core.api', 'sqz_formatters_generic', 'sqz_formatters_generic.hooks']"


def _grow(text: str, size: int = MB) -> str:
    lines = text.rstrip("\n").split("\n")
    header, body = lines[:1], lines[1:]
    out = list(header)
    n = len(header[0])
    while n < size:
        for line in body:
            out.append(line)
            n += len(line) + 1
    return "\n".join(out) + "\n"


def _json(size: int = MB) -> str:
    data = json.loads(load_fixture(FIX / "json/pip_inspect.txt").text)
    items = data["installed"] * (size // 130_000 + 1)
    items = items[:max(1, round(len(items) * size / ((size // 130_000 + 1) * 130_000)))]
    return json.dumps({"version": "1", "installed": items}, indent=2)


def _times(text: str, size: int, per_mb: int) -> str:
    """``text`` repeated ``per_mb`` times for a megabyte, in proportion for ``size``."""
    return text * max(1, round(per_mb * size / MB))


def _fx(name: str) -> str:
    return load_fixture(FIX / name).text


# kind: (input of about ``size`` characters, command); each built from the kind's real fixture
CASES = {
    "json": (_json, "pip inspect"),
    "log": (lambda size=MB: _grow(_fx("log/http_server_access.txt"), size), None),
    "table": (lambda size=MB: _grow(_fx("table/ps_aux.txt"), size), "ps aux"),
    "grep": (lambda size=MB: _grow(_fx("grep/grep_rn_longlines.txt"), size), "grep -rn parseCIDR ipaddr.js"),
    "find": (lambda size=MB: _grow(_fx("find/find_site_packages.txt"), size), "find requests"),
    "du": (lambda size=MB: _grow(_fx("du/du_ah_requests.txt"), size), "du -ah requests"),
    "ls": (lambda size=MB: _grow(_fx("ls/ls_la_usr_lib_python.txt"), size), "ls -la x"),
    "html": (lambda size=MB: _times(_fx("html/underscore_index.txt"), size, 6), "curl -s http://127.0.0.1/x.html"),
    "markdown": (lambda size=MB: _times(_fx("markdown/express_readme.txt"), size, 100),
                 "curl -s http://127.0.0.1/R.md"),
    "yaml": (lambda size=MB: _times(_fx("yaml/kubectl_deployment_saveconfig.txt").replace("apiVersion", "---\napiVersion"),
                                    size, 1100), "kubectl get deploy -o yaml"),
    "deptree": (lambda size=MB: _grow(_fx("deptree/npm_ls_all.txt"), size), "npm ls --all"),
}


def _detect_and_compress(text: str, command: str | None) -> tuple[str | None, str | None]:
    r = FormatRequest(text, command)
    detected = detect_kind(text, r)
    return detected, compress_kind(detected, r)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_one_megabyte_is_compressed_and_the_work_grows_linearly(kind):
    """Each kind recognises and shortens a megabyte of its real output, doing about 4 × the lines of
    Python it does on a quarter megabyte (quadratic work: 16 ×). A count, not a clock: it does not
    flake on a loaded machine. How long it takes is a benchmark: ``benchmarks/linearity.py``."""
    make, command = CASES[kind]
    small_text, text = make(MB // 4), make(MB)
    assert len(text) >= MB * 0.8 and len(text) >= 2.5 * len(small_text)
    (small, n_small), ((detected, out), n_large) = (work_done(_detect_and_compress, small_text, command),
                                                    work_done(_detect_and_compress, text, command))
    assert detected == small[0] == kind
    assert out is not None and len(out) < len(text)
    factor = len(text) / len(small_text)
    assert grows_linearly(n_small, n_large, factor), f"{kind}: {n_small} -> {n_large} lines for ×{factor:.1f} input"


