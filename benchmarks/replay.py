"""Session-replay benchmark: a recorded agent session replayed through sqz, step by step.

The steps are made from real outputs produced here: this repository's source files read
with `cat` and `sed -n`, edited and read again; a real failing pytest run (from the test
pack's fixtures) re-run unchanged; `git status` of a throw-away repository before and
after an edit; a subagent (another session) reading the same file; a compaction followed
by a re-read. Each step runs through the same pipeline as `sqz compress --cmd`, against a
fresh store, and the table reports the cl100k tokens the model sees against the raw
output, per step kind.

    python benchmarks/replay.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _git(repo: Path, *args: str) -> bytes:
    env = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.org", GIT_COMMITTER_NAME="Dev",
               GIT_COMMITTER_EMAIL="dev@example.org", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z", LANG="C")
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env, check=True).stdout


def steps(tmp: Path) -> list[dict]:
    """The recorded session: (kind, session, command, output bytes) in order."""
    src = ROOT / "sqz_core" / "src" / "sqz_core"
    pipeline_py = (src / "pipeline.py").read_bytes()
    store_py = (src / "store.py").read_bytes()
    edited = pipeline_py.replace(b"MIN_REF_BYTES = 160", b"MIN_REF_BYTES = 256", 1)
    edited2 = edited.replace(b"DEFAULT_MAX_BYTES = 32 * 1024 * 1024", b"DEFAULT_MAX_BYTES = 64 * 1024 * 1024", 1)
    slice_41_80 = b"".join(pipeline_py.splitlines(keepends=True)[40:80])
    red = ROOT / "sqz_formatters_test" / "tests" / "fixtures" / "pytest" / "red_verbose.txt"
    pytest_red = red.read_bytes() if red.exists() else None

    repo = tmp / "repo"
    _git(tmp, "init", "-q", "-b", "main", str(repo))
    for name in ("app.py", "util.py", "README.md"):
        (repo / name).write_bytes((src / "cleanup.py").read_bytes()[:2000] + name.encode())
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "initial")
    status_clean = _git(repo, "status")
    (repo / "app.py").write_text("changed\n")
    (repo / "notes.txt").write_text("new file\n")
    status_dirty = _git(repo, "status")

    s = [
        ("first read", "main", "cat sqz_core/pipeline.py", pipeline_py),
        ("other file", "main", "cat sqz_core/store.py", store_py),
        ("line range of a read file", "main", "sed -n '41,80p' sqz_core/pipeline.py", slice_41_80),
        ("re-read unchanged", "main", "cat sqz_core/pipeline.py", pipeline_py),
        ("re-read after edit", "main", "cat sqz_core/pipeline.py", edited),
        ("re-read after 2nd edit", "main", "cat sqz_core/pipeline.py", edited2),
        ("git status", "main", "git status", status_clean),
        ("git status after edit", "main", "git status", status_dirty),
        ("git status again", "main", "git status", status_dirty),
        ("subagent reads same file", "subagent", "cat sqz_core/pipeline.py", edited2),
        ("compaction, then re-read", "main:compact", "cat sqz_core/pipeline.py", edited2),
    ]
    if pytest_red is not None:
        s[6:6] = [("failing test run", "main", "pytest -v", pytest_red),
                  ("same failing run again", "main", "pytest -v", pytest_red)]
    return [{"kind": k, "session": sid, "command": c, "data": d} for k, sid, c, d in s]


def replay() -> list[dict]:
    from sqz_core.pipeline import compress
    from sqz_core.plugins import load_index
    from sqz_core.sessions import compact
    from sqz_core.store import Store
    from sqz_core.tokens import count

    tmp = Path(tempfile.mkdtemp(prefix="sqz-replay-"))
    store = Store.open(str(tmp / "db.sqlite"))
    index = load_index()
    rows = []
    for step in steps(tmp):
        session = step["session"]
        if session == "main:compact":
            compact(store, "main")
            session = "main"
        res = compress(step["data"], command=step["command"], store=store, session=session, index=index)
        raw_tokens, counter = count(step["data"].decode("utf-8", "replace"))
        seen, _ = count(res.output.decode("utf-8", "replace"))
        rows.append({"step": step["kind"], "command": step["command"], "session": step["session"],
                     "outcome": res.outcome, "raw": raw_tokens, "seen": seen, "counter": counter})
    store.close()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    rows = replay()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    raw = sum(r["raw"] for r in rows)
    seen = sum(r["seen"] for r in rows)
    if args.markdown:
        print("| step | outcome | raw tokens | tokens seen | saved |")
        print("|---|---|---:|---:|---:|")
        for r in rows:
            saved = 100 * (r["raw"] - r["seen"]) / r["raw"] if r["raw"] else 0
            print(f"| {r['step']} | {r['outcome']} | {r['raw']:,} | {r['seen']:,} | {saved:.0f}% |")
        print(f"| **session** | | {raw:,} | {seen:,} | {100 * (raw - seen) / raw:.0f}% |")
    else:
        print(f"{'step':<28}{'outcome':<12}{'raw':>8}{'seen':>8}{'saved':>8}")
        for r in rows:
            saved = 100 * (r["raw"] - r["seen"]) / r["raw"] if r["raw"] else 0
            print(f"{r['step']:<28}{r['outcome']:<12}{r['raw']:>8}{r['seen']:>8}{saved:>7.0f}%")
        print(f"{'whole session':<40}{raw:>8}{seen:>8}{100 * (raw - seen) / raw:>7.0f}%")
        print(f"tokens: {rows[0]['counter']} (what the model sees on stdout; sqz's stderr note is not counted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
