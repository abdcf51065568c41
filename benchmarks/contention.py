"""Sixteen writers on one SQLite store: how many calls keep their caching, and what `sqz stats` counts.

    python benchmarks/contention.py [--writers 16] [--calls 50] [--python PATH]

Each writer is a sequence of real ``sqz compress`` processes (``SQZ_DAEMON=0``: one process
per call, as hooks run) in its own session, reading this repository's source files as an
agent's ``cat`` would; a writer reads each file twice, so the second read may be a ref.
It counts, with no timing in the verdict: calls that said "store busy … sent without
caching" (their refs and stats row lost), calls past the pipeline's time budget (sent
unchanged, not cached: the machine's load, not the store), store errors, refs answered, and the calls
``sqz stats --json`` reports afterwards. ``--python`` runs another checkout's interpreter
(e.g. the commit before write-behind) for a before/after figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted((REPO / "sqz_core" / "src" / "sqz_core").glob("*.py"))


def writer(python: str, env: dict, n: int, calls: int) -> list[tuple[bytes, bytes]]:
    out = []
    half = max(1, calls // 2)
    for i in range(calls):
        path = SOURCES[(n + i % half) % len(SOURCES)]
        r = subprocess.run([python, "-m", "sqz_core", "compress", "--cmd", f"cat {path.name}", "--session", f"w{n}"],
                           input=path.read_bytes(), capture_output=True, env=env, timeout=120)
        out.append((r.stdout, r.stderr))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--writers", type=int, default=16)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sqz-contention-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
        env.update(SQZ_DB_PATH=os.path.join(tmp, "sqz.db"), SQZ_CACHE_DIR=os.path.join(tmp, "cache"),
                   SQZ_DAEMON="0")
        with ThreadPoolExecutor(args.writers) as pool:
            results = [r for batch in pool.map(lambda n: writer(args.python, env, n, args.calls), range(args.writers))
                       for r in batch]
        busy = sum(b"sent without caching" in err for _, err in results)
        errors = sum(b"store error" in err or b"unavailable" in err or b"internal error" in err
                     or b"writes of this call lost" in err for _, err in results)
        refs = sum(out.startswith("§ref:".encode()) for out, _ in results)
        # the pipeline's time budget (SQZ_TIME_BUDGET_MS) also sends an output unchanged and uncached
        over_budget = sum(b"time budget" in err for _, err in results)
        stats = subprocess.run([args.python, "-m", "sqz_core", "stats", "--json"], capture_output=True, env=env,
                               timeout=300)
        try:
            counted = json.loads(stats.stdout)["total"]["calls"]
        except (ValueError, KeyError):
            counted = None
            sys.stderr.write(f"sqz stats failed ({stats.returncode}): {stats.stderr.decode()[-500:]}\n")
        total = len(results)
        print(json.dumps({"python": args.python, "writers": args.writers, "calls": total,
                          "sent_without_caching": busy, "over_time_budget": over_budget,
                          "cached": total - busy - errors - over_budget, "store_errors": errors,
                          "refs": refs, "stats_counted": counted}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
