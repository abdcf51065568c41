"""Re-capture the blind set: real outputs of real programs run on this machine, with their facts.

    .venv/bin/python benchmarks/blind/capture.py [FAMILY ...] [--only NAME,NAME]

Everything happens in a throw-away work folder (``SQZ_BLIND_WORK``, default ``/tmp/sqz-blind``):
a venv with the Python tools, package sources downloaded from the registries by name, servers
started on 127.0.0.1 only (nginx, PostgreSQL, a Flask dev server, Django runserver, a logging
worker) and stopped at the end. Each capture runs one command with ``bash -c`` in its folder,
stdout and stderr merged as an agent's tool would read them, and writes beside this script
``FAMILY/NAME.txt`` (the bytes, registry hosts and index paths replaced by ``pkgs.example.org``)
and ``FAMILY/NAME.json`` (command, tool and version, date, exit status, facts).

Facts are picked by this script from the RAW capture, before any compressor sees it, by rules per
shape (a test id with its outcome, a log line's request with its status, every distinct severe
line, a path with its size, a package with its version…); a fact must hold in the raw capture and
be longer than five characters, or it is not written; a passing test's id is no fact (terse on green);
a listing's path is stated under its directory (the ``under`` form); outputs under 100 characters are
left out. ``--refacts`` picks the facts again from the committed captures, running nothing for them.
Timestamps, pids and durations differ on
every run, so a re-capture writes other bytes and other facts: the committed files are the set.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = Path(os.environ.get("SQZ_BLIND_WORK", "/tmp/sqz-blind"))
VENV = WORK / "venv"
PY = VENV / "bin" / "python"
TODAY = datetime.date.today().isoformat()
ONLY: set[str] = set()
REFACTS = False

sys.path[:0] = [str(ROOT / "sqz_core" / "src"), str(ROOT / "sqz_testing" / "src")]
from sqz_core.cleanup import clean_terminal  # noqa: E402
from sqz_testing import missing_facts, redact_registries  # noqa: E402

# a small environment of its own: the servers' debug pages print it, and nothing of this machine's should show
BASE_ENV = {k: os.environ[k] for k in ("HOME", "USER", "RUSTUP_HOME", "CARGO_HOME") if k in os.environ}
BASE_ENV.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "dumb", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                 "PYTHONDONTWRITEBYTECODE": "1", "PATH": f"{VENV / 'bin'}:{os.environ.get('PATH', '')}"})

written: list[str] = []


# ------------------------------------------------------------------------------------------------
# running and recording
# ------------------------------------------------------------------------------------------------
def sh(cmd: str, cwd: Path | str = WORK, env: dict | None = None, timeout: int = 900, check: bool = False) -> str:
    """Run a set-up step; its output is returned, not recorded."""
    p = subprocess.run(["bash", "-c", cmd], cwd=str(cwd), env={**BASE_ENV, **(env or {})}, capture_output=True,
                       text=True, errors="replace", timeout=timeout)
    if check and p.returncode != 0:
        raise SystemExit(f"set-up failed ({p.returncode}): {cmd}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout + p.stderr


def version(cmd: str, cwd: Path | str = WORK) -> str:
    out = sh(cmd, cwd).strip().splitlines()
    return out[0].strip() if out else "?"


def record(family: str, name: str, command: str, *, cwd: Path | str, produced_by: str, facts, notes: str = "",
           env: dict | None = None, timeout: int = 900, run: str | None = None, min_facts: int = 1) -> str | None:
    """Run ``run`` (default: ``command``) in ``cwd`` and write the capture and its sidecar.

    ``facts`` is a function of the raw text returning candidate facts; those that do not hold in
    the raw capture, or are five characters or fewer, are left out."""
    if ONLY and name not in ONLY:
        return None
    old = HERE / family / f"{name}.txt"
    kept = WORK / "raw" / family / f"{name}.txt"  # every capture, written or not, for --refacts
    if REFACTS and not old.exists() and kept.exists():
        raw, rc = kept.read_bytes(), None
        if (kept.with_suffix(".rc")).exists():
            rc = int(kept.with_suffix(".rc").read_text() or 0)
    elif REFACTS and old.exists():  # the facts again from the committed capture, nothing is run
        raw = old.read_bytes()
        rc = json.loads(old.with_suffix(".json").read_text(encoding="utf-8")).get("exit_code")
        produced_by = json.loads(old.with_suffix(".json").read_text(encoding="utf-8")).get("produced_by", produced_by)
    else:
        raw, rc = _run(family, name, run or command, cwd, env, timeout)
        if raw is None:
            return None
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(raw)
        kept.with_suffix(".rc").write_text("" if rc is None else str(rc))
    return _write(family, name, command, raw, rc, cwd=cwd, produced_by=produced_by, facts=facts, notes=notes,
                  min_facts=min_facts)


def _run(family, name, cmd, cwd, env, timeout):
    try:
        p = subprocess.run(["bash", "-c", cmd], cwd=str(cwd), env={**BASE_ENV, **(env or {})},
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           timeout=timeout)
        return redact_registries(p.stdout), p.returncode
    except subprocess.TimeoutExpired as exc:
        print(f"  {family}/{name}: timed out", file=sys.stderr)
        return (redact_registries(exc.stdout) if exc.stdout else None), None


def _write(family, name, command, raw, rc, *, cwd, produced_by, facts, notes, min_facts):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print(f"  {family}/{name}: not UTF-8, skipped", file=sys.stderr)
        return None
    clean = clean_terminal(text)
    if len(clean.strip()) < 100:  # nothing any tool could shorten: left out (it would only weigh on the median)
        print(f"  {family}/{name}: {len(clean.strip())} characters, under 100: not written", file=sys.stderr)
        return None
    picked = []
    for f in facts(clean):
        if f in picked or _size(f) <= 5:
            continue
        if missing_facts(clean, [f]):
            continue
        picked.append(f)
        if len(picked) >= 40:
            break
    if len(picked) < min_facts:
        print(f"  {family}/{name}: only {len(picked)} facts, not written ({len(text)} chars, rc={rc})",
              file=sys.stderr)
        return None
    folder = HERE / family
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_bytes(raw)
    meta = {"command": command, "produced_by": produced_by, "exit_code": rc, "captured": TODAY,
            "facts": picked,
            "notes": (f"Blind set (issue 25), captured by benchmarks/blind/capture.py in {cwd}; stdout+stderr "
                      "merged; facts picked by the script's rules from the raw output before any compressor ran; "
                      "package-registry host names and this machine's index paths replaced by pkgs.example.org. "
                      + notes).strip()}
    (folder / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(f"{family}/{name}")
    print(f"  {family}/{name}: {len(raw)} bytes, rc={rc}, {len(picked)} facts", file=sys.stderr)
    return text


def _size(fact) -> int:
    if isinstance(fact, dict):
        return len(fact["under"].strip()) + _size(fact["line"])
    return len(fact.strip()) if isinstance(fact, str) else sum(len(p.strip()) for p in fact)


# ------------------------------------------------------------------------------------------------
# fact rules (each takes the raw text, returns candidates in order of importance)
# ------------------------------------------------------------------------------------------------
def clip(s: str, n: int) -> str:
    """``s`` cut to at most ``n`` characters at a space (never inside a word), stripped."""
    s = s.strip()
    if len(s) <= n:
        return s
    cut = s[: n + 1].rsplit(None, 1)[0] if " " in s[: n + 1] else s
    return cut.strip()


def spread(items: list, n: int) -> list:
    """Up to ``n`` of ``items``, evenly spread, first and last included."""
    items = list(dict.fromkeys(items)) if all(isinstance(i, str) for i in items) else items
    if len(items) <= n:
        return list(items)
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


def lines_of(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def matching(text: str, pattern: str, flags: int = 0) -> list[str]:
    rx = re.compile(pattern, flags)
    return [ln for ln in lines_of(text) if rx.search(ln)]


def distinct_by(items: list[str], key) -> list[str]:
    seen, out = set(), []
    for it in items:
        k = key(it)
        if k not in seen:
            seen.add(k)
            out.append(it)
    return out


_TS = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: ?[A-Z]{3}|[+-]\d\d:?\d\d|Z)?|"
                 r"\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d|\[\d+\]|\b\d+#\d+|\*\d+\b|"
                 r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b|0x[0-9a-f]+|pid[= ]\d+")


def template(line: str) -> str:
    """A line with its timestamps, pids, durations and numbers blanked (for 'distinct' lines)."""
    return re.sub(r"\d+", "N", _TS.sub("T", line))


def severe(text: str, limit: int = 30) -> list[str]:
    """Every distinct severe line (ERROR, FATAL, WARNING, Traceback, exception lines), message part."""
    rx = re.compile(r"\b(ERROR|FATAL|PANIC|CRITICAL|WARNING|WARN|error|Error|Exception|Traceback|failed|FAILED|"
                    r"emerg|crit|alert)\b")
    out = []
    for ln in matching(text, rx.pattern):
        msg = _strip_stamp(ln)
        m = re.match(r"^(\[\w+\]) \d+#\d+: (?:\*\d+ )?(.{6,})$", msg)  # nginx: [error] pid#tid: *conn message
        out.append([m.group(1), m.group(2)] if m else msg)
    return distinct_by(out, lambda f: template(f if isinstance(f, str) else f[1]))[:limit]


def _strip_stamp(line: str) -> str:
    """The message of a log line: what follows its leading timestamp / pid prefix (when that is long)."""
    m = re.match(r"^(?:\S+ ){0,3}?(?:\d{4}[-/]\d\d[-/]\d\d[ T]\d\d:\d\d:\d\d\S*(?: [A-Z]{3})?|"
                 r"\[\d\d/\w{3}/\d{4} \d\d:\d\d:\d\d\]|\d\d:\d\d:\d\d(?:[.,]\d+)?)\s+", line)
    rest = line[m.end():] if m else line
    rest = re.sub(r"^\[\d+\]\s*", "", rest)
    return rest.strip() if len(rest.strip()) > 5 else line


def sample(text: str, n: int = 12) -> list[str]:
    """Lines spread over the whole output (stripped; very long lines left out)."""
    return spread([ln for ln in lines_of(text) if 6 < len(ln) <= 220], n)


def phrases(text: str, n: int = 20) -> list[str]:
    """Pieces of long lines (cut at ', ' and '; '), for outputs made of few very long lines (a schema dump)."""
    out = []
    for ln in lines_of(text):
        if len(ln) > 220:
            out += [p.strip() for p in re.split(r",\s+|;\s*", ln) if 6 < len(p.strip()) <= 100]
    return spread(out, n)


def combine(*parts) -> list:
    out = []
    for p in parts:
        for f in p:
            if f not in out:
                out.append(f)
    return out


def access_log_facts(text: str) -> list:
    """Combined-format access log: every distinct failing request with its status, a spread of the rest,
    the first and last time."""
    rx = re.compile(r'\[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4})\] "([^"]*)" (\d{3}) ')
    bad, good, stamps = [], [], []
    for ln in lines_of(text):
        m = rx.search(ln)
        if not m:
            continue
        stamps.append(m.group(1))
        fact = f'"{m.group(2)}" {m.group(3)}'
        (good if m.group(3).startswith(("2", "3")) else bad).append(fact)
    other = [ln for ln in lines_of(text) if not rx.search(ln)]
    return combine(list(dict.fromkeys(bad))[:28], spread(list(dict.fromkeys(good)), 8),
                   [stamps[0], stamps[-1]] if stamps else [], severe("\n".join(other), 6))


def log_facts(text: str) -> list:
    """An application / server log: every distinct severe line, then a spread of the others."""
    return combine(severe(text, 30), [_strip_stamp(ln) for ln in sample(text, 6)])


def traceback_facts(text: str) -> list:
    """Tracebacks: every exception line, every frame's file and line, the chain's link lines."""
    exc = matching(text, r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning|Refused)\b.*?:|^[\w.]+Error$")
    frames = [re.sub(r",\s+in .*$", "", ln) for ln in matching(text, r'^File ".*", line \d+')]
    chain = matching(text, r"^(During handling of the above exception|The above exception was the direct cause)")
    return combine(exc[:14], chain[:3], spread(list(dict.fromkeys(frames)), 16), severe(text, 8), sample(text, 6))


def pytest_facts(text: str) -> list:
    """pytest: every failing/erroring test id with its outcome, a spread of the passing ones, the summary,
    failure headers and locations, per-file progress lines, collected ids, durations, warnings."""
    rx = re.compile(r"^(\S+::\S+(?:\[.*?\])?)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")
    bad, good = [], []
    for ln in lines_of(text):
        m = rx.match(ln)
        if m:
            (good if m.group(2) in ("PASSED", "SKIPPED", "XFAIL") else bad).append([m.group(1), m.group(2)])
    short = matching(text, r"^(FAILED|ERROR|XPASS) \S+")
    short_ok = matching(text, r"^(PASSED|SKIPPED|XFAIL) \S+")
    summary = matching(text, r"^=+ .*\b(passed|failed|error|errors|skipped|deselected|no tests ran|"
                             r"tests? collected)\b.* =+$")
    summary = [s.strip("= ").strip() for s in summary] + matching(text, r"^\d+ (passed|failed|tests? collected)\b")
    errors = distinct_by(matching(text, r"^E\s+\S"), template)[:8]
    collected = matching(text, r"^collected \d+ items?|^collecting .* \d+ items?")
    heads = [re.sub(r"^_+ | _+$", "", ln) for ln in matching(text, r"^_{3,} .+ _{3,}$")]
    where = distinct_by(matching(text, r"^[\w./-]+\.py:\d+: \w+"), str)[:10]
    files = []
    for ln in lines_of(text):
        m = re.match(r"^(\S+\.py) ([.sFExX]+)\s+\[\s*\d+%\]$", ln)
        if m:
            files.append([m.group(1), m.group(2)] if re.search("[FE]", m.group(2)) else m.group(1))
    ids = [ln for ln in lines_of(text) if re.match(r"^\S+\.py::\S+$", ln)]
    durations = [[m.group(2), m.group(1)] for m in re.finditer(r"^\d+\.\d+s (call|setup|teardown)\s+(\S+)$", text, re.M)]
    warns = distinct_by(matching(text, r"^\S+\.py:\d+: \w*Warning: "), template)[:5]
    # terse on green: a passing test's id is no fact (its count is); skipped / xfailed ones are, with their reason
    good = [g for g in good if g[1] != "PASSED"]
    short_ok = [ln for ln in short_ok if not ln.startswith("PASSED")]
    skips = matching(text, r"^SKIPPED \[\d+\] \S+:\d+: ")
    return combine(summary, collected[:1], bad[:20], short[:12], heads[:10], where, errors,
                   [f for f in files if isinstance(f, list)], skips[:8], spread(good, 10), spread(short_ok, 8),
                   spread(durations, 12), spread(ids, 20), warns, severe(text, 4))


def unittest_facts(text: str) -> list:
    rx = re.compile(r"^(\w+) \(([\w.]+)\)(?:\s*\n?.*?)? \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure)$")
    bad, good = [], []
    for ln in lines_of(text):
        m = rx.match(ln)
        if m:
            if m.group(3) == "ok":
                continue  # terse on green: a passing test's name is no fact
            (good if m.group(3).startswith(("skipped", "expected")) else bad).append(
                [f"{m.group(1)} ({m.group(2)})", m.group(3)])
    heads = matching(text, r"^(FAIL|ERROR): \w+")
    tail = matching(text, r"^(Ran \d+ tests? in|OK\b|FAILED \()")
    return combine(tail, bad[:15], heads[:10], spread(good, 16), traceback_facts(text)[:6])


# ------------------------------------------------------------------------------------------------
# the families
# ------------------------------------------------------------------------------------------------
FAMILIES: dict[str, callable] = {}


def family(fn):
    FAMILIES[fn.__name__.removeprefix("fam_")] = fn
    return fn


def py_ver(pkg: str) -> str:
    return sh(f"{PY} -c 'import importlib.metadata as m; print(m.version(\"{pkg}\"))'").strip().splitlines()[-1]


def setup_venv() -> None:
    if not PY.exists():
        sh(f"{sys.executable} -m venv {VENV}", check=True)
    want = ["django", "flask", "requests", "pytest", "pytest-httpbin", "pytest-mock", "trustme", "mypy", "ruff",
            "tox", "nox", "poetry", "gunicorn", "psycopg2-binary", "pipdeptree"]
    missing = [w for w in want if sh(f"{PY} -m pip show -q {w} >/dev/null 2>&1 && echo ok").strip() != "ok"]
    if missing:
        sh(f"{PY} -m pip install -q {' '.join(missing)}", check=True, timeout=1800)


# ---------------------------------------------------------------- servers on 127.0.0.1
FLASK_APP = textwrap.dedent("""
    import logging, time
    from flask import Flask, abort, jsonify, request

    app = Flask(__name__)
    ITEMS = {i: {"id": i, "name": f"item-{i}", "price": round(i * 1.25, 2)} for i in range(1, 41)}

    def load_cart(cart_id):
        carts = {"c1": [1, 2], "c2": [3]}
        return carts[cart_id]

    @app.get("/api/items")
    def items():
        return jsonify(list(ITEMS.values())[: int(request.args.get("limit", 10))])

    @app.get("/api/items/<int:item_id>")
    def item(item_id):
        if item_id not in ITEMS:
            abort(404)
        return jsonify(ITEMS[item_id])

    @app.get("/api/cart/<cart_id>")
    def cart(cart_id):
        try:
            ids = load_cart(cart_id)
        except KeyError as exc:
            raise RuntimeError(f"cart {cart_id} could not be loaded") from exc
        return jsonify([ITEMS[i] for i in ids])

    @app.get("/api/checkout")
    def checkout():
        total = sum(ITEMS[i]["price"] for i in (1, 2))
        return jsonify({"total": total, "per_item": total / int(request.args.get("n", "0"))})

    @app.get("/api/slow")
    def slow():
        time.sleep(float(request.args.get("s", "0.2")))
        return jsonify({"slept": True})

    @app.post("/api/orders")
    def orders():
        body = request.get_json(force=True)
        if "sku" not in body:
            app.logger.warning("order without sku from %s: %s", request.remote_addr, body)
            abort(400)
        return jsonify({"ok": True, "sku": body["sku"]}), 201
