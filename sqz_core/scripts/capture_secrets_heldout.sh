#!/usr/bin/env bash
# Capture the held-out secret-routing fixtures (sqz_core/tests/fixtures/safety/heldout): real outputs
# that hold a credential (private keys printed as text, curl -v with cookies and key headers, .env-style
# password variables) and real outputs that only look like they might (public keys and a certificate
# printed as text, a cookie being deleted, source files full of `password = …` code).
#
# Every key is a throw-away key generated here; every credential is an obviously fake value
# (fake-session-0001, hunter2, …) sent only to a local server on 127.0.0.1.
# Needs: python3, openssl, curl, npm (global install, for its own source files); PyPI reachable
# (pip download of pip 23.2.1). Registry hosts are replaced by pkgs.example.org
# (sqz_testing.redact_registries). Sidecars keep their hand-written facts/notes; this script
# refreshes command, produced_by and exit_code. A re-capture makes new keys and dates: refresh the
# facts that name them.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/safety/heldout"
W=/tmp/sqz-capture/secrets
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
[ -x "$SQZ_PY" ] || SQZ_PY=$PY
. "$HERE/scripts/_capture_lib.sh"  # scrub, meta
rm -rf "$W" && mkdir -p "$W" "$OUT" && cd "$W" || exit 1

# ---------------------------------------------------------------- private keys printed as text
SSLV=$(openssl version)
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem 2>/dev/null
openssl genpkey -algorithm ED25519 -out ed25519.pem 2>/dev/null
CMDLINE="openssl pkey -in rsa.pem -text -noout"
cap openssl_pkey_text_rsa "$SSLV" openssl pkey -in rsa.pem -text -noout
CMDLINE="openssl pkey -in ec.pem -text -noout"
cap openssl_pkey_text_ec "$SSLV" openssl pkey -in ec.pem -text -noout
CMDLINE="openssl pkey -in ed25519.pem -text -noout"
cap openssl_pkey_text_ed25519 "$SSLV" openssl pkey -in ed25519.pem -text -noout
# the public half only, and a certificate: key-shaped, but nothing secret
CMDLINE="openssl pkey -in rsa.pem -text_pub -noout"
cap openssl_pkey_text_pub_rsa "$SSLV" openssl pkey -in rsa.pem -text_pub -noout
openssl req -x509 -key rsa.pem -subj /CN=sqz.example.org -days 30 -out cert.pem 2>/dev/null
CMDLINE="openssl x509 -in cert.pem -text -noout"
cap openssl_x509_text "$SSLV" openssl x509 -in cert.pem -text -noout

# ---------------------------------------------------------------- curl -v against a local server with cookies
cat > cookie_server.py <<'PY'
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"ok\n"
        self.send_response(200)
        if self.path == "/login":  # a session cookie and a CSRF cookie, as a web framework sets them
            self.send_header("Set-Cookie", "sessionid=fake-session-0002; HttpOnly; Path=/; SameSite=Lax")
            self.send_header("Set-Cookie", "csrftoken=fake-csrf-0003; Path=/; SameSite=Lax")
        elif self.path == "/logout":  # the session cookie deleted: an empty value
            self.send_header("Set-Cookie", 'sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/')
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
"$PY" cookie_server.py 18791 & SRV=$!
sleep 1
CURLV=$(curl --version | head -1 | cut -d' ' -f1-2)
CMDLINE="curl -v -b 'sessionid=fake-session-0001' http://127.0.0.1:18791/account"
cap curl_v_cookie "$CURLV" curl -v -b 'sessionid=fake-session-0001' http://127.0.0.1:18791/account
CMDLINE="curl -v http://127.0.0.1:18791/login"
cap curl_v_set_cookie "$CURLV" curl -v http://127.0.0.1:18791/login
CMDLINE="curl -v http://127.0.0.1:18791/logout"
cap curl_v_logout "$CURLV" curl -v http://127.0.0.1:18791/logout
CMDLINE="curl -v -H 'X-Api-Key: fake-api-key-0004' http://127.0.0.1:18791/v1/items"
cap curl_v_api_key "$CURLV" curl -v -H 'X-Api-Key: fake-api-key-0004' http://127.0.0.1:18791/v1/items
CMDLINE="curl -v -H 'Authorization: Bearer fake-bearer-0005' http://127.0.0.1:18791/v1/me"
cap curl_v_bearer "$CURLV" curl -v -H 'Authorization: Bearer fake-bearer-0005' http://127.0.0.1:18791/v1/me
kill $SRV; wait $SRV 2>/dev/null

# ---------------------------------------------------------------- password variables in an environment listing
ENVV=$(printenv --version | head -1)
CMDLINE="printenv | sort"
cap env_pgpass "$ENVV" sh -c 'env -i HOME=/home/dev LANG=C.UTF-8 PATH=/usr/bin:/bin PGHOST=db.internal PGUSER=app PGPASS=hunter2 PWD=/home/dev OLDPWD=/home printenv | sort'
cap env_mysql_pwd "$ENVV" sh -c 'env -i HOME=/home/dev LANG=C.UTF-8 PATH=/usr/bin:/bin MYSQL_HOST=db.internal MYSQL_USER=app MYSQL_PWD=hunter2 PWD=/home/dev printenv | sort'

# ---------------------------------------------------------------- source files full of password/token code
"$PY" -m venv "$W/venv" && "$W/venv/bin/pip" download -q --no-deps -d "$W/wheels" pip==23.2.1 >/dev/null 2>&1
mkdir -p "$W/pip-src" && (cd "$W/pip-src" && "$PY" -m zipfile -e "$W"/wheels/pip-23.2.1-*.whl .)
cd "$W/pip-src"
CMDLINE="cat pip/_internal/network/auth.py"
cap cat_pip_network_auth "pip 23.2.1 (wheel from the package registry)" cat pip/_internal/network/auth.py
NPMROOT=$(npm root -g)
cd "$NPMROOT/npm"
CMDLINE="cat node_modules/npm-registry-fetch/lib/auth.js"
cap cat_npm_registry_fetch_auth "npm $(npm --version) (npm-registry-fetch $(node -p 'require("./node_modules/npm-registry-fetch/package.json").version'))" \
  cat node_modules/npm-registry-fetch/lib/auth.js
echo "captured into $OUT"
