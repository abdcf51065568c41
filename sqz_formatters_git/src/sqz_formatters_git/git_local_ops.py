"""Local mutating verbs: ``commit``, ``add``, ``checkout``/``switch``, ``merge``, ``rebase``,
``cherry-pick``, ``revert``, ``reset``, ``restore``.

Result lines (``[main abc1234] subject``, ``Switched to branch …``, ``HEAD is now at …``,
``Fast-forward``, ``CONFLICT …``) and every ``error:``/``fatal:`` line stay verbatim.
Dropped: the detached-HEAD advice paragraph, git's stock conflict advice (``hint:`` block,
one line naming its commands stays; see ``_advice``), ``Auto-merging X`` when X conflicts,
rebase's closing ``Could not apply X`` when ``error: could not apply X`` says it already,
``Updating files``/progress lines and the bar graph of diffstats. ``git commit`` that found nothing to commit prints a status: that goes
to the status formatter. Nothing dropped → None.
"""

from __future__ import annotations

from ._advice import drop_redundant_auto_merging, drop_repeated_could_not_apply, drop_stock_advice
from .git_remote_ops import drop_progress

_ADVICE_START = "You are in 'detached HEAD' state."
_ADVICE_END = "Turn off this advice by setting config variable advice.detachedHead to false"


def format_local(request) -> str | None:
    """Drop advice and progress, compact diffstats, keep the rest verbatim."""
    lines = request.text.splitlines()
    kept: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith(_ADVICE_START) and _ADVICE_END in lines[i:]:
            end = lines.index(_ADVICE_END, i)
            while kept and kept[-1] == "":
                kept.pop()
            kept.append(f"[detached-HEAD advice dropped ({end - i + 1} lines)]")
            i = end + 1
            while i < len(lines) and lines[i] == "":
                i += 1
            continue
        kept.append(lines[i])
        i += 1
    out, dropped = drop_progress(drop_repeated_could_not_apply(drop_redundant_auto_merging(drop_stock_advice(kept))))
    while out and out[-1] == "":
        out.pop()
    if dropped:
        out.append(f"[{dropped} progress lines dropped]")
    if out == lines or not out:
        return None
    return "\n".join(out) + "\n"
