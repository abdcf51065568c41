"""Tool-result tokens each real agent sends, without sqz and through `sqz proxy`, in one table.

Runs ``sqz_proxy/tests/e2e/test_agents_through_proxy.py`` (the five real CLIs, a scripted model on
127.0.0.1, no sqz hooks: a failing pytest run, a file read, the same file read again; Claude Code also
runs git log) with ``SQZ_PROXY_E2E_REPORT`` set, and prints, per agent, the cl100k tokens of the tool
results as the agent sent them ("without sqz") and as the model received them ("with proxy").
These are the e2e tests' short sessions; ``benchmarks/agent_sessions.py`` runs the issues' 12-step session
in each agent without sqz, with hooks only, through the proxy only and with both.

    .venv/bin/python benchmarks/proxy_agents.py [--json]
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
TESTS = ROOT / "sqz_proxy" / "tests" / "e2e" / "test_agents_through_proxy.py"


def run() -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="sqz-proxy-agents-") as tmp:
        path = os.path.join(tmp, "report.jsonl")
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TESTS)],
                           cwd=ROOT, env=dict(os.environ, SQZ_PROXY_E2E_REPORT=path), capture_output=True, text=True)
        rows = [json.loads(line) for line in open(path, encoding="utf-8")] if os.path.exists(path) else []
        if r.returncode != 0:
            sys.stderr.write(r.stdout[-3000:])
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = run()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0 if len(rows) == 5 else 1
    print("| agent | tool results | without sqz (cl100k) | with proxy (cl100k) | saved |")
    print("|---|---|---|---|---|")
    for row in rows:
        saved = 1 - row["tokens_received"] / row["tokens_sent"] if row["tokens_sent"] else 0.0
        print(f"| {row['agent']} | {row['results']} | {row['tokens_sent']:,} | {row['tokens_received']:,} | "
              f"{saved:.0%} |")
    return 0 if len(rows) == 5 else 1


if __name__ == "__main__":
    sys.exit(main())
