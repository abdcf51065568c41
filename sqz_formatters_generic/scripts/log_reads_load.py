"""Bounded loopback load for capture_log_reads.sh: HTTP requests against a server under capture.

    python log_reads_load.py BASE_URL PLAN

PLAN is a comma-separated list of ``PATH*COUNT`` (``/health*40,/static/app-3.css*2``); the
requests go out in that order, one at a time, with a short pause, each answer read whole and
its status ignored (the server's own log is what is captured).
"""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request


def main() -> int:
    base, plan = sys.argv[1], sys.argv[2]
    for item in plan.split(","):
        path, _, count = item.partition("*")
        for _ in range(int(count or 1)):
            try:
                with urllib.request.urlopen(base + path, timeout=5) as resp:
                    resp.read()
            except urllib.error.HTTPError as exc:
                exc.read()
            except OSError:
                pass
            time.sleep(0.01)
    return 0


if __name__ == "__main__":
    sys.exit(main())
