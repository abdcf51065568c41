#!/usr/bin/env python3
"""Re-capture every fixture of sqz-formatters-git from real git runs.

Builds throw-away repositories under /tmp/sqz-capture (fixed names, emails, dates, so the
hashes come out the same on every run with the same git), runs the installed git in them
and writes ``tests/fixtures/<family>/NAME.txt`` (stdout and stderr as printed, merged) and
``NAME.json`` (command, git version, exit code, facts, dropped, notes).

Facts are computed from git plumbing (``rev-parse``) and from the names this script chose,
never from a formatter. Needs the locales de_DE, fr_FR, es_ES, it_IT, pt_PT
(``apt-get install locales-all``). Usage: ``python scripts/capture_fixtures.py`` (everything)
or ``python scripts/capture_fixtures.py advice`` / ``depth`` / ``families`` (only ``capture_advice_shapes`` /
``capture_depth_shapes`` / ``capture_families_shapes``; ``words``: ``capture_words_shapes``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path("/tmp/sqz-capture/git")
PACK = Path(__file__).resolve().parent.parent
OUT = PACK / "tests" / "fixtures"
NEAR = PACK / "tests" / "near_miss"
MAIN_REPO = PACK.parent  # the sqz repository itself, read only

GITCONFIG = ("[user]\n\tname = Dev Example\n\temail = dev@example.org\n[init]\n\tdefaultBranch = main\n"
             "[pull]\n\trebase = false\n[core]\n\tpager = cat\n")
SCRUB_NOTE = "registry host names and index paths, if any, replaced with pkgs.example.org"

_clock = [0]
_problems: list = []
_OLD_FACTS: dict = {}  # sidecar path -> its facts, read by a full run before it clears the folders


def git_version() -> str:
    return subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()


def base_env(lang: str = "C", tick: bool = True) -> dict:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(ROOT / "home"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "LC_ALL": lang,
        "LANG": lang,
        "TERM": "dumb",
        "GIT_PAGER": "cat",
        "PAGER": "cat",
    }
    if tick:
        _clock[0] += 1
    day = _clock[0] // 24  # March 2024 from tick 0, the months after it from tick 744 (held-out pass #2)
    stamp = (f"2024-{3 + day // 31:02d}-{1 + day % 31:02d}T{_clock[0] % 24:02d}:{(_clock[0] * 7) % 60:02d}:00+0000")
    env["GIT_AUTHOR_DATE"] = stamp
    env["GIT_COMMITTER_DATE"] = stamp
    return env


def run(repo: Path, *args: str, lang: str = "C", check: bool = True, who: str = "dev") -> subprocess.CompletedProcess:
    """Run git in ``repo`` for setting things up (output not kept)."""
    env = base_env(lang)
    if who != "dev":
        env.update(GIT_AUTHOR_NAME=who.title() + " Example", GIT_AUTHOR_EMAIL=f"{who}@example.org",
                   GIT_COMMITTER_NAME=who.title() + " Example", GIT_COMMITTER_EMAIL=f"{who}@example.org")
    p = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise SystemExit(f"setup failed in {repo}: git {' '.join(args)}\n{p.stdout}{p.stderr}")
    return p


def rev(repo: Path, what: str = "HEAD", n: int = 12) -> str:
    p = subprocess.run(["git", "rev-parse", what], cwd=repo, env=base_env(tick=False), capture_output=True, text=True)
    return p.stdout.strip()[:n]


def write(repo: Path, path: str, text: str) -> None:
    p = repo / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def commit_all(repo: Path, msg: str, who: str = "dev") -> str:
    run(repo, "add", "-A")
    run(repo, "commit", "-q", "-m", msg, who=who)
    return rev(repo)


def new_repo(name: str, bare: bool = False) -> Path:
    repo = ROOT / name
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    run(repo, "init", "-q", "-b", "main", *(["--bare"] if bare else []))
    return repo


def scrub(data: bytes) -> bytes:
    """Registry hosts and local index paths never appear in committed fixtures."""
    from sqz_testing import redact_registries

    return redact_registries(data)


def capture(family: str, name: str, repo: Path, cmd: str, facts=(), dropped=(), notes: str = "",
            near_miss: bool = False, raw_facts=None) -> bytes:
    """Run ``cmd`` (``[VAR=val ...] git ...``) in ``repo`` and store output and sidecar.

    ``raw_facts(text)`` adds facts picked from the raw output itself (see the ``*_facts``
    helpers below: plain regexes over what git printed, never a formatter).
    """
    words = cmd.split(" ")
    lang = "C"
    extra = {}
    while "=" in words[0]:
        k, v = words.pop(0).split("=", 1)
        extra[k] = v
        if k in ("LANG", "LC_ALL"):
            lang = v
    import shlex

    argv = shlex.split(" ".join(words))
    env = base_env(lang, tick=False)
    env.update(extra)
    p = subprocess.run(argv, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    raw = scrub(p.stdout)
    text = raw.decode("utf-8", "replace")
    from sqz_testing import missing_facts

    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    facts = list(facts) + (raw_facts(plain) if raw_facts else [])
    dest = (NEAR if near_miss else OUT) / family
    sidecar = dest / f"{name}.json"
    old_facts = _OLD_FACTS.get(sidecar)
    if sidecar.exists():
        old_facts = json.loads(sidecar.read_text(encoding="utf-8")).get("facts", [])
    if old_facts:
        # facts added to the sidecar by hand (a reader's audit of the raw text) outlive a re-capture
        # (a full run reads them before it clears the folders); one that no longer holds in the new
        # output is reported below, never dropped quietly
        facts += [f for f in old_facts if f not in facts]
    lost = missing_facts(plain, facts)
    if lost:
        _problems.append(f"{family}/{name}: facts not in the raw output: {lost}")
        print(f"!! {family}/{name}: facts not in the raw output: {lost}\n{text}")
    dest.mkdir(parents=True, exist_ok=True)
    (dest / f"{name}.txt").write_bytes(raw)
    meta = {"command": cmd, "produced_by": git_version(), "exit_code": p.returncode,
            "facts": list(facts), "dropped": list(dropped),
            "notes": ("; ".join(x for x in (notes, f"captured in {repo}", SCRUB_NOTE) if x))}
    (dest / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"{family}/{name}: exit {p.returncode}, {len(raw)} bytes")
    return raw


# ----------------------------------------------------------------------------- facts from raw output

_RAW_STAT = re.compile(r"^ (\S.*?)\s+\|\s+(\d+)(?: [+-]+)?$")
_RAW_SUMMARY = re.compile(r"^ \d+ files? changed.*$")


def path_count_fact(path: str, count: str) -> list:
    """A path with its change count: directory, name and count on one line (the layout may change)."""
    head, sep, name = path.rpartition("/")
    if not sep or "=>" in path or "{" in path:
        return [path, count]
    return [head + "/", name, count]


def stat_facts(text: str, every: int = 1) -> list:
    """Every ``every``-th file line of each diffstat (and its largest one) as path+count, every summary line."""
    out: list = []
    block: list = []
    for line in text.splitlines() + [""]:
        m = _RAW_STAT.match(line)
        if m:
            block.append((m.group(1), m.group(2)))
            continue
        if block:
            picks = block[::every] + [max(block, key=lambda e: int(e[1])), block[-1]]
            for path, count in dict.fromkeys(picks):
                out.append(path_count_fact(path, count))
            block = []
        if _RAW_SUMMARY.match(line):
            out.append(line.strip())
    return out


def hunk_facts(text: str) -> list:
    """Every hunk header, and the first and last changed line of each hunk, as printed."""
    out: list = []
    changed: list = []
    for line in text.splitlines() + ["@@"]:
        if line.startswith("@@"):
            if changed:
                out.extend(dict.fromkeys([changed[0], changed[-1]]))
            changed = []
            if line != "@@":
                out.append(line)
        elif line[:1] in "+-" and not line.startswith(("+++ ", "--- ")) and len(line.strip()) > 5:
            changed.append(line)  # (a line of 5 characters or fewer states nothing on its own)
    return out


_RAW_BLAME = re.compile(r"^(\^?[0-9a-f]{7,}) \((.*?) +(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}) +(\d+)\) ?(.*)$")


def blame_facts(text: str) -> list:
    """Each commit with its author and date; the numbered text of the rarer commits' lines and of the last line."""
    rows = [m.groups() for m in map(_RAW_BLAME.match, text.splitlines()) if m]
    out: list = []
    counts: dict = {}
    for sha, who, date, _, _ in rows:
        counts[sha] = counts.get(sha, 0) + 1
        if [sha, who, date] not in out:
            out.append([sha, who, date])
    common = max(counts, key=counts.get) if counts else None
    for sha, _, _, num, body in rows:
        if (sha != common or (sha, num) == (rows[-1][0], rows[-1][3])) and len(body.strip()) > 3:
            out.append(f"{num}) {body}")
    return out


# ----------------------------------------------------------------------------- repos

