"""Held-out pass #2 (``h2_*``): every h2 capture cut short at any tenth of its lines, or with its lines
shuffled in pairs, gives None or a rendering that invents nothing: each count/summary line it shows
is a line of the damaged input, and nothing crashes."""

from __future__ import annotations

import json
import re

import pytest
from fmt_test_suite import fixtures_of
from sqz_core import FormatRequest

from sqz_formatters_test import (c_cmake, c_ctest, c_make, go_tool, jvm_gradle, jvm_maven,
                                 rust_cargo)

_MODULES = {"cargo": rust_cargo, "go": go_tool, "make": c_make, "cmake": c_cmake, "ctest": c_ctest,
            "maven": jvm_maven, "gradle": jvm_gradle}
_CASES = [(fam, fx) for fam in _MODULES for fx in fixtures_of(fam) if fx.name.startswith("h2_")]
# lines that state a count or an outcome: a rendering may only repeat them, never make them up
_COUNTS = re.compile(r"^(test result: |\d+% tests passed|Tests run: |\d+ tests? completed|ok  \t|FAIL\t"
                     r"|BUILD (SUCCESS|FAILURE|FAILED)|error: \d+ targets? failed)")


@pytest.mark.parametrize("fam,fx", _CASES, ids=[fx.name for _, fx in _CASES])
def test_damaged_input_invents_no_count(fam, fx):
    module = _MODULES[fam]
    text = fx.request().text
    lines = text.splitlines(keepends=True)
    swapped = "".join(lines[i + 1] + lines[i] if i + 1 < len(lines) else lines[i] for i in range(0, len(lines), 2))
    variants = ["".join(lines[:len(lines) * k // 10]) for k in range(1, 10)] + [swapped]
    for damaged in variants:
        out = module.sqz_format(request=FormatRequest(damaged, fx.command, exit_code=fx.meta.get("exit_code")))
        if out is None:
            continue
        said = set(damaged.splitlines())
        for raw in list(said):          # `go test -json`: the text its events carry
            if raw.startswith("{"):
                try:
                    said.update(json.loads(raw).get("Output", "").splitlines())
                except ValueError:
                    pass
        for line in out.splitlines():
            if _COUNTS.match(line):
                assert line in said or any(line in s for s in said), (fx.name, line)
