"""The root's ruff and mypy configuration holds: ruff is clean on sqz_core, mypy --strict on the contract."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ["sqz_core/src/sqz_core/api.py", "sqz_core/src/sqz_core/hookspecs.py", "sqz_core/src/sqz_core/markers.py",
            "sqz_core/src/sqz_core/verdicts.py"]


def test_ruff_is_clean_on_the_core():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "sqz_core/src"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_the_plugin_contract():
    r = subprocess.run([sys.executable, "-m", "mypy", *CONTRACT], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr
