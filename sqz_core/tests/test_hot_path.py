"""The hot path stays import-light: no typer, pydantic, jsonschema, ruamel.yaml, pluggy, tokenizer
or entry-point scan on a warm `sqz compress` call (DESIGN.md §2)."""

import json
import os
import subprocess
import sys
import textwrap

BANNED = ("typer", "click", "rich", "pydantic", "jsonschema", "ruamel", "tiktoken", "pluggy",
          "importlib.metadata", "sqz_core.cli")

PROBE = textwrap.dedent('''
    import io, json, sys
    sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode() * 40))
    sys.argv = ["sqz", "compress", "--cmd", sys.argv[2]]
    out = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    status = main()
    out.write(json.dumps({"status": status, "modules": sorted(sys.modules)}))
''')


def probe(command: str, text: str) -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE, text, command], capture_output=True, check=True,
                       env=dict(os.environ, SQZ_QUIET="1"))
    return json.loads(r.stdout)


def test_warm_compress_imports_nothing_heavy():
    probe("git status", "a line of output\n")  # first call may build the plugin index
    for command in ("git status", "pytest -q", "cargo test", "unknown-tool --flag"):
        mods = probe(command, "a line of output that repeats\n")["modules"]
        heavy = [m for m in mods if any(m == b or m.startswith(b + ".") for b in BANNED)]
        assert heavy == [], f"{command}: hot path imported {heavy}"


def test_version_fast_path_imports_only_the_package():
    r = subprocess.run([sys.executable, "-c", "import sys\nfrom sqz_core import hot\nhot.main(['--version'])\n"
                        "print(sorted(m for m in sys.modules if m.startswith('sqz_core')), file=sys.stderr)"],
                       capture_output=True, check=True)
    assert b"sqz_core.store" not in r.stderr and b"sqz_core.pipeline" not in r.stderr
