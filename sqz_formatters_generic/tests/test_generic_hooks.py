"""The pack reached through its hooks only: ``sqz_detect`` is asked, and a kind module imported,
only when no formatter that claims the program answered; the kinds then answer last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from sqz_core import hookimpl, plugins
from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import load_fixture

import sqz_formatters_generic.hooks as generic_hooks

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

PROBE = textwrap.dedent('''
    import io, json, sys
    data = open(sys.argv[1], "rb").read()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    sys.argv = ["sqz", "compress", "--cmd", sys.argv[2]]
    out = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    main()
    sys.stdout.flush()
    out.write(json.dumps({"output": sys.stdout.buffer.getvalue().decode(), "modules": sorted(sys.modules)}))
''')


def probe(path: Path, command: str, tmp_path: Path) -> dict:
    env = dict(os.environ, SQZ_QUIET="1", SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_TIME_BUDGET_MS="0")
    r = subprocess.run([sys.executable, "-c", PROBE, str(path), command], capture_output=True, check=True, env=env)
    return json.loads(r.stdout)


def kinds_loaded(modules: list[str]) -> list[str]:
    return [m for m in modules if m.startswith("sqz_formatters_generic.kinds")]


def test_git_status_rendered_by_the_git_pack_imports_no_kind(tmp_path):
    fx = ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt"
    seen = probe(fx, "git status", tmp_path)
    assert "sqz_formatters_git.git_status" in seen["modules"]
    assert seen["output"] != fx.read_text()  # the git pack answered
    assert kinds_loaded(seen["modules"]) == []


def test_an_unclaimed_program_gets_its_kind(tmp_path):
    fx = load_fixture(HERE / "fixtures/kinds/json/npm_view_express.json")
    seen = probe(fx.path, fx.command, tmp_path)
    assert "sqz_formatters_generic.kinds.json_doc" in seen["modules"]
    assert len(seen["output"]) < len(fx.text)


def test_a_claimed_program_its_formatter_declines_still_gets_its_kind(tmp_path):
    """kubectl's formatter leaves ``-o json`` alone: the JSON kind answers after it."""
    fx = load_fixture(HERE / "fixtures/kinds/json/kubectl_deployment.json")
    seen = probe(fx.path, fx.command, tmp_path)
    assert "sqz_formatters_cloud.kubectl_cli" in seen["modules"]
    assert "sqz_formatters_generic.kinds.json_doc" in seen["modules"]
    r = compress(fx.raw, command=fx.command, store=Store.open(str(tmp_path / "here.sqlite")), session="s")
    assert r.plugin == "generic"


def _records(monkeypatch, named) -> dict:
    records = []
    for name, obj in named:
        described = plugins.describe_plugin(obj)
        assert described.pop("problem") is None
        monkeypatch.setitem(plugins._modules, name, obj)
        records.append({"name": name, "module": f"inline_{name}", "attr": None, "error": None, **described})
    return {"plugins": records}


def test_detect_is_asked_only_after_the_claiming_formatters_declined(monkeypatch, tmp_path):
    calls: list = []

    class Claimant:
        commands = ("tool",)

        def __init__(self, answer):
            self.answer = answer

        @hookimpl
        def sqz_format(self, request):
            calls.append(("claimant", request.kind))
            return self.answer

    class Spy:  # a second catch-all that only watches the kind
        commands = ("*",)

        @hookimpl
        def sqz_detect(self, request):
            calls.append(("detect", None))

    fx = load_fixture(HERE / "fixtures/kinds/json/npm_view_express.json")
    store = Store.open(str(tmp_path / "db.sqlite"))
    generic = ("generic", generic_hooks)
    index = _records(monkeypatch, [generic, ("spy", Spy()), ("tool", Claimant("SHORT\n"))])
    r = compress(fx.raw, command="tool view express --json", store=store, session="a", index=index,
                 abbreviate=False)
    assert r.plugin == "tool" and r.output.startswith(b"SHORT\n")
    assert calls == [("claimant", None)]  # no sniffing at all

    calls.clear()
    index = _records(monkeypatch, [generic, ("spy", Spy()), ("tool", Claimant(None))])
    r = compress(fx.raw, command="tool view express --json", store=store, session="b", index=index,
                 abbreviate=False)
    assert calls == [("claimant", None), ("detect", None)]  # then the kind, then the kinds' rendering
    assert r.plugin == "generic"
