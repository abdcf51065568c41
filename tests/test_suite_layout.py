"""The suite's own layout: test modules live in folders without ``__init__.py``, so pytest imports
each one by its file name (rootdir-relative "rootdir" import mode); two test files with the same
name in different packages stop the whole run at collection."""

import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_module_name_is_unique():
    out = subprocess.run(["git", "ls-files", "*test_*.py", "*_test.py", "*conftest.py"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    by_name = defaultdict(list)
    for rel in out.splitlines():
        name = Path(rel).name
        if name != "conftest.py" and (ROOT / rel).is_file() and "/tests/" in f"/{rel}":
            by_name[name].append(rel)
    assert {n: paths for n, paths in by_name.items() if len(paths) > 1} == {}
