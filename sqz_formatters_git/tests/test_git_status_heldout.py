"""Held-out `git status` captures read back entry by entry with their section and status.

The sidecars of held_ignored and held_untracked_all name paths only (a status cannot be written
as a fact both the long format, ``deleted:    tests/test_imports.py``, and the rendering,
``D tests/test_imports.py``, hold); this parses the raw long format and reads the rendering back.
"""

from __future__ import annotations

import re

import pytest
from test_git_attribution import _fixture, _read_status

from sqz_formatters_git import git

_SECTIONS = {"Changes to be committed:": "staged", "Changes not staged for commit:": "modified",
             "Untracked files:": "untracked", "Ignored files:": "ignored"}
_CODE = {"modified": "M", "new file": "A", "deleted": "D", "renamed": "R", "typechange": "T"}


def _raw_long_status(text: str) -> list[tuple]:
    entries, section = [], None
    for line in text.splitlines():
        if line in _SECTIONS:
            section = _SECTIONS[line]
        elif line.startswith("\t") and section in ("untracked", "ignored"):
            entries.append((section, None, line[1:]))
        elif line.startswith("\t"):
            m = re.match(r"^\t([a-z ]+):\s+(.*)$", line)
            path = m.group(2)
            if m.group(1) == "renamed":
                path = tuple(path.split(" -> "))
            entries.append((section, _CODE[m.group(1)], path))
    return sorted(entries, key=repr)


@pytest.mark.parametrize("name", ["status/held_ignored", "status/held_untracked_all"])
def test_heldout_status_reads_back_with_section_and_status(name):
    fx = _fixture(name)
    raw = _raw_long_status(fx.request().text)
    assert ("staged", "D", "tests/test_imports.py") in raw and ("modified", "D", "examples/README") in raw
    assert ("staged", "R", ("docs/why.rst", "docs/rationale.rst")) in raw
    assert _read_status(git.sqz_format(request=fx.request())) == raw
