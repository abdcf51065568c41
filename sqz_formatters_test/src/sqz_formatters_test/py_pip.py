"""pip install / pip download / uv pip install: drop index, download and progress chatter.

Kept verbatim: every ERROR/error and warning line (except pip's notes about ignored
index locations), the result lines (``Successfully installed …``, ``Saved …``,
uv's ``+ pkg==ver`` list) and any line not recognised as chatter.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("pip", "pip3", "uv")

_PIP_CHATTER = re.compile(
    r"^(?:Looking in indexes: |Looking in links: |WARNING: Location '.*' is ignored: |"
    r"Collecting |Obtaining |Downloading |  Downloading |Using cached |  Using cached |Processing |"
    r"Requirement already satisfied: |Installing collected packages: |  Attempting uninstall: |"
    r"    Found existing installation: |    Uninstalling |      Successfully uninstalled |"
    r"  Preparing metadata |  Installing build dependencies |  Getting requirements to build |"
    r"Building wheels for collected packages: |  Building wheel for |  Created wheel for |"
    r"  Stored in directory: |Successfully built |File was already downloaded )")
_PROGRESS_BAR = re.compile(r"^\s*[━╸╺─]+ [\d.]+/[\d.]+ [kMG]?B .*eta ")
_PIP_RESULT = re.compile(r"^(?:Successfully installed |Successfully downloaded |Saved |ERROR: |"
                         r"Would install )")
_UV_CHATTER = re.compile(r"^(?:Using Python \S+ environment at: |Resolved \d+ packages? in |"
                         r"Prepared \d+ packages? in |Audited \d+ packages? in |Downloading |Building |"
                         r" Downloading | Building | Built )")
_UV_RESULT = re.compile(r"^(?:Installed \d+ packages? in |Uninstalled \d+ packages? in | [+-] \S+==\S+|"
                        r"error: |warning: |Audited \d+ packages? in )")


def compact_pip(lines: list[str]) -> list[str] | None:
    """pip's install/download output without chatter; None when no result or error line is seen."""
    out: list[str] = []
    dropped = already = 0
    for line in lines:
        if line.startswith("Requirement already satisfied: "):
            if " (from " in line and " (from -r " not in line and " (from -c " not in line:
                already += 1  # a dependency of another requirement
            else:
                out.append(line)  # a requirement the user asked for (argument or -r file): keep its version
        elif _PIP_CHATTER.match(line) or _PROGRESS_BAR.match(line):
            dropped += 1
        else:
            out.append(line)
    if not any(_PIP_RESULT.match(x) or x.startswith("Requirement already satisfied: ") for x in out):
        return None
    notes = []
    if already:
        notes.append(f"{plural(already, 'dependency', 'dependencies')} already satisfied")
    if dropped:
        notes.append(f"{plural(dropped, 'line')} of index/download/progress output dropped")
    return out + [f"({'; '.join(notes)})"]


def compact_uv(lines: list[str]) -> list[str] | None:
    """uv pip install output without resolver chatter; None when no result or error line is seen."""
    out = [x for x in lines if not _UV_CHATTER.match(x)]
    if not any(_UV_RESULT.match(x) for x in out):
        return None
    return out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Handle ``pip install``, ``pip download`` and ``uv pip install``; None for anything else."""
    words = [w for w in request.argv[1:] if not w.startswith("-")]
    if request.program == "uv":
        if words[:2] != ["pip", "install"]:
            return None
        out = compact_uv(request.lines)
    else:
        if not words or words[0] not in ("install", "download"):
            return None
        out = compact_pip(request.lines)
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
