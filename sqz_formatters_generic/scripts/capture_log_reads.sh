#!/usr/bin/env bash
# Re-capture the log-read fixtures (tests/fixtures/kinds/log/read_*): real servers' and a real worker's
# log files, read the way agents read them (cat, tail -n, grep), issue 25.1/25.2.
#
#   bash sqz_formatters_generic/scripts/capture_log_reads.sh
#
# Needs (run as root, for the PostgreSQL cluster's postgres user): nginx (Debian nginx 1.22), the
# PostgreSQL 15 server binaries (/usr/lib/postgresql/15/bin), python3 with venv + pip (Django is
# installed into a throw-away venv from the configured package index), runuser, curl.
# Everything runs on loopback ports 18811-18816 in the fixed dir /tmp/sqz-logreads (so paths
# and names in the logs are stable); the servers are stopped at the end.
# Registry hosts and local index paths are replaced by pkgs.example.org (scrub; none occur in these
# logs). Sidecars keep their hand-written facts/notes; this script only refreshes command,
# produced_by and exit_code (meta).
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds/log"
W=/tmp/sqz-logreads
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
PGB=/usr/lib/postgresql/15/bin
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
rm -rf "$W" && mkdir -p "$W/logs" && cd "$W" || exit 1
LOAD="$PY $HERE/scripts/log_reads_load.py"

# rd NAME "produced_by" CMDLINE : run the read command CMDLINE (stdout+stderr) in $W, store scrubbed bytes
rd() {
  local name=$1 by=$2 cmd=$3
  (cd "$W" && bash -c "$cmd") >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$OUT/$name.txt"
  meta "$OUT/$name.json" "$cmd" "$by" "$rc"
  echo "captured log/$name (exit $rc, $(wc -c <"$OUT/$name.txt") bytes)"
}

# ---------------------------------------------------------------- nginx: access and error log
NGV="$(nginx -v 2>&1)"
mkdir -p "$W/www/static" "$W/www/private" "$W/up"
for i in $(seq 1 8); do echo "body { margin: ${i}px; }" >"$W/www/static/app-$i.css"; done
echo ok >"$W/www/health"; echo '<h1>shop</h1>' >"$W/www/index.html"
for i in $(seq 1 30); do echo "{\"id\": $i}" >"$W/up/item-$i"; done
(cd "$W/up" && exec $PY -m http.server 18812 --bind 127.0.0.1 >/dev/null 2>&1) &
UP=$!
printf '%s\n' "worker_processes 1;" "pid $W/nginx.pid;" "error_log $W/logs/error.log info;" \
  "events { worker_connections 64; }" "http {" \
  "  access_log $W/logs/access.log combined;" \
  "  client_body_temp_path $W/t_body; proxy_temp_path $W/t_proxy; fastcgi_temp_path $W/t_fcgi;" \
  "  uwsgi_temp_path $W/t_uwsgi; scgi_temp_path $W/t_scgi;" \
  "  server {" "    listen 127.0.0.1:18811;" "    root $W/www;" \
  "    location /api/ { proxy_pass http://127.0.0.1:18812/; proxy_connect_timeout 1s; }" \
  "    location /checkout { return 500; }" "    location /private/ { autoindex off; }" "  }" "}" >"$W/nginx.conf"
nginx -c "$W/nginx.conf"
sleep 1
B=http://127.0.0.1:18811
$LOAD $B "/health*25,/index.html*3,/static/app-1.css*4,/static/app-2.css*3,/static/app-12.css*1,/health*20"
$LOAD $B "/api/item-1*3,/api/item-7*2,/api/item-31*1,/api/item-2*4,/private/*1,/health*15,/checkout*2"
$LOAD $B "/static/app-3.css*3,/api/item-4*3,/health*30,/wp-login.php*1,/.env*1,/health*10"
kill $UP; wait $UP 2>/dev/null
$LOAD $B "/api/item-5*4,/health*12,/api/item-6*2,/health*8"
nginx -c "$W/nginx.conf" -s quit; sleep 1
rd read_nginx_access_cat "$NGV" "cat logs/access.log"
rd read_nginx_access_tail "$NGV" "tail -n 80 logs/access.log"
rd read_nginx_error_cat "$NGV" "cat logs/error.log"

