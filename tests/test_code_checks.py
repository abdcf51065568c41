"""The root's ruff and mypy configuration holds: ruff is clean on sqz_core, mypy --strict on the contract
and on the core modules typed so far."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ["api", "hookspecs", "markers", "verdicts"]  # the plugin contract
# the rest of the core typed strictly so far (pipeline, plugins, hot, store, storesql, safety, secrets, spans,
# logread, progress are checked by mypy's defaults only: test_mypy_with_the_root_configuration_is_clean_…)
STRICT = CONTRACT + ["__init__", "__main__", "_version", "abbrev", "builtin", "cleanup", "cli", "config", "dedup",
                     "exitmarker", "expand", "gate", "lazyre", "paths", "request", "runnable",
                     "scan", "sessions", "shell", "spool", "storeproto", "stores", "tokens"]


def test_ruff_is_clean_on_the_core():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "sqz_core/src"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_the_plugin_contract_and_the_typed_core():
    r = subprocess.run([sys.executable, "-m", "mypy", *(f"sqz_core/src/sqz_core/{m}.py" for m in STRICT)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr


# mypy's --strict as per-module flags ("strict" itself is global: in an override it made every module strict)
STRICT_FLAGS = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
                "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_unused_ignores",
                "warn_return_any", "no_implicit_reexport", "strict_equality", "extra_checks")


def test_the_strict_list_is_what_the_configuration_makes_strict():
    """Every module the test checks is strict in the root configuration: its override sets every flag of --strict."""
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert "strict" not in conf
    strict = {m for o in conf["overrides"] if all(o.get(f) is True for f in STRICT_FLAGS) for m in o["module"]}
    assert {"sqz_core" if m == "__init__" else f"sqz_core.{m}" for m in STRICT} <= strict


def test_mypy_with_the_root_configuration_is_clean_on_the_whole_core():
    """Issue 23.8: ``mypy sqz_core/src/sqz_core`` at the root: the strict modules strictly, every other one
    as mypy checks by default (annotated functions, declared attributes, Optional misuse)."""
    r = subprocess.run([sys.executable, "-m", "mypy", "sqz_core/src/sqz_core"], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr
