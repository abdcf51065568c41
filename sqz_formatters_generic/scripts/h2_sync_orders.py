"""A threaded Python app logging through requests/urllib3 at DEBUG (capture_kinds.sh heldout-h2):
syncs 40 orders from the flaky local service (127.0.0.1:18805) with retries on 500/503, then
calls a closed port (127.0.0.1:18806) and logs the exception."""

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

logging.basicConfig(level=logging.DEBUG,
                    format="%(asctime)s [%(threadName)s] %(levelname)-8s %(name)s - %(message)s")
log = logging.getLogger("orders.sync")
local = threading.local()


def session():
    if not hasattr(local, "s"):
        s = requests.Session()
        s.mount("http://", HTTPAdapter(max_retries=Retry(total=2, backoff_factor=0.05, status_forcelist=[500, 503])))
        local.s = s
    return local.s


def sync(n):
    try:
        r = session().get(f"http://127.0.0.1:18805/orders/{n}", timeout=3)
        r.raise_for_status()
        log.info("order %d synced", n)
    except requests.exceptions.RetryError as exc:
        log.error("order %d gave up after retries: %s", n, exc)
    except requests.HTTPError as exc:
        log.warning("order %d: %s", n, exc)


with ThreadPoolExecutor(max_workers=4, thread_name_prefix="sync") as pool:
    list(pool.map(sync, range(1, 41)))
try:
    requests.get("http://127.0.0.1:18806/inventory", timeout=2)
except requests.ConnectionError:
    log.exception("inventory service unreachable")
log.info("sync finished")