""")

DJANGO_VIEWS = textwrap.dedent("""
    import json
    from decimal import Decimal
    from django.http import Http404, JsonResponse
    from django.contrib.auth.models import User

    PRICES = {"basic": Decimal("9.90"), "pro": Decimal("29.00")}

    def price_for(plan):
        return PRICES[plan]

    def quote(request, plan):
        try:
            price = price_for(plan)
        except KeyError as exc:
            raise ValueError(f"unknown plan {plan!r}") from exc
        return JsonResponse({"plan": plan, "price": str(price)})

    def users(request):
        return JsonResponse({"users": [u.username for u in User.objects.order_by("id")]})

    def report(request):
        rows = json.loads(request.GET.get("rows", "[1, 2"))
        return JsonResponse({"rows": rows})

    def profile(request, name):
        try:
            user = User.objects.get(username=name)
        except User.DoesNotExist:
            raise Http404(f"no user {name}")
        return JsonResponse({"user": user.username, "email": user.email})

    def broken_db(request):
        from django.db import connection
        with connection.cursor() as cur:
            cur.execute("SELECT missing_column FROM auth_user")
        return JsonResponse({})
""")

DJANGO_URLS = textwrap.dedent("""
    from django.contrib import admin
    from django.urls import path
    from shop import views

    urlpatterns = [
        path("admin/", admin.site.urls),
        path("quote/<str:plan>/", views.quote),
        path("users/", views.users),
        path("report/", views.report),
        path("profile/<str:name>/", views.profile),
        path("broken-db/", views.broken_db),
    ]
""")

WORKER = textwrap.dedent("""
    import logging, random, sys, time
    import requests

    logging.basicConfig(filename=sys.argv[1], level=logging.DEBUG,
                        format="%(asctime)s %(levelname)-8s %(name)s [%(process)d] %(message)s")
    log = logging.getLogger("billing.worker")
    random.seed(7)
    session = requests.Session()
    log.info("worker started: queue=invoices concurrency=1 upstream=%s", sys.argv[2])
    for job in range(1, 61):
        log.debug("job %d: fetched invoice batch of %d rows", job, 20 + job % 7)
        if job % 9 == 0:
            log.warning("job %d: invoice %d has no customer e-mail, skipping reminder", job, 4000 + job)
        if job in (23, 24, 25, 26, 27):
            for attempt in range(1, 4):
                try:
                    session.get(sys.argv[3] + "/charge", timeout=0.5)
                except requests.ConnectionError as exc:
                    log.warning("job %d: payment gateway unreachable (attempt %d/3): %s", job, attempt,
                                type(exc).__name__)
                    time.sleep(0.02)
            log.error("job %d: giving up after 3 attempts, invoice %d left unpaid", job, 4000 + job)
            continue
        if job == 41:
            try:
                session.get(sys.argv[3] + "/charge", timeout=0.5)
            except requests.ConnectionError:
                log.exception("job %d: charge failed", job)
            continue
        r = session.get(sys.argv[2] + "/api/items/" + str(job % 45 + 1), timeout=5)
        log.debug("job %d: GET item -> %d in %.0f ms", job, r.status_code, r.elapsed.total_seconds() * 1000)
        if r.status_code != 200:
            log.error("job %d: item lookup failed with HTTP %d", job, r.status_code)
        else:
            log.info("job %d: invoice %d charged %s EUR", job, 4000 + job, r.json()["price"])
    log.info("worker finished: 60 jobs")