# ---------------------------------------------------------------- PostgreSQL: server log with a deadlock
PGV="$($PGB/postgres --version)"
PGW="$W/pg"
mkdir -p "$PGW" && chown postgres "$PGW"
runuser -u postgres -- $PGB/initdb -D "$PGW/data" -A trust -U postgres >/dev/null 2>&1
runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -l "$PGW/server.log" -w -o \
  "-p 18813 -k $PGW -c listen_addresses='' -c log_line_prefix='%m [%p] %q%u@%d ' -c log_connections=on -c log_disconnections=on -c deadlock_timeout=200ms" start >/dev/null
PSQL="runuser -u postgres -- psql -h $PGW -p 18813 -U postgres -q -X"
$PSQL -c "CREATE DATABASE shop" postgres >/dev/null
$PSQL -c "CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL); INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 10) g;" shop >/dev/null
for i in $(seq 1 12); do $PSQL -c "SELECT sum(balance) FROM accounts" shop >/dev/null; done
$PSQL -c "SELECT * FROM acounts" shop >/dev/null 2>&1
# two sessions updating two rows in opposite order: the second one's wait becomes a deadlock
( $PSQL -c "BEGIN; UPDATE accounts SET balance = balance - 5 WHERE id = 1; SELECT pg_sleep(0.6); UPDATE accounts SET balance = balance + 5 WHERE id = 2; COMMIT;" shop >/dev/null 2>&1 ) &
A=$!
sleep 0.2
$PSQL -c "BEGIN; UPDATE accounts SET balance = balance - 7 WHERE id = 2; SELECT pg_sleep(0.1); UPDATE accounts SET balance = balance + 7 WHERE id = 1; COMMIT;" shop >/dev/null 2>&1
wait $A
for i in $(seq 1 6); do $PSQL -c "SELECT count(*) FROM accounts" shop >/dev/null; done
runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -w stop >/dev/null
cp "$PGW/server.log" "$W/logs/postgresql.log"
rd read_postgres_deadlock_cat "$PGV" "cat logs/postgresql.log"
rd read_postgres_deadlock_grep "$PGV" "grep -A4 ERROR logs/postgresql.log"

# ---------------------------------------------------------------- Django runserver
DJV=
$PY -m venv "$W/djvenv" && "$W/djvenv/bin/python" -m pip install --quiet --disable-pip-version-check django >/dev/null 2>&1
DJV="Django $("$W/djvenv/bin/python" -m django --version), runserver, $("$W/djvenv/bin/python" --version)"
(cd "$W" && "$W/djvenv/bin/django-admin" startproject shopsite >/dev/null)
(cd "$W/shopsite" && exec "$W/djvenv/bin/python" manage.py migrate --noinput >/dev/null 2>&1)
(cd "$W/shopsite" && exec "$W/djvenv/bin/python" -u manage.py runserver 127.0.0.1:18814 --noreload >"$W/logs/runserver.log" 2>&1) &
DJ=$!
sleep 3
B=http://127.0.0.1:18814
$LOAD $B "/admin/*4,/admin/login/?next=/admin/*6,/favicon.ico*3,/static/admin/css/base.css*2,/api/orders/*2,/admin/*5"
# a form post without the CSRF cookie: Django's real 403
for i in 1 2; do curl -s -o /dev/null -X POST -d 'username=a&password=b' "$B/admin/login/"; done
$LOAD $B "/admin/login/*8,/robots.txt*1,/admin/*3"
kill $DJ; wait $DJ 2>/dev/null
rd read_django_runserver_cat "$DJV" "cat logs/runserver.log"

# ---------------------------------------------------------------- a Python worker: DEBUG lines, retry warnings
WKV="$($PY --version) logging (log_reads_worker.py: real ConnectionRefusedError retries, then http.server's real 501s)"
rm -f "$W/logs/worker.log.ready" "$W/logs/worker.log.up"
$PY "$HERE/scripts/log_reads_worker.py" "$W/logs/worker.log" 18815 &
WK=$!
for _ in $(seq 1 400); do [ -e "$W/logs/worker.log.ready" ] && break; sleep 0.05; done
(cd "$W/up" && exec $PY -m http.server 18815 --bind 127.0.0.1 >/dev/null 2>&1) &
UP=$!
sleep 1; touch "$W/logs/worker.log.up"
wait $WK
kill $UP; wait $UP 2>/dev/null
rm -f "$W/logs/worker.log.ready" "$W/logs/worker.log.up"
rd read_worker_retries_cat "$WKV" "cat logs/worker.log"
rd read_worker_retries_tail "$WKV" "tail -n 100 logs/worker.log"
rd read_worker_retries_grep "$WKV" "grep -E 'WARNING|ERROR' logs/worker.log"
