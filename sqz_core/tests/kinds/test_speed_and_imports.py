"""The kinds run on every call: import-light, linear, and quick on 1 MB."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.kinds import compress_kind, detect_kind
from sqz_core.testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"
MB = 1_000_000


def test_importing_the_package_loads_no_kind_module():
    code = ("import sys; import sqz_core; before = set(sys.modules); import sqz_core.kinds; "
            "print(sorted(set(sys.modules) - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['sqz_core.kinds']"


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


def _json_mb() -> str:
    data = json.loads(load_fixture(FIX / "json/pip_inspect.txt").text)
    items = data["installed"] * (MB // 130_000 + 1)
    return json.dumps({"version": "1", "installed": items}, indent=2)


CASES = {
    "json": (lambda: _json_mb(), "pip inspect"),
    "log": (lambda: _grow(load_fixture(FIX / "log/http_server_access.txt").text), None),
    "table": (lambda: _grow(load_fixture(FIX / "table/ps_aux.txt").text), "ps aux"),
    "grep": (lambda: _grow(load_fixture(FIX / "grep/grep_rn_longlines.txt").text), "grep -rn parseCIDR ipaddr.js"),
    "find": (lambda: _grow(load_fixture(FIX / "find/find_site_packages.txt").text), "find requests"),
    "du": (lambda: _grow(load_fixture(FIX / "du/du_ah_requests.txt").text), "du -ah requests"),
    "ls": (lambda: _grow(load_fixture(FIX / "ls/ls_la_usr_lib_python.txt").text), "ls -la x"),
    "html": (lambda: load_fixture(FIX / "html/underscore_index.txt").text * 6, "curl -s http://127.0.0.1/x.html"),
    "markdown": (lambda: load_fixture(FIX / "markdown/express_readme.txt").text * 100, "curl -s http://127.0.0.1/R.md"),
    "yaml": (lambda: load_fixture(FIX / "yaml/kubectl_deployment_saveconfig.txt").text.replace("apiVersion", "---\napiVersion") * 1100, "kubectl get deploy -o yaml"),
    "deptree": (lambda: _grow(load_fixture(FIX / "deptree/npm_ls_all.txt").text), "npm ls --all"),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_one_megabyte_is_quick(kind):
    make, command = CASES[kind]
    text = make()
    assert len(text) >= MB * 0.8
    r = FormatRequest(text, command)
    start = time.perf_counter()
    detected = detect_kind(text, r)
    out = compress_kind(detected, r)
    elapsed = time.perf_counter() - start
    assert detected == kind
    assert out is not None and len(out) < len(text)
    # a linearity guard, not a speed claim (speed: benchmarks/): quadratic work on 1 MB takes minutes
    assert elapsed < 5.0, f"{kind}: {elapsed:.2f}s for {len(text)} chars"
