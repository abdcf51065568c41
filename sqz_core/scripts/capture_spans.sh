#!/usr/bin/env bash
# Re-capture the per-span safety fixtures (issue 25.3): real outputs where one sensitive span
# (a user:pass@ URL in test ids, a chained traceback through site-packages, tracebacks among a
# dev server's access lines) used to refuse the whole output. Each NAME.txt is written by the
# program its NAME.json names. Needs python3 with venv and pip (packages from the package index:
# requests' sdist and its test deps, flask). Registry host names are replaced by pkgs.example.org.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
out="$HERE/tests/fixtures/spans"
work=/tmp/sqz-capture/spans
PY=python3
SQZ_PY="${SQZ_PY:-$HERE/../.venv/bin/python}"
rm -rf "$work"; mkdir -p "$work" "$out"; cd "$work"
. "$HERE/scripts/_capture_lib.sh"
W="$work"; OUT="$out"

python3 -m venv venv
venv/bin/pip -q install 'requests==2.32.3' 'pytest==8.3.4' 'pytest-mock==3.14.0' 'flask==3.1.0' 'werkzeug==3.1.3' \
  'trustme==1.2.0' >/dev/null
venv/bin/pip -q download --no-deps --no-binary :all: 'requests==2.32.3' -d sdist >/dev/null
tar xzf sdist/requests-2.32.3.tar.gz

# 1. pytest -v on requests' own offline test module: test ids carry http://user:pass@ URLs
cd "$work/requests-2.32.3"
CMDLINE="pytest -v tests/test_utils.py"
cap pytest_v_requests_utils "pytest $("$work/venv/bin/python" -m pytest --version 2>&1 | awk '{print $2}') on requests 2.32.3 (sdist), $("$work/venv/bin/python" --version)" \
  "$work/venv/bin/python" -m pytest -v -p no:cacheprovider tests/test_utils.py || true
cd "$work"

# 2. a real client call to a closed port: the chained ConnectionRefusedError through site-packages
port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cat > fetch.py <<PYEOF
import requests
print("fetching status")
requests.get("http://127.0.0.1:$port/status", timeout=2)
PYEOF
CMDLINE="python fetch.py"
cap requests_connection_refused "requests 2.32.3, urllib3 $("$work/venv/bin/python" -c 'import urllib3; print(urllib3.__version__)'), $("$work/venv/bin/python" --version)" \
  "$work/venv/bin/python" fetch.py || true

# 2b. the same through the standard library alone (urllib.request): long runs of stdlib frames
CMDLINE="python3 -c \"import urllib.request; urllib.request.urlopen('http://127.0.0.1:PORT/health')\""
cap urllib_connection_refused "$("$PY" --version)" \
  "$PY" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/health')" || true

# 3. a Flask dev server's log: access lines with two tracebacks among them
cat > app.py <<'PYEOF'
from flask import Flask, abort
app = Flask(__name__)

@app.route("/")
def index():
    return "ok"

@app.route("/items/<int:n>")
def item(n):
    if n == 0:
        abort(404)
    return {"item": n}

@app.route("/report")
def report():
    rows = {"a": 1}
    return str(rows["missing"])
PYEOF
fport=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$work/venv/bin/python" -m flask --app app run --port "$fport" >"$W/.flask" 2>&1 &
fpid=$!
for _ in $(seq 50); do "$PY" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$fport/')" 2>/dev/null && break; sleep 0.2; done
"$PY" - "$fport" <<'PYEOF'
import sys, urllib.request, urllib.error
port = sys.argv[1]
def get(path):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read()
    except urllib.error.HTTPError:
        pass
for i in range(50):
    get(f"/items/{i + 1}")
get("/report")
for i in range(50):
    get("/" if i % 3 else f"/items/{i}")
get("/items/0")
get("/report")
PYEOF
kill "$fpid"; wait "$fpid" 2>/dev/null || true
scrub <"$W/.flask" >"$out/flask_dev_server_log.txt"
CMDLINE="flask --app app run"
meta "$out/flask_dev_server_log.json" "$CMDLINE" "Flask $("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("flask"))'), Werkzeug 3.1.3, $("$work/venv/bin/python" --version)" 0
echo "captured flask_dev_server_log ($(wc -c <"$out/flask_dev_server_log.txt") bytes)"
