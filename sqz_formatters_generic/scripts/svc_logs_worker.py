"""A Python worker at DEBUG for capture_service_logs.sh: it polls a job queue over HTTP on a port
nobody listens on (real ConnectionRefusedError), retries with backoff, gives up on each job, and
logs every step the way a ``logging`` worker does (timestamps with milliseconds, thread names).

    python svc_logs_worker.py LOGFILE PORT JOBS
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid


def run(port: int, jobs: int, log: logging.Logger) -> None:
    for n in range(jobs):
        job = uuid.uuid4()
        log.debug("picked job %s (attempts left: 3)", job)
        for attempt in range(1, 4):
            t0 = time.monotonic()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/jobs/{job}", timeout=1).read()
                break
            except urllib.error.URLError as exc:
                ms = (time.monotonic() - t0) * 1000
                log.debug("POST http://127.0.0.1:%d/jobs/%s took %.1fms", port, job, ms)
                if attempt < 3:
                    log.warning("attempt %d/3 for job %s failed: %s; retrying in %dms", attempt, job,
                                exc.reason, 20 * attempt)
                    time.sleep(0.02 * attempt)
                else:
                    log.error("job %s given up after 3 attempts: %s", job, exc.reason)
        log.debug("queue depth now %d", jobs - n - 1)


def main() -> int:
    logfile, port, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    logging.basicConfig(filename=logfile, level=logging.DEBUG,
                        format="%(asctime)s.%(msecs)03d %(levelname)-7s [%(threadName)s] %(name)s: %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S")
    log = logging.getLogger("jobs.worker")
    log.info("worker starting: queue=http://127.0.0.1:%d/jobs, 2 threads", port)
    threads = [threading.Thread(target=run, args=(port, jobs, log), name=f"poller-{k}") for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log.info("worker stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
