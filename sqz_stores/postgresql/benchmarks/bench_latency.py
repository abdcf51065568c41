"""Added latency of the PostgreSQL team store per ``sqz compress`` call, against the SQLite default.

    .venv/bin/python sqz_stores/postgresql/benchmarks/bench_latency.py [--calls 100] [--url URL]

Each call is a fresh ``python -m sqz_core compress`` process (as an agent's hook runs
it) on a 10 KB input; inputs differ per call (successive 10 KB windows of this
repository's own source files), so every call stores a new original and no call is a
ref. Reports wall-clock p50/p99 per configuration and the difference to SQLite:

* sqlite       the default embedded store;
* pg pooled    through the local pooling process (started once, before timing);
* pg direct    ``SQZ_PG_POOL=0``: psycopg imported and a connection made in every call;
* pg down      a URL where nothing listens (the degraded path: one stderr line).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SIZE = 10 * 1024


def inputs(n: int) -> list[bytes]:
    corpus = b"".join(p.read_bytes() for p in sorted((REPO / "sqz_core" / "src" / "sqz_core").rglob("*.py")))
    out = []
    for i in range(n):
        start = (i * 997) % max(1, len(corpus) - SIZE)
        out.append(corpus[start:start + SIZE])
    return out


def run(env: dict, data: bytes) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "make build", "--session", "bench"],
                   input=data, capture_output=True, env=env, check=True)
    return (time.perf_counter() - t0) * 1000


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--url", default=os.environ.get("SQZ_TEST_PG_URL", "postgresql://postgres@127.0.0.1:55432/sqz_test"))
    args = ap.parse_args()
    schema = "bench_" + uuid.uuid4().hex[:8]
    url = f"{args.url}{'&' if '?' in args.url else '?'}schema={schema}"
    data = inputs(args.calls)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        # as installed: bytecode cached (the warm-up calls write it)
        base = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_") and k != "PYTHONDONTWRITEBYTECODE"}
        base.update(SQZ_QUIET="1", SQZ_PG_POOL_IDLE_SECS="30")
        configs = {
            "sqlite": {},
            "pg pooled": {"SQZ_STORE_URL": url},
            "pg direct": {"SQZ_STORE_URL": url, "SQZ_PG_POOL": "0"},
            "pg down": {"SQZ_STORE_URL": "postgresql://postgres@127.0.0.1:9/none", "SQZ_PG_POOL": "0"},
        }
        envs = {}
        for name, extra in configs.items():
            home = Path(tmp) / name.replace(" ", "-")
            envs[name] = dict(base, HOME=str(home), SQZ_CACHE_DIR=str(home / "cache"),
                              SQZ_DB_PATH=str(home / "sqz.db"), **extra)
            for warm in data[:3]:  # bytecode, plugin index, schema, pooling process
                run(envs[name], warm)
                time.sleep(0.3)
            results[name] = []
        for d in data:  # interleaved, so load from other processes on the machine hits every configuration alike
            for name, env in envs.items():
                results[name].append(run(env, d))
    import psycopg

    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    ref50, ref99 = pct(results["sqlite"], 0.5), pct(results["sqlite"], 0.99)
    print(f"sqz compress, {SIZE // 1024} KB input, {args.calls} calls per configuration (ms, wall clock per process)")
    print(f"{'store':<12} {'p50':>7} {'p99':>7} {'+p50':>7} {'+p99':>7}")
    for name, values in results.items():
        p50, p99 = pct(values, 0.5), pct(values, 0.99)
        print(f"{name:<12} {p50:7.1f} {p99:7.1f} {p50 - ref50:+7.1f} {p99 - ref99:+7.1f}")
    print(f"(mean sqlite {statistics.mean(results['sqlite']):.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
