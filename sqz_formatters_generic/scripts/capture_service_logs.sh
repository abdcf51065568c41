#!/usr/bin/env bash
# Capture service-log fixtures (tests/fixtures/service_logs/svc_*): nginx in front of gunicorn + Flask
# (the upstream stopped half-way), gunicorn's own logs, the Flask dev server with tracebacks,
# PostgreSQL under pgbench with failing statements and a deadlock, redis at verbose and a Python
# worker at DEBUG retrying against a closed port; read as agents read them (cat,
# tail -n, head -n, grep). Issue 25.1/25.2.
#
#   bash sqz_formatters_generic/scripts/capture_service_logs.sh
#
# Needs (as root): Debian nginx-light, redis-server, the PostgreSQL 15 binaries
# (/usr/lib/postgresql/15/bin, pgbench), runuser, and a scratch venv with flask + gunicorn
# (SVC_VENV, default /tmp/sqz-logs-venv; never the project venv). Loopback ports 18831-18839,
# fixed dir /tmp/sqz-svclogs; every server is stopped at the end. Registry hosts and index paths
# are scrubbed to pkgs.example.org. Sidecars keep their hand-written facts; this script refreshes
# command, produced_by and exit_code only.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/service_logs"
W=/tmp/sqz-svclogs
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
V=${SVC_VENV:-/tmp/sqz-logs-venv}
PGB=/usr/lib/postgresql/15/bin
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
rm -rf "$W" && mkdir -p "$W/logs" && cd "$W" || exit 1
LOAD="$PY $HERE/scripts/log_reads_load.py"

rd() {  # rd NAME "produced_by" CMDLINE: run the read command in $W, store scrubbed bytes + meta
  local name=$1 by=$2 cmd=$3
  (cd "$W" && bash -c "$cmd") >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$OUT/$name.txt"
  meta "$OUT/$name.json" "$cmd" "$by" "$rc"
  echo "captured service_logs/$name (exit $rc, $(wc -c <"$OUT/$name.txt") bytes)"
}

# ------------------------------------------------ nginx -> gunicorn -> Flask; the upstream stops half-way
NGV="$(nginx -v 2>&1)"
GUV="gunicorn $("$V/bin/gunicorn" --version 2>&1 | awk '{print $2}'), Flask $("$V/bin/python" -c 'import importlib.metadata as m; print(m.version("flask"))'), $("$V/bin/python" --version)"
cp "$HERE/scripts/svc_logs_app.py" "$W/app.py"
(cd "$W" && exec "$V/bin/gunicorn" --bind 127.0.0.1:18832 --workers 2 --log-level info \
  --access-logfile "$W/logs/gunicorn_access.log" --error-logfile "$W/logs/gunicorn_error.log" app:app) &
GU=$!
printf '%s\n' "worker_processes 1;" "pid $W/nginx.pid;" "error_log $W/logs/nginx_error.log info;" \
  "events { worker_connections 64; }" "http {" \
  "  access_log $W/logs/nginx_access.log combined;" \
  "  client_body_temp_path $W/t_body; proxy_temp_path $W/t_proxy; fastcgi_temp_path $W/t_fcgi;" \
  "  uwsgi_temp_path $W/t_uwsgi; scgi_temp_path $W/t_scgi;" \
  "  upstream shop { server 127.0.0.1:18832; }" \
  "  server {" "    listen 127.0.0.1:18831;" \
  "    location / { proxy_pass http://shop; proxy_connect_timeout 1s; proxy_read_timeout 5s; }" "  }" "}" >"$W/nginx.conf"
nginx -c "$W/nginx.conf"
sleep 2
B=http://127.0.0.1:18831
$LOAD $B "/health*30,/api/items/3*4,/api/items/7*3,/api/items/42*1,/api/slow*2,/health*20,/api/report*1"
$LOAD $B "/api/items/12*5,/api/stock*1,/health*25,/favicon.ico*2,/api/items/19*3,/health*15"
kill -TERM $GU; wait $GU 2>/dev/null
$LOAD $B "/health*10,/api/items/3*2,/health*8,/api/report*1,/health*6"
nginx -c "$W/nginx.conf" -s quit; sleep 1
rd svc_nginx_access_cat "$NGV" "cat logs/nginx_access.log"
rd svc_nginx_access_tail "$NGV" "tail -n 60 logs/nginx_access.log"
rd svc_nginx_access_grep "$NGV" "grep -v ' 200 ' logs/nginx_access.log"
rd svc_nginx_error_cat "$NGV" "cat logs/nginx_error.log"
rd svc_gunicorn_error_cat "$GUV" "cat logs/gunicorn_error.log"
rd svc_gunicorn_access_head "$GUV" "head -n 80 logs/gunicorn_access.log"

