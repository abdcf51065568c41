#!/usr/bin/env python3
"""Generate ``src/sqz_formatters_git/git_status_l10n.py`` from git's own translations.

Reads the ``git.mo`` catalogues git ships (``/usr/share/locale/<ll>/LC_MESSAGES/git.mo``)
with ``msgunfmt`` (which also expands the ``%<PRIuMAX>`` system-dependent strings that
Python's ``gettext`` skips) and keeps the messages ``git status`` prints in its long
format. Only locales whose real ``git status`` output is captured in the fixtures are
listed, so every table entry is checked against real output by the tests.

Usage: ``python scripts/extract_status_l10n.py`` (needs ``msgunfmt`` from gettext).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

LOCALES = ("de", "fr", "es", "it", "pt_PT")
OUT = Path(__file__).resolve().parent.parent / "src" / "sqz_formatters_git" / "git_status_l10n.py"

# role -> msgids (as in git's wt-status.c; a trailing space marks a prefix followed by a value)
MSGIDS = {
    "head": ["On branch ", "HEAD detached at ", "HEAD detached from ", "Not currently on any branch.",
             "No commits yet", "Initial commit"],
    "tracking": ["Your branch is up to date with '%s'.\n",
                 "Your branch is ahead of '%s' by %d commit.\n",
                 "Your branch is behind '%s' by %d commit, and can be fast-forwarded.\n",
                 "Your branch and '%s' have diverged,\nand have %d and %d different commit each, respectively.\n",
                 "Your branch is based on '%s', but the upstream is gone.\n",
                 "Your branch and '%s' refer to different commits.\n"],
    "state": ["You have unmerged paths.", "All conflicts fixed but you are still merging.",
              "You are currently rebasing branch '%s' on '%s'.", "You are currently rebasing.",
              "interactive rebase in progress; onto ",
              "Last command done (%<PRIuMAX> command done):", "Next command to do (%<PRIuMAX> remaining command):",
              "No commands done.", "No commands remaining.",
              "You are currently cherry-picking commit %s.", "Cherry-pick currently in progress.",
              "You are currently reverting commit %s.", "Revert currently in progress.",
              "You are currently bisecting, started from branch '%s'.", "You are currently bisecting.",
              "You are currently editing a commit while rebasing branch '%s' on '%s'.",
              "You are currently editing a commit during a rebase.",
              "You are currently splitting a commit while rebasing branch '%s' on '%s'.",
              "You are currently splitting a commit during a rebase.",
              "You are in a sparse checkout with %d%% of tracked files present.", "You are in a sparse checkout.",
              "You are in the middle of an am session."],
    "section": ["Changes to be committed:", "Changes not staged for commit:", "Unmerged paths:",
                "Untracked files", "Ignored files"],
    "label": ["new file:", "modified:", "deleted:", "renamed:", "copied:", "typechange:", "unknown:", "unmerged:",
              "both deleted:", "added by us:", "deleted by them:", "added by them:", "deleted by us:",
              "both added:", "both modified:"],
    "footer": ["nothing to commit, working tree clean\n", "nothing to commit\n",
               "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n", "no changes added to commit\n",
               "nothing added to commit but untracked files present (use \"git add\" to track)\n",
               "nothing added to commit but untracked files present\n",
               "nothing to commit (create/copy files and use \"git add\" to track)\n",
               "nothing to commit (use -u to show untracked files)\n",
               "Untracked files not listed%s", " (use -u option to show untracked files)"],
}
# English plural forms (msgid_plural) for the messages that have them.
PLURALS = {
    "Your branch is ahead of '%s' by %d commit.\n": "Your branch is ahead of '%s' by %d commits.\n",
    "Your branch is behind '%s' by %d commit, and can be fast-forwarded.\n":
        "Your branch is behind '%s' by %d commits, and can be fast-forwarded.\n",
    "Your branch and '%s' have diverged,\nand have %d and %d different commit each, respectively.\n":
        "Your branch and '%s' have diverged,\nand have %d and %d different commits each, respectively.\n",
    "Last command done (%<PRIuMAX> command done):": "Last commands done (%<PRIuMAX> commands done):",
    "Next command to do (%<PRIuMAX> remaining command):": "Next commands to do (%<PRIuMAX> remaining commands):",
}


def _unquote(s: str) -> str:
    return json.loads(s)


def parse_po(text: str) -> dict:
    """msgid -> list of translated forms (only non-fuzzy, non-empty entries)."""
    out: dict = {}
    cur: dict = {}
    key = None
    for line in text.splitlines() + [""]:
        if not line.strip():
            if cur.get("msgid") is not None:
                forms = [cur[k] for k in sorted(cur) if k.startswith("msgstr")]
                if forms and all(forms) and "fuzzy" not in cur.get("flags", ""):
                    out[cur["msgid"]] = forms
            cur, key = {}, None
            continue
        if line.startswith("#,"):
            cur["flags"] = line
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            key = "msgid_plural"
            cur[key] = _unquote(line[len(key) + 1:])
        elif line.startswith("msgid "):
            key = "msgid"
            cur[key] = _unquote(line[6:])
        elif line.startswith("msgstr"):
            key, _, rest = line.partition(" ")
            cur[key] = _unquote(rest)
        elif line.startswith('"') and key:
            cur[key] += _unquote(line)
    return out


def main() -> None:
    table = {"en": {}}
    for role, ids in MSGIDS.items():
        for mid in ids:
            table["en"][mid] = [mid] + ([PLURALS[mid]] if mid in PLURALS else [])
    missing = []
    for loc in LOCALES:
        po = subprocess.run(["msgunfmt", f"/usr/share/locale/{loc}/LC_MESSAGES/git.mo"], capture_output=True,
                            text=True, check=True).stdout
        cat = parse_po(po)
        table[loc] = {}
        for ids in MSGIDS.values():
            for mid in ids:
                if mid in cat:
                    table[loc][mid] = cat[mid]
                else:
                    missing.append((loc, mid))
    version = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        '"""git\'s own translations of the messages ``git status`` prints (long format).',
        "",
        f"Generated by scripts/extract_status_l10n.py from the git.mo catalogues of {version};",
        "do not edit by hand. ROLES maps each msgid to what it is in the output; MESSAGES maps",
        "locale -> msgid -> translated forms (plural forms listed in order).",
        '"""',
        "",
        "ROLES = {",
    ]
    for role, ids in MSGIDS.items():
        for mid in ids:
            lines.append(f"    {mid!r}: {role!r},")
    lines.append("}")
    lines.append("")
    lines.append("MESSAGES = {")
    for loc, entries in table.items():
        lines.append(f"    {loc!r}: {{")
        for mid, forms in entries.items():
            lines.append(f"        {mid!r}: {forms!r},")
        lines.append("    },")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}; untranslated (fall back to no match): {missing}")


if __name__ == "__main__":
    main()
