"""Bounded loopback load for the held-out nginx logs (capture_kinds.sh heldout-h2).

``python h2_load.py N``: 8 threads, N requests each, to 127.0.0.1:18801 only: pages, static
files (some missing: 404), a forbidden directory (403), /checkout (500), /api/ (proxied; 502
once the upstream is stopped).
"""

import sys
import threading
import urllib.error
import urllib.request

BASE = "http://127.0.0.1:18801"


def plan(n):
    for i in range(n):
        if i % 97 == 0:
            yield "/checkout"
        elif i % 41 == 0:
            yield f"/static/app-{i % 30}.css"     # app-21 … app-29 do not exist
        elif i % 53 == 0:
            yield "/private/"
        elif i % 7 == 0:
            yield "/api/health"
        elif i % 5 == 0:
            yield f"/static/app-{1 + i % 20}.css"
        elif i % 3 == 0:
            yield "/"
        else:
            yield "/health"


def worker(n):
    for path in plan(n):
        try:
            urllib.request.urlopen(BASE + path, timeout=5).read()
        except (urllib.error.HTTPError, OSError):
            pass


if __name__ == "__main__":
    threads = [threading.Thread(target=worker, args=(int(sys.argv[1]),)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
