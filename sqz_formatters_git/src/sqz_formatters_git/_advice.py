"""git's stock advice paragraphs (``hint: …`` blocks) and redundant ``Auto-merging`` lines.

A block of two or more ``hint:`` lines is dropped only when its first line is one of git's
own advice texts listed in ``BOILERPLATE`` (conflict resolution after rebase/cherry-pick/revert,
rejected pushes): those say the same thing on every run. One line stays in its place,
with the commands the advice names, so the next step is still on the page; the exact text
is recoverable with ``sqz expand``. Any other hint (a repository-specific one, a hint git
prints for an unusual situation) is kept verbatim.
"""

from __future__ import annotations

import re

# first line of a stock advice paragraph (git 2.x, C locale)
BOILERPLATE = (
    "hint: Resolve all conflicts manually, mark them as resolved with",
    "hint: After resolving the conflicts, mark them with",
    "hint: Updates were rejected because the remote contains work that you do",
    "hint: Updates were rejected because the tip of your current branch is behind",
    "hint: Updates were rejected because a pushed branch tip is behind its remote",
    "hint: Updates were rejected because the tag already exists in the remote.",
)
_QUOTED_GIT = re.compile(r"""["']((?:git )[^"']*)["']""")
_AUTO_MERGING = re.compile(r"^Auto-merging (.+)$")
_CONTENT_CONFLICT = re.compile(r"^CONFLICT \([^)]*\): Merge conflict in (.+)$")


def drop_stock_advice(lines: list[str]) -> list[str]:
    """``lines`` with each stock hint block replaced by one ``[git advice dropped …]`` line."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        if lines[i] not in BOILERPLATE:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < n and lines[j].startswith("hint: "):
            j += 1
        if j - i < 2:  # a one-line hint costs no more than the marker would
            out.extend(lines[i:j])
            i = j
            continue
        quoted = list(dict.fromkeys(_QUOTED_GIT.findall(" ".join(x[6:] for x in lines[i:j]))))
        # `before "git rebase"` names the command itself: keep only the forms with arguments
        commands = [c for c in quoted if not any(o != c and o.startswith(c + " ") for o in quoted)]
        names = f": {'; '.join(commands)}" if commands else ""
        out.append(f"[git advice dropped ({j - i} hint lines){names}]")
        i = j
    return out


def drop_redundant_auto_merging(lines: list[str]) -> list[str]:
    """Drop ``Auto-merging X`` when a ``CONFLICT …: Merge conflict in X`` line names the same path."""
    conflicted = {m.group(1) for m in map(_CONTENT_CONFLICT.match, lines) if m}
    return [x for x in lines if not ((m := _AUTO_MERGING.match(x)) and m.group(1) in conflicted)]
