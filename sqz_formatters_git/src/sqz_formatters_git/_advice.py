"""git's stock advice paragraphs (``hint: …`` blocks, and ``git am``'s three lines on how to go on
after a failed patch) and redundant ``Auto-merging`` lines.

A block of consecutive ``hint:`` lines is dropped only when it is, line for line, one of
git's own advice texts in ``STOCK`` (conflict resolution after rebase/cherry-pick/revert,
a push rejected as fetch-first or non-fast-forward; git 2.39 wording, captured in the
fixtures): those say the same thing on every run. One line ``[hints cut: …]`` stays in its
place with the commands the advice names to run next (``git rebase --continue``, ``git pull
...``; not the ``git add/rm <pathspec>`` template nor a ``--help`` pointer), so the next step
is still on the page; the exact text is recoverable with ``sqz expand``. Any other hint (other wording, another git version, a
hint for an unusual situation, a one-liner) is kept verbatim.
"""

from __future__ import annotations

import re

_SEQUENCER = ('hint: After resolving the conflicts, mark them with\n'
              'hint: "git add/rm <pathspec>", then run\n'
              'hint: "git {verb} --continue".\n'
              'hint: You can instead skip this commit with "git {verb} --skip".\n'
              'hint: To abort and get back to the state before "git {verb}",\n'
              'hint: run "git {verb} --abort".')
STOCK = frozenset([
    'hint: Resolve all conflicts manually, mark them as resolved with\n'
    'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".\n'
    'hint: You can instead skip this commit: run "git rebase --skip".\n'
    'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
    _SEQUENCER.format(verb="cherry-pick"),
    _SEQUENCER.format(verb="revert"),
    "hint: Updates were rejected because the remote contains work that you do\n"
    "hint: not have locally. This is usually caused by another repository pushing\n"
    "hint: to the same ref. You may want to first integrate the remote changes\n"
    "hint: (e.g., 'git pull ...') before pushing again.\n"
    "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
    "hint: Updates were rejected because the tip of your current branch is behind\n"
    "hint: its remote counterpart. Integrate the remote changes (e.g.\n"
    "hint: 'git pull ...') before pushing again.\n"
    "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
])
# `git am` (and the apply backend of `git rebase`) after a patch failed: stock lines without `hint: `
_RESOLVE = ('When you have resolved this problem, run "{cmd} --continue".\n'
            'If you prefer to skip this patch, run "{cmd} --skip" instead.\n'
            'To restore the original branch and stop patching, run "{cmd} --abort".')
PLAIN_STOCK = frozenset(_RESOLVE.format(cmd=c) for c in ("git am", "git rebase"))
_PLAIN_LINES = 3
FIRST_LINES = frozenset(x.split("\n", 1)[0] for x in STOCK)
_PLAIN_FIRST = frozenset(x.split("\n", 1)[0] for x in PLAIN_STOCK)
_MAX_LINES = max(x.count("\n") + 1 for x in STOCK)
_QUOTED_GIT = re.compile(r"""["']((?:git )[^"']*)["']""")
_AUTO_MERGING = re.compile(r"^Auto-merging (.+)$")
_CONTENT_CONFLICT = re.compile(r"^CONFLICT \([^)]*\): Merge conflict in (.+)$")


def stock_block(lines: list[str], i: int) -> int:
    """The end of the stock advice block starting at ``lines[i]``, or ``i`` if there is none."""
    if lines[i] in _PLAIN_FIRST:
        return i + _PLAIN_LINES if "\n".join(lines[i:i + _PLAIN_LINES]) in PLAIN_STOCK else i
    if lines[i] not in FIRST_LINES:
        return i
    j = i
    while j < len(lines) and j - i <= _MAX_LINES and lines[j].startswith("hint: "):
        j += 1
    return j if "\n".join(lines[i:j]) in STOCK else i


def drop_stock_advice(lines: list[str]) -> list[str]:
    """``lines`` with each stock hint block replaced by one ``[hints cut: …]`` line."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        j = stock_block(lines, i)
        if j == i:
            out.append(lines[i])
            i += 1
            continue
        quoted = list(dict.fromkeys(_QUOTED_GIT.findall(" ".join(x[6:] if x.startswith("hint: ") else x
                                                                 for x in lines[i:j]))))
        # `before "git rebase"` names the command itself: keep only the forms with arguments
        commands = [c for c in quoted if not any(o != c and o.startswith(c + " ") for o in quoted)
                    and "<" not in c and not c.endswith(" --help")]
        out.append(f"[hints cut: {'; '.join(commands)}]")
        i = j
    return out


def drop_redundant_auto_merging(lines: list[str]) -> list[str]:
    """Drop ``Auto-merging X`` when a ``CONFLICT …: Merge conflict in X`` line names the same path."""
    conflicted = {m.group(1) for m in map(_CONTENT_CONFLICT.match, lines) if m}
    return [x for x in lines if not ((m := _AUTO_MERGING.match(x)) and m.group(1) in conflicted)]


def drop_repeated_could_not_apply(lines: list[str]) -> list[str]:
    """Drop rebase's closing ``Could not apply X`` when ``error: could not apply X`` is on the page."""
    errors = {x[len("error: c"):] for x in lines if x.startswith("error: could not apply ")}
    return [x for x in lines if not (x.startswith("Could not apply ") and x[1:] in errors)]
