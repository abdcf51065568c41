"""``terraform``/``tofu`` init: keep what was installed and every error, drop the advice.

``init`` prints a fixed encouragement paragraph after success; it goes. The section banners
(``Initializing provider plugins...``: which steps ran, issue 25), module and provider lines
(``- network in modules/network``, ``- Installed hashicorp/aws v5.1.0``), the lock-file note and
every diagnostic stay.
``validate`` has no formatter: its output is already only diagnostics (or one success
line), so the generic stages handle it.
"""

from __future__ import annotations

import re

_BANNERS = re.compile(r"^(Initializing (the backend|provider plugins|modules)\.\.\.|"
                      r"Initializing (HCP Terraform|Terraform Cloud)\.\.\.)$")
_SUCCESS = ("Terraform has been successfully initialized!", "OpenTofu has been successfully initialized!")
_ADVICE_FIRST = ("You may now begin working with Terraform.", "You may now begin working with OpenTofu.")
_ADVICE_SECOND = "If you ever set or change modules or backend configuration for"
_KNOWN = re.compile(r"^(- |Initializing |Terraform |OpenTofu |You may now |If you ever |rerun this |commands will |"
                    r"any changes |should now |╷|│|╵|Error: |Warning: |  |Partner and community providers|"
                    r"Terraform has created a lock file|OpenTofu has created a lock file|you run \"|selections it made|"
                    r"so that |\w.*\.terraform\.lock\.hcl)")


def format_init(text: str) -> str | None:
    """Drop the closing advice; None when a line is not one init is known to print."""
    lines = text.split("\n")
    if not any(_BANNERS.match(l) for l in lines):
        return None
    out: list[str] = []
    dropped = 0
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if line.strip() and not _KNOWN.match(line) and not line.startswith(" "):
            return None  # an init line we do not know: refuse to guess
        if line.startswith(_ADVICE_FIRST) or line.startswith(_ADVICE_SECOND):
            j = i
            while j < n and lines[j].strip():
                j += 1
            dropped += j - i
            i = j
            continue
        out.append(line)
        i += 1
    body = [l for k, l in enumerate(out) if l.strip() or (k and out[k - 1].strip())]
    result = "\n".join(body).strip("\n")
    if dropped > 3:  # a note for two banner lines would cost more than it saves
        result += f"\n[{dropped} lines of init advice dropped]"
    result += "\n"
    return result if len(result) < len(text) else None  # nothing to drop (a failed init): as printed

