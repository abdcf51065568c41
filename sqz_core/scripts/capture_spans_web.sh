#!/usr/bin/env bash
# Re-capture the web-framework fixtures of safety per span (issue 25.3): a Django dev server's debug
# 500 page (as text and as HTML), its runserver log with tracebacks among the access lines, and
# Werkzeug's debugger page of a Flask app. Each NAME.txt is written by the program its NAME.json
# names. The servers run with an empty environment (env -i): the debug pages list the server's
# environment, and nothing of this machine's may reach a fixture. Needs python3 with venv and pip
# and curl; registry host names are replaced by pkgs.example.org.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
out="$HERE/tests/fixtures/spans"
work=/tmp/sqz-capture/spans-web
PY=python3
SQZ_PY="${SQZ_PY:-$HERE/../.venv/bin/python}"
rm -rf "$work"; mkdir -p "$work" "$out"; cd "$work"
. "$HERE/scripts/_capture_lib.sh"
W="$work"; OUT="$out"
CLEAN=(env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8)

python3 -m venv venv
venv/bin/pip -q install 'django==5.2.19' 'flask==3.1.3' 'werkzeug==3.1.9' 'requests==2.34.2' 'urllib3==2.8.0' >/dev/null
V="$work/venv/bin/python"
version() { "$V" -c "import importlib.metadata as m; print(m.version('$1'))"; }
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_up() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0; sleep 0.2; done; return 1; }

# --- a Django project: one view calls a closed port through requests, one raises KeyError -------
closed=$(free_port)
"$V" -m django startproject shop .
"$V" manage.py startapp orders
cat > orders/views.py <<PYEOF
import requests
from django.http import HttpResponse, JsonResponse

INVENTORY = "http://127.0.0.1:$closed/stock"


def index(request):
    return HttpResponse("ok")


def item(request, n):
    return JsonResponse({"item": n})


def stock(request):
    reply = requests.get(INVENTORY, timeout=2)
    return JsonResponse(reply.json())


def report(request):
    totals = {"eu": 10}
    return HttpResponse(str(totals[request.GET.get("region", "us")]))
PYEOF
cat > shop/urls.py <<'PYEOF'
from django.urls import path

from orders import views

urlpatterns = [
    path("", views.index),
    path("items/<int:n>/", views.item),
    path("stock/", views.stock),
    path("report/", views.report),
]
PYEOF
dport=$(free_port)
"${CLEAN[@]}" "$V" manage.py runserver --noreload "127.0.0.1:$dport" >"$W/.django" 2>&1 &
dpid=$!
wait_up "$dport"
for i in $(seq 40); do curl -s -o /dev/null "http://127.0.0.1:$dport/items/$i/"; done
curl -s -o /dev/null "http://127.0.0.1:$dport/stock/"
for i in $(seq 30); do curl -s -o /dev/null "http://127.0.0.1:$dport/"; done
curl -s -o /dev/null "http://127.0.0.1:$dport/missing/"
curl -s -o /dev/null "http://127.0.0.1:$dport/report/?region=us"
for i in $(seq 41 60); do curl -s -o /dev/null "http://127.0.0.1:$dport/items/$i/"; done

DJ="Django $(version django), requests $(version requests), urllib3 $(version urllib3), $("$V" --version)"
CMDLINE="curl -s -H 'Accept: text/plain' http://127.0.0.1:$dport/stock/"
cap django_debug_500_text "$DJ (DEBUG=True dev server), curl $(curl --version | head -1 | awk '{print $2}')" \
  curl -s -H 'Accept: text/plain' "http://127.0.0.1:$dport/stock/"
CMDLINE="curl -s http://127.0.0.1:$dport/report/?region=us"
cap django_debug_500_html "$DJ (DEBUG=True dev server), curl $(curl --version | head -1 | awk '{print $2}')" \
  curl -s "http://127.0.0.1:$dport/report/?region=us"
kill "$dpid"; wait "$dpid" 2>/dev/null || true
scrub <"$W/.django" >"$out/django_runserver_log.txt"
meta "$out/django_runserver_log.json" "python manage.py runserver --noreload 127.0.0.1:$dport" "$DJ" 0
echo "captured django_runserver_log ($(wc -c <"$out/django_runserver_log.txt") bytes)"

# a management command whose app list has a typo: a long run of Django and importlib frames
sed -i "s/'django.contrib.staticfiles',/'django.contrib.staticfiles',\n    'ordrs',/" shop/settings.py
CMDLINE="python manage.py check"
cap django_check_bad_app "$DJ" "${CLEAN[@]}" "$V" manage.py check || true

# settings that raise while Django imports them, on a line holding a database password: the secret
# sits in the frame that raised, at the end of a long run of Django and importlib frames
sed -i "s/    'ordrs',//" shop/settings.py
cat >> shop/settings.py <<'PYEOF'

DATABASES = parse_database_url("postgres://shop:fakeTraceSecret42@127.0.0.1:5432/shop")
PYEOF
CMDLINE="python manage.py check"
cap django_check_settings_secret "$DJ" "${CLEAN[@]}" "$V" manage.py check || true

# --- Werkzeug's debugger page: a Flask app run with --debug, a view that raises ------------------
cat > app.py <<'PYEOF'
from flask import Flask

app = Flask(__name__)


def load_rows():
    return {"a": 1}


@app.route("/")
def index():
    return "ok"


@app.route("/report")
def report():
    rows = load_rows()
    return str(rows["missing"])
PYEOF
fport=$(free_port)
"${CLEAN[@]}" "$V" -m flask --app app run --debug --no-reload --port "$fport" >"$W/.flask" 2>&1 &
fpid=$!
wait_up "$fport"
CMDLINE="curl -s http://127.0.0.1:$fport/report"
cap werkzeug_debugger_page "Flask $(version flask), Werkzeug $(version werkzeug), $("$V" --version), curl $(curl --version | head -1 | awk '{print $2}')" \
  curl -s "http://127.0.0.1:$fport/report"
kill "$fpid"; wait "$fpid" 2>/dev/null || true

# --- git log -p of a small repository whose test holds a user:pass@ URL ---------------------------
mkdir -p "$work/repo" && cd "$work/repo"
git init -q -b main . && git config user.name "Dev One" && git config user.email dev1@example.org
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
step=0
commit() { step=$((step + 1)); GIT_AUTHOR_DATE="2026-11-2${step}T10:0${step}:00+00:00"; GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
  git add -A && git commit -q -m "$1"; }
cp "$work/orders/views.py" views.py && printf '# shop\n\nA small order service.\n' >README.md && commit "Initial views and README"
printf 'import os\n\nDATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///shop.db")\nTIMEOUT = 2\n' >config.py && commit "Read the database URL from the environment"
mkdir -p tests && cat >tests/test_config.py <<'PYEOF'
import config


def test_database_url_from_env(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://shop:fakeLogSecret7@db.internal:5432/shop")
    assert config.DATABASE_URL
PYEOF
commit "Test the database URL setting"
sed -i 's/TIMEOUT = 2/TIMEOUT = 5/' config.py && commit "Raise the client timeout to 5 s"
sed -i 's/timeout=2/timeout=5/' views.py && commit "Use the longer timeout for the stock call"
printf '\nRun the tests with `pytest`.\n' >>README.md && commit "README: how to run the tests"
sed -i 's/{"eu": 10}/{"eu": 10, "us": 7}/' views.py && commit "Report: totals for the us region"
CMDLINE="git log -p"
cap git_log_p_userinfo "$(git --version)" git log -p