""")

LOAD = textwrap.dedent("""
    import sys, threading, urllib.request, urllib.error, json
    base, rounds = sys.argv[1], int(sys.argv[2])
    paths = ["/", "/index.html", "/static/app.css", "/static/app.js", "/api/items", "/api/items/7",
             "/api/items/99", "/api/cart/c1", "/api/cart/c9", "/api/checkout?n=2", "/api/checkout",
             "/private/keys", "/static/logo.png", "/favicon.ico", "/api/slow?s=0.05", "/.git/config",
             "/api/items/12", "/api/items?limit=3"]
    def hit(k):
        for i in range(rounds):
            p = paths[(i * 7 + k) % len(paths)]
            req = urllib.request.Request(base + p, headers={"User-Agent": f"loadgen/1.0 (worker {k})"})
            try:
                urllib.request.urlopen(req, timeout=5).read()
            except urllib.error.HTTPError as e:
                e.read()
            except Exception:
                pass
        req = urllib.request.Request(base + "/api/orders", data=json.dumps({"qty": k}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=5).read()
        except Exception:
            pass
    ts = [threading.Thread(target=hit, args=(k,)) for k in range(4)]
    [t.start() for t in ts]
    [t.join() for t in ts]
""")

NGINX_CONF = """
worker_processes 1;
pid {w}/nginx/nginx.pid;
error_log {w}/nginx/logs/error.log info;
events {{ worker_connections 64; }}
http {{
  access_log {w}/nginx/logs/access.log combined;
  client_body_temp_path {w}/nginx/tmp/body; proxy_temp_path {w}/nginx/tmp/proxy;
  fastcgi_temp_path {w}/nginx/tmp/fcgi; uwsgi_temp_path {w}/nginx/tmp/uwsgi; scgi_temp_path {w}/nginx/tmp/scgi;
  upstream shop {{ server 127.0.0.1:18131; }}
  server {{
    listen 127.0.0.1:18130;
    server_name shop.local;
    root {w}/nginx/html;
    location /api/ {{ proxy_pass http://shop; proxy_read_timeout 3s; }}
    location /private/ {{ deny all; }}
  }}
}}
"""


class Servers:
    """nginx -> gunicorn(Flask), a Flask dev server, Django runserver, PostgreSQL: all on 127.0.0.1."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []
        self.w = WORK / "srv"

    def start(self, argv, log: Path, cwd: Path, env=None) -> subprocess.Popen:
        fh = open(log, "ab")
        p = subprocess.Popen(argv, cwd=str(cwd), stdout=fh, stderr=subprocess.STDOUT, env={**BASE_ENV, **(env or {})},
                             start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self, p: subprocess.Popen) -> None:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

    def stop_all(self) -> None:
        for p in self.procs:
            self.stop(p)
        sh(f"nginx -c {self.w}/nginx/nginx.conf -s stop 2>/dev/null; "
           f"runuser -u postgres -- {PGBIN}/pg_ctl -D {self.w}/pg/data -w stop >/dev/null 2>&1")


def wait_port(port: int, seconds: float = 30) -> None:
    import socket

    end = time.time() + seconds
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


PGBIN = "/usr/lib/postgresql/15/bin"


def run_web_servers() -> Path:
    """Produce the log files: nginx access/error, gunicorn, Flask dev server, Django runserver, a worker."""
    w = WORK / "srv"
    if w.exists():
        shutil.rmtree(w)
    for d in ("nginx/logs", "nginx/tmp", "nginx/html/static", "flaskapp", "logs"):
        (w / d).mkdir(parents=True)
    (w / "nginx/nginx.conf").write_text(NGINX_CONF.format(w=w))
    (w / "nginx/html/index.html").write_text("<h1>shop</h1>\n")
    (w / "nginx/html/static/app.css").write_text("body{margin:0}\n")
    (w / "nginx/html/static/app.js").write_text("console.log('shop')\n")
    (w / "flaskapp/app.py").write_text(FLASK_APP)
    (w / "worker.py").write_text(WORKER)
    (w / "load.py").write_text(LOAD)
    srv = Servers()
    try:
        g = srv.start([str(VENV / "bin/gunicorn"), "-w", "2", "-b", "127.0.0.1:18131", "--access-logfile",
                       str(w / "logs/gunicorn_access.log"), "--error-logfile", str(w / "logs/gunicorn_error.log"),
                       "--log-level", "info", "app:app"], w / "logs/gunicorn.out", w / "flaskapp")
        sh(f"nginx -c {w}/nginx/nginx.conf", check=True)
        wait_port(18131)
        wait_port(18130)
        sh(f"{PY} load.py http://127.0.0.1:18130 40", w)
        srv.stop(g)  # the upstream goes away: nginx answers 502 from here on
        sh(f"{PY} load.py http://127.0.0.1:18130 6", w)
        sh(f"nginx -c {w}/nginx/nginx.conf -s stop", w)
        # the Flask dev server (werkzeug), its own log with tracebacks
        f = srv.start([str(PY), "-m", "flask", "--app", "app", "run", "--host", "127.0.0.1", "--port", "18132"],
                      w / "logs/flask.log", w / "flaskapp")
        wait_port(18132)
        sh(f"{PY} load.py http://127.0.0.1:18132 30", w)
        # a Python worker with logging, against the dev server and a closed port
        sh(f"{PY} worker.py {w}/logs/worker.log http://127.0.0.1:18132 http://127.0.0.1:18139", w)
        srv.stop(f)
    finally:
        srv.stop_all()
    return w


def setup_django() -> Path:
    d = WORK / "django"
    if not (d / "manage.py").exists():
        d.mkdir(parents=True, exist_ok=True)
        sh(f"{VENV}/bin/django-admin startproject shop .", d, check=True)
        (d / "shop/views.py").write_text(DJANGO_VIEWS)
        (d / "shop/urls.py").write_text(DJANGO_URLS)
        sh(f"{PY} manage.py migrate -v 0", d, check=True)
        sh(f"{PY} manage.py shell -c \"from django.contrib.auth.models import User; "
           f"[User.objects.create_user(f'user{{i}}', f'user{{i}}@shop.test', 'pw') for i in range(1, 13)]\"", d,
           check=True)
    return d


def run_django_server(d: Path) -> tuple[Path, dict[str, bytes]]:
    """Django runserver's log while curl hits it; the debug pages are captured as curl's own output."""
    import urllib.error
    import urllib.request

    log = WORK / "srv" / "logs" / "runserver.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    if log.exists():
        log.unlink()
    srv = Servers()
    try:
        srv.start([str(PY), "manage.py", "runserver", "127.0.0.1:18133", "--noreload"], log, d,
                  env={"PYTHONUNBUFFERED": "1"})
        wait_port(18133)
        for path in ["/users/", "/quote/basic/", "/quote/pro/", "/quote/gold/", "/profile/user3/", "/profile/nobody/",
                     "/report/?rows=[1,2,3]", "/report/", "/admin/", "/admin/login/", "/static/missing.css",
                     "/broken-db/", "/users/", "/quote/enterprise/", "/favicon.ico"] * 2:
            try:
                urllib.request.urlopen("http://127.0.0.1:18133" + path, timeout=10).read()
            except urllib.error.HTTPError as e:
                e.read()
        for name, cmd in DJANGO_CURLS.items():
            record("traces", name, cmd, cwd=d, produced_by=f"Django {py_ver('django')} runserver; "
                   f"{version('curl --version')}", facts=traceback_facts,
                   notes="Django's debug response (DEBUG=True) to curl, from runserver on 127.0.0.1:18133.")
    finally:
        srv.stop_all()
    return log, {}


DJANGO_CURLS = {
    "django_debug_text_chained": "curl -s -H 'Accept: text/plain' http://127.0.0.1:18133/quote/gold/",
    "django_debug_text_json": "curl -s -H 'Accept: text/plain' 'http://127.0.0.1:18133/report/'",
    "django_debug_text_db": "curl -s -H 'Accept: text/plain' http://127.0.0.1:18133/broken-db/",
    "django_debug_html_404": "curl -s http://127.0.0.1:18133/profile/nobody/",
    "django_debug_html_500": "curl -s http://127.0.0.1:18133/quote/enterprise/",
}


def setup_postgres() -> Path:
    """A throw-away cluster on 127.0.0.1:18134 with pgbench's tables, a deadlock and failing statements."""
    w = WORK / "srv" / "pg"
    if w.exists():
        shutil.rmtree(w)
    w.mkdir(parents=True)
    shutil.chown(w, "postgres")
    sh(f"runuser -u postgres -- {PGBIN}/initdb -D {w}/data -A trust -U postgres", check=True)
    opts = (f"-p 18134 -k {w} -c listen_addresses=127.0.0.1 -c log_line_prefix='%m [%p] %q%u@%d ' "
            "-c log_min_duration_statement=25 -c log_lock_waits=on -c deadlock_timeout=300ms "
            "-c log_connections=on -c log_disconnections=on -c log_checkpoints=on -c log_temp_files=0 "
            "-c log_autovacuum_min_duration=0 -c work_mem=64kB")
    sh(f"runuser -u postgres -- {PGBIN}/pg_ctl -D {w}/data -l {w}/server.log -w -o \"{opts}\" start", check=True)
    psql = f"runuser -u postgres -- psql -h 127.0.0.1 -p 18134 -U postgres"
    sh(f"runuser -u postgres -- pgbench -h 127.0.0.1 -p 18134 -i -s 4 postgres", check=True, timeout=600)
    sh(f"runuser -u postgres -- pgbench -h 127.0.0.1 -p 18134 -c 3 -T 8 postgres", timeout=600)
    sh(f"""{psql} -q postgres <<'SQL'
CREATE TABLE customers (id serial PRIMARY KEY, email text UNIQUE NOT NULL, name text, created timestamptz DEFAULT now());
CREATE INDEX customers_name_idx ON customers (name);
CREATE TABLE invoices (id serial PRIMARY KEY, customer_id int REFERENCES customers(id), amount numeric(10,2) CHECK (amount >= 0), status text DEFAULT 'open', issued date);
INSERT INTO customers (email, name) SELECT 'c' || g || '@shop.test', 'Customer ' || g FROM generate_series(1, 300) g;
INSERT INTO invoices (customer_id, amount, status, issued) SELECT 1 + g % 300, (g * 7.31)::numeric % 900, CASE WHEN g % 5 = 0 THEN 'paid' WHEN g % 7 = 0 THEN 'void' ELSE 'open' END, date '2026-01-01' + g % 330 FROM generate_series(1, 2000) g;
INSERT INTO customers (email, name) VALUES ('c7@shop.test', 'Dup');
INSERT INTO invoices (customer_id, amount) VALUES (9999, 10);
INSERT INTO invoices (customer_id, amount) VALUES (1, -5);
SELECT * FROM invoice;
SELECT amount FROM invoices WHERE id = 'x';
SELECT count(*) FROM pgbench_accounts a JOIN pgbench_history h USING (aid) ORDER BY 1;
SELECT aid, abalance FROM pgbench_accounts ORDER BY abalance DESC, filler LIMIT 5;
ANALYZE;
SQL""")
    # a deadlock: two sessions lock two rows in opposite order
    sh(f"""({psql} -q postgres -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 1; SELECT pg_sleep(1); UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 2; COMMIT;" &
    sleep 0.3; {psql} -q postgres -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid = 2; SELECT pg_sleep(1); UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid = 1; COMMIT;"; wait)""")
    sh(f"{psql} -d nosuchdb -c 'select 1'; {psql} -U nobody postgres -c 'select 1'")
    return w


@family
def fam_logs() -> None:
    w = run_web_servers()
    logs = w / "nginx" / "logs"
    nv = version("nginx -v")
    rec = lambda name, cmd, facts, cwd, pb, notes="": record("logs", name, cmd, cwd=cwd, produced_by=pb,  # noqa: E731
                                                            facts=facts, notes=notes)
    note = ("nginx on 127.0.0.1:18130 in front of gunicorn+Flask; 4 loadgen threads x 40 requests, then the upstream "
            "stopped and 4 x 6 more (502s).")
    rec("nginx_access_cat", "cat logs/access.log", access_log_facts, logs.parent, nv, note)
    rec("nginx_access_tail120", "tail -n 120 logs/access.log", access_log_facts, logs.parent, nv, note)
    rec("nginx_access_head50", "head -n 50 logs/access.log", access_log_facts, logs.parent, nv, note)
    rec("nginx_access_grep_404", "grep ' 404 ' logs/access.log", access_log_facts, logs.parent, nv, note)
    rec("nginx_access_grep_v_200", "grep -v '\" 200 ' logs/access.log", access_log_facts, logs.parent, nv, note)
    rec("nginx_error_cat", "cat logs/error.log", log_facts, logs.parent, nv, note)
    rec("nginx_error_tail", "tail -n 60 logs/error.log", log_facts, logs.parent, nv, note)
    rec("nginx_error_grep_error", "grep -n error logs/error.log", log_facts, logs.parent, nv, note)
    gv = f"gunicorn {py_ver('gunicorn')}; Flask {py_ver('flask')}"
    rec("gunicorn_access_cat", "cat logs/gunicorn_access.log", access_log_facts, w, gv, note)
    rec("gunicorn_error_cat", "cat logs/gunicorn_error.log", lambda t: combine(traceback_facts(t), log_facts(t)), w,
        gv, note)
    fv = f"Flask {py_ver('flask')} dev server (werkzeug {py_ver('werkzeug')})"
    fnote = "flask run on 127.0.0.1:18132, 4 loadgen threads x 30 requests; DEBUG off, so tracebacks go to the log."
    rec("flask_devserver_cat", "cat logs/flask.log", lambda t: combine(traceback_facts(t)[:12], access_log_like(t)), w,
        fv, fnote)
    rec("flask_devserver_tail100", "tail -n 100 logs/flask.log",
        lambda t: combine(traceback_facts(t)[:12], access_log_like(t)), w, fv, fnote)
    rec("flask_devserver_grep_4xx_5xx", "grep -n -E '\" [45][0-9][0-9] ' logs/flask.log", access_log_like, w, fv, fnote)
    wv = f"Python {sys.version.split()[0]} logging; requests {py_ver('requests')}"
    wnote = "a billing worker logging at DEBUG to a file; its payment gateway is a closed port on 127.0.0.1."
    rec("worker_log_cat", "cat logs/worker.log", lambda t: combine(severe(t, 20), traceback_facts(t)[:8], log_facts(t)),
        w, wv, wnote)
    rec("worker_log_grep_warning", "grep -E 'WARNING|ERROR' logs/worker.log", log_facts, w, wv, wnote)
    rec("worker_log_head40", "head -n 40 logs/worker.log", log_facts, w, wv, wnote)
    rec("worker_log_tail_n30", "tail -n 30 logs/worker.log", log_facts, w, wv, wnote)
    rec("worker_log_grep_c_level", "grep -c DEBUG logs/worker.log; grep -c INFO logs/worker.log; "
        "grep -n -m 5 ERROR logs/worker.log", log_facts, w, wv, wnote)
    # Django runserver
    d = setup_django()
    log, _ = run_django_server(d)
    dv = f"Django {py_ver('django')} runserver"
    dnote = "manage.py runserver 127.0.0.1:18133 --noreload; urllib hit 15 paths twice, then curl for the debug pages."
    rec("django_runserver_cat", "cat logs/runserver.log",
        lambda t: combine(traceback_facts(t)[:14], access_log_like(t)), w, dv, dnote)
    rec("django_runserver_grep_error", "grep -n -E 'Error|Internal Server Error|Not Found' logs/runserver.log",
        log_facts, w, dv, dnote)
    # PostgreSQL
    pg = setup_postgres()
    pv = version(f"{PGBIN}/postgres --version")
    pnote = ("a throw-away cluster on 127.0.0.1:18134: pgbench -i -s 4, pgbench -c 3 -T 8, failing statements, "
             "a deadlock between two psql sessions, a missing database and role; log_min_duration_statement=25.")
    sh(f"runuser -u postgres -- {PGBIN}/pg_ctl -D {pg}/data -w stop")
    rec("postgres_log_cat", "cat server.log", log_facts, pg, pv, pnote)
    rec("postgres_log_tail80", "tail -n 80 server.log", log_facts, pg, pv, pnote)
    rec("postgres_log_grep_error", "grep -n -E 'ERROR|FATAL|DETAIL|STATEMENT' server.log", log_facts, pg, pv, pnote)
    rec("postgres_log_grep_duration", "grep duration: server.log", log_facts, pg, pv, pnote)


def access_log_like(text: str) -> list:
    """werkzeug / Django access lines: request with status."""
    rx = re.compile(r'"((?:GET|POST|PUT|DELETE|HEAD) [^"]*)" (\d{3})')
    bad, good = [], []
    for ln in lines_of(text):
        m = rx.search(ln)
        if m:
            (good if m.group(2).startswith(("2", "3")) else bad).append(f'"{m.group(1)}" {m.group(2)}')
    return combine(list(dict.fromkeys(bad))[:20], spread(list(dict.fromkeys(good)), 8), severe(text, 8))



# ---------------------------------------------------------------- test runners (Python)
TVENV = WORK / "venv-tests"
SDISTS = ["requests==2.34.2", "click==8.5.1", "itsdangerous==2.2.0", "jinja2==3.1.6", "markupsafe==3.0.4",
          "pluggy==1.7.0", "iniconfig==2.3.1", "pyparsing==3.3.3", "zipp==4.1.2", "wcwidth==0.9.4"]


def sdist_dir(spec: str) -> Path:
    name, ver = spec.split("==")
    d = WORK / "sdist"
    d.mkdir(exist_ok=True)
    found = [p for p in d.glob(f"{name}-{ver}") if p.is_dir()] or [p for p in d.glob(f"{name.lower()}-{ver}")
                                                                     if p.is_dir()]
    if not found:
        sh(f"{PY} -m pip download -q --no-deps --no-binary :all: {spec} && tar xzf {name}-{ver}.tar.gz", d, check=True)
        found = [p for p in d.glob(f"{name}-{ver}") if p.is_dir()]
    return found[0]


def setup_test_venv() -> dict:
    if not (TVENV / "bin" / "pytest").exists():
        sh(f"{sys.executable} -m venv {TVENV}", check=True)
        dirs = " ".join(str(sdist_dir(s)) for s in SDISTS)
        sh(f"{TVENV}/bin/pip install -q pytest pytest-httpbin pytest-mock trustme pytest-xdist freezegun "
           f"jaraco.itertools jaraco.functools more_itertools big-O jaraco.test trio werkzeug {dirs}", check=True,
           timeout=1800)
    return {"PATH": f"{TVENV / 'bin'}:{BASE_ENV['PATH']}"}


def tver(pkg: str) -> str:
    return sh(f"{TVENV}/bin/python -c 'import importlib.metadata as m; print(m.version(\"{pkg}\"))'").strip()


@family
def fam_tests() -> None:
    env = setup_test_venv()
    pyv = sys.version.split()[0]

    def rec(name, spec, cmd, facts=pytest_facts, timeout=900, notes=""):
        d = sdist_dir(spec)
        pkg = spec.split("==")[0]
        record("tests", name, cmd, cwd=d, env=env, timeout=timeout, facts=facts,
               produced_by=f"pytest {tver('pytest')}; Python {pyv}; {pkg}=={tver(pkg)} (sdist's own tests)",
               notes=f"the {spec} sdist's own test suite, installed from the sdist into a venv with its test deps. "
                     + notes)

    rq = "requests==2.34.2"
    rec("requests_v_test_requests", rq, "pytest -v tests/test_requests.py", timeout=1500,
        notes="pytest-httpbin serves on 127.0.0.1; test ids carry URLs with user:pass@ userinfo.")
    rec("requests_v_test_utils", rq, "pytest -v tests/test_utils.py")
    rec("requests_q_all", rq, "pytest -q -p no:cacheprovider tests", timeout=1500)
    rec("requests_rA_small", rq, "pytest -rA tests/test_structures.py tests/test_hooks.py tests/test_help.py")
    rec("requests_k_auth_vv", rq, "pytest -vv -k 'auth or proxy' tests/test_requests.py", timeout=1500)
    ck = "click==8.5.1"
    rec("click_v_options", ck, "pytest -v tests/test_options.py")
    rec("click_x_all", ck, "pytest -x tests")
    rec("click_collect_only", ck, "pytest --co -q tests/test_termui.py tests/test_testing.py")
    rec("click_durations", ck, "pytest -q --durations=15 tests/test_basic.py tests/test_commands.py")
    rec("itsdangerous_v", "itsdangerous==2.2.0", "pytest -v")
    rec("jinja2_q_all", "jinja2==3.1.6", "pytest -q tests")
    rec("jinja2_v_filters", "jinja2==3.1.6", "pytest -v tests/test_filters.py")
    rec("jinja2_xdist", "jinja2==3.1.6", "pytest -n 2 tests")
    rec("markupsafe_v", "markupsafe==3.0.4", "pytest -v tests")
    rec("pluggy_rs", "pluggy==1.7.0", "pytest -rs testing")
    rec("iniconfig_v", "iniconfig==2.3.1", "pytest -v testing")
    rec("pyparsing_tb_short", "pyparsing==3.3.3", "pytest --tb=short tests/test_simple_unit.py tests/test_util.py")
    rec("pyparsing_v_unit_head", "pyparsing==3.3.3", "pytest -v tests/test_unit.py -x", timeout=1200)
    rec("zipp_v", "zipp==4.1.2", "pytest -v -p no:cacheprovider tests")
    rec("wcwidth_ra", "wcwidth==0.9.4", "pytest -ra --tb=line tests")
    # red runs: an sdist's tests against an older release of the same package (the upgrade not yet installed)
    old = WORK / "venv-oldclick"
    if not (old / "bin" / "pytest").exists():
        sh(f"{sys.executable} -m venv {old} && {old}/bin/pip install -q pytest click==8.1.7 markupsafe==2.1.5 "
           "jinja2==3.1.6 itsdangerous==2.1.2", check=True, timeout=1200)
    oe = {"PATH": f"{old / 'bin'}:{BASE_ENV['PATH']}"}
    onote = ("the sdist's tests run in a venv holding an older release of the package (click 8.1.7, markupsafe "
             "2.1.5, itsdangerous 2.1.2): the failures are real.")
    for name, spec, cmd in [("click_tests_on_old_click", "click==8.5.1", "pytest -q tests/test_options.py tests/test_basic.py"),
                            ("click_tests_on_old_click_tb_short", "click==8.5.1", "pytest --tb=short -x tests/test_termui.py"),
                            ("markupsafe_tests_on_old_rA", "markupsafe==3.0.4", "pytest -rA --tb=line tests"),
                            ("itsdangerous_tests_on_old_v", "itsdangerous==2.2.0", "pytest -v --tb=long tests")]:
        record("tests", name, cmd, cwd=sdist_dir(spec), env=oe, facts=pytest_facts, timeout=900,
               produced_by=f"pytest {version(f'{old}/bin/pytest --version')}; Python {pyv}", notes=onote)
    # unittest: the standard library's own tests and an sdist's
    uv = f"Python {pyv} unittest (the standard library's test package)"
    for name, cmd in [("stdlib_unittest_v_shlex_textwrap", "python -m unittest -v test.test_shlex test.test_textwrap"),
                      ("stdlib_unittest_json", "python -m unittest test.test_json"),
                      ("stdlib_unittest_v_csv", "python -m unittest -v test.test_csv"),
                      ("stdlib_unittest_v_difflib_k", "python -m unittest -v -k Unified test.test_difflib"),
                      ("stdlib_unittest_fail_missing", "python -m unittest test.test_shlex test.test_nosuchmodule"),
                      ("stdlib_unittest_urlparse_b", "python -m unittest -b -v test.test_urlparse")]:
        record("tests", name, cmd, cwd=WORK, env=env, produced_by=uv, facts=unittest_facts,
               notes="CPython's own test modules, run with unittest.")
    record("tests", "iniconfig_unittest_discover", "python -m unittest discover -v -s testing", cwd=sdist_dir(
        "iniconfig==2.3.1"), env=env, produced_by=uv, facts=unittest_facts, notes="pytest-style tests under unittest.")


# ---------------------------------------------------------------- listings: ps, du, find, ls, rg, grep, tree
def under_path(path: str, *extra: str):
    """A path as a fact that a listing grouped by directory still states (the project's ``under`` form: the
    file's name, with ``extra`` parts, on a line holding its directory or indented under one), so every path
    counts as still on the page whether it is printed whole or under its directory."""
    path = path.strip()
    head, sep, leaf = path.rstrip("/").rpartition("/")
    if not sep or not head or not leaf:
        return [path, *extra] if extra else path
    return {"under": head + "/", "line": [leaf, *extra] if extra else leaf}


def path_facts(text: str, n: int = 30) -> list:
    """Listings of paths (find, rg -l, ls -1): a spread of the paths, first and last included, each under
    its directory."""
    paths = [ln for ln in lines_of(text) if "/" in ln or "." in ln]
    return combine(severe(text, 5), [under_path(p) for p in spread(paths, n)])


def du_facts(text: str) -> list:
    rows = [ln.split("\t", 1) for ln in text.splitlines() if "\t" in ln]
    return combine(severe(text, 4), [under_path(b, a.strip()) for a, b in spread(rows, 30)])


def ps_facts(text: str) -> list:
    """ps: a process's pid with its command (first words), spread over the table, the header."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return []
    head = lines[0].split()
    out = [" ".join(head[:4])] if len(head) >= 4 else []
    cmd_at = len(head) - 1
    for ln in lines[1:]:
        cols = ln.split(None, cmd_at)
        if len(cols) > cmd_at:
            pid = cols[head.index("PID")] if "PID" in head else cols[0]
            cmd = clip(cols[cmd_at], 60)
            out.append([pid, cmd])
    return combine(out[:1], spread(out[1:], 25))


def ls_facts(text: str) -> list:
    """ls -l: a name with its size and mode; headings (ls -R) with a file under them."""
    out = []
    for ln in lines_of(text):
        cols = ln.split(None, 8)
        if len(cols) == 9 and re.match(r"^[dlcbps-][rwxsStT-]{9}", cols[0]):
            out.append([cols[0], cols[4], cols[8]])
    heads = [ln for ln in lines_of(text) if ln.endswith(":") and "/" in ln]
    totals = matching(text, r"^total \d")
    plain = [ln for ln in lines_of(text) if not ln.endswith(":") and not ln.startswith("total ")]
    return combine(severe(text, 4), spread(out, 26), heads[:6], totals[:2], [] if out else spread(plain, 25))


def grep_facts(text: str) -> list:
    """grep/rg matches: a match with its file and line number, spread; counts per file."""
    hits = []
    for ln in text.splitlines():
        m = re.match(r"^([^:\s][^:]*):(\d+):(.*\S)", ln)
        if m:  # a match under its file (a grouped rendering prints the file once)
            hits.append({"under": m.group(1), "line": [m.group(2), clip(m.group(3), 80)]})
            continue
        m = re.match(r"^([^:\s][^:]*):(\d+)$", ln)
        if m:  # a count per file (grep -c, rg -c), under its directory
            hits.append(under_path(m.group(1), m.group(2)))
    if not hits:
        heading = [ln.strip() for ln in text.splitlines() if re.match(r"^\d+[:-]", ln)]
        hits = [re.sub(r"^(\d+)[:-]", r"\1:", h) for h in heading]
        hits = [h for h in heading]
    return combine(severe(text, 3), spread(hits, 30), matching(text, r"\b(matches|files? searched|bytes printed)\b"))


@family
def fam_listings() -> None:
    sp = VENV / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    dj = sp / "django"
    rec = lambda name, cmd, cwd, pb, facts, notes="": record("listings", name, cmd, cwd=cwd, produced_by=pb,  # noqa
                                                            facts=facts, notes=notes)
    fv, dv, gv, rv = (version("find --version"), version("du --version"), version("grep --version"),
                      version("rg --version"))
    djv = f"Django {py_ver('django')} as installed"
    rec("find_django_name_py", "find django -name '*.py'", sp, fv, path_facts, f"{djv} in a venv's site-packages.")
    rec("find_django_type_d", "find django -type d -maxdepth 3", sp, fv, path_facts, djv)
    rec("find_django_templates", "find django/contrib -name '*.html' -path '*admin*'", sp, fv, path_facts, djv)
    rec("find_site_packages_size", "find . -maxdepth 2 -name '*.so' -size +100k", sp, fv, path_facts,
        "the venv's site-packages")
    rec("find_django_ls", "find django/db/migrations -type f -ls", sp, fv,
        lambda t: combine(spread([under_path(c.split()[-1], c.split()[6]) for c in lines_of(t)
                                  if len(c.split()) >= 11], 30)),
        djv)
    rec("find_locale_mo_count", "find django/conf/locale -name '*.mo' | head -n 120", sp, fv, path_facts, djv)
    rec("du_sh_star_site_packages", "du -sh *", sp, dv, du_facts, "the venv's site-packages")
    rec("du_h_d2_django", "du -h -d 2 django", sp, dv, du_facts, djv)
    rec("du_ah_django_db", "du -ah django/db | sort -h | tail -n 60", sp, dv, du_facts, djv)
    rec("du_sk_sort_contrib", "du -sk django/contrib/* | sort -n", sp, dv, du_facts, djv)
    rec("ls_la_site_packages", "ls -la", sp, version("ls --version"), ls_facts, "the venv's site-packages")
    rec("ls_lR_django_core", "ls -lR django/core/management", sp, version("ls --version"), ls_facts, djv)
    rec("ls_1_django_utils", "ls -1 django/utils", sp, version("ls --version"), path_facts, djv)
    rec("ls_lhS_django_contrib_admin", "ls -lhS django/contrib/admin", sp, version("ls --version"), ls_facts, djv)
    rec("tree_django_db_backends", "tree -L 2 django/db/backends", sp, version("tree --version"),
        lambda t: combine(spread([ln.split("── ")[-1] for ln in lines_of(t) if "── " in ln], 30),
                          matching(t, r"\d+ directories")), djv)
    rec("rg_n_deprecation", "rg -n 'RemovedInDjango\\d+Warning' django", sp, rv, grep_facts, djv)
    rec("rg_c_import_re", "rg -c '^import re$' django", sp, rv, grep_facts, djv)
    rec("rg_l_raw_sql", "rg -l 'cursor.execute' django", sp, rv, path_facts, djv)
    rec("rg_heading_context", "rg -C1 --heading -n 'def get_connection' django", sp, rv,
        lambda t: combine(spread(matching(t, r"^\d+:"), 20), spread([ln for ln in lines_of(t) if ln.startswith("django/")], 15)),
        djv)
    rec("grep_rn_todo", "grep -rn 'TODO' django --include='*.py'", sp, gv, grep_facts, djv)
    rec("grep_rl_warnings", "grep -rl 'warnings.warn' django/db", sp, gv, path_facts, djv)
    rec("grep_c_class_views", "grep -c '^class ' django/views/generic/*.py", sp, gv, grep_facts, djv)
    rec("grep_rn_E_missing_dir", "grep -rn -E 'ImproperlyConfigured\\(' django/conf django/nosuchdir", sp, gv,
        grep_facts, djv)
    # processes: the servers of the logs family, Python, a postgres cluster
    ps_run(rec)


PSLAB = """
set -u
W="$1"; shift
runuser -u postgres -- {pgbin}/pg_ctl -D "$W/pgps/data" -l "$W/pgps/server.log" -w -o "-p 18135 -k $W/pgps -c listen_addresses=127.0.0.1" start >/dev/null 2>&1
(cd "$W/flaskapp" && exec {venv}/bin/gunicorn -w 3 -b 127.0.0.1:18136 app:app >/dev/null 2>&1) &
(cd "$W" && exec {venv}/bin/python worker.py "$W/logs/worker-ps.log" http://127.0.0.1:18136 http://127.0.0.1:18139 >/dev/null 2>&1) &
runuser -u postgres -- psql -h 127.0.0.1 -p 18135 -U postgres -qc "select pg_sleep(4)" >/dev/null 2>&1 &
sleep 2.5
eval "$@"
runuser -u postgres -- {pgbin}/pg_ctl -D "$W/pgps/data" -w stop -m fast >/dev/null 2>&1
"""


def ps_run(rec) -> None:
    """ps inside a PID namespace of its own (``unshare --pid --mount-proc``): it lists only what this script
    started there (a postgres cluster, gunicorn with 3 workers, the logging worker, a psql session)."""
    w = WORK / "srv"
    pg = w / "pgps"
    if pg.exists():
        shutil.rmtree(pg)
    pg.mkdir(parents=True)
    shutil.chown(pg, "postgres")
    sh(f"runuser -u postgres -- {PGBIN}/initdb -D {pg}/data -A trust -U postgres", check=True)
    lab = w / "pslab.sh"
    lab.write_text(PSLAB.format(pgbin=PGBIN, venv=VENV))
    pv = version("ps --version")
    note = ("ps in a PID namespace of its own (unshare --pid --fork --mount-proc) where a postgres cluster "
            "(127.0.0.1:18135), gunicorn (3 workers), a logging worker and a psql session ran.")
    for name, cmd in [("ps_aux", "ps aux"), ("ps_aux_sort_mem", "ps aux --sort=-%mem | head -n 12"),
                      ("ps_ef_forest", "ps -ef --forest"),
                      ("ps_eo_custom", "ps -eo pid,ppid,user,rss,etime,cmd"),
                      ("ps_u_postgres", "ps -u postgres -o pid,stat,cmd")]:
        record("listings", name, cmd, cwd=w, produced_by=pv, facts=ps_facts, notes=note,
               run=f"unshare --pid --fork --mount-proc bash {lab} {w} {shlex_quote(cmd)}")


def shlex_quote(s: str) -> str:
    import shlex

    return shlex.quote(s)

# ---------------------------------------------------------------- git
def git_facts(text: str) -> list:
    """git log/show/diff: each commit's id with its subject, authors, the files a diff touches, hunk headers,
    a spread of changed lines, stat lines."""
    commits = [ln.split()[1] for ln in lines_of(text) if re.match(r"^commit [0-9a-f]{40}", ln)]
    oneline = [ln for ln in lines_of(text) if re.match(r"^(\*\s+)?[0-9a-f]{7,12} ", ln)]
    authors = distinct_by(matching(text, r"^Author: "), str)
    dates = matching(text, r"^Date: ")
    files = matching(text, r"^diff --git ")
    hunks = matching(text, r"^@@ .* @@")
    stat = matching(text, r"^\S.* \| +(\d+|Bin)")
    totals = matching(text, r"\d+ files? changed")
    changed = [ln for ln in text.splitlines() if re.match(r"^[+-](?![+-]{2} )\S", ln) and 8 < len(ln.strip()) < 160]
    status = matching(text, r"^(On branch|Your branch|Changes (not staged|to be committed)|Untracked files|"
                            r"modified:|new file:|deleted:|renamed:|nothing to commit|HEAD detached)")
    short = [ln for ln in text.splitlines() if re.match(r"^[ MADRCU?!]{2} \S", ln)]
    numstat = [ln.split("\t") for ln in text.splitlines() if re.match(r"^(\d+|-)\t(\d+|-)\t\S", ln)]
    namestat = [ln.split("\t") for ln in text.splitlines() if re.match(r"^[MADRCT]\d*\t\S", ln)]
    titled = [ln for ln in lines_of(text) if re.match(r"^[0-9a-f]{40} \S", ln)]
    return combine(commits[:12], spread(oneline, 15), spread(titled, 12), spread(numstat, 20), spread(namestat, 20), authors[:4], dates[:2], files[:14], stat[:14], totals[:4],
                   status[:14], [s.strip() for s in short][:20], spread(hunks, 8), spread(changed, 10))


GIT_ENV = {"GIT_AUTHOR_NAME": "Blind Capture", "GIT_AUTHOR_EMAIL": "capture@blind.example",
           "GIT_COMMITTER_NAME": "Blind Capture", "GIT_COMMITTER_EMAIL": "capture@blind.example",
           "GIT_PAGER": "cat", "PAGER": "cat"}


def release_repo(name: str, versions: list[str]) -> Path:
    """A git repository whose commits are a package's released sdists, one commit and tag per release."""
    r = WORK / "git" / name
    if (r / ".git").exists():
        return r
    r.mkdir(parents=True)
    dl = WORK / "git" / f"{name}-dl"
    dl.mkdir(exist_ok=True)
    sh("git init -q -b main", r, check=True)
    for i, v in enumerate(versions):
        sh(f"{PY} -m pip download -q --no-deps --no-binary :all: {name}=={v}", dl, check=True)
        tgz = sorted(dl.glob(f"{name}-{v}.tar.gz"))[0]
        sh("git rm -rq --ignore-unmatch . >/dev/null 2>&1; find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +",
           r)
        sh(f"tar xzf {tgz} --strip-components=1", r, check=True)
        day = f"2026-0{1 + i}-1{i} 10:0{i}:00 +0000"
        sh(f"git add -A && git commit -q -m 'Import {name} {v} from its sdist' && git tag v{v}", r, check=True,
           env={**GIT_ENV, "GIT_AUTHOR_DATE": day, "GIT_COMMITTER_DATE": day})
    return r


@family
def fam_git() -> None:
    gv = version("git --version")
    sqz = WORK / "git" / "sqz"
    if not (sqz / ".git").exists():
        sqz.parent.mkdir(parents=True, exist_ok=True)
        sh(f"git clone -q {ROOT} {sqz} && git -C {sqz} checkout -q -B main 078b20a", check=True)
    rec = lambda name, cmd, cwd, notes="": record("git", name, cmd, cwd=cwd, produced_by=gv, facts=git_facts,  # noqa
                                                  env=GIT_ENV, notes=notes)
    n1 = "this project's own history (a clone at 078b20a)."
    rec("log_p_n3_peers", "git log -p -n 3 -- benchmarks/peers.py", sqz, n1)
    rec("show_078b20a", "git show 078b20a", sqz, n1)
    rec("show_stat_b7ed84b", "git show --stat b7ed84b", sqz, n1)
    rec("log_p_follow_testing", "git log -p -n 2 --follow sqz_core/src/sqz_core/testing.py", sqz, n1)
    rec("log_format_email_n40", "git log --format='%h %an <%ae> %ad %s' --date=iso -n 40", sqz, n1)
    rec("log_default_n8", "git log -n 8", sqz, n1)
    rec("diff_range_testing", "git diff 078b20a~6 078b20a -- sqz_core/src/sqz_core/testing.py benchmarks", sqz, n1)
    rec("log_p_U1_n2", "git log -p -U1 -n 2", sqz, n1)
    rec("log_numstat_n12", "git log --numstat -n 12 --format='%H %s'", sqz, n1)
    rec("show_name_status_n5", "git log --name-status -n 5", sqz, n1)
    tomli = release_repo("tomli", ["2.0.1", "2.1.0", "2.2.1", "2.3.0", "2.4.0", "2.5.0"])
    n2 = ("a repository made here of tomli's released sdists, one commit and tag per release "
          "(the code is upstream's; commits are this script's).")
    rec("tomli_log_p_all", "git log -p", tomli, n2)
    rec("tomli_show_head", "git show HEAD", tomli, n2)
    rec("tomli_diff_stat_tags", "git diff --stat v2.0.1 v2.5.0", tomli, n2)
    rec("tomli_log_oneline_decorate", "git log --oneline --decorate --graph --all", tomli, n2)
    rec("tomli_diff_tags_parser", "git diff v2.3.0 v2.5.0 -- src/tomli/_parser.py", tomli, n2)
    # the worktree changed by real tools: ruff's fixes and a new file
    sh("git checkout -q -- . && git clean -qfd", tomli)
    sh(f"{VENV}/bin/ruff check --fix --unsafe-fixes --select UP,I,SIM,C4 src tests; "
       f"{VENV}/bin/ruff format --line-length 60 src/tomli/_re.py src/tomli/_parser.py; cp src/tomli/_types.py src/tomli/_types_copy.py; "
       "git rm -q --cached README.md; git add src/tomli/_types_copy.py; rm -f tests/burntsushi.py", tomli)
    n3 = n2 + " The worktree was then changed by `ruff check --fix`, `ruff format` and a copy, staged, removal."
    rec("tomli_status_long", "git status", tomli, n3)
    rec("tomli_status_short", "git status --short --branch", tomli, n3)
    rec("tomli_diff_worktree", "git diff", tomli, n3)
    rec("tomli_diff_cached_stat", "git diff --cached --stat", tomli, n3)
    rec("tomli_diff_word", "git diff --word-diff src/tomli/_re.py", tomli, n3)


# ---------------------------------------------------------------- databases: psql and sqlite3
def table_facts(text: str) -> list:
    """A result table (psql aligned, sqlite3 column/box, \\d describes): the header's column names, rows
    as their first cells, the row count, every error; expanded records as their field = value lines."""
    out = []
    rows = []
    for ln in text.splitlines():
        if re.match(r"^[\s\-+=─┼┬┴├┤┌┐└┘│|]*$", ln):
            continue
        cells = [c.strip() for c in re.split(r"\s*[|│]\s*", ln.strip().strip("|│")) if c.strip()]
        if len(cells) >= 2:
            rows.append([clip(c, 60) for c in cells[:3]])
        elif len(cells) == 1 and 6 <= len(cells[0]) <= 120:
            out.append(cells[0])
    counts = matching(text, r"^\(\d+ rows?\)$")
    errs = matching(text, r"^(ERROR|FATAL|Parse error|Error|Runtime error|psql:)")
    expanded = [[m.group(1), clip(m.group(2), 60)] for m in re.finditer(r"^(\w+)\s+\|\s+(\S.*)$", text, re.M)]
    return combine(errs[:6], counts, rows[:1], spread(rows[1:], 26), spread(expanded, 10), spread(out, 10))


@family
def fam_db() -> None:
    pg = setup_postgres()
    pv = version("psql --version")
    psql = "psql -h 127.0.0.1 -p 18134 -U postgres"
    note = ("psql against a throw-away PostgreSQL 15 cluster on 127.0.0.1:18134 holding pgbench's tables (-s 4) "
            "and two tables of customers and invoices.")
    try:
        for name, q in [("psql_d_invoices", "\\d invoices"), ("psql_d_plus_customers", "\\d+ customers"),
                        ("psql_dt_plus", "\\dt+"), ("psql_di", "\\di"), ("psql_l", "\\l"), ("psql_du", "\\du"),
                        ("psql_select_invoices_60", "SELECT * FROM invoices ORDER BY id LIMIT 60"),
                        ("psql_group_by_status", "SELECT status, count(*), sum(amount), min(issued), max(issued) "
                                                 "FROM invoices GROUP BY status ORDER BY 1"),
                        ("psql_join_top_customers", "SELECT c.id, c.email, count(i.id) AS invoices, sum(i.amount) AS "
                                                    "total FROM customers c JOIN invoices i ON i.customer_id = c.id "
                                                    "GROUP BY c.id ORDER BY total DESC LIMIT 40"),
                        ("psql_explain_analyze", "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM invoices i JOIN customers c "
                                                 "ON c.id = i.customer_id WHERE i.status = 'open' AND c.name LIKE "
                                                 "'Customer 1%'"),
                        ("psql_stat_user_tables", "SELECT relname, seq_scan, idx_scan, n_tup_ins, n_tup_upd, "
                                                  "n_live_tup, n_dead_tup FROM pg_stat_user_tables ORDER BY relname"),
                        ("psql_error_missing_column", "SELECT id, totl FROM invoices LIMIT 3"),
                        ("psql_d_pgbench_accounts", "\\d pgbench_accounts")]:
            quoted = f"'{q}'" if "'" not in q else f'"{q}"'
            record("db", name, f"{psql} -c {quoted} postgres", cwd=WORK, produced_by=pv, facts=table_facts, notes=note)
        record("db", "psql_x_settings_log", f"{psql} -x -c \"SELECT name, setting, unit, context FROM pg_settings "
               f"WHERE name LIKE 'log%' ORDER BY name\" postgres", cwd=WORK, produced_by=pv, facts=table_facts,
               notes=note)
        record("db", "psql_df_pg_catalog_like", f"{psql} -c '\\df pg_catalog.*lock*' postgres", cwd=WORK,
               produced_by=pv, facts=table_facts, notes=note)
    finally:
        sh(f"runuser -u postgres -- {PGBIN}/pg_ctl -D {pg}/data -w stop")
    d = setup_django()
    sv = version("sqlite3 --version").split()[0]
    sv = f"sqlite3 {sv}"
    sn = "sqlite3 on the db.sqlite3 of a Django project after migrate, with 12 users."
    for name, cmd in [("sqlite3_tables", "sqlite3 db.sqlite3 .tables"),
                      ("sqlite3_schema_auth_user", "sqlite3 db.sqlite3 '.schema auth_user'"),
                      ("sqlite3_migrations_header_column", "sqlite3 -header -column db.sqlite3 "
                                                           "'SELECT * FROM django_migrations'"),
                      ("sqlite3_users_box", "sqlite3 -box db.sqlite3 'SELECT id, username, email, is_staff, "
                                            "date_joined FROM auth_user'"),
                      ("sqlite3_permissions_csv", "sqlite3 -csv -header db.sqlite3 'SELECT * FROM auth_permission'"),
                      ("sqlite3_indexes", "sqlite3 db.sqlite3 '.indexes'"),
                      ("sqlite3_error", "sqlite3 db.sqlite3 'SELECT * FROM auth_users'"),
                      ("sqlite3_schema_all", "sqlite3 db.sqlite3 .schema")]:
        record("db", name, cmd, cwd=d, produced_by=sv,
               facts=lambda t: combine(table_facts(t), sample(t, 16), phrases(t)),
               notes=sn)


# ---------------------------------------------------------------- lockfiles read with cat
def lock_facts(text: str) -> list:
    """A package and its version as the lockfile states them (name line with the version line after it)."""
    out = []
    lines = text.splitlines()
    for i, ln in enumerate(lines[:-1]):
        nxt = lines[i + 1]
        if re.match(r'^\s*name = "', ln) and re.match(r'^\s*version = "', nxt):  # Cargo.lock, uv.lock, poetry.lock
            out.append(ln.strip() + "\n" + nxt.rstrip())
        elif re.match(r'^\s*"node_modules/[^"]+": \{$', ln) and re.match(r'^\s*"version": "', nxt):
            out.append(ln.strip() + "\n" + nxt.rstrip())
    resolved = matching(text, r'"resolved": "|^\s*source = "|^checksum = "')
    deps = matching(text, r'^\s*"?[\w@/.-]+"?: "[\^~>=<]*\d')
    return combine(spread(out, 28), spread(resolved, 6), spread(deps, 6))


@family
def fam_lockfiles() -> None:
    cv = version("cat --version")
    for spec, cmd in (("click==8.5.1", "head -n 600 uv.lock"), ("markupsafe==3.0.4", "grep -n -A2 '^name = ' uv.lock"),
                      ("pluggy==1.7.0", "cat uv.lock"), ("iniconfig==2.3.1", "cat uv.lock")):
        d = sdist_dir(spec)
        record("lockfiles", f"uv_lock_{spec.split('==')[0]}", cmd, cwd=d, produced_by=cv,
               facts=lambda t: combine(lock_facts(t), grep_facts(t)[:10]), notes=f"the uv.lock shipped in the {spec} sdist.")
    js = setup_js()
    lk = WORK / "lock-express"
    if not (lk / "package-lock.json").exists():
        lk.mkdir(exist_ok=True)
        sh("npm init -y >/dev/null && npm install --no-audit --no-fund express@4 morgan cookie-parser", lk, check=True)
    nv = f"npm {version('npm --version')}"
    record("lockfiles", "package_lock_express", "cat package-lock.json", cwd=lk, produced_by=nv, facts=lock_facts,
           notes="package-lock.json written by npm install express@4 morgan cookie-parser in an empty project.")
    record("lockfiles", "package_lock_head_tools", "head -n 400 package-lock.json", cwd=js, produced_by=nv,
           facts=lock_facts, notes="the js tools project's package-lock.json (typescript, jest, vitest, pyright...).")
    record("lockfiles", "package_json_grep_version", "grep -n '\"version\"' package-lock.json | head -n 80", cwd=lk,
           produced_by=nv, facts=grep_facts, notes="")
    cg = setup_cargo()
    if cg:
        for crate in cg:
            record("lockfiles", f"cargo_lock_{crate.name.split('-')[0]}", "cat Cargo.lock", cwd=crate,
                   produced_by=version("cargo --version"), facts=lock_facts,
                   notes=f"Cargo.lock made by `cargo generate-lockfile --offline` for {crate.name}, a crate Debian "
                         "ships as source (/usr/share/cargo/registry), against that same registry.")
    pl = WORK / "poetry-proj"
    if not (pl / "poetry.lock").exists():
        pl.mkdir(exist_ok=True)
        (pl / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'
                                           'dependencies = ["flask>=3", "requests>=2.31", "sqlalchemy>=2"]\n\n'
                                           '[build-system]\nrequires = ["poetry-core"]\nbuild-backend = '
                                           '"poetry.core.masonry.api"\n')
        sh(f"{VENV}/bin/poetry lock", pl, timeout=600)
    if (pl / "poetry.lock").exists():
        record("lockfiles", "poetry_lock_shop", "cat poetry.lock", cwd=pl, produced_by=version(f"{VENV}/bin/poetry "
               "--version"), facts=lock_facts, notes="poetry.lock written by `poetry lock` for flask, requests, "
                                                     "sqlalchemy.")


def setup_js() -> Path:
    js = WORK / "js"
    if not (js / "node_modules" / "typescript").exists():
        js.mkdir(exist_ok=True)
        sh("npm init -y >/dev/null; npm install --no-audit --no-fund typescript@5 jest@30 vitest@3 pyright qs semver "
           "express@4 @types/node", js, check=True, timeout=1800)
    return js


def setup_cargo() -> list[Path]:
    """Copies of crates Debian ships as source, with Cargo resolving against that same local registry."""
    reg = Path("/usr/share/cargo/registry")
    if not reg.exists():
        return []
    home = WORK / "cargo-home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(f'[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\n'
                                      f'directory = "{reg}"\n[net]\noffline = true\n')
    out = []
    for pat in ("regex-1*", "serde_json-1*", "semver-1*", "itoa-1*"):
        found = sorted(reg.glob(pat))
        if not found:
            continue
        dst = WORK / "crates" / found[-1].name
        if not dst.exists():
            dst.parent.mkdir(exist_ok=True)
            shutil.copytree(found[-1], dst)
            sh("rm -f Cargo.lock .cargo-checksum.json", dst)
        if not (dst / "Cargo.lock").exists():
            sh("cargo generate-lockfile --offline", dst, env={"CARGO_HOME": str(home)}, timeout=300)
        if (dst / "Cargo.lock").exists():
            out.append(dst)
    return out


# ---------------------------------------------------------------- type checkers and linters
def diag_facts(text: str) -> list:
    """Diagnostics: every distinct error with its location (file:line[:col] and the message), warnings spread,
    the summary line."""
    rx = re.compile(r"^(\S+?\.\w+)[:(](\d+)(?:[:,](\d+))?\)?:?\s*-?\s*(error|warning|note|information)?:?\s*(.*\S)")
    errs, warns = [], []
    for ln in text.splitlines():
        m = rx.match(ln.strip())
        if not m or not m.group(5):
            continue
        loc = ln.strip()[: m.start(4) if m.group(4) else m.start(5)].strip().rstrip(":").strip()
        fact = [loc, clip(m.group(5), 90)]
        (errs if (m.group(4) or "error") == "error" else warns).append(fact)
    py = [[m.group(1), m.group(2)] for m in re.finditer(r"^\s*(\S+\.py):(\d+):\d+ - error", text, re.M)]
    lines = text.splitlines()
    for i, ln in enumerate(lines):  # ruff's full format: "CODE message" then " --> path:line:col"
        m = re.match(r"^\s*--> (\S+:\d+:\d+)$", ln)
        if m and i and lines[i - 1].strip():
            errs.append([lines[i - 1].strip() + "\n" + ln.rstrip(), ""])  # one statement over two lines
    summary = matching(text, r"^(Found \d+ errors?|Success: no issues|\d+ errors?, \d+ warnings?|Found \d+ error|"
                             r"\d+ errors? in \d+ files?|All checks passed|\d+ fixable)")
    codes = [ln for ln in lines_of(text) if re.match(r"^\d+\s+[A-Z]+\d+\s", ln)]  # ruff --statistics
    errs = [f[0] if f[1] == "" else f for f in errs]
    return combine(summary, distinct_by(errs, str)[:26], spread(warns, 8), py[:6], codes[:20],
                   severe(text, 4))


@family
def fam_lint() -> None:
    env = setup_test_venv()
    mv = version(f"{VENV}/bin/mypy --version")
    rv = version(f"{VENV}/bin/ruff --version")
    rec = lambda name, spec, cmd, pb, facts=diag_facts, notes="", e=None: record(  # noqa: E731
        "lint", name, cmd, cwd=sdist_dir(spec), produced_by=pb, facts=facts, env=e or {}, timeout=900,
        notes=f"on the {spec} sdist's sources. " + notes)
    rec("mypy_strict_itsdangerous", "itsdangerous==2.2.0", "mypy --strict src/itsdangerous", mv)
    rec("mypy_jinja2", "jinja2==3.1.6", "mypy src/jinja2", mv)
    rec("mypy_strict_requests", "requests==2.34.2", "mypy --strict --ignore-missing-imports src/requests", mv)
    rec("mypy_tests_click", "click==8.5.1", "mypy --python-version 3.11 tests/test_options.py tests/test_basic.py", mv,
        notes="run in the sdist folder, click resolved from the venv-less checker: import errors are real.")
    rec("mypy_pyparsing_pretty", "pyparsing==3.3.3", "mypy --pretty --no-incremental pyparsing/core.py", mv)
    rec("ruff_check_select_all_pyparsing", "pyparsing==3.3.3",
        "ruff check --select ALL --no-cache pyparsing/util.py", rv)
    rec("ruff_check_statistics_jinja2", "jinja2==3.1.6", "ruff check --select ALL --statistics --no-cache src", rv)
    rec("ruff_check_e_w_b_requests", "requests==2.34.2", "ruff check --select E,W,B,UP --no-cache src tests", rv)
    rec("ruff_check_concise_click", "click==8.5.1", "ruff check --output-format concise --select ALL --no-cache src",
        rv)
    rec("ruff_format_check_zipp", "zipp==4.1.2", "ruff format --check --diff --line-length 70 zipp", rv,
        facts=lambda t: combine(matching(t, r"^Would reformat|files? would be reformatted|already formatted"),
                                git_facts(t)))
    js = setup_js()
    pyr = f"pyright {version(f'{js}/node_modules/.bin/pyright --version')}"
    pe = {"PATH": f"{js / 'node_modules/.bin'}:{env['PATH']}"}
    rec("pyright_itsdangerous", "itsdangerous==2.2.0", "pyright src/itsdangerous", pyr, e=pe)
    rec("pyright_markupsafe_tests", "markupsafe==3.0.4", "pyright tests", pyr, e=pe)
    rec("pyright_pluggy_src", "pluggy==1.7.0", "pyright src", pyr, e=pe)
    tv = f"tsc {version(f'{js}/node_modules/.bin/tsc --version')}"
    tn = "tsc on the JavaScript sources of packages installed from npm, type-checked with --checkJs."
    for name, cmd in [("tsc_checkjs_qs", "tsc --noEmit --allowJs --checkJs --target es2020 --moduleResolution node "
                                         "node_modules/qs/lib/*.js"),
                      ("tsc_checkjs_semver", "tsc --noEmit --allowJs --checkJs --strict --target es2020 "
                                             "node_modules/semver/classes/*.js node_modules/semver/functions/*.js"),
                      ("tsc_checkjs_express_pretty", "tsc --noEmit --allowJs --checkJs --pretty --target es2020 "
                                                     "--types node node_modules/express/lib/*.js")]:
        record("lint", name, cmd, cwd=js, env=pe, produced_by=tv, facts=diag_facts, notes=tn)


# ---------------------------------------------------------------- installers: pip and npm
def install_facts(text: str) -> list:
    """Installer output: each package with its version as installed/collected/added, every error/warning line."""
    got = re.findall(r"^(?:Collecting|Downloading|Using cached|Requirement already satisfied:|Successfully installed)"
                     r" (.*)$", text, re.M)
    pkgs = []
    for g in got:
        pkgs.append(clip(g, 70))
    added = matching(text, r"^(added|removed|changed|up to date|audited|found) \d+|\d+ packages? (are|is) looking|"
                           r"vulnerabilit|^npm (ERR|error|warn)")
    # this machine's index set-up warns once per package ("Location ... is ignored"): noise, not a fact
    quiet = "\n".join(ln for ln in text.splitlines() if "is ignored: it is neither a file nor a directory" not in ln)
    return combine(severe(quiet, 14), added[:10], spread(pkgs, 16), matching(quiet, r"^Successfully installed")[:1],
                   sample(quiet, 6))


@family
def fam_packages() -> None:
    pv = version(f"{PY} -m pip --version").split(" from ")[0]
    pw = WORK / "pipenv-cap"
    note = "a fresh venv made for the capture; packages from the registry (host replaced by pkgs.example.org)."

    def fresh():
        if pw.exists():
            shutil.rmtree(pw)
        sh(f"{sys.executable} -m venv {pw}", check=True)
        return {"PATH": f"{pw / 'bin'}:{BASE_ENV['PATH']}"}

    e = fresh()
    for name, cmd in [("pip_install_flask_sqlalchemy", "pip install flask-sqlalchemy==3.1.1"),
                      ("pip_install_conflict", "pip install 'requests==2.31.0' 'urllib3<1.21'"),
                      ("pip_install_v_markupsafe", "pip install -v --no-cache-dir markupsafe==2.1.5"),
                      ("pip_install_nosuch", "pip install no-such-package-sqz-blind==1.0"),
                      ("pip_install_r_upgrade", "pip install -U 'flask>=3' 'werkzeug>=3' 'requests>=2.32' pyyaml"),
                      ("pip_list", "pip list"), ("pip_list_outdated", "pip list --outdated"),
                      ("pip_check", "pip check"), ("pip_show_f_flask", "pip show -f flask"),
                      ("pip_uninstall_y", "pip uninstall -y itsdangerous blinker"),
                      ("pip_check_after_uninstall", "pip check"),
                      ("pip_download_d", "pip download -d dl --no-deps sqlalchemy==2.0.36 alembic")]:
        record("packages", name, cmd, cwd=pw, env={**e, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}, produced_by=pv,
               facts=lambda t: combine(install_facts(t), table_facts(t)[:20] if "----" in t else []), notes=note,
               timeout=900)
    nw = WORK / "npm-cap"
    if nw.exists():
        shutil.rmtree(nw)
    nw.mkdir()
    sh("npm init -y >/dev/null", nw)
    nv = f"npm {version('npm --version')}"
    nnote = "npm in an empty project made for the capture."
    for name, cmd in [("npm_install_express_koa", "npm install express@4 koa@2 lodash@4.17.20"),
                      ("npm_ls", "npm ls"), ("npm_ls_all_depth2", "npm ls --all --depth 2"),
                      ("npm_outdated", "npm outdated"), ("npm_audit", "npm audit"),
                      ("npm_install_notarget", "npm install express@99.0.0"),
                      ("npm_install_peer_conflict", "npm install react@17 react-dom@18"),
                      ("npm_install_loglevel_http", "npm install --loglevel http --no-audit chalk@4 commander@11")]:
        record("packages", name, cmd, cwd=nw, produced_by=nv, facts=install_facts, notes=nnote, timeout=900)


# ---------------------------------------------------------------- JavaScript test runners
JEST_QS = """
const qs = require('qs');

describe('qs.parse', () => {
  test('flat keys', () => { expect(qs.parse('a=1&b=2')).toEqual({ a: '1', b: '2' }); });
  test('nested brackets', () => { expect(qs.parse('user[name]=ann&user[age]=31')).toEqual({ user: { name: 'ann', age: '31' } }); });
  test('arrays with empty brackets', () => { expect(qs.parse('tag[]=a&tag[]=b')).toEqual({ tag: ['a', 'b'] }); });
  test('array limit turns indices into keys', () => { expect(qs.parse('a[25]=x')).toEqual({ a: ['x'] }); });
  test('depth limit', () => { expect(qs.parse('a[b][c][d][e][f][g]=1', { depth: 2 })).toEqual({ a: { b: { c: { d: { e: { f: { g: '1' } } } } } } }); });
  test('plus is a space', () => { expect(qs.parse('q=hello+world')).toEqual({ q: 'hello world' }); });
  test('dots off by default', () => { expect(qs.parse('a.b=c')).toEqual({ a: { b: 'c' } }); });
});

describe('qs.stringify', () => {
  test('nested objects', () => { expect(qs.stringify({ a: { b: 'c' } })).toBe('a%5Bb%5D=c'); });
  test('arrays as indices', () => { expect(qs.stringify({ a: ['b', 'c'] }, { encode: false })).toBe('a[0]=b&a[1]=c'); });
  test('arrays as brackets', () => { expect(qs.stringify({ a: ['b', 'c'] }, { arrayFormat: 'brackets', encode: false })).toBe('a[]=b&a[]=c'); });
  test('skip nulls', () => { expect(qs.stringify({ a: null, b: 1 }, { skipNulls: true })).toBe('b=1'); });
  test('null as empty', () => { expect(qs.stringify({ a: null })).toBe('a'); });
});
"""

JEST_SEMVER = """
const semver = require('semver');

describe('semver', () => {
  test.each([
    ['1.2.3', '^1.0.0', true], ['2.0.0', '^1.0.0', false], ['1.2.3-beta.1', '^1.2.0', false],
    ['0.3.1', '^0.3.0', true], ['0.4.0', '~0.3.0', false], ['1.10.0', '>=1.9 <2', true],
  ])('satisfies(%s, %s) is %s', (v, range, want) => { expect(semver.satisfies(v, range)).toBe(want); });
  test('coerce', () => { expect(semver.coerce('v3.4 beta').version).toBe('3.4.0'); });
  test('inc prerelease', () => { expect(semver.inc('1.2.3', 'prerelease', 'rc')).toBe('1.2.4-rc.1'); });
  test('sort', () => { expect(semver.sort(['1.10.0', '1.2.0', '1.9.9'])).toEqual(['1.2.0', '1.9.9', '1.10.0']); });
  test('diff', () => { expect(semver.diff('1.2.3', '2.0.0')).toBe('major'); });
  test('valid rejects v-less garbage', () => { expect(semver.valid('1.2')).toBe(null); });
  test('maxSatisfying', () => { expect(semver.maxSatisfying(['1.2.3', '1.3.0', '2.0.0'], '~1.2')).toBe('1.3.0'); });
});
"""


@family
def fam_js() -> None:
    js = setup_js()
    for sub, files in (("jest-tests", {"qs.test.js": JEST_QS, "semver.test.js": JEST_SEMVER}),
                       ("vitest-tests", {"qs.test.js": "import { describe, test, expect } from 'vitest';\n"
                                                       "import qs from 'qs';\n" + JEST_QS.split("\n", 2)[2],
                                         "semver.test.js": "import { describe, test, expect } from 'vitest';\n"
                                                           "import semver from 'semver';\n"
                                                           + JEST_SEMVER.split("\n", 2)[2]})):
        d = js / sub
        d.mkdir(exist_ok=True)
        for n, body in files.items():
            (d / n).write_text(body)
    e = {"PATH": f"{js / 'node_modules/.bin'}:{BASE_ENV['PATH']}", "CI": "1"}
    note = ("tests written for this capture of qs and semver as installed from npm; the failing expectations are "
            "the tests' mistakes about the libraries' real behaviour.")
    jv, vv = f"jest {version(f'{js}/node_modules/.bin/jest --version')}", version(f"{js}/node_modules/.bin/vitest --version")
    rec = lambda name, cmd, pb: record("js", name, cmd, cwd=js, env=e, produced_by=f"{pb}; node {version('node --version')}",  # noqa
                                       facts=js_facts, notes=note, timeout=600)
    rec("jest_default", "jest jest-tests", jv)
    rec("jest_verbose", "jest --verbose jest-tests", jv)
    rec("jest_ci_semver", "jest --ci jest-tests/semver.test.js", jv)
    rec("jest_t_filter", "jest jest-tests -t 'stringify'", jv)
    rec("vitest_run", "vitest run --root vitest-tests", vv)
    rec("vitest_verbose", "vitest run --root vitest-tests --reporter=verbose", vv)
    rec("vitest_dot", "vitest run --root vitest-tests --reporter=dot", vv)


def js_facts(text: str) -> list:
    fails = [re.sub(r"^[●✕×]\s*", "", ln) for ln in matching(text, r"^(●|✕|×|FAIL)\s")]
    passes = matching(text, r"^(✓|√)\s")  # not facts on green; counted below
    summary = matching(text, r"^(Tests?:|Test Suites:|Test Files|Tests\s+\d|Snapshots:|Time:|Duration)")
    expect = distinct_by(matching(text, r"^(Expected|Received|- Expected|\+ Received|AssertionError|→)"), str)[:10]
    where = matching(text, r"(\.test\.js:\d+:\d+)")[:10]
    return combine(summary, fails[:20], expect, where, severe(text, 4), [] if fails else passes[:2])


# ---------------------------------------------------------------- go
def go_facts(text: str) -> list:
    fails = matching(text, r"^\s*--- FAIL: ")
    pkg = matching(text, r"^(ok|FAIL|\?)\s+\S+")
    errs = matching(text, r"^\s*\S+\.go:\d+(:\d+)?: ")
    cover = matching(text, r"coverage: [\d.]+% of statements")
    bench = [ln.split()[0] for ln in lines_of(text) if re.match(r"^Benchmark\S+\s+\d+\s", ln)]
    return combine(matching(text, r"^(FAIL|ok|PASS)$"), pkg[:20], fails[:20], errs[:20], cover[:10],
                   spread(bench, 10), matching(text, r"^(# |panic:|can't load|package .* is not in)")[:6])


@family
def fam_go() -> None:
    if not shutil.which("go"):
        return
    gv = version("go version")
    e = {"GOPATH": str(WORK / "gopath"), "GOCACHE": str(WORK / "gocache"), "GOFLAGS": "-mod=mod", "GOPROXY": "off",
         "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    goroot = sh("go env GOROOT", env=e).strip()
    mod = WORK / "go" / "csvfork"
    if not mod.exists():
        mod.mkdir(parents=True)
        for f in Path(goroot, "src/encoding/csv").glob("*.go"):
            shutil.copy(f, mod / f.name)
        (mod / "go.mod").write_text("module example.test/csvfork\n\ngo 1.19\n")
        # one real-looking regression: the reader keeps the quote before a field's closing delimiter
        src = (mod / "reader.go").read_text()
        (mod / "reader.go").write_text(src.replace("if r.TrimLeadingSpace {", "if !r.TrimLeadingSpace {", 1))
        broken = mod.parent / "buildfail"
        broken.mkdir()
        shutil.copytree(mod, broken / "csv")
        (broken / "go.mod").write_text("module example.test/buildfail\n\ngo 1.19\n")
        (broken / "csv" / "go.mod").unlink()
        w = (broken / "csv" / "writer.go").read_text()
        (broken / "csv" / "writer.go").write_text(w.replace("func (w *Writer) Flush() {",
                                                            "func (w *Writer) Flush() {\n\tunused := w.Comma", 1))
    note = "Go's standard library tests (GOROOT), and a copy of encoding/csv with a one-word change in reader.go."
    rec = lambda name, cmd, cwd: record("go", name, cmd, cwd=cwd, env=e, produced_by=gv, facts=go_facts,  # noqa
                                        notes=note, timeout=900)
    rec("go_test_v_strings_run", "go test -v -run 'TestCompare|TestIndexByte' strings", WORK)
    rec("go_test_cover_three", "go test -cover encoding/csv container/list text/tabwriter", WORK)
    rec("go_test_short_v_url", "go test -short -v net/url", WORK)
    rec("go_test_csvfork_fail", "go test ./...", mod)
    rec("go_test_v_csvfork_read", "go test -v -run 'TestRead' .", mod)
    rec("go_build_unused", "go build ./...", mod.parent / "buildfail")
    rec("go_vet_buildfail", "go vet ./...", mod.parent / "buildfail")
    rec("go_test_bench_csv", "go test -run '^$' -bench 'BenchmarkRead' -benchtime 200x -benchmem encoding/csv", WORK)


# ---------------------------------------------------------------- cargo (crates Debian ships as source)
def cargo_facts(text: str) -> list:
    tests = matching(text, r"^test \S+ \.\.\. (FAILED|ignored)")
    results = matching(text, r"^test result: ")
    errs = distinct_by(matching(text, r"^(error|warning)(\[\w+\])?: "), str)[:14]
    locs = matching(text, r"^\s*--> \S+:\d+:\d+")[:14]
    comp = [ln.split(" (")[0] for ln in matching(text, r"^(Compiling|Checking|Finished|Running|Doc-tests) ")]
    panics = matching(text, r"panicked at")
    return combine(results, tests[:20], errs, locs, panics[:6], spread(comp, 14), matching(text, r"^running \d+ tests?"))


@family
def fam_cargo() -> None:
    crates = setup_cargo()
    if not crates:
        return
    home = WORK / "cargo-home"
    e = {"CARGO_HOME": str(home), "CARGO_TARGET_DIR": str(WORK / "cargo-target"), "CARGO_TERM_COLOR": "never",
         "PATH": f"{Path(os.environ.get('CARGO_HOME', Path.home() / '.cargo')) / 'bin'}:{BASE_ENV['PATH']}"}
    cv = version("cargo --version")
    note = "a copy of a crate Debian ships as source (/usr/share/cargo/registry), dependencies from that registry."
    for crate in crates:
        short = crate.name.rsplit("-", 1)[0]
        for name, cmd in [(f"cargo_test_q_{short}" if short == "regex" else f"cargo_test_{short}",
                           "cargo test --offline" + (" -q" if short == "regex" else "")),  # regex's -v: 300 KB
                          (f"cargo_build_release_{short}", "cargo build --release --offline"),
                          (f"cargo_clippy_{short}", "cargo clippy --offline"
                           + ("" if short == "regex" else " -- -W clippy::pedantic"))]:  # regex's pedantic: 268 KB
            record("cargo", name, cmd, cwd=crate, env=e, produced_by=cv, facts=cargo_facts, notes=note, timeout=1200)


# ---------------------------------------------------------------- make and gcc
BUILD_MAKEFILE = """
CC ?= cc
CXX ?= c++
CFLAGS ?= -O2 -fPIC -Wall -Wextra -Wconversion -Wshadow
NODE_INC = -I/usr/include/node
OUT = build

all: $(OUT)/bufferutil.so $(OUT)/validation.so $(OUT)/speedups.o

$(OUT):
\tmkdir -p $(OUT)

$(OUT)/bufferutil.o: node_modules/bufferutil/src/bufferutil.c | $(OUT)
\t$(CC) $(CFLAGS) $(NODE_INC) -c $< -o $@

$(OUT)/bufferutil.so: $(OUT)/bufferutil.o
\t$(CC) -shared $< -o $@

$(OUT)/validation.o: node_modules/utf-8-validate/src/validation.cc | $(OUT)
\t$(CXX) $(CFLAGS) $(NODE_INC) -c $< -o $@

$(OUT)/validation.so: $(OUT)/validation.o
\t$(CXX) -shared $< -o $@

$(OUT)/speedups.o: markupsafe/_speedups.c | $(OUT)
\t$(CC) $(CFLAGS) $(PY_INC) -c $< -o $@

clean:
\trm -rf $(OUT)
"""


def build_facts(text: str) -> list:
    diags = []
    for m in re.finditer(r"^(\S+?):(\d+):(\d+): (error|warning|note|fatal error): (.*)$", text, re.M):
        diags.append([f"{m.group(1)}:{m.group(2)}:{m.group(3)}", f"{m.group(4)}: {clip(m.group(5), 80)}"])
    make = matching(text, r"^make(\[\d+\])?: (\*\*\*|Entering|Leaving|Nothing|'.*' is up to date)|Error \d+")
    cmds = [clip(ln, 100) for ln in matching(text, r"^(cc|c\+\+|gcc|g\+\+|x86_64-linux-gnu-gcc)\s")]
    fn = matching(text, r"In function '|In member function")
    return combine(distinct_by([d for d in diags if "error" in d[1]], str)[:16], make[:8],
                   distinct_by([d for d in diags if "error" not in d[1]], str)[:16], fn[:4], spread(cmds, 8),
                   matching(text, r"^(running|building|copying) ")[:6])


@family
def fam_build() -> None:
    js = setup_js()
    b = WORK / "cbuild"
    if b.exists():
        shutil.rmtree(b)
    b.mkdir()
    (b / "node_modules").symlink_to(js / "node_modules")
    shutil.copytree(sdist_dir("markupsafe==3.0.4") / "src" / "markupsafe", b / "markupsafe")
    (b / "Makefile").write_text(BUILD_MAKEFILE)
    pyinc = sh(f"{sys.executable}-config --includes 2>/dev/null || python3-config --includes").strip().splitlines()[-1]
    mv, gv = version("make --version"), version("gcc --version")
    note = ("a Makefile written for the capture compiling the C/C++ sources of two npm packages (bufferutil, "
            "utf-8-validate) against Debian's node headers and markupsafe's C speedups.")
    rec = lambda name, cmd, pb, cwd=b: record("build", name, cmd, cwd=cwd, produced_by=pb, facts=build_facts,  # noqa
                                              notes=note, timeout=900)
    rec("make_no_py_include", "make", f"{mv}; {gv}")
    sh("make clean", b)
    rec("make_k_j2", "make -k -j2", f"{mv}; {gv}")
    sh("make clean", b)
    rec("make_py_inc", f"make PY_INC='{pyinc}'", f"{mv}; {gv}")
    rec("make_up_to_date", f"make PY_INC='{pyinc}'", f"{mv}; {gv}")
    rec("make_clang_flags", "make clean all CC=gcc CFLAGS='-O0 -Wall -Wextra -Wpedantic -std=c99 -fPIC' "
                            f"PY_INC='{pyinc}'", f"{mv}; {gv}")
    rec("gcc_fsyntax_conversion", f"gcc -fsyntax-only -Wall -Wextra -Wconversion -Wsign-conversion {pyinc} "
                                  "markupsafe/_speedups.c", gv)
    rec("gcc_missing_header", "gcc -c markupsafe/_speedups.c -o /dev/null", gv)
    rec("gcc_analyzer_bufferutil", "gcc -fanalyzer -fsyntax-only -I/usr/include/node "
                                   "node_modules/bufferutil/src/bufferutil.c", gv)
    ms = sdist_dir("markupsafe==3.0.4")
    record("build", "setup_py_build_ext", "python setup.py build_ext --inplace --force", cwd=ms,
           produced_by=f"setuptools {py_ver('setuptools')}; {gv}", notes=note,
           facts=lambda t: combine(build_facts(t), traceback_facts(t), sample(t, 10)))


# ---------------------------------------------------------------- tox and nox sessions
NOXFILE = """
import nox

nox.options.reuse_existing_virtualenvs = True


@nox.session(python=False)
def tests(session):
    session.run("pytest", "-q", "-p", "no:cacheprovider", *session.posargs)


@nox.session
def lint(session):
    session.install("ruff")
    session.run("ruff", "check", "--select", "E,W,F,B,UP", "--no-cache", "src", "tests")


@nox.session
def typing(session):
    session.install("mypy", ".")
    session.run("mypy", "src")


@nox.session(python=False)
def cover(session):
    session.run("pytest", "-q", "-x", "tests/test_nosuch.py")
"""


def session_facts(text: str) -> list:
    heads = matching(text, r"^(nox > Running session|nox > Session \S+ (was successful|failed|raised)|"
                           r"nox > Ran multiple sessions|nox > \* |nox > Command )")
    tox = matching(text, r"^\S+: (commands\[\d+\]>|install_deps>|OK|FAIL|exit \d|commands succeeded|"
                         r"congratulations|packaging|skipped)|^  \S+: (OK|FAIL|SKIP)|^\S+: (OK|FAIL) \(")
    return combine(heads[:20], tox[:20], pytest_facts(text)[:12], diag_facts(text)[:10], severe(text, 6))


@family
def fam_toxnox() -> None:
    tv, nv = version(f"{VENV}/bin/tox --version"), f"nox {version(f'{VENV}/bin/nox --version')}"
    its = sdist_dir("itsdangerous==2.2.0")
    tnote = "the itsdangerous 2.2.0 sdist's own tox.ini; tox builds a wheel and venvs, packages from the registry."
    e = {"PATH": f"{VENV / 'bin'}:{BASE_ENV['PATH']}"}
    record("toxnox", "tox_e_py311", "tox -e py311", cwd=its, env=e, produced_by=tv, facts=session_facts,
           notes=tnote, timeout=1500)
    record("toxnox", "tox_e_py311_again_k", "tox -e py311 -- -k 'signer or timed'", cwd=its, env=e, produced_by=tv,
           facts=session_facts, notes=tnote + " The second run reuses the env.", timeout=1500)
    record("toxnox", "tox_e_typing", "tox -e typing", cwd=its, env=e, produced_by=tv, facts=session_facts,
           notes=tnote, timeout=1500)
    record("toxnox", "tox_l", "tox -l", cwd=its, env=e, produced_by=tv, facts=lambda t: lines_of(t), notes=tnote)
    ck = sdist_dir("click==8.5.1")
    (ck / "noxfile.py").write_text(NOXFILE)
    te = setup_test_venv()
    nnote = ("a noxfile written for the capture in the click 8.5.1 sdist (tests with the test venv's pytest, "
             "ruff, mypy in nox's own venvs).")
    ne = {"PATH": f"{TVENV / 'bin'}:{VENV / 'bin'}:{BASE_ENV['PATH']}"}
    for name, cmd in [("nox_tests", "nox -s tests"), ("nox_lint", "nox -s lint"), ("nox_typing", "nox -s typing"),
                      ("nox_all_sessions", "nox -s tests lint cover"), ("nox_list", "nox --list")]:
        record("toxnox", name, cmd, cwd=ck, env=ne, produced_by=nv, facts=session_facts, notes=nnote, timeout=1800)
    del te


# ---------------------------------------------------------------- tracebacks inside larger outputs
FETCH = textwrap.dedent("""
    import json, logging, sys
    import requests

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("prices")


    def fetch(sku):
        r = requests.get(f"http://127.0.0.1:18139/prices/{sku}", timeout=2)
        r.raise_for_status()
        return r.json()


    def load_all(skus):
        out = {}
        for sku in skus:
            log.info("fetching %s", sku)
            try:
                out[sku] = fetch(sku)
            except requests.ConnectionError as exc:
                raise RuntimeError(f"price service down while loading {sku}") from exc
        return out


    if __name__ == "__main__":
        log.info("loading %d skus", 3)
        print(json.dumps(load_all(["A-100", "B-200", "C-300"])))
""")


@family
def fam_traces() -> None:
    w = WORK / "srv"
    w.mkdir(parents=True, exist_ok=True)
    (w / "fetch_prices.py").write_text(FETCH)
    pv = f"Python {sys.version.split()[0]}; requests {py_ver('requests')}"
    record("traces", "python_chained_connection_refused", "python fetch_prices.py", cwd=w,
           produced_by=pv, facts=traceback_facts, notes="a script whose price service (127.0.0.1:18139) is down.")
    d = setup_django()
    dv = f"Django {py_ver('django')}"
    for name, cmd in [("django_shell_doesnotexist", "python manage.py shell -c \"from django.contrib.auth.models "
                                                    "import User; print(User.objects.get(username='ghost'))\""),
                      ("django_sqlmigrate_bad", "python manage.py sqlmigrate auth 9999"),
                      ("django_check_deploy", "python manage.py check --deploy"),
                      ("django_migrate_plan", "python manage.py migrate --plan"),
                      ("django_showmigrations", "python manage.py showmigrations")]:
        record("traces", name, cmd, cwd=d, produced_by=dv, facts=lambda t: combine(traceback_facts(t), sample(t, 20)),
               notes="manage.py of a project made with startproject.")
    # the Flask debugger's page (FLASK_DEBUG=1) for a chained exception, as curl prints it
    srv = Servers()
    try:
        srv.start([str(PY), "-m", "flask", "--app", "app", "--debug", "run", "--host", "127.0.0.1", "--port", "18137",
                   "--no-reload"], w / "logs" / "flask-debug.log", w / "flaskapp")
        wait_port(18137)
        fv = f"Flask {py_ver('flask')} debugger (werkzeug {py_ver('werkzeug')}); {version('curl --version')}"
        for name, cmd in [("flask_debugger_cart", "curl -s http://127.0.0.1:18137/api/cart/c9"),
                          ("flask_debugger_checkout", "curl -s http://127.0.0.1:18137/api/checkout")]:
            record("traces", name, cmd, cwd=w, produced_by=fv, facts=lambda t: combine(traceback_facts(t),
                                                                                       html_trace_facts(t)),
                   notes="flask --debug run on 127.0.0.1:18137; the debugger's HTML page.")
    finally:
        srv.stop_all()
    record("traces", "flask_debug_server_log", "cat logs/flask-debug.log", cwd=w, produced_by=f"Flask {py_ver('flask')}",
           facts=lambda t: combine(traceback_facts(t), access_log_like(t)), notes="the debug server's own log.")


def html_trace_facts(text: str) -> list:
    import html

    out = [html.unescape(m.group(1)).strip() for m in re.finditer(r"<title>(.*?)</title>", text)]
    out += [m.group(0) for m in re.finditer(r"File <cite class=\"filename\">\"[^\"]+\"</cite>,\s*line <em class=\"line\">\d+</em>", text)][:10]
    out += matching(text, r"^[A-Za-z_][\w.]*(Error|Exception): ")[:6]
    return out


def main() -> int:
    global ONLY, REFACTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("families", nargs="*", help=f"some of: {', '.join(FAMILIES)} (default: all)")
    ap.add_argument("--only", help="only these capture names (comma-separated)")
    ap.add_argument("--refacts", action="store_true",
                    help="pick the facts again from the committed captures (runs nothing for those)")
    args = ap.parse_args()
    ONLY = set(args.only.split(",")) if args.only else set()
    REFACTS = args.refacts
    WORK.mkdir(parents=True, exist_ok=True)
    setup_venv()
    for name in args.families or list(FAMILIES):
        print(f"{name}:", file=sys.stderr)
        FAMILIES[name]()
    print(f"{len(written)} captures written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
