"""A warm call reads the compiled cache: no YAML parsed, no ruamel.yaml or jsonschema imported; any
change to a source, a folder or the trust file compiles again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

from decl_testlib import EXAMPLES, FIXTURES

from sqz_formatters_declarative import sources
from sqz_formatters_declarative.trust import trust_paths

PROBE = textwrap.dedent('''
    import io, json, sys
    sys.stdin = io.TextIOWrapper(io.BytesIO(open(sys.argv[1], "rb").read()))
    sys.argv = ["sqz", "compress", "--no-cache", "--cmd", sys.argv[2]]
    out = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    status = main()
    out.write(json.dumps({"status": status, "modules": sorted(sys.modules)}))
''')
HEAVY = ("ruamel", "jsonschema", "typer", "click", "rich", "pydantic", "pluggy", "tiktoken", "importlib.metadata")


def _probe(cwd, env) -> tuple[list[str], str]:
    r = subprocess.run([sys.executable, "-c", PROBE, str(FIXTURES / "ansible" / "playbook_failed.txt"),
                        "ansible-playbook site.yml"], cwd=cwd, env=env, capture_output=True, check=True)
    return json.loads(r.stdout)["modules"], r.stderr.decode()


def test_a_warm_call_imports_nothing_heavy_and_uses_the_spec(project, tmp_path):
    shutil.copy(EXAMPLES / "ansible-playbook.yaml", project / ".sqz" / "formatters" / "ansible.yaml")
    trust_paths(None)
    env = dict(os.environ, SQZ_DB_PATH=str(tmp_path / "db.sqlite"))
    env.pop("SQZ_QUIET", None)
    _probe(project, env)  # the first call compiles (and may build the plugin index)
    mods, err = _probe(project, env)
    assert [m for m in mods if any(m == b or m.startswith(b + ".") for b in HEAVY)] == []
    assert "sqz_formatters_declarative.engine" in mods and "sqz_formatters_declarative.compile" not in mods
    assert "via declarative" in err


def test_the_cache_is_reused_until_a_source_changes(project, monkeypatch):
    spec = project / ".sqz" / "formatters" / "t.yaml"
    spec.write_text("name: t\nmatch: {program: tool}\n")
    trust_paths(None)
    first = sources.active()
    assert [s["name"] for s in first["specs"]] == ["t"]
    calls = []
    real_build = sources.build
    monkeypatch.setattr(sources, "build", lambda *a: calls.append(a) or real_build(*a))
    sources._memo.clear()
    assert sources.active()["specs"] == first["specs"] and calls == []  # read from the JSON cache
    spec.write_text("name: t2\nmatch: {program: tool}\n")
    trust_paths(None)
    assert [s["name"] for s in sources.active()["specs"]] == ["t2"] and len(calls) == 1
    (project / ".sqz" / "formatters" / "u.yaml").write_text("name: u\nmatch: {program: other}\n")
    assert len(sources.active()["untrusted"]) == 1 and len(calls) == 2  # a new file in the folder


def test_no_source_no_cache_file(tmp_path, monkeypatch, config_home):
    monkeypatch.chdir(tmp_path)
    assert sources.active() == {"key": sources.fingerprint()[0], "specs": [], "untrusted": [], "problems": []}
    assert not (tmp_path / "sqz-home" / "cache" / "declarative").exists()
