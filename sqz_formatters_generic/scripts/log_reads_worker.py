"""A small real worker for capture_log_reads.sh: Python ``logging`` at DEBUG to a file.

    python log_reads_worker.py LOGFILE PORT

It takes 40 jobs from an in-memory queue and posts each to http://127.0.0.1:PORT/jobs. Nothing
listens on PORT at first: every attempt fails with the kernel's real ``ConnectionRefusedError``
and is retried with a backoff (the WARNING flood); after the retries of a job run out it logs an
ERROR and gives the job up. After job 12 the capture script starts an HTTP server on PORT, and the worker's
later posts get that server's real answers (501: http.server has no POST handler), which it logs.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import urllib.error
import urllib.request

MAX_TRIES = 6


def main() -> int:
    logfile, port = sys.argv[1], int(sys.argv[2])
    logging.basicConfig(filename=logfile, level=logging.DEBUG,
                        format="%(asctime)s %(levelname)-7s [%(threadName)s] %(name)s: %(message)s")
    log = logging.getLogger("jobs.worker")
    log.info("worker pid %d starting, target http://127.0.0.1:%d/jobs", os.getpid(), port)
    for job in range(1, 41):
        body = f'{{"job": {job}, "items": {job * 7 % 13}}}'.encode()
        log.debug("dequeued job %d (%d bytes)", job, len(body))
        for attempt in range(1, MAX_TRIES + 1):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/jobs", data=body, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=2) as resp:
                    log.info("job %d posted: HTTP %d", job, resp.status)
                break
            except urllib.error.HTTPError as exc:
                log.info("job %d answered HTTP %d %s", job, exc.code, exc.reason)
                break
            except urllib.error.URLError as exc:
                delay = 0.02 * attempt
                if attempt == MAX_TRIES:
                    log.error("job %d given up after %d attempts: %s", job, attempt, exc.reason)
                    break
                log.warning("job %d attempt %d/%d failed: %s; retrying in %.2fs", job, attempt, MAX_TRIES,
                            exc.reason, delay)
                time.sleep(delay)
        log.debug("job %d done", job)
        if job == 12:
            # tell the capture script the first failures are in; it starts the server now
            open(logfile + ".ready", "w").close()
            for _ in range(100):
                if os.path.exists(logfile + ".up"):
                    break
                time.sleep(0.05)
    log.info("worker finished: 40 jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
