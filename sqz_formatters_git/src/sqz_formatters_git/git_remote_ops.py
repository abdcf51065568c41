"""``fetch``, ``pull``, ``push``, ``clone``: progress noise out, results in.

Object-transfer progress (``Counting objects``, ``Receiving objects``, ``remote: Total …``)
is dropped with a count; ref updates (``* [new branch]``, ``abc..def  main -> origin/main``),
rejections, ``error:``/``fatal:`` lines, conflicts and every other line are kept verbatim;
git's stock advice after a rejected push becomes one line naming its commands (``_advice``);
``Auto-merging X`` goes when X conflicts; a pull's diffstat loses its bar graph; a push's one
``To URL`` line goes when ``error: failed to push some refs to 'URL'`` names the same remote
(not on its own: that alone is not worth a recovery line).
Nothing dropped → None.
"""

from __future__ import annotations

import re

from ._advice import drop_redundant_auto_merging, drop_stock_advice
from ._common import compact_stat_line, is_stat_line, is_stat_summary

_PROGRESS = re.compile(
    r"^(?:remote: )?(?:(?:Enumerating|Counting|Compressing|Receiving|Writing|Unpacking|Checking|Indexing|Finding|"
    r"Filtering|Updating) (?:objects|deltas|files|sources|connectivity|content)|Resolving deltas|"
    r"Checking out files)(?::.*|\.\.\.(?:.*)?)$"
    r"|^(?:remote: )?Total \d+ \(delta \d+\), reused \d+ \(delta \d+\)(?:, pack-reused \d+.*)?$"
    r"|^(?:remote: )?Delta compression using up to \d+ threads\.?$"
    r"|^remote:$"
    r"|^done\.$")
_ERROR = re.compile(r"^(?:fatal|error|hint|warning): ")


def drop_progress(lines: list[str]) -> tuple[list[str], int]:
    """Lines without transfer progress (a diffstat's bar graph dropped too), and how many were dropped."""
    has_stat = any(is_stat_summary(x) for x in lines)
    out: list[str] = []
    dropped = 0
    for line in lines:
        if _PROGRESS.match(line):
            dropped += 1
        elif has_stat and is_stat_line(line):
            out.append(compact_stat_line(line))
        else:
            out.append(line)
    return out, dropped


def drop_repeated_remote(lines: list[str]) -> list[str]:
    """Without the ``To URL`` line when it is the only one and the push error names that URL."""
    to = [x for x in lines if x.startswith("To ")]
    if len(to) == 1 and f"error: failed to push some refs to '{to[0][3:]}'" in lines:
        return [x for x in lines if x != to[0]]
    return lines


def format_transfer(request) -> str | None:
    """Network verbs: keep every non-progress line, count the progress lines."""
    lines = request.text.splitlines()
    out, dropped = drop_progress(drop_redundant_auto_merging(drop_stock_advice(lines)))
    if dropped == 0 and out == lines:
        return None  # the `To URL` line alone is not worth a recovery line
    out = drop_repeated_remote(out)
    if dropped:
        out.append(f"[{dropped} progress lines dropped]")
    return "\n".join(out) + "\n"