# ------------------------------------------------ the Flask dev server (werkzeug), two tracebacks
(cd "$W" && SVC_DEAD_PORT=18839 exec "$V/bin/flask" --app app run --host 127.0.0.1 --port 18833 >"$W/logs/flask.log" 2>&1) &
FL=$!
sleep 2
$LOAD http://127.0.0.1:18833 "/health*40,/api/items/5*6,/api/report*1,/api/items/99*2,/health*30,/api/stock*1,/api/slow*2,/health*25"
kill -INT $FL; wait $FL 2>/dev/null
rd svc_flask_dev_cat "$GUV" "cat logs/flask.log"

# ------------------------------------------------ PostgreSQL: pgbench load, failing statements, a deadlock
PGV="$($PGB/postgres --version), $($PGB/pgbench --version)"
PGW="$W/pg"
mkdir -p "$PGW" && chown postgres "$PGW"
runuser -u postgres -- $PGB/initdb -D "$PGW/data" -A trust -U postgres >/dev/null 2>&1
runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -l "$PGW/server.log" -w -o \
  "-p 18834 -k $PGW -c listen_addresses='' -c log_line_prefix='%m [%p] %q%u@%d ' -c log_connections=on -c log_disconnections=on -c log_checkpoints=on -c log_lock_waits=on -c deadlock_timeout=200ms -c log_min_duration_statement=20" start >/dev/null
PSQL="runuser -u postgres -- psql -h $PGW -p 18834 -U postgres -q -X"
$PSQL -c "CREATE DATABASE bench" postgres >/dev/null
runuser -u postgres -- $PGB/pgbench -h $PGW -p 18834 -U postgres -i -s 2 bench >"$W/logs/pgbench_init.txt" 2>&1
(cd "$W" && runuser -u postgres -- $PGB/pgbench -h $PGW -p 18834 -U postgres -c 4 -j 2 -T 8 -P 1 bench) >"$W/logs/pgbench_run.txt" 2>&1
$PSQL -c "SELECT abalance FROM pgbench_acounts WHERE aid = 1" bench >/dev/null 2>&1
$PSQL -c "INSERT INTO pgbench_branches (bid, bbalance) VALUES (1, 0)" bench >/dev/null 2>&1
$PSQL -c "SELECT 1/(bbalance - bbalance) FROM pgbench_branches LIMIT 1" bench >/dev/null 2>&1
( $PSQL -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance - 5 WHERE aid = 1; SELECT pg_sleep(0.6); UPDATE pgbench_accounts SET abalance = abalance + 5 WHERE aid = 2; COMMIT;" bench >/dev/null 2>&1 ) &
A=$!
sleep 0.2
$PSQL -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance - 7 WHERE aid = 2; SELECT pg_sleep(0.1); UPDATE pgbench_accounts SET abalance = abalance + 7 WHERE aid = 1; COMMIT;" bench >/dev/null 2>&1
wait $A
$PSQL -c "CHECKPOINT" bench >/dev/null
runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -w stop >/dev/null
cp "$PGW/server.log" "$W/logs/postgresql.log"
rd svc_postgres_pgbench_tail "$PGV" "tail -n 120 logs/postgresql.log"
rd svc_postgres_pgbench_grep "$PGV" "grep -E -A3 'ERROR|FATAL|deadlock' logs/postgresql.log"

# ------------------------------------------------ redis at verbose: clients, a SAVE and a BGSAVE
RDV="$(redis-server --version)"
redis-server --port 18835 --bind 127.0.0.1 --loglevel verbose --logfile "$W/logs/redis.log" --dir "$W" --daemonize no --save "" &
RD=$!
sleep 1
for i in $(seq 1 12); do redis-cli -p 18835 SET "order:$i" "$((i * 7))" >/dev/null; done
redis-benchmark -p 18835 -n 300 -c 3 -t set,get -q >/dev/null 2>&1
redis-cli -p 18835 SAVE >/dev/null
redis-cli -p 18835 BGSAVE >/dev/null; sleep 1
sleep 5
for i in $(seq 1 6); do redis-cli -p 18835 GET "order:$i" >/dev/null; done
redis-cli -p 18835 SHUTDOWN NOSAVE >/dev/null 2>&1; wait $RD 2>/dev/null
rd svc_redis_verbose_cat "$RDV" "cat logs/redis.log"

# ------------------------------------------------ a Python worker at DEBUG: retries against a closed port
WKV="$($PY --version) logging (svc_logs_worker.py: real ConnectionRefusedError on 127.0.0.1:18837)"
$PY "$HERE/scripts/svc_logs_worker.py" "$W/logs/worker.log" 18837 6
rd svc_worker_debug_cat "$WKV" "cat logs/worker.log"
rd svc_worker_debug_grep "$WKV" "grep -E 'WARNING|ERROR' logs/worker.log"
