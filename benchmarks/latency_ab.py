"""Latency A/B: ``sqz compress`` of this checkout against another checkout, interleaved in one run.

A busy machine moves every figure of ``latency.py`` between two runs; taking turns call by call
(A, B, B, A, …) on the same inputs cancels most of that, so a regression shows as a ratio:

    git worktree add --detach /tmp/sqz-base <rev>
    python benchmarks/latency_ab.py --base /tmp/sqz-base [--runs 25] [CASE ...]

The base runs through the same installed ``sqz`` script with ``PYTHONPATH`` set to the base
checkout's package sources (they shadow the editable installs); each side has its own fresh
database and plugin cache. CASE names are ``latency.py``'s rows (``"json 10KB"``,
``"worst token 1MB"``…); by default the 1 KB and 10 KB rows and the cheaper worst cases.
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = ["pytest 1KB", "pytest 10KB", "git-log 1KB", "git-log 10KB", "json 1KB", "json 10KB",
           "worst cursor escapes", "worst token 1MB", "worst JSON 100k deep"]


def source_path(checkout: Path) -> str:
    dirs = [d for pat in ("*/src", "sqz_integrations/*/src", "sqz_stores/*/src")
            for d in sorted(glob.glob(str(checkout / pat)))]
    return os.pathsep.join(dirs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, type=Path, help="a checkout of the revision to compare against")
    ap.add_argument("--runs", type=int, default=25, help="calls per side and case (default 25)")
    ap.add_argument("cases", nargs="*", help="latency.py row names (default: the 1/10 KB rows and cheap worst cases)")
    args = ap.parse_args()
    if not (args.base / "sqz_core" / "src").is_dir():
        print(f"latency_ab: {args.base} is not an sqz checkout (no sqz_core/src)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    import latency

    inputs = {**latency.sample_inputs(), **latency.worst_inputs()}
    cases = args.cases or DEFAULT
    unknown = [c for c in cases if c not in inputs]
    if unknown:
        print(f"latency_ab: unknown case(s) {unknown}; known: {sorted(inputs)}", file=sys.stderr)
        return 2
    sqz = latency.sqz_exe()
    envs = {}
    for side, pp in (("base", source_path(args.base)), ("this", None)):
        tmp = tempfile.mkdtemp(prefix=f"sqz-ab-{side}-")
        env = dict(os.environ, SQZ_DB_PATH=os.path.join(tmp, "db.sqlite"), SQZ_CACHE_DIR=os.path.join(tmp, "cache"),
                   SQZ_QUIET="1", SQZ_NO_DEDUP="1")
        env.pop("PYTHONPATH", None)
        if pp:
            env["PYTHONPATH"] = pp
        subprocess.run(sqz + ["plugins"], env=env, stdout=subprocess.DEVNULL, check=False)  # build the index once
        envs[side] = env
    print(f"{'case':26} {'base p50 ms':>12} {'this p50 ms':>12} {'ratio':>6}")
    for case in cases:
        data, command = inputs[case]
        times: dict[str, list[float]] = {"base": [], "this": []}
        for i in range(args.runs):
            for side in (("base", "this") if i % 2 else ("this", "base")):
                t = time.perf_counter()
                subprocess.run(sqz + ["compress", "--cmd", command], input=data, env=envs[side],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                times[side].append((time.perf_counter() - t) * 1000)
        b, m = statistics.median(times["base"]), statistics.median(times["this"])
        print(f"{case:26} {b:12.1f} {m:12.1f} {m / b:6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
