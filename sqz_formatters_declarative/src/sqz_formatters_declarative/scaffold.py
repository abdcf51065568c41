"""``sqz formatters new NAME``: a Python formatter pack that installs, registers and tests as is."""

from __future__ import annotations

import os
import re

NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


class ScaffoldError(ValueError):
    """The pack cannot be created (a bad name, or the folder exists)."""


PYPROJECT = '''[build-system]
requires = ["hatchling>=1.27"]
build-backend = "hatchling.build"

[project]
name = "sqz-formatters-{name}"
version = "0.1.0"
description = "sqz formatter pack: {name}"
readme = "README.md"
requires-python = ">=3.10"
dependencies = ["sqz-core>=0.2,<0.3"]

[project.optional-dependencies]
test = ["pytest>=8", "sqz-testing>=0.2,<0.3"]

[project.entry-points."sqz.formatters"]
# entry name = module; the module declares `commands` and implements sqz_* hooks
{name} = "sqz_formatters_{mod}.{mod}"

[tool.hatch.build.targets.wheel]
packages = ["src/sqz_formatters_{mod}"]

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["src"]
'''

README = '''# sqz-formatters-{name}

An sqz formatter pack for `{name}`'s output, scaffolded by `sqz formatters new {name}`.

    pip install -e '.[test]'     # sqz plugins then lists `{name}`
    pytest

Replace the sample in `tests/test_{mod}.py` with real captures of `{name}` (one file each, with the
command and version that produced it): see sqz's docs/plugin-authoring.md.
'''

MODULE = '''"""sqz formatter for `{name}` output: progress chatter dropped on a green run, a red run untouched."""

from __future__ import annotations

from sqz_core.api import hookimpl

commands = ("{name}",)  # program names this module claims (argv[0] after wrappers)

CHATTER = ("Progress:", "Downloading ", "Fetching ")


@hookimpl
def sqz_format(request):
    """The output without its progress lines; None (passed through) when it fails or has none."""
    if request.exit_code not in (0, None):
        return None  # faithful on red: a failing run reaches the agent whole
    lines = request.text.splitlines()
    kept = [line for line in lines if line.strip() and not line.startswith(CHATTER)]
    if len(kept) == len(lines) or not kept:
        return None  # not a shape this formatter shortens: refuse to guess
    return "\\n".join(kept) + "\\n"
'''

TEST = '''"""Tests of the {name} formatter with the sqz-testing kit (its pytest plugin gives `sqz_compress`)."""

from sqz_formatters_{mod} import {mod}
from sqz_testing import assert_facts_kept, assert_passthrough, assert_recoverable, format_with

# replace with a real capture of `{name}` (tests/fixtures/NAME.txt and its NAME.json sidecar)
GREEN = "Progress: 1/3\\nProgress: 2/3\\nProgress: 3/3\\n\\nbuilt dist/app.tar (3 files)\\n"


def test_progress_goes_and_the_result_stays():
    out = format_with({mod}, GREEN, "{name} build", exit_code=0)
    assert out == "built dist/app.tar (3 files)\\n"
    assert_facts_kept(out, ["built dist/app.tar (3 files)"])


def test_a_failing_run_passes_through():
    assert_passthrough({mod}, GREEN + "error: disk full\\n", "{name} build", exit_code=1)


def test_an_output_without_progress_is_not_its_shape():
    assert_passthrough({mod}, "built dist/app.tar (3 files)\\n", "{name} build", exit_code=0)


def test_the_whole_pipeline_keeps_the_original_recoverable(sqz_compress):
    result = sqz_compress(GREEN * 20, command="{name} build")
    assert_recoverable((GREEN * 20).encode(), result, sqz_compress.store)
'''


def scaffold(name: str, where: str) -> tuple[str, list[str]]:
    """Create ``sqz-formatters-NAME/`` under ``where``; ``(its path, the files written, relative)``."""
    if not NAME.fullmatch(name or ""):
        raise ScaffoldError(f"{name!r} is not a pack name: lowercase letters and digits, parts joined by - or _ "
                            "(the program it formats, e.g. `deploy-tool`)")
    mod = name.replace("-", "_")
    root = os.path.join(os.path.abspath(where), f"sqz-formatters-{name}")
    if os.path.exists(root):
        raise ScaffoldError(f"{root} already exists")
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"src/sqz_formatters_{mod}/__init__.py": '"""sqz formatter pack: {name}."""\n',
        f"src/sqz_formatters_{mod}/{mod}.py": MODULE,
        f"src/sqz_formatters_{mod}/py.typed": "",
        f"tests/test_{mod}.py": TEST,
    }
    for rel, template in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(template.format(name=name, mod=mod))
    return root, sorted(files)