def build_project() -> tuple[Path, Path]:
    """A small Python project with history, a bare 'origin' and a second clone."""
    origin = new_repo("origin.git", bare=True)
    repo = new_repo("project")
    write(repo, "README.md", "# demo\n\nA small demo project.\n")
    write(repo, "src/app.py", "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(30)))
    write(repo, "src/util.py", "import os\n\n\ndef home():\n    return os.environ.get('HOME')\n")
    write(repo, "tests/test_app.py", "from src.app import f1\n\n\ndef test_f1():\n    assert f1(1) == 2\n")
    commit_all(repo, "Initial import of the demo project")
    write(repo, "src/util.py", "import os\nimport sys\n\n\ndef home():\n    return os.environ.get('HOME')\n\n\n"
          "def argv0():\n    return sys.argv[0]\n")
    commit_all(repo, "Add argv0 helper", who="alice")
    write(repo, "docs/usage.md", "Run `python -m src.app`.\n")
    commit_all(repo, "Document usage\n\nExplain how to run the app from a checkout.\nRefs: #12")
    run(repo, "tag", "v0.1.0")
    run(repo, "tag", "-a", "v0.1.1", "-m", "Release 0.1.1")
    run(repo, "remote", "add", "origin", str(origin))
    run(repo, "push", "-q", "-u", "origin", "main")
    run(repo, "push", "-q", "origin", "--tags")
    return repo, origin


def build_realpkg() -> Path:
    """History imported from two real releases of Pygments found on this machine."""
    old = Path("/usr/lib/python3/dist-packages/pygments")
    new = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "pygments"
    repo = new_repo("realpkg")
    picks = ["__init__.py", "lexer.py", "token.py", "util.py", "formatter.py", "formatters/html.py",
             "formatters/terminal.py", "filter.py", "style.py", "cmdline.py"]
    for src, msg, who in ((old, "Import Pygments 2.14.0 sources", "dev"),
                          (new, "Update Pygments sources to 2.21.0", "alice")):
        for rel in picks:
            if (src / rel).exists():
                write(repo, "pygments/" + rel, (src / rel).read_text())
        commit_all(repo, msg, who=who)
    return repo


# ----------------------------------------------------------------------------- families

def capture_status(repo: Path) -> None:
    h = rev(repo)
    # clean and up to date
    capture("status", "clean", repo, "git status",
            facts=["On branch main", "Your branch is up to date with 'origin/main'.", "clean"],
            dropped=["nothing to commit, working tree clean"], notes="a clean tree is reported as `clean`")
    # a local commit ahead, then a mixed working tree
    write(repo, "CHANGELOG.md", "## 0.1.2\n- faster f1\n")
    commit_all(repo, "Start changelog")
    write(repo, "src/app.py", (repo / "src/app.py").read_text().replace("return x + 1\n", "return x + 1  # hot\n"))
    write(repo, "src/new_module.py", "VALUE = 1\n")
    run(repo, "add", "src/new_module.py", "src/app.py")
    run(repo, "mv", "docs/usage.md", "docs/USAGE.md")
    write(repo, "src/util.py", (repo / "src/util.py").read_text() + "\n\ndef cwd():\n    return os.getcwd()\n")
    (repo / "tests/test_app.py").unlink()
    write(repo, "notes.txt", "scratch\n")
    write(repo, "build/out.log", "log\n")
    mixed_facts = ["src/new_module.py", "src/app.py", "docs/usage.md", "docs/USAGE.md", "src/util.py",
                   "tests/test_app.py", "notes.txt", "build/"]
    capture("status", "long_en", repo, "git status",
            facts=mixed_facts + ["On branch main", "Your branch is ahead of 'origin/main' by 1 commit."],
            dropped=['(use "git restore --staged <file>..." to unstage)', '(use "git push" to publish your local commits)'])
    locale_facts = {
        "de": "Ihr Branch ist 1 Commit vor 'origin/main'.",
        "fr": "Votre branche est en avance sur 'origin/main' de 1 commit.",
        "es": "Tu rama está adelantada a 'origin/main' por 1 commit.",
        "it": "Il tuo branch è avanti rispetto a 'origin/main' di 1 commit.",
        "pt_PT": "Teu ramo está à frente de 'origin/main' por 1 memória.",
    }
    for loc, ahead in locale_facts.items():
        region = {"de": "de_DE", "fr": "fr_FR", "es": "es_ES", "it": "it_IT", "pt_PT": "pt_PT"}[loc]
        capture("status", f"long_{loc}", repo, f"LANG={region}.UTF-8 LC_ALL={region}.UTF-8 git status",
                facts=mixed_facts + [ahead],
                notes=f"real git output in the {region}.UTF-8 locale (git's shipped {loc} translation)")
    capture("status", "short", repo, "git status -s", facts=mixed_facts)
    capture("status", "short_branch", repo, "git status -sb", facts=mixed_facts + ["## main...origin/main [ahead 1]"])
    capture("status", "porcelain_v1", repo, "git status --porcelain", facts=mixed_facts)
    capture("status", "porcelain_v2", repo, "git status --porcelain=v2 --branch",
            facts=mixed_facts + ["# branch.ab +1 -0", "# branch.upstream origin/main", rev(repo, n=40)],
            dropped=["100644 100644 100644"])
    capture("status", "long_color", repo, "git -c color.status=always status",
            facts=mixed_facts, notes="colours forced with color.status=always")
    capture("status", "untracked_only", repo, "git status -uno", facts=["src/app.py", "src/util.py"])
    # reset the tree for what follows
    run(repo, "reset", "-q", "--hard", "HEAD")
    run(repo, "clean", "-qfd")
    run(repo, "reset", "-q", "--hard", h)


def build_conflict(repo: Path) -> Path:
    """A clone of the project with a merge in progress that conflicts."""
    work = ROOT / "conflict"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(repo, work)
    run(work, "checkout", "-q", "-b", "feature")
    write(work, "README.md", "# demo (feature)\n\nA small demo project.\n")
    write(work, "src/util.py", (work / "src/util.py").read_text().replace("HOME", "USERPROFILE"))
    write(work, "feature.txt", "feature\n")
    commit_all(work, "Feature: rename home variable", who="bob")
    run(work, "checkout", "-q", "main")
    write(work, "README.md", "# demo (main)\n\nA small demo project.\n")
    write(work, "src/util.py", (work / "src/util.py").read_text().replace("HOME", "XDG_HOME"))
    write(work, "main.txt", "main\n")
    commit_all(work, "Main: use XDG home")
    return work


def capture_conflicts(repo: Path) -> None:
    work = build_conflict(repo)
    capture("ops", "merge_conflict", work, "git merge feature",
            facts=["CONFLICT (content): Merge conflict in README.md", "CONFLICT (content): Merge conflict in src/util.py",
                   "Automatic merge failed; fix conflicts and then commit the result."])
    conflict_facts = ["README.md", "src/util.py", "feature.txt", "You have unmerged paths."]
    capture("status", "conflict_en", work, "git status", facts=conflict_facts, dropped=["both modified:"])
    capture("status", "conflict_de", work, "LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 git status",
            facts=["README.md", "src/util.py", "feature.txt", "Sie haben nicht zusammengeführte Pfade."])
    capture("status", "conflict_short", work, "git status -sb", facts=["UU README.md", "UU src/util.py", "A  feature.txt"])
    capture("status", "conflict_porcelain_v2", work, "git status --porcelain=v2 --branch",
            facts=["README.md", "src/util.py", "feature.txt"])
    capture("diff", "conflict_cc", work, "git diff",
            facts=["diff --cc README.md", "@@@ -1,3 -1,3 +1,7 @@@", "++<<<<<<< HEAD", "++>>>>>>> feature"])
    run(work, "merge", "--abort")
    # rebase conflict and cherry-pick conflict
    run(work, "checkout", "-q", "feature")
    capture("ops", "rebase_conflict", work, "git rebase main",
            facts=["CONFLICT (content): Merge conflict in README.md", "CONFLICT (content): Merge conflict in src/util.py",
                   "error: could not apply", "Feature: rename home variable",
                   "git rebase --continue", "git rebase --skip", "git rebase --abort"],
            dropped=["hint: Resolve all conflicts manually", "Auto-merging src/util.py"],
            notes="git's stock conflict advice (hint: block) is boilerplate: the commands it names are the facts")
    capture("status", "rebase_conflict_en", work, "git status",
            facts=["README.md", "src/util.py", "You are currently rebasing branch 'feature' on"])
    run(work, "rebase", "--abort")
    run(work, "checkout", "-q", "main")
    capture("ops", "cherry_pick_conflict", work, "git cherry-pick feature",
            facts=["CONFLICT (content): Merge conflict in README.md", "CONFLICT (content): Merge conflict in src/util.py",
                   "error: could not apply", "Feature: rename home variable",
                   "git cherry-pick --continue", "git cherry-pick --skip", "git cherry-pick --abort"],
            dropped=["hint: After resolving the conflicts, mark them with", "Auto-merging src/util.py"],
            notes="git's stock conflict advice (hint: block) is boilerplate: the commands it names are the facts")
    run(work, "cherry-pick", "--abort")


def capture_diffs(repo: Path) -> None:
    work = ROOT / "diffs"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(repo, work)
    app = (work / "src/app.py").read_text()
    app = app.replace("return x + 2\n", "return x + 2  # two\n").replace("return x + 20\n", "return x * 20\n")
    app = app.replace("def f25(x):\n", "def f25(x, y=0):\n")
    write(work, "src/app.py", app)
    write(work, "src/util.py", (work / "src/util.py").read_text().replace("sys.argv[0]", "sys.argv[0] or ''"))
    capture("diff", "worktree", work, "git diff",
            facts=["@@ -7,7 +7,7 @@ def f1(x):", "@@ -79,7 +79,7 @@ def f19(x):", "-    return x + 2", "+    return x + 2  # two", "+    return x * 20",
                   "+def f25(x, y=0):", "-    return sys.argv[0]", "+    return sys.argv[0] or ''", "src/util.py", "src/app.py"],
            dropped=["index "], raw_facts=hunk_facts)
    capture("diff", "worktree_u12", work, "git diff -U12",
            facts=["-    return x + 2", "+    return x + 2  # two", "+    return x * 20", "-    return x + 20",
                   "+def f25(x, y=0):", "-def f25(x):", "src/app.py"], raw_facts=hunk_facts,
            notes="-U12 makes long context runs that the formatter folds")
    capture("diff", "worktree_color", work, "git diff --color=always",
            facts=["-    return x + 2", "+    return x + 2  # two", "+def f25(x, y=0):"], notes="colours forced")
    capture("diff", "stat", work, "git diff --stat",
            facts=["2 files changed, 4 insertions(+), 4 deletions(-)"], raw_facts=stat_facts)
    # staged: add, delete, rename, mode change, binary
    run(work, "add", "-A")
    write(work, "logo.png", "")
    (work / "logo.png").write_bytes(bytes(range(256)) * 4)
    run(work, "rm", "-q", "tests/test_app.py")
    run(work, "mv", "docs/usage.md", "docs/USAGE.md")
    os.chmod(work / "README.md", 0o755)
    write(work, "src/extra.py", "EXTRA = True\n")
    run(work, "add", "-A")
    capture("diff", "cached", work, "git diff --cached",
            facts=["Binary files /dev/null and b/logo.png differ", "deleted file mode 100644", "rename from docs/usage.md",
                   "rename to docs/USAGE.md", "old mode 100644", "new mode 100755", "new file mode 100644",
                   "+EXTRA = True", "-    assert f1(1) == 2", "similarity index 100%"], raw_facts=hunk_facts)
    capture("diff", "cached_stat", work, "git diff --cached --stat",
            facts=["logo.png", "tests/test_app.py", "docs/{usage.md => USAGE.md}", "7 files changed"], raw_facts=stat_facts)
    capture("diff", "show", repo, "git show HEAD~1",
            facts=[rev(repo, "HEAD~1"), "Add argv0 helper", "Alice Example", "+import sys", "+def argv0():",
                   "@@ -1,5 +1,10 @@"], raw_facts=hunk_facts)
    capture("diff", "show_stat", repo, "git show --stat HEAD",
            facts=[rev(repo), "Document usage", "Refs: #12", "docs/usage.md", "1 file changed, 1 insertion(+)"],
            raw_facts=stat_facts)


def capture_real(real: Path) -> None:
    head, first = rev(real), rev(real, "HEAD~1")
    capture("diff", "real_stat", real, "git diff --stat HEAD~1 HEAD",
            facts=["files changed"], raw_facts=stat_facts,
            notes="history imported from Pygments 2.14.0 (Debian) and 2.21.0 (venv) sources on this machine")
    capture("diff", "real_lexer", real, "git diff HEAD~1 HEAD -- pygments/lexer.py",
            facts=["--- a/pygments/lexer.py", "+++ b/pygments/lexer.py"], raw_facts=hunk_facts, dropped=["diff --git a/pygments/lexer.py b/pygments/lexer.py"],
            notes="real diff between Pygments 2.14.0 and 2.21.0 lexer.py")
    capture("diff", "real_lexer_u10", real, "git diff -U10 HEAD~1 HEAD -- pygments/lexer.py",
            facts=["--- a/pygments/lexer.py"], raw_facts=hunk_facts, notes="real diff between Pygments 2.14.0 and 2.21.0 lexer.py, 10 lines of context")
    capture("log", "real_stat", real, "git log --stat",
            facts=[head, first, "Update Pygments sources to 2.21.0", "Import Pygments 2.14.0 sources"],
            raw_facts=stat_facts)
    capture("blame", "real_blame", real, "git blame pygments/filter.py",
            facts=[rev(real, "HEAD", 8), "^" + rev(real, "HEAD~1", 7)], raw_facts=blame_facts,
            notes="blame of a real Pygments source file across the two imported releases")


def capture_main_repo() -> None:
    h = subprocess.run(["git", "-C", str(MAIN_REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    subj = subprocess.run(["git", "-C", str(MAIN_REPO), "log", "-1", "--format=%s"], capture_output=True, text=True).stdout.strip()
    capture("log", "sqz_repo_stat", MAIN_REPO, "git log --stat -n 5",
            facts=[h[:12], subj], raw_facts=lambda text: stat_facts(text, every=25), notes="the sqz repository itself (read-only); output changes as its history grows")


def capture_log(repo: Path) -> None:
    work = build_conflict(repo)
    run(work, "merge", "-q", "-X", "theirs", "feature", "-m", "Merge branch 'feature'")
    head = rev(work)
    hashes = run(work, "log", "--format=%H").stdout.split()
    subjects = run(work, "log", "--format=%s").stdout.splitlines()
    facts12 = [x[:12] for x in hashes] + subjects
    capture("log", "default", work, "git log",
            facts=facts12 + ["Alice Example", "Bob Example", "Refs: #12"],
            dropped=["Author: Dev Example <dev@example.org>"])
    pairs7 = [[h[:7], subj] for h, subj in zip(hashes, subjects)]  # each short hash with its subject, one line
    capture("log", "oneline", work, "git log --oneline", facts=[x[:7] for x in hashes] + subjects + pairs7)
    capture("log", "stat", work, "git log --stat -n 3",
            facts=[x[:12] for x in hashes[:3]] + subjects[:3] + ["README.md", "src/util.py", "main.txt"],
            raw_facts=stat_facts)
    capture("log", "patch", work, "git log -p -n 2 HEAD~1",
            facts=[rev(work, "HEAD~1"), rev(work, "HEAD~2")] + ["-    return os.environ.get('HOME')",
                                                   "+    return os.environ.get('XDG_HOME')", "+main"],
            raw_facts=hunk_facts)
    capture("log", "graph", work, "git log --graph --decorate",
            facts=facts12 + ["Merge branch 'feature'", "(HEAD -> main)", "(tag: v0.1.1, tag: v0.1.0, origin/main)"])
    capture("log", "graph_oneline", work, "git log --graph --oneline --all", facts=[x[:7] for x in hashes] + pairs7)
    capture("log", "fuller", work, "git log --format=fuller -n 2", facts=[x[:12] for x in hashes[:2]] + subjects[:2])
    capture("log", "custom_format", work, "git log --format=%h|%an|%ad|%s", near_miss=True)
    capture("log", "color", work, "git log --color=always -n 3", facts=[x[:12] for x in hashes[:3]] + subjects[:3],
            notes="colours forced")
    # refs family on the same repo
    run(work, "branch", "hotfix/login")
    run(work, "branch", "release/0.2", "HEAD~2")
    run(work, "fetch", "-q", "origin")
    capture("refs", "branch", work, "git branch", facts=["* main", "feature", "hotfix/login", "release/0.2"])
    capture("refs", "branch_all", work, "git branch -a",
            facts=["* main", "feature", "remotes/origin/main"])
    capture("refs", "branch_vv", work, "git branch -vv",
            facts=["main", head[:7], "[origin/main: ahead 3]", "feature", "Feature: rename home variable"])
    write(work, "README.md", "stash one\n")
    run(work, "stash", "push", "-q", "-m", "wip readme")
    write(work, "main.txt", "stash two\n")
    run(work, "stash", "push", "-q")
    capture("refs", "stash_list", work, "git stash list",
            facts=["stash@{0}: WIP on main:", "stash@{1}: On main: wip readme"])
    run(work, "remote", "add", "upstream", str(ROOT / "origin.git"))
    run(work, "remote", "set-url", "--push", "upstream", "no_push")
    capture("refs", "remote_v", work, "git remote -v",
            facts=["origin", "upstream", str(ROOT / "origin.git"), "no_push (push)"])
    for i in range(12):
        run(work, "tag", f"v0.{i // 4}.{i % 4 + 2}", f"HEAD~{i % 4}")
    capture("refs", "tag", work, "git tag", facts=["v0.1.0", "v0.1.1", "v0.2.5", "v0.0.2"])
    capture("refs", "tag_n", work, "git tag -n", facts=["v0.1.1", "Release 0.1.1", "v0.1.0"])
    capture("refs", "reflog", work, "git reflog", facts=[head[:7], "HEAD@{0}", "checkout: moving from feature to main"])
    capture("blame", "util", work, "git blame src/util.py",
            facts=[x[:8] for x in run(work, "log", "--format=%H", "--", "src/util.py").stdout.split()[:2]]
            + ["def argv0():", "return sys.argv[0]"], raw_facts=blame_facts)
    capture("blame", "porcelain", work, "git blame --porcelain src/util.py", raw_facts=porcelain_blame_facts,
            notes="was a near miss until porcelain blame was read (held-out pass #2)")
    capture("blame", "incremental", work, "git blame --incremental src/util.py", near_miss=True)
    capture("status", "verbose", work, "git status -v", near_miss=True)


def capture_remote(repo: Path, origin: Path) -> None:
    clone = ROOT / "clone"
    if clone.exists():
        shutil.rmtree(clone)
    capture("remote_ops", "clone", ROOT, f"git clone --progress file://{origin} clone",
            facts=["Cloning into 'clone'..."], dropped=["Receiving objects:", "Resolving deltas:"])
    # another clone pushes new work
    other = ROOT / "other"
    if other.exists():
        shutil.rmtree(other)
    run(ROOT, "clone", "-q", str(origin), "other")
    write(other, "src/util.py", (other / "src/util.py").read_text() + "\n\ndef user():\n    return os.environ.get('USER')\n")
    write(other, "CONTRIBUTING.md", "Be nice.\n")
    pushed = commit_all(other, "Add user helper and contributing guide", who="bob")
    old = rev(other, "HEAD~1", 7)
    capture("remote_ops", "push", other, "git push --progress origin main",
            facts=[f"{old}..{pushed[:7]}  main -> main", f"To {origin}"], dropped=["Writing objects:"])
    run(other, "checkout", "-q", "-b", "topic")
    write(other, "topic.txt", "topic\n")
    commit_all(other, "Topic work", who="bob")
    capture("remote_ops", "push_new_branch", other, "git push --progress -u origin topic",
            facts=["* [new branch]      topic -> topic", "branch 'topic' set up to track 'origin/topic'."])
    run(other, "tag", "v0.2.0")
    run(other, "push", "-q", "origin", "v0.2.0")
    capture("remote_ops", "fetch", clone, "git fetch --progress",
            facts=[f"{old}..{pushed[:7]}  main       -> origin/main", "* [new branch]      topic      -> origin/topic",
                   "* [new tag]         v0.2.0     -> v0.2.0", f"From file://{str(origin)[:-4]}"],
            dropped=["Unpacking objects:", "remote: Enumerating objects:"])
    capture("remote_ops", "pull_ff", clone, "git pull --progress",
            facts=[f"Updating {old}..{pushed[:7]}", "Fast-forward", "CONTRIBUTING.md", "src/util.py",
                   "2 files changed, 5 insertions(+)", "create mode 100644 CONTRIBUTING.md"])
    # diverge: clone commits locally while other pushes again
    write(clone, "src/util.py", (clone / "src/util.py").read_text().replace("USER", "LOGNAME"))
    local = commit_all(clone, "Use LOGNAME")
    run(other, "checkout", "-q", "main")
    write(other, "src/util.py", (other / "src/util.py").read_text().replace("USER", "USERNAME"))
    commit_all(other, "Use USERNAME", who="bob")
    run(other, "push", "-q", "origin", "main")
    capture("remote_ops", "push_rejected", clone, "git push --progress origin main",
            facts=["! [rejected]        main -> main (fetch first)", f"error: failed to push some refs to 'file://{origin}'",
                   "git pull ..."],
            dropped=["hint: Updates were rejected because the remote contains work that you do"],
            notes="git's stock push advice (hint: block) is boilerplate: '(fetch first)' states the cause")
    capture("remote_ops", "pull_conflict", clone, "git pull --no-rebase --progress",
            facts=["CONFLICT (content): Merge conflict in src/util.py",
                   "Automatic merge failed; fix conflicts and then commit the result."])
    run(clone, "merge", "--abort")
    capture("remote_ops", "pull_diverged", clone, "git -c pull.rebase=false -c pull.ff=only pull",
            facts=["fatal: Not possible to fast-forward, aborting."])
    capture("remote_ops", "fetch_missing_remote", clone, "git fetch nowhere",
            facts=["fatal: 'nowhere' does not appear to be a git repository",
                   "fatal: Could not read from remote repository."])
    capture("remote_ops", "push_force", clone, "git push --progress --force origin main",
            facts=[f"+ ", f"...{local[:7]} main -> main (forced update)"])


def capture_ops(repo: Path) -> None:
    work = ROOT / "ops"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(repo, work)
    write(work, "src/feature_a.py", "A = 1\n")
    write(work, "src/feature_b.py", "B = 2\n")
    write(work, "src/util.py", (work / "src/util.py").read_text() + "\n# tweak\n")
    run(work, "add", "-A")
    capture("ops", "commit", work, "git commit -m 'Add feature modules'",
            facts=["[main ", "Add feature modules", "3 files changed, 4 insertions(+)", "create mode 100644 src/feature_a.py",
                   "create mode 100644 src/feature_b.py"])
    capture("ops", "commit_nothing", work, "git commit -m again",
            facts=["clean", "Your branch is ahead of 'origin/main' by 1 commit."])
    capture("ops", "checkout_new_branch", work, "git checkout -b topic/x", facts=["Switched to a new branch 'topic/x'"])
    capture("ops", "switch_main", work, "git switch main",
            facts=["Switched to branch 'main'", "Your branch is ahead of 'origin/main' by 1 commit."])
    first = rev(work, "HEAD~3", 7)
    capture("ops", "checkout_detached", work, f"git checkout {first}",
            facts=[f"Note: switching to '{first}'.", f"HEAD is now at {first} Initial import of the demo project"],
            dropped=["If you want to create a new branch to retain commits you create"])
    run(work, "checkout", "-q", "main")
    write(work, "src/feature_a.py", "A = 100\n")
    capture("ops", "checkout_blocked", work, f"git checkout {first}",
            facts=["error: Your local changes to the following files would be overwritten by checkout:", "src/feature_a.py",
                   "Please commit your changes or stash them before you switch branches.", "Aborting"])
    capture("ops", "reset_mixed", work, "git reset HEAD~1",
            facts=["Unstaged changes after reset:", "src/util.py"])
    capture("ops", "add_missing", work, "git add nothere.py",
            facts=["fatal: pathspec 'nothere.py' did not match any files"])
    run(work, "add", "-A")
    run(work, "commit", "-q", "-m", "Add feature modules again")
    capture("ops", "reset_hard", work, "git reset --hard HEAD~1",
            facts=["HEAD is now at", "Document usage"])
    run(work, "reset", "-q", "--hard", "ORIG_HEAD")
    # merge fast-forward and merge commit
    run(work, "checkout", "-q", "-b", "side", "HEAD~1")
    write(work, "side.txt", "side\n")
    commit_all(work, "Side work")
    run(work, "checkout", "-q", "main")
    capture("ops", "merge_ort", work, "git merge --no-edit side",
            facts=["Merge made by the 'ort' strategy.", "side.txt", "1 file changed, 1 insertion(+)"])
    run(work, "checkout", "-q", "-b", "ff", "HEAD~1")
    capture("ops", "merge_ff", work, "git merge main",
            facts=["Fast-forward", "side.txt", "Updating ", "1 file changed, 1 insertion(+)"])
    run(work, "checkout", "-q", "side")
    write(work, "side2.txt", "side2\n")
    commit_all(work, "More side work")
    capture("ops", "rebase_ok", work, "git rebase main", facts=["Successfully rebased and updated refs/heads/side."])
    run(work, "checkout", "-q", "main")
    picked = rev(work, "side", 7)
    capture("ops", "cherry_pick", work, "git cherry-pick side", facts=["More side work", "1 file changed, 1 insertion(+)",
                                                                        "create mode 100644 side2.txt"])


def capture_near_misses(repo: Path) -> None:
    work = ROOT / "near"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(repo, work)
    write(work, "src/util.py", (work / "src/util.py").read_text().replace("HOME", "XDG_HOME"))
    capture("diff", "word_diff", work, "git diff --word-diff", near_miss=True)
    capture("diff", "name_status", work, "git diff --name-status HEAD~2", near_miss=True)
    capture("status", "porcelain_z", work, "git status --porcelain -z", near_miss=True)
    capture("status", "not_a_repo", ROOT / "home", "git status", near_miss=True,
            facts=["fatal: not a git repository (or any of the parent directories): .git"])
    capture("status", "long_ko", work, "LANG=ko_KR.UTF-8 LC_ALL=ko_KR.UTF-8 git status", near_miss=True,
            notes="Korean is a locale git ships but the status table does not cover: expected None")


def capture_advice_shapes() -> None:
    """Stock advice and stat shapes with no other fixture: a non-fast-forward and a tag push
    rejected, a revert that conflicts, a diffstat whose names have spaces and a binary file.

    Runs on its own repositories with its own clock, so its outputs do not depend on the
    other families (``python scripts/capture_fixtures.py advice`` re-captures only these).
    """
    _clock[0] = 500
    origin = new_repo("advice_origin.git", bare=True)
    a = new_repo("advice_a")
    write(a, "notes/plan.txt", "one\ntwo\nthree\n")
    commit_all(a, "Start the plan")
    run(a, "remote", "add", "origin", str(origin))
    run(a, "push", "-q", "-u", "origin", "main")
    b = ROOT / "advice_b"
    if b.exists():
        shutil.rmtree(b)
    run(ROOT, "clone", "-q", str(origin), "advice_b")
    write(a, "notes/plan.txt", "one\ntwo (a)\nthree\n")
    commit_all(a, "Plan: step two by a")
    run(a, "push", "-q", "origin", "main")
    write(b, "notes/todo.txt", "todo\n")
    commit_all(b, "Add a todo list", who="bob")
    run(b, "fetch", "-q", "origin")
    capture("remote_ops", "push_rejected_nonff", b, "git push origin main",
            facts=["! [rejected]        main -> main (non-fast-forward)",
                   f"error: failed to push some refs to '{origin}'", "git pull ..."],
            dropped=["hint: Updates were rejected because the tip of your current branch is behind"],
            notes="git's stock push advice (hint: block) is boilerplate: '(non-fast-forward)' states the cause")
    run(a, "tag", "v1", "HEAD~1")
    run(a, "push", "-q", "origin", "v1")
    run(b, "tag", "v1")
    capture("remote_ops", "push_tag_exists", b, "git push origin v1",
            facts=["! [rejected]        v1 -> v1 (already exists)", f"error: failed to push some refs to '{origin}'",
                   "hint: Updates were rejected because the tag already exists in the remote."],
            notes="a one-line stock hint is kept (a marker would cost as much): nothing to drop")
    # a revert that conflicts: the line it would restore was changed again later
    first = rev(a, "HEAD", 7)
    write(a, "notes/plan.txt", "one\ntwo (a, again)\nthree\n")
    commit_all(a, "Plan: step two again")
    capture("ops", "revert_conflict", a, f"git revert --no-edit {first}",
            facts=["CONFLICT (content): Merge conflict in notes/plan.txt", f"error: could not revert {first}",
                   "Plan: step two by a", "git revert --continue", "git revert --abort"],
            dropped=["hint: After resolving the conflicts, mark them with", "Auto-merging notes/plan.txt"],
            notes="git's stock conflict advice (hint: block) is boilerplate: the commands it names are the facts")
    run(a, "revert", "--abort")
    # names with spaces and a binary file in one directory: the grouped stat keeps commas
    write(a, "docs/user guide.md", "# Guide\n\nRead me.\n")
    write(a, "docs/faq.md", "# FAQ\n")
    (a / "docs" / "logo.png").write_bytes(bytes(range(256)) * 2)
    write(a, "docs/release notes.md", "# 1.0\n- first\n")
    commit_all(a, "Docs: guide, FAQ, release notes and logo")
    capture("log", "stat_spaces", a, "git log --stat -n 2", raw_facts=stat_facts,
            facts=[rev(a), rev(a, "HEAD~1"), "Docs: guide, FAQ, release notes and logo", "Plan: step two again",
                   ["docs/", "logo.png", "Bin 0 -> 512 bytes"]])


_RAW_RENAME = re.compile(r"^(?:similarity index \d+%|rename from .+|rename to .+)$")


def capture_depth_shapes() -> None:
    """Shapes with no other fixture: a rename with edits (a real Pygments file moved and updated
    from 2.14.0 to 2.21.0) and ``git tag -n3`` with multi-line annotations next to
    lightweight tags.

    Own repository and clock, so its outputs do not depend on the other families
    (``python scripts/capture_fixtures.py depth`` re-captures only these).
    """
    _clock[0] = 700
    old = Path("/usr/lib/python3/dist-packages/pygments")
    new = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "pygments"
    repo = new_repo("depth")
    write(repo, "pygments/filter.py", (old / "filter.py").read_text())
    write(repo, "pygments/token.py", (old / "token.py").read_text())
    commit_all(repo, "Import filter.py and token.py from Pygments 2.14.0")
    run(repo, "tag", "-a", "v1.0", "-m", "Release 1.0\n\nFirst release of the vendored filters.\nToken types unchanged.")
    run(repo, "mv", "pygments/filter.py", "pygments/filters_base.py")
    write(repo, "pygments/filters_base.py", (new / "filter.py").read_text())
    run(repo, "add", "-A")
    blobs = [run(repo, "rev-parse", "--short", x).stdout.strip() for x in ("HEAD:pygments/filter.py",
                                                                           ":pygments/filters_base.py")]
    capture("diff", "rename_edit", repo, "git diff --cached -M",
            raw_facts=lambda text: [x for x in text.splitlines() if _RAW_RENAME.match(x)] + hunk_facts(text),
            facts=["--- a/pygments/filter.py", "+++ b/pygments/filters_base.py"],
            dropped=["diff --git a/pygments/filter.py b/pygments/filters_base.py", f"index {blobs[0]}..{blobs[1]}"],
            notes="filter.py of Pygments 2.14.0 (Debian) moved and replaced by its 2.21.0 (venv) version, staged")
    commit_all(repo, "Move filter.py to filters_base.py, update to Pygments 2.21.0", who="alice")
    run(repo, "tag", "v1.1-rc1")
    run(repo, "tag", "-a", "v1.1", "-m", "Release 1.1\n\nfilter.py is now filters_base.py.")
    capture("refs", "tag_n3", repo, "git tag -n3",
            facts=[["v1.0", "Release 1.0"], "First release of the vendored filters.",
                   ["v1.1", "Release 1.1"], "filter.py is now filters_base.py.",
                   ["v1.1-rc1", "Move filter.py to filters_base.py, update to Pygments 2.21.0"]],
            notes="annotated tags with three-line messages and a lightweight tag (shows its commit's subject)")



# ----------------------------------------------------------------------------- held-out shapes

CLICK_VERSIONS = ("7.1.2", "8.0.0", "8.1.3", "8.1.7")
SDISTS = ROOT.parent / "sdists"
SQZ_PIN = "2e020bd"  # a commit of the sqz repository's main (never rewound): its history up to there
_RAW_NAME_STATUS = re.compile(r"^([AMDTUX]|[RC]\d+)\t([^\t]+)(?:\t([^\t]+))?$")
_RAW_NUMSTAT = re.compile(r"^(\d+|-)\t(\d+|-)\t(.+)$")


def name_status_facts(text: str) -> list:
    """Each ``--name-status`` line as [dir/, name, status] (the layout may change, as for
    ``path_count_fact``); a rename or copy as [Rnn, old, new]."""
    out: list = []
    for m in map(_RAW_NAME_STATUS.match, text.splitlines()):
        if m and m.group(3):
            out.append(list(m.groups()))
        elif m:
            out.append(path_count_fact(m.group(2), m.group(1)))
    return out


def numstat_facts(text: str) -> list:
    """Each ``--numstat`` line as [dir/, name, added, deleted]."""
    return [path_count_fact(m.group(3), m.group(1)) + [m.group(2)]
            for m in map(_RAW_NUMSTAT.match, text.splitlines()) if m]


def name_only_facts(text: str) -> list:
    """Each path line of ``--name-only`` as [dir/, name] (a top-level name as it stands)."""
    out: list = []
    for line in text.splitlines():
        if re.match(r"^[\w.-]+(/[\w.-]+)*$", line) and "." in line:
            head, sep, name = line.rpartition("/")
            out.append([head + "/", name] if sep else line)
    return out


def build_click() -> Path:
    """History made of four released Click sdists (PyPI), one commit and one tag per release."""
    SDISTS.mkdir(parents=True, exist_ok=True)
    repo = new_repo("click")
    import tarfile

    for i, version in enumerate(CLICK_VERSIONS):
        tgz = SDISTS / f"click-{version}.tar.gz"
        if not tgz.exists():
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            f"click=={version}", "-d", str(SDISTS)], check=True)
        for child in repo.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        with tarfile.open(tgz) as tar:
            for member in tar.getmembers():
                parts = member.name.split("/", 1)
                if member.isfile() and len(parts) == 2:
                    dest = repo / parts[1]
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(tar.extractfile(member).read())
        commit_all(repo, f"Release Click {version}\n\nImported from the click-{version} sdist.",
                   who=("dev", "alice", "bob", "dev")[i])
        run(repo, "tag", version)
    return repo


def build_sqz_history(pin: str = SQZ_PIN, name: str = "sqz") -> tuple[Path, Path]:
    """The sqz repository's own history up to ``pin``, served by a bare origin that also holds
    every branch its merges name (at the merged commit), and a clone of it."""
    origin = ROOT / f"{name}_origin.git"
    work = ROOT / f"{name}_clone"
    for d in (origin, work):
        if d.exists():
            shutil.rmtree(d)
    run(ROOT, "clone", "-q", "--bare", "--no-local", str(MAIN_REPO), str(origin))
    for ref in run(origin, "for-each-ref", "--format=%(refname)").stdout.split():
        if ref != "refs/heads/main":
            run(origin, "update-ref", "-d", ref)
    run(origin, "update-ref", "refs/heads/main", run(origin, "rev-parse", pin).stdout.strip())
    run(origin, "symbolic-ref", "HEAD", "refs/heads/main")
    for line in run(origin, "log", "--merges", "--format=%P %s", "main").stdout.splitlines():
        m = re.match(r"^(\S+) Merge branch '([\w./-]+)'$", line.split(" ", 1)[1])
        if m and run(origin, "rev-parse", "-q", "--verify", f"refs/heads/{m.group(2)}", check=False).returncode:
            run(origin, "branch", m.group(2), m.group(1))  # newest merge first: the branch at its last merge
    run(ROOT, "clone", "-q", f"file://{origin}", str(work))
    return work, origin


def capture_heldout_shapes() -> None:
    """Held-out shapes (none of the fixtures above has them), on real histories: four Click
    releases from PyPI sdists and the sqz repository's own history. Own repositories and clock
    (``python scripts/capture_fixtures.py heldout`` re-captures only these)."""
    _clock[0] = 300
    click = build_click()
    tags = {v: rev(click, v) for v in CLICK_VERSIONS}
    subjects = [f"Release Click {v}" for v in CLICK_VERSIONS]
    note = "history of four Click sdists from PyPI (7.1.2, 8.0.0, 8.1.3, 8.1.7), one commit and tag each"
    capture("log", "held_name_status", click, "git log --name-status -n 3",
            facts=[tags[v] for v in CLICK_VERSIONS[1:]] + subjects[1:], raw_facts=name_status_facts, notes=note)
    capture("log", "held_numstat", click, "git log --numstat -n 2",
            facts=[tags[v] for v in CLICK_VERSIONS[2:]] + subjects[2:], raw_facts=numstat_facts, notes=note)
    capture("log", "held_shortstat", click, "git log --shortstat",
            facts=list(tags.values()) + subjects, raw_facts=lambda t: [x.strip() for x in t.splitlines()
                                                                     if _RAW_SUMMARY.match(x)], notes=note)
    capture("log", "held_name_only", click, "git log --name-only -n 2 8.1.3",
            facts=[tags["8.1.3"], tags["8.0.0"]] + subjects[1:3],
            raw_facts=name_only_facts, notes=note)
    capture("log", "held_patch_types", click, "git log -p -n 2 -- src/click/types.py",
            facts=[tags["8.1.7"], tags["8.1.3"]] + subjects[2:], raw_facts=hunk_facts, notes=note)
    capture("log", "held_stat_all", click, "git log --stat -M",
            facts=list(tags.values()) + subjects, raw_facts=lambda t: stat_facts(t, every=3), notes=note)
    capture("log", "held_patch_with_stat", click, "git log -p --stat -n 2 -- src/click/globals.py src/click/parser.py",
            facts=[tags["8.1.7"], tags["8.1.3"]] + subjects[2:],
            raw_facts=lambda t: stat_facts(t) + hunk_facts(t), notes=note + "; -p with --stat: git puts a --- line before the stat")
    pairs = [[tags[v][:7], f"Release Click {v}"] for v in CLICK_VERSIONS[1:]]
    capture("log", "held_oneline_name_status", click, "git log --oneline --name-status -n 3 8.1.7",
            facts=pairs, raw_facts=name_status_facts, notes=note)
    capture("log", "held_oneline_stat", click, "git log --oneline --stat -n 3 8.1.7",
            facts=pairs, raw_facts=stat_facts, notes=note)
    capture("log", "held_stat_summary", click, "git log --stat --summary -M -n 2 8.1.3",
            facts=[tags["8.1.3"], tags["8.0.0"]] + subjects[1:3],
            raw_facts=lambda t: stat_facts(t, every=3) + [x.strip() for x in t.splitlines()
                                                          if re.match(r"^ (create|delete|rename|mode change) ", x)],
            notes=note + "; --summary adds create/delete/rename/mode lines after each stat")
    capture("log", "held_show_oneline_stat", click, "git show --oneline --stat 8.0.0",
            facts=pairs[:1], raw_facts=stat_facts, notes=note)
    capture("diff", "held_stat_major", click, "git diff --stat=100 -M 7.1.2 8.0.0",
            raw_facts=stat_facts, notes=note + "; every file of the 7.1.2 -> 8.0.0 diffstat")
    capture("diff", "held_core_patch", click, "git diff 8.1.3 8.1.7 -- src/click/core.py",
            facts=["--- a/src/click/core.py", "+++ b/src/click/core.py"], raw_facts=hunk_facts, notes=note)
    capture("diff", "held_name_status_m", click, "git diff --name-status -M 7.1.2 8.0.0",
            raw_facts=name_status_facts, notes=note)
    capture("blame", "held_blame_w_l", click, "git blame -w -L 40,110 src/click/utils.py",
            raw_facts=blame_facts, notes=note + "; -w ignores whitespace, -L a line range")
    # a working tree with many untracked, ignored, renamed and deleted files
    write(click, ".gitignore", "*.pyc\nbuild/\n")
    for i in range(6):
        write(click, f"build/lib/click/mod{i}.py", "x = 1\n")
        write(click, f"src/click/__pycache__/mod{i}.cpython-311.pyc", "bytecode\n")
        write(click, f"scratch/note_{i}.txt", f"note {i}\n")
    run(click, "mv", "docs/why.rst", "docs/rationale.rst")
    run(click, "mv", "src/click/_textwrap.py", "src/click/textwrap_compat.py")
    run(click, "rm", "-q", "tests/test_imports.py")
    write(click, "src/click/core.py", (click / "src/click/core.py").read_text().replace("import enum", "import enum  # ok", 1))
    (click / "examples/README").unlink()
    write(click, "CHANGES.rst", "Unreleased\n\n" + (click / "CHANGES.rst").read_text())
    status_facts = ["docs/why.rst", "docs/rationale.rst", "src/click/_textwrap.py", "src/click/textwrap_compat.py",
                    "tests/test_imports.py", "src/click/core.py", "examples/README", "CHANGES.rst", ".gitignore",
                    "scratch/", "build/", "src/click/__pycache__/"]
    capture("status", "held_ignored", click, "git status --ignored", facts=status_facts + ["On branch main"], notes=note)
    capture("status", "held_untracked_all", click, "git status -uall",
            facts=status_facts[:9] + [["scratch/", f"note_{i}.txt"] for i in range(6)], notes=note)
    # a stale patch that no longer applies, and `git am` of it
    run(click, "reset", "-q", "--hard")
    run(click, "clean", "-qfd")
    run(click, "checkout", "-q", "-b", "fix", "8.0.0")
    write(click, "src/click/globals.py", (click / "src/click/globals.py").read_text().replace(
        "def get_current_context", "def get_current_context  # patched", 1))
    commit_all(click, "Mark get_current_context", who="bob")
    run(click, "checkout", "-q", "main")
    patch = ROOT / "fix.patch"
    patch.write_text(run(click, "format-patch", "--stdout", "-1", "fix").stdout)
    write(click, "src/click/globals.py", (click / "src/click/globals.py").read_text().replace(
        "def get_current_context", "def get_current_context  # local", 1))
    capture("ops", "held_apply_fail", click, f"git apply {patch}",
            facts=["error: patch failed: src/click/globals.py", "error: src/click/globals.py: patch does not apply"],
            notes=note)
    run(click, "commit", "-qam", "Local mark")
    capture("ops", "held_am_fail", click, f"git am {patch}",
            facts=["Applying: Mark get_current_context", "error: patch failed: src/click/globals.py",
                   "Patch failed at 0001 Mark get_current_context", "git am --continue", "git am --skip",
                   "git am --abort", "hint: Use 'git am --show-current-patch=diff' to see the failed patch"], notes=note)
    run(click, "am", "--abort")
    capture("diff", "held_format_patch", click, "git format-patch --stdout -1 8.1.7 -- src/click/utils.py",
            facts=[rev(click, "8.1.7", 40), "Subject: [PATCH] Release Click 8.1.7"], raw_facts=hunk_facts, notes=note)
    # a stash of edits to two real files, shown as a stat and as a patch; an annotated tag shown
    run(click, "reset", "-q", "--hard", "8.1.7")
    for rel, old_text, new_text in (("src/click/termui.py", "def hidden_prompt_func", "def hidden_prompt_func  # stash"),
                                    ("src/click/utils.py", "def make_str", "def make_str  # stash")):
        write(click, rel, (click / rel).read_text().replace(old_text, new_text, 1))
    run(click, "stash", "push", "-q", "-m", "wip: mark prompt helpers")
    capture("diff", "held_stash_show", click, "git stash show", raw_facts=stat_facts, notes=note)
    capture("diff", "held_stash_show_p", click, "git stash show -p",
            facts=["--- a/src/click/termui.py", "--- a/src/click/utils.py"], raw_facts=hunk_facts, notes=note)
    run(click, "tag", "-a", "release-8.1.7", "-m", "Click 8.1.7\n\nThe last release imported here.", "8.1.7")
    capture("log", "held_show_tag", click, "git show --stat release-8.1.7",
            facts=["tag release-8.1.7", "Tagger: Dev Example <dev@example.org>", "The last release imported here.",
                   tags["8.1.7"], "Release Click 8.1.7"], raw_facts=lambda t: stat_facts(t, every=4), notes=note)
    # an upgrade in progress: 8.1.3's src/ and tests/ checked out over 8.0.0 (staged), more edits
    # unstaged, a deleted file, generated files untracked
    run(click, "reset", "-q", "--hard")
    run(click, "clean", "-qfdx")
    run(click, "checkout", "-q", "-b", "upgrade", "8.0.0")
    run(click, "checkout", "8.1.3", "--", "src", "tests")
    for rel in ("docs/api.rst", "docs/options.rst", "docs/quickstart.rst", "examples/repo/repo.py", "setup.cfg"):
        write(click, rel, (click / rel).read_text() + "\n")
    (click / "docs/why.rst").unlink()
    for i in range(3):
        write(click, f"src/click/_generated_{i}.py", "X = 1\n")
        write(click, f"tests/snapshots/case_{i}.txt", "ok\n")
    raw_status = run(click, "status", "--porcelain").stdout
    upgrade_facts = [path_count_fact(x[3:], "")[:-1] if "/" in x[3:] and not x[3:].endswith("/") else x[3:]
                     for x in raw_status.splitlines()]
    capture("status", "held_upgrade", click, "git status", facts=upgrade_facts + ["On branch upgrade"],
            notes=note + "; Click 8.1.3's src/ and tests/ checked out over 8.0.0, more edits unstaged; facts: every path"
            " (directory and name on one line)")
    capture("status", "held_upgrade_short", click, "git status -s", facts=upgrade_facts, notes=note)
    run(click, "reset", "-q", "--hard")
    run(click, "clean", "-qfd")
    run(click, "checkout", "-q", "main")
    # `rebase -i` whose todo list an editor broke, and a `bisect run` hunting a real change
    editor = ROOT / "bad_todo.sh"
    editor.write_text("#!/bin/sh\nsed -i '1s/^pick /pock /' \"$1\"\n")
    editor.chmod(0o755)
    capture("ops", "held_rebase_todo_error", click, f"GIT_SEQUENCE_EDITOR={editor} git rebase -i 8.0.0",
            facts=["error: invalid line 1: pock", "You can fix this with 'git rebase --edit-todo' and then run "
                   "'git rebase --continue'.", "Or you can abort the rebase with 'git rebase --abort'."], notes=note)
    run(click, "rebase", "--abort", check=False)
    probe = ROOT / "bisect_probe.sh"
    probe.write_text("#!/bin/sh\n! grep -q 'def get_current_context' src/click/globals.py 2>/dev/null || "
                     "! grep -q 'import typing' src/click/globals.py\n")
    probe.chmod(0o755)
    run(click, "bisect", "start", "8.1.7", "7.1.2")
    capture("ops", "held_bisect_run", click, f"git bisect run {probe}",
            facts=[f"{rev(click, '8.0.0', 40)} is the first bad commit", "bisect found first bad commit",
                   "Bisecting: 0 revisions left to test after this (roughly 0 steps)"],
            raw_facts=lambda t: stat_facts(t, every=5), notes=note + "; the probe fails once "
            "src/click/globals.py imports typing (8.0.0)")
    run(click, "bisect", "reset")
    # sqz's own history: merges, many branches
    sqz, _ = build_sqz_history()
    snote = f"the sqz repository's own history up to {SQZ_PIN} (clone of a bare copy, branches at their merged commits)"
    merges = run(sqz, "log", "--merges", "-n", "2", "--format=%H").stdout.split()
    graph_picks = [x.split(" ", 1) for x in run(sqz, "log", "--all", "--topo-order", "-n", "40",
                                                 "--format=%H %s").stdout.splitlines()[::4]]
    capture("log", "held_graph_all", sqz, "git log --graph --all -n 40",
            facts=[h[:12] for h, _ in graph_picks] + [subj for _, subj in graph_picks]
            + ["Merge branch 'audit5'"], notes=snote,
            raw_facts=lambda t: [m.group(0) for m in map(re.compile(r"Merge: [0-9a-f]+ [0-9a-f]+$").search,
                                                          t.splitlines()) if m])
    capture("log", "held_show_merge", sqz, f"git show --stat {merges[1][:12]}",
            facts=[merges[1][:12], "Merge branch 'audit4'"], raw_facts=stat_facts, notes=snote)
    capture("refs", "held_branch_avv", sqz, "git branch -a -vv",
            facts=["* main", "remotes/origin/HEAD -> origin/main"], notes=snote,
            raw_facts=lambda t: [[m.group(1), m.group(2)] for m in
                                 map(re.compile(r"^[* ] (\S+)\s+([0-9a-f]{7}) ").match, t.splitlines()) if m])
    capture("log", "held_first_parent_name_status", sqz, "git log --first-parent --name-status -n 12",
            facts=[x[:12] for x in run(sqz, "log", "--first-parent", "-n", "12", "--format=%H").stdout.split()]
            + ["Merge branch 'audit5'", "Merge branch 'audit4'"], raw_facts=name_status_facts,
            notes=snote + "; --first-parent lists a merge's files against its first parent")
    capture("log", "held_sqz_oneline_stat", sqz, "git log --oneline --stat -n 12",
            facts=[x.split(" ", 1) for x in run(sqz, "log", "-n", "12", "--format=%h %s").stdout.splitlines()],
            raw_facts=stat_facts, notes=snote)
    cloud = "13181a5429f7"  # a commit of the pinned history touching 22 fixture sidecars
    capture("log", "held_sqz_show_oneline_name_only", sqz, f"git show --oneline --name-only {cloud}",
            facts=[[cloud[:7], run(sqz, "log", "-1", "--format=%s", cloud).stdout.strip()]],
            raw_facts=name_only_facts, notes=snote)
    capture("log", "held_sqz_name_status", sqz, "git log --name-status -n 12 --no-merges",
            facts=[x[:12] for x in run(sqz, "log", "-n", "12", "--no-merges", "--format=%H").stdout.split()],
            raw_facts=name_status_facts, notes=snote)


# ----------------------------------------------------------------------------- held-out pass #2

H2_PIN = "6d271af"  # a later commit of the sqz repository's main: its history up to there
_RAW_EXTENDED = re.compile(r"^(?:rename from .+|rename to .+|copy from .+|copy to .+|similarity index \d+%|"
                           r"dissimilarity index \d+%|new file mode \d{6}|deleted file mode \d{6}|"
                           r"old mode \d{6}|new mode \d{6}|Binary files .+ differ|diff --cc .+)$")


def changed_facts(text: str, every: int = 4) -> list:
    """``hunk_facts`` plus every ``every``-th changed line of the patch (sign and text as printed)."""
    out = hunk_facts(text)
    changed = [x for x in text.splitlines()
               if x[:1] in "+-" and not x.startswith(("+++ ", "--- ")) and len(x.strip()) > 5]
    out += [x for x in changed[::every] if x not in out]
    return out


def file_facts(text: str) -> list:
    """Each file of a patch as git names it: its ``+++ b/P`` line (``--- a/P`` for a deleted one)
    and its rename/copy/mode/new/deleted/binary lines."""
    out: list = []
    lines = text.splitlines()
    for k, x in enumerate(lines):
        if _RAW_EXTENDED.match(x):
            out.append(x)
        elif x.startswith("+++ b/"):
            out.append(x)
        elif x.startswith("--- a/") and k + 1 < len(lines) and lines[k + 1] == "+++ /dev/null":
            out.append(x)
    return list(dict.fromkeys(out))


def word_diff_facts(text: str) -> list:
    """Hunk headers, file lines and every line of ``--word-diff`` holding a removed or added run."""
    out = [x for x in text.splitlines() if x.startswith(("@@", "+++ b/", "--- a/"))]
    out += [x for x in text.splitlines() if ("[-" in x and "-]" in x) or ("{+" in x and "+}" in x)]
    return list(dict.fromkeys(out))


def porcelain_blame_facts(text: str, every: int = 6) -> list:
    """Each commit id (40 hex) and summary of ``blame --porcelain``, every ``every``-th source line."""
    out: list = []
    src: list = []
    for x in text.splitlines():
        m = re.match(r"^([0-9a-f]{40}) \d+ \d+", x)
        if m and m.group(1) not in out:
            out.append(m.group(1))
        elif x.startswith(("summary ", "author ")):
            out.append(x)
        elif x.startswith("\t") and len(x.strip()) > 8:
            src.append(x[1:])
    return list(dict.fromkeys(out + src[::every]))


def line_facts(text: str, pattern: str, every: int = 1) -> list:
    """Every ``every``-th line matching ``pattern`` (whole line, surrounding space stripped)."""
    return [x.strip() for x in text.splitlines() if re.match(pattern, x)][::every]


def grep_facts(text: str, every: int = 1) -> list:
    """``git grep -n`` lines as [N:, text], and each path (as the grep fixtures of sqz_core's
    kinds state them: the grouped rendering writes a file's lines after its path, unindented)."""
    out: list = []
    for x in text.splitlines()[::every]:
        m = re.match(r"^([^:]+):(\d+):(.*)$", x)
        if m and m.group(3).strip():
            out.append([m.group(2) + ":", m.group(3).strip()])
            if m.group(1) not in out:
                out.append(m.group(1))
    return out


def graph_oneline_facts(text: str, every: int = 2) -> list:
    """Each ``--graph --oneline`` commit as [short id, subject] (decorations left out)."""
    out: list = []
    for x in text.splitlines():
        m = re.match(r"^[*|\\/ _.-]*\* +([0-9a-f]{7,}) (?:\([^)]*\) )?(.+)$", x)
        if m:
            out.append([m.group(1), m.group(2)])
    return out[::every]


def build_h2_sqz() -> tuple[Path, list]:
    """A clone of the sqz repository's history up to ``H2_PIN`` where two people then work:
    a topic branch cherry-picking real commits onto an older base (then rebased and amended), a
    merge that conflicts and is resolved by hand, worktrees, remotes and annotated tags."""
    for name in ("review", "bisect", "hotfix"):
        if (ROOT / f"h2wt_{name}").exists():
            shutil.rmtree(ROOT / f"h2wt_{name}")
    work, origin = build_sqz_history(H2_PIN, "h2sqz")
    first = run(work, "rev-list", "--first-parent", "-n", "40", "main").stdout.split()
    # the topic: four of main's own commits replayed on an older base, then two of bob's
    base = first[20]  # first[19..16]: four commits, none a merge
    run(work, "checkout", "-q", "-b", "topic", base)
    for c in first[19:15:-1]:
        merge = len(run(work, "rev-list", "--parents", "-n", "1", c).stdout.split()) > 2
        run(work, "cherry-pick", "--allow-empty", *(["-m", "1"] if merge else []), c, who="bob")
    readme = work / "sqz_formatters_git/README.md"
    write(work, "sqz_formatters_git/README.md", readme.read_text().replace("\n## ", "\n<!-- reviewed -->\n\n## ", 1))
    commit_all(work, "git README: mark the reviewed section", who="bob")
    diff_py = "sqz_formatters_git/src/sqz_formatters_git/git_diff.py"
    write(work, diff_py, (work / diff_py).read_text().replace("KEEP_NEAR_CHANGE = 1 ", "KEEP_NEAR_CHANGE = 2 ", 1))
    commit_all(work, "git diff: keep two context lines next to a change", who="bob")
    run(work, "branch", "topic-v1")
    run(work, "rebase", "-q", "main")  # the replayed commits are already in main: dropped
    write(work, diff_py, (work / diff_py).read_text().replace("MIN_FOLDED_CHARS = 30 ", "MIN_FOLDED_CHARS = 40 ", 1))
    run(work, "add", "-A")
    run(work, "commit", "-q", "--amend", "--no-edit", who="bob")
    # a merge whose conflict is resolved by hand (an evil merge: `show` prints a combined diff)
    run(work, "checkout", "-q", "-b", "alice/fold", "main")
    write(work, diff_py, (work / diff_py).read_text().replace("KEEP_NEAR_CHANGE = 1 ", "KEEP_NEAR_CHANGE = 0 ", 1)
          .replace("MIN_FOLDED = 1 ", "MIN_FOLDED = 2 ", 1))
    commit_all(work, "git diff: fold every context line, two at least", who="alice")
    run(work, "checkout", "-q", "main")
    run(work, "merge", "-q", "--no-ff", "--no-edit", "topic")
    run(work, "merge", "-q", "--no-edit", "alice/fold", check=False)
    text = (work / diff_py).read_text()
    text = re.sub(r"<<<<<<< HEAD\n(.*?)=======\n(.*?)>>>>>>> alice/fold\n",
                  lambda m: m.group(1).replace("KEEP_NEAR_CHANGE = 2 ", "KEEP_NEAR_CHANGE = 3 ")
                  .replace("MIN_FOLDED = 1 ", "MIN_FOLDED = 2 "), text, flags=re.S)
    write(work, diff_py, text)
    commit_all(work, "Merge branch 'alice/fold': three context lines kept, two folded at least")
    # tags annotated with real commit messages, one lightweight
    for k, c in enumerate(first[1:5]):
        body = run(work, "log", "-1", "--format=%B", c).stdout.strip()
        run(work, "tag", "-a", f"h2-v0.{k}", "-m", body + f"\n\nSnapshot {k} of the held-out pass.", c)
    run(work, "tag", "h2-light", first[6])
    # remotes and worktrees
    run(work, "remote", "add", "upstream", str(origin))
    run(work, "remote", "set-url", "--push", "upstream", "no_push")
    run(work, "fetch", "-q", "upstream")
    for name, extra in (("review", ["topic-v1"]), ("bisect", ["--detach", first[20]]), ("hotfix", ["-b", "hotfix", "main"])):
        run(work, "worktree", "add", "-q", str(ROOT / f"h2wt_{name}"), *extra)
    run(work, "worktree", "lock", "--reason", "on a removable disk", str(ROOT / "h2wt_hotfix"))
    return work, first


def build_h2_staged(work: Path, first: list) -> Path:
    """A copy of the h2 clone with a mixed change staged: a rename whose file goes back to an older
    version, a mode change, a new binary file, a deleted file, a new file and edited files (every
    content a real version of an sqz file)."""
    staged = ROOT / "h2staged"
    if staged.exists():
        shutil.rmtree(staged)
    run(ROOT, "clone", "-q", str(work), str(staged))
    old = first[30]
    run(staged, "mv", "sqz_formatters_git/src/sqz_formatters_git/git_blame.py",
        "sqz_formatters_git/src/sqz_formatters_git/blame.py")
    write(staged, "sqz_formatters_git/src/sqz_formatters_git/blame.py",  # before 94911af (blame nesting)
          run(staged, "show", "94911af~1:sqz_formatters_git/src/sqz_formatters_git/git_blame.py").stdout)
    for rel, at in (("sqz_formatters_git/src/sqz_formatters_git/_common.py", "5382281~1"),
                    ("sqz_formatters_git/README.md", first[39])):
        write(staged, rel, run(staged, "show", f"{at}:{rel}").stdout)
    os.chmod(staged / "sqz_formatters_git/scripts/extract_status_l10n.py", 0o755)
    (staged / "docs").mkdir(exist_ok=True)
    shutil.copyfile("/usr/share/pixmaps/debian-logo.png", staged / "docs/logo.png")
    run(staged, "rm", "-q", "sqz_formatters_git/src/sqz_formatters_git/_version.py")
    write(staged, "sqz_formatters_git/src/sqz_formatters_git/git_l10n_copy.py",
          run(staged, "show", f"{old}:sqz_formatters_git/scripts/extract_status_l10n.py").stdout)
    run(staged, "add", "-A")
    return staged


def capture_h2_shapes() -> None:
    """Held-out pass #2: shapes no fixture above has (function context, -U10, word diff, a merge's
    combined diff, log -p over several files, custom formats, porcelain blame, shortlog, grep,
    ls-files, annotated tags, worktrees, cherry, range-diff, reflog), on the sqz repository's own
    history (``python scripts/capture_fixtures.py h2`` re-captures only these)."""
    _clock[0] = 900
    work, first = build_h2_sqz()
    note = (f"the sqz repository's own history up to {H2_PIN} (clone of a bare copy), then a topic branch "
            "(bob: main's commits replayed on an older base, rebased and amended), a hand-resolved merge (alice)")
    rng = "0252511~1 b873ec3"  # seven commits changing git_diff.py
    src = "sqz_formatters_git/src/sqz_formatters_git"
    # patches
    capture("diff", "h2_multi_default", work, f"git diff 94911af 2e020bd -- {src}",
            raw_facts=lambda t: file_facts(t) + changed_facts(t), notes=note + "; eight files of the git pack, default context")
    capture("diff", "h2_function_context", work, "git diff -W f00d7e3~1 f00d7e3",
            raw_facts=lambda t: file_facts(t) + changed_facts(t, 2), notes=note + "; -W: whole functions as context")
    capture("diff", "h2_u10_core", work, "git diff -U10 ac085ca~1 ac085ca -- sqz_core",
            raw_facts=lambda t: file_facts(t) + changed_facts(t), notes=note + "; ten lines of context")
    capture("diff", "h2_word_diff", work, "git diff --word-diff 72ed6f9~1 72ed6f9",
            raw_facts=word_diff_facts, notes=note + "; --word-diff=plain: [-removed-]{+added+} inside lines")
    capture("diff", "h2_range_stat_patch", work, f"git diff --stat -p {rng} -- {src}/git_diff.py {src}/git.py",
            raw_facts=lambda t: stat_facts(t) + file_facts(t) + changed_facts(t, 3), notes=note + "; --stat with -p")
    staged = build_h2_staged(work, first)
    capture("diff", "h2_cached_mixed", staged, "git diff --cached -M",
            raw_facts=lambda t: file_facts(t) + changed_facts(t, 3),
            notes=note + "; staged: a rename back to an older version, a mode change, a new PNG (debian-logo.png "
            "from this machine), a deleted file, a new file, two files back at an older version")
    capture("diff", "h2_cached_name_status", staged, "git diff --cached -M --name-status",
            raw_facts=name_status_facts, notes=note + "; the same staged change as h2_cached_mixed")
    capture("diff", "h2_show_merge_cc", work, "git show --cc HEAD",
            facts=[rev(work), "Merge branch 'alice/fold': three context lines kept, two folded at least"],
            raw_facts=lambda t: file_facts(t) + hunk_facts(t), notes=note + "; a merge whose conflict was resolved by hand")
    capture("diff", "h2_show_commit", work, "git show 18d0acc",
            facts=[rev(work, "18d0acc")], raw_facts=lambda t: file_facts(t) + changed_facts(t, 3), notes=note)
    capture("diff", "h2_format_patch_3", work, "git format-patch --stdout -3 7bcf5ea",
            raw_facts=lambda t: line_facts(t, r"^(?:From [0-9a-f]{40} |Subject: )") + file_facts(t) + changed_facts(t, 3)
            + line_facts(t, r"^ \d+ files? changed"), notes=note + "; three commits as mails")
    capture("log", "h2_patch_two_files", work,
            f"git log -p -n 8 {first[0]} -- {src}/git_log.py {src}/git_diff.py",
            raw_facts=lambda t: [x[7:19] for x in line_facts(t, r"^commit [0-9a-f]{40}")] + line_facts(t, r"^    \S")
            + file_facts(t)
            + changed_facts(t, 5), notes=note + "; eight commits touching two files, with patches")
    # history in other layouts
    capture("log", "h2_format_short_date", work, f"git log --date=short --format=%h%x20%ad%x20%an%x20%s -n 40 {first[0]}",
            facts=[x.split("\t") for x in run(work, "log", "--date=short", "--format=%h\t%ad\t%s", "-n", "40",
                                               first[0]).stdout.splitlines()],
            notes=note + "; a custom one-line format")
    capture("log", "h2_format_body", work, f"git log --format=%H%n%an%x20<%ae>%x20%ad%n%n%B -n 8 {first[0]}",
            raw_facts=lambda t: line_facts(t, r"^[0-9a-f]{40}$") + line_facts(t, r"^\S.{20,}$", 2),
            notes=note + "; a custom multi-line format: id, author and date, whole message")
    capture("log", "h2_graph_oneline_all", work, "git log --graph --oneline --all -n 60",
            raw_facts=graph_oneline_facts, notes=note + "; branches, tags, worktrees and remotes decorate the graph")
    capture("log", "h2_shortlog_sne", work, "git shortlog -sne --all",
            raw_facts=lambda t: [list(m.groups()) for m in map(re.compile(r"^\s+(\d+)\t(.+)$").match, t.splitlines()) if m],
            notes=note)
    capture("log", "h2_shortlog_n", work, "git shortlog -n --all --max-count=40",
            raw_facts=lambda t: line_facts(t, r"^\S.* \(\d+\):$") + line_facts(t, r"^      \S", 3), notes=note)
    capture("log", "h2_cherry_v", work, "git cherry -v main topic-v1",
            raw_facts=lambda t: line_facts(t, r"^[+-] [0-9a-f]{40} "), notes=note + "; + not in main, - an equivalent is")
    capture("log", "h2_range_diff", work, f"git range-diff {first[20]}..topic-v1 {first[0]}..topic",
            raw_facts=lambda t: line_facts(t, r"^\s*(?:\d+|-):\s+(?:[0-9a-f]{7,}|-+) [=!<>] ")
            + line_facts(t, r"^    [-+]{1,2}\s*\S{3}"), notes=note + "; topic-v1 against the rebased, amended topic")
    # blame
    capture("blame", "h2_blame_default", work, f"git blame {src}/git_diff.py",
            raw_facts=blame_facts, notes=note + "; every line of one file with its commit")
    capture("blame", "h2_blame_porcelain", work, f"git blame --porcelain -L 1,80 {src}/git_diff.py",
            raw_facts=porcelain_blame_facts, notes=note + "; --porcelain, the first 80 lines")
    capture("blame", "h2_blame_line_porcelain", work, f"git blame --line-porcelain -L 150,190 {src}/git_diff.py",
            raw_facts=porcelain_blame_facts, notes=note + "; --line-porcelain: every line with its commit's headers")
    # refs, listings
    capture("refs", "h2_tag_n5", work, "git tag -n5",
            raw_facts=lambda t: [list(m.groups()) for m in map(re.compile(r"^(\S+)\s+(\S.*)$").match, t.splitlines()) if m]
            + line_facts(t, r"^\s{4,}\S", 2), notes=note + "; tags annotated with their commit's whole message")
    capture("refs", "h2_branch_vv", work, "git branch -vv",
            raw_facts=lambda t: [[m.group(1), m.group(2), m.group(3)] for m in
                                 map(re.compile(r"^[*+ ] (\S+)\s+([0-9a-f]{7}) (.*)$").match, t.splitlines()) if m],
            notes=note + "; + marks a branch checked out in another worktree")
    capture("refs", "h2_remote_show", work, "git remote show origin", notes=note,
            raw_facts=lambda t: line_facts(t, r"^(?!    \S+ +tracked$)\s*\S")  # every line; a branch with its state:
            + [x.split() for x in t.splitlines() if re.match(r"^    \S+ +tracked$", x)])
    capture("refs", "h2_remote_v", work, "git remote -v", notes=note,
            raw_facts=lambda t: [[m.group(1), m.group(2), m.group(3)] for m in
                                 map(re.compile(r"^(\S+)\t(\S+) \((fetch|push)\)$").match, t.splitlines()) if m])
    capture("refs", "h2_worktree_list", work, "git worktree list",
            raw_facts=lambda t: [x.split() for x in t.splitlines() if x.strip()], notes=note)
    capture("refs", "h2_worktree_porcelain", work, "git worktree list --porcelain",
            raw_facts=lambda t: line_facts(t, r"^\S"), notes=note)
    capture("refs", "h2_reflog_30", work, "git reflog -n 30", raw_facts=lambda t: line_facts(t, r"^[0-9a-f]{7,} "),
            notes=note)
    capture("repo", "h2_grep_n", work, "git grep -n 'def format_' -- sqz_formatters_git",
            raw_facts=grep_facts, notes=note)
    capture("repo", "h2_ls_files", work, "git ls-files sqz_formatters_git/src sqz_formatters_git/scripts sqz_core/src",
            raw_facts=lambda t: name_only_facts(t)[::2] + name_only_facts(t)[-1:], notes=note)


def patch_header_facts(text: str) -> list:
    """Every ``diff --git`` line and every ``Author:`` line's e-mail, as printed (issue 25's drops)."""
    out: list = [x for x in text.splitlines() if x.startswith("diff --git ")]
    out += list(dict.fromkeys(m.group(1) for m in re.finditer(r"^Author: .*?(<[^<>]+>)$", text, re.M)))
    return out


def capture_families_shapes() -> None:
    """Issue 25's families: ``git log -p`` and ``git show`` of fixed commits of the sqz repository's own
    history (none of them touches benchmarks/), facts picked from git's own lines (``diff --git``
    headers, author e-mails, hunk headers and their first/last changed lines)."""
    facts = lambda text: patch_header_facts(text) + hunk_facts(text)  # noqa: E731
    capture("log", "fam_sqz_log_p_3", MAIN_REPO, "git log -p -n 3 --no-merges 6b23c68", raw_facts=facts,
            notes="three commits of the sqz repository (6b23c68, ed40448, 05c7ee0), read only")
    capture("diff", "fam_sqz_show_8893473", MAIN_REPO, "git show 8893473", raw_facts=facts,
            notes="one commit of the sqz repository (cleanup.py and a test), read only")


# ----------------------------------------------------------------------------- issue 25, git by words

_WORDS_REV = "ab6394f"  # a fixed commit of the sqz repository's own history
_NO_BENCH = "-- . ':(exclude)benchmarks'"  # none of benchmarks/ (the blind set lives there) in any capture


def commit_facts(text: str, every: int = 1) -> list:
    """Per commit of a medium-format listing (every ``every``-th): its id (12 digits), its subject,
    its author's name with the e-mail, the day of its date (weekday, month, day / year, zone) and its
    time of day, each as git printed them on its own header lines."""
    out: list = []
    commits: list = []
    for line in text.splitlines():
        m = re.match(r"^commit ([0-9a-f]{40})", line)
        if m:
            commits.append({"sha": m.group(1)[:12]})
        elif commits and line.startswith("Author: "):
            a = re.match(r"^Author: (.*?) (<[^<>]*>)$", line)
            if a:
                commits[-1]["author"] = [a.group(1), a.group(2)]
        elif commits and line.startswith("Date: "):
            d = re.match(r"^Date:\s+(\w{3} \w{3} \d{1,2}) (\d\d:\d\d:\d\d) (\d{4} [+-]\d{4})$", line)
            if d:
                commits[-1]["day"] = [d.group(1), d.group(3)]
                commits[-1]["time"] = d.group(2)
        elif commits and "subject" not in commits[-1] and line.startswith("    ") and line.strip():
            commits[-1]["subject"] = line.strip()
    for c in commits[::every]:
        out.append(c["sha"])
        if c.get("subject") and c["subject"] not in out:
            out.append(c["subject"])
        for key in ("author", "day", "time"):
            if key in c and c[key] not in out:
                out.append(c[key])
    return out


def capture_words_shapes() -> None:
    """Issue 25's word rule on new captures: this repository's own history at a fixed commit (no
    benchmarks/ in any of it) and a scratch repository built with real git commands (branches, a
    remote, a reflog). Facts are picked from git's own lines
    (headers, dates, hunks, blame rows, branch rows, reflog entries) by the helpers above."""
    note = f"the sqz repository's own history at {_WORDS_REV}, read only; benchmarks/ excluded by pathspec"
    capture("log", "w25_sqz_log_40", MAIN_REPO, f"git log -n 40 {_WORDS_REV}", raw_facts=commit_facts, notes=note)
    capture("log", "w25_sqz_log_p_6", MAIN_REPO, f"git log -p -n 6 --no-merges {_WORDS_REV} {_NO_BENCH}",
            raw_facts=lambda t: commit_facts(t) + patch_header_facts(t) + hunk_facts(t)[::3], notes=note)
    capture("log", "w25_sqz_log_stat_15", MAIN_REPO, f"git log --stat -n 15 --no-merges {_WORDS_REV} {_NO_BENCH}",
            raw_facts=lambda t: commit_facts(t) + stat_facts(t, every=3), notes=note)
    capture("diff", "w25_sqz_show_stat", MAIN_REPO, f"git show --stat {_WORDS_REV}~2",
            raw_facts=lambda t: commit_facts(t) + stat_facts(t), notes=note)
    capture("diff", "w25_sqz_diff_stat_60", MAIN_REPO, f"git diff --stat {_WORDS_REV}~60 {_WORDS_REV} {_NO_BENCH}",
            raw_facts=lambda t: stat_facts(t, every=2), notes=note)
    capture("blame", "w25_sqz_blame_git_log", MAIN_REPO,
            f"git blame {_WORDS_REV} -- sqz_formatters_git/src/sqz_formatters_git/git_log.py",
            raw_facts=blame_facts, notes=note)
    # a scratch repository: branches tracking a remote, a reflog of real moves
    origin = new_repo("w25-origin.git", bare=True)
    work = new_repo("w25-work")
    for i in range(6):
        write(work, f"src/mod{i}.py", "".join(f"def f{k}():\n    return {i * 10 + k}\n\n" for k in range(8)))
    write(work, "README.md", "# scratch\n")
    commit_all(work, "Initial layout of the scratch project")
    run(work, "remote", "add", "origin", str(origin))
    run(work, "push", "-q", "-u", "origin", "main")
    for b, who in (("feature/parser", "alice"), ("feature/cache-layer", "bob"), ("fix/issue-142", "dev"),
                   ("release/1.4", "dev"), ("spike/async-io", "alice")):
        run(work, "checkout", "-q", "-b", b, "main")
        write(work, f"src/{b.split('/')[-1].replace('-', '_')}.py", f"# {b}\nVALUE = {len(b)}\n")
        commit_all(work, f"{b}: first step", who=who)
        if b != "spike/async-io":
            run(work, "push", "-q", "-u", "origin", b)
        write(work, f"src/{b.split('/')[-1].replace('-', '_')}.py", f"# {b}\nVALUE = {len(b) + 1}\n")
        commit_all(work, f"{b}: second step", who=who)
    run(work, "checkout", "-q", "main")
    write(work, "README.md", "# scratch\n\nNow with a readme line.\n")
    commit_all(work, "Document the scratch project")
    run(work, "checkout", "-q", "fix/issue-142")
    run(work, "rebase", "-q", "main")
    run(work, "checkout", "-q", "main")
    run(work, "merge", "-q", "--no-ff", "-m", "Merge branch 'fix/issue-142'", "fix/issue-142")
    run(work, "reset", "-q", "--hard", "HEAD~1")
    run(work, "merge", "-q", "--no-ff", "-m", "Merge branch 'fix/issue-142' again", "fix/issue-142")
    snote = "a scratch repository built with real git commands by this script"
    capture("refs", "w25_branch_a_vv", work, "git branch -a -vv",
            raw_facts=lambda t: [[x.split()[0] if x.split()[0] != "*" else x.split()[1],
                                  re.search(r" ([0-9a-f]{7}) ", x).group(1)] for x in t.splitlines() if " -> " not in x]
            + [re.search(r"\[[^]]+\]", x).group(0) for x in t.splitlines() if re.search(r"\[[^]]+\]", x)],
            notes=snote)
    capture("refs", "w25_reflog", work, "git reflog",
            raw_facts=lambda t: [[x.split()[0], x.split(" ", 1)[1].split(": ", 1)[0]] for x in t.splitlines()[::2]]
            + [x.split(": ", 1)[1] for x in t.splitlines() if ": " in x][::3], notes=snote)


def main() -> None:
    only = {"advice": capture_advice_shapes, "depth": capture_depth_shapes, "heldout": capture_heldout_shapes,
            "h2": capture_h2_shapes, "families": capture_families_shapes, "words": capture_words_shapes}
    if sys.argv[1:2] and sys.argv[1] in only and len(sys.argv) == 2:
        (ROOT / "home").mkdir(parents=True, exist_ok=True)
        (ROOT / "home" / ".gitconfig").write_text(GITCONFIG)
        only[sys.argv[1]]()
        if _problems:
            raise SystemExit("\n".join(_problems))
        return
    if ROOT.exists():
        shutil.rmtree(ROOT)
    (ROOT / "home").mkdir(parents=True)
    (ROOT / "home" / ".gitconfig").write_text(GITCONFIG)
    for d in (OUT, NEAR):
        if d.exists():
            for f in list(d.rglob("*.txt")) + list(d.rglob("*.json")):
                if f.suffix == ".json":
                    _OLD_FACTS[f] = json.loads(f.read_text(encoding="utf-8")).get("facts", [])
                f.unlink()
    repo, origin = build_project()
    capture_status(repo)
    capture_diffs(repo)
    capture_log(repo)
    capture_conflicts(repo)
    capture_remote(repo, origin)
    capture_ops(repo)
    capture_near_misses(repo)
    capture_real(build_realpkg())
    capture_main_repo()
    capture_advice_shapes()
    capture_depth_shapes()
    capture_heldout_shapes()
    capture_h2_shapes()
    capture_families_shapes()
    capture_words_shapes()
    if _problems:
        raise SystemExit("\n".join(_problems))


if __name__ == "__main__":
    main()
