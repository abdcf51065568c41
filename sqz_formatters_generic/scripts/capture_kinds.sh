#!/usr/bin/env bash
# Re-capture the content-kind fixtures under sqz_formatters_generic/tests/fixtures/kinds/ from real programs.
#
# Needs: python3 (venv + pip), npm/node, cargo, kubectl, tree, ripgrep, curl, unshare (root),
# PostgreSQL server binaries (Debian postgresql) and runuser for the held-out logs;
# nginx (nginx-light), redis-server (and redis-tools) and rsyslog for `capture_kinds.sh heldout-h2`.
# `capture_kinds.sh heldout-listings` re-captures only the held-out listing/log fixtures.
# Throw-away projects live in the fixed dir /tmp/sqz-capture/kinds so paths in the output are stable.
# Registry hosts and local index paths are replaced by pkgs.example.org (see scrub()).
# Sidecars keep their hand-written facts/dropped/notes; this script only refreshes
# command, produced_by and exit_code (see meta()).
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds"
W=/tmp/sqz-capture/kinds
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}  # a Python with sqz-core installed (the repo's .venv)
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
if [ "${1:-}" = heldout-h2 ]; then  # its own dirs: leaves /tmp/sqz-capture/kinds alone
  W=/tmp/sqz-capture/kinds-h2-w; mkdir -p "$W" || exit 1
else
  rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
fi


# cap KIND NAME "produced_by" CMD... : run CMD (stdout+stderr) in the current dir, store scrubbed bytes.
cap() {
  local kind=$1 name=$2 by=$3; shift 3
  mkdir -p "$OUT/$kind"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$OUT/$kind/$name.txt"
  meta "$OUT/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $kind/$name (exit $rc, $(wc -c <"$OUT/$kind/$name.txt") bytes)"
}

capo() {  # like cap, stdout only (stderr discarded): the command line records 2>/dev/null
  local kind=$1 name=$2 by=$3; shift 3
  mkdir -p "$OUT/$kind"
  "$@" >"$W/.out" 2>/dev/null
  local rc=$?
  scrub <"$W/.out" >"$OUT/$kind/$name.txt"
  meta "$OUT/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $kind/$name (exit $rc, $(wc -c <"$OUT/$kind/$name.txt") bytes)"
}


# ---------------------------------------------------------------- held-out pass #2 (h2_*)
# `capture_kinds.sh heldout-h2`: shapes none of the fixtures above has, on projects they were not
# written on (SQLAlchemy 2.0.36, urllib3 2.2.3 in a venv): grep -rn over a big tree (capped with head,
# and with grep's "binary file matches" lines), grep -C2, rg --stats/-l/--files/--type, find -newer and
# -printf, ls -lR and -lah --time-style=long-iso, tree -L 3 -a, du | sort -h | tail, wc -l, stat; and
# logs of real servers run here under a bounded loopback load: nginx access and error logs (404, 403,
# 500, 502), PostgreSQL with log_line_prefix, slow statements, lock waits and a deadlock, Redis at
# verbose level under redis-benchmark, a threaded Python app logging urllib3 retries and an
# exception, and the syslog (rsyslogd, traditional format) the three servers also wrote to.
# Throw-away dir /tmp/sqz-capture/kinds-h2 so paths in the output are stable.
H2=/tmp/sqz-capture/kinds-h2
heldout_h2() {
  local SITE2 LSV FINDV TREEV DUV GREPV RGV WCV STATV
  rm -rf "$H2" && mkdir -p "$H2" && cd "$H2" || return 1
  $PY -m venv "$H2/venv" && "$H2/venv/bin/pip" install -q sqlalchemy==2.0.36 requests==2.32.3 urllib3==2.2.3 >/dev/null 2>&1
  "$H2/venv/bin/python" -m compileall -q "$H2/venv" >/dev/null 2>&1   # __pycache__ as an imported package has it
  SITE2=$("$H2/venv/bin/python" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
  LSV="$(ls --version | head -1)"; FINDV="$(find --version | head -1)"; TREEV="$(tree --version | cut -d' ' -f1-2)"
  DUV="$(du --version | head -1)"; GREPV="$(grep --version | head -1)"; RGV="$(rg --version | head -1)"
  WCV="$(wc --version | head -1)"; STATV="$(stat --version | head -1)"
  cd "$SITE2" || return 1
  # ---- grep / rg
  CMDLINE="grep -rn 'NotImplementedError' sqlalchemy | head -n 250"
  cap grep h2_grep_rn_head_sqlalchemy "$GREPV" bash -c "grep -rn 'NotImplementedError' sqlalchemy | head -n 250"
  CMDLINE="grep -rn 'warn_deprecated' sqlalchemy"
  cap grep h2_grep_rn_binary_matches "$GREPV" grep -rn 'warn_deprecated' sqlalchemy
  CMDLINE="grep -rn -C2 'raise exc.InvalidRequestError' sqlalchemy/orm/session.py sqlalchemy/engine/base.py"
  cap grep h2_grep_C2_invalid_request "$GREPV" grep -rn -C2 'raise exc.InvalidRequestError' sqlalchemy/orm/session.py sqlalchemy/engine/base.py
  CMDLINE="rg --stats 'TODO|FIXME' sqlalchemy"; cap grep h2_rg_stats_todo "$RGV" rg --stats 'TODO|FIXME' sqlalchemy
  CMDLINE="rg -l 'import asyncio' sqlalchemy urllib3"; cap grep h2_rg_l_asyncio "$RGV" rg -l 'import asyncio' sqlalchemy urllib3
  CMDLINE="rg --files --type py sqlalchemy/dialects"; cap grep h2_rg_files_type_py "$RGV" rg --files --type py sqlalchemy/dialects
  CMDLINE="rg -n --type py 'log\\.(warning|error)\\(' urllib3 requests"
  cap grep h2_rg_type_log_calls "$RGV" rg -n --type py 'log\.(warning|error)\(' urllib3 requests
  # ---- find
  mkdir -p "$H2/proj" && cp -r "$SITE2/requests" "$SITE2/urllib3" "$H2/proj/"
  cd "$H2/proj" && find . -name __pycache__ -prune -exec rm -rf {} + && find . -type f -exec touch -d '2026-11-30 09:00' {} +
  touch -d '2026-11-30 10:00' .last_build
  for f in requests/sessions.py requests/adapters.py urllib3/util/retry.py urllib3/connectionpool.py urllib3/exceptions.py; do echo "# touched" >>"$f"; done
  CMDLINE="find . -name '*.py' -newer .last_build"; cap find h2_find_newer "$FINDV" find . -name '*.py' -newer .last_build
  cd "$SITE2" || return 1
  CMDLINE="find sqlalchemy/orm sqlalchemy/engine -name '*.py' -printf '%s\\t%p\\n'"
  cap find h2_find_printf_size "$FINDV" find sqlalchemy/orm sqlalchemy/engine -name '*.py' -printf '%s\t%p\n'
  CMDLINE="find urllib3 -type f -printf '%TY-%Tm-%Td %TH:%TM %8s %p\\n'"
  cap find h2_find_printf_time "$FINDV" find urllib3 -type f -printf '%TY-%Tm-%Td %TH:%TM %8s %p\n'
  CMDLINE="find $SITE2/sqlalchemy -name '*.so'"; cap find h2_find_abs_so "$FINDV" find "$SITE2/sqlalchemy" -name '*.so'
  # ---- ls
  CMDLINE="ls -lR urllib3"; cap ls h2_ls_lR_urllib3 "$LSV" ls -lR urllib3
  CMDLINE="ls -lah --time-style=long-iso sqlalchemy/orm"; cap ls h2_ls_lah_longiso_orm "$LSV" ls -lah --time-style=long-iso sqlalchemy/orm
  CMDLINE="ls -la /etc/alternatives"; cap ls h2_ls_la_alternatives "$LSV" ls -la /etc/alternatives
  # ---- tree / du
  CMDLINE="tree -L 3 -a sqlalchemy"; cap tree h2_tree_L3_a_sqlalchemy "$TREEV" tree -L 3 -a sqlalchemy
  CMDLINE="du -ah sqlalchemy | sort -h | tail -n 25"; cap du h2_du_ah_sort_tail "$DUV" bash -c 'du -ah sqlalchemy | sort -h | tail -n 25'
  CMDLINE="du -sh * | sort -rh"; cap du h2_du_sh_sort_rh "$DUV" bash -c 'du -sh * | sort -rh'
  # ---- wc / stat: no kind reads them (passthrough), so they join the generic held-out set
  CMDLINE="wc -l sqlalchemy/orm/*.py"; cap ../generic h2_wc_l_orm "$WCV" bash -c 'wc -l sqlalchemy/orm/*.py'
  CMDLINE="stat urllib3/*.py"; cap ../generic h2_stat_urllib3 "$STATV" bash -c 'stat urllib3/*.py'
  heldout_h2_logs
}

heldout_h2_logs() {
  local NGV RDV PGB=/usr/lib/postgresql/15/bin PGV RSV HAD_DEVLOG=0 RS UP PGW PSQL A RD FL
  NGV="$(nginx -v 2>&1)"; RDV="$(redis-server --version | cut -d' ' -f1-3)"; PGV="$($PGB/postgres --version)"
  RSV="$(rsyslogd -v | head -1 | cut -d, -f1)"
  [ -d "$H2" ] || return 1
  mkdir -p "$H2/logs" "$H2/www/static" "$H2/www/private" && cd "$H2" || return 1
  for i in $(seq 1 20); do echo "body { margin: ${i}px; }" >"$H2/www/static/app-$i.css"; done
  echo ok >"$H2/www/health"; echo '<h1>shop</h1>' >"$H2/www/index.html"
  # syslog: rsyslogd in the foreground listening on /dev/log, traditional format, to a file
  printf '%s\n' 'module(load="imuxsock" SysSock.Name="/dev/log")' "\$WorkDirectory $H2" \
    '$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat' "*.* $H2/logs/syslog" >"$H2/rsyslog.conf"
  [ -e /dev/log ] && HAD_DEVLOG=1
  rsyslogd -n -f "$H2/rsyslog.conf" -i "$H2/rsyslogd.pid" >/dev/null 2>&1 &
  RS=$!
  sleep 1
  # an upstream (http.server) behind nginx: up for the first part, then stopped (502s)
  (cd "$H2/www" && exec $PY -m http.server 18802 --bind 127.0.0.1 >/dev/null 2>&1) &
  UP=$!
  printf '%s\n' "worker_processes 2;" "pid $H2/nginx.pid;" "error_log $H2/logs/nginx_error.log info;" \
    "error_log syslog:server=unix:/dev/log,tag=nginx warn;" "events { worker_connections 256; }" "http {" \
    "  access_log $H2/logs/nginx_access.log combined;" \
    "  client_body_temp_path $H2/t_body; proxy_temp_path $H2/t_proxy; fastcgi_temp_path $H2/t_fcgi;" \
    "  uwsgi_temp_path $H2/t_uwsgi; scgi_temp_path $H2/t_scgi;" \
    "  server {" "    listen 127.0.0.1:18801;" "    root $H2/www;" \
    "    location /api/ { proxy_pass http://127.0.0.1:18802/; proxy_connect_timeout 1s; }" \
    "    location /checkout { return 500; }" "    location /private/ { autoindex off; }" "  }" "}" >"$H2/nginx.conf"
  nginx -c "$H2/nginx.conf"
  sleep 1
  cp "$HERE/scripts/h2_load.py" "$H2/load.py"
  $PY "$H2/load.py" 150
  kill $UP; wait $UP 2>/dev/null
  $PY "$H2/load.py" 40
  for u in /wp-login.php /.env /static/app-99.css; do curl -s -o /dev/null "http://127.0.0.1:18801$u"; done
  nginx -c "$H2/nginx.conf" -s quit; sleep 1
  scrub <"$H2/logs/nginx_access.log" >"$OUT/log/h2_nginx_access.txt"
  meta "$OUT/log/h2_nginx_access.json" "nginx -c nginx.conf (access_log combined; load.py: 8 client threads x 190 requests, the upstream stopped after 150)" "$NGV" 0
  scrub <"$H2/logs/nginx_error.log" >"$OUT/log/h2_nginx_error.txt"
  meta "$OUT/log/h2_nginx_error.json" "nginx -c nginx.conf (error_log info; the same run as h2_nginx_access)" "$NGV" 0
  echo "captured log/h2_nginx_access, log/h2_nginx_error"

  # ---- PostgreSQL: Debian's log_line_prefix, slow statements only, lock waits, a deadlock, a timeout
  PGW="$H2/pg"
  mkdir -p "$PGW" && chown postgres "$PGW"
  runuser -u postgres -- $PGB/initdb -D "$PGW/data" -A trust -U postgres >/dev/null 2>&1
  runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -l "$PGW/server.log" -w -o \
    "-p 18804 -k $PGW -c listen_addresses='' -c log_line_prefix='%m [%p] %q%u@%d ' -c log_min_duration_statement=40 -c log_lock_waits=on -c deadlock_timeout=200ms -c log_destination=stderr,syslog -c syslog_ident=postgres" start >/dev/null
  runuser -u postgres -- $PGB/pgbench -h "$PGW" -p 18804 -i -s 2 postgres >/dev/null 2>&1
  runuser -u postgres -- $PGB/pgbench -h "$PGW" -p 18804 -c 6 -T 15 postgres >/dev/null 2>&1
  PSQL="runuser -u postgres -- psql -h $PGW -p 18804 -U postgres -q postgres"
  $PSQL <"$HERE/scripts/h2_pg_statements.sql" >/dev/null 2>&1
  # two sessions updating two rows in opposite order: a lock wait, then a deadlock
  ( $PSQL -c "BEGIN; UPDATE accounts SET balance = balance + 1 WHERE id = 1; SELECT pg_sleep(0.5); UPDATE accounts SET balance = balance + 1 WHERE id = 2; COMMIT;" >/dev/null 2>&1 ) &
  A=$!
  sleep 0.1
  $PSQL -c "BEGIN; UPDATE accounts SET balance = balance + 1 WHERE id = 2; SELECT pg_sleep(0.2); UPDATE accounts SET balance = balance + 1 WHERE id = 1; COMMIT;" >/dev/null 2>&1
  wait $A
  runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -w stop >/dev/null
  scrub <"$PGW/server.log" >"$OUT/log/h2_postgres_slow_deadlock.txt"
  meta "$OUT/log/h2_postgres_slow_deadlock.json" "postgres -p 18804 -c log_line_prefix='%m [%p] %q%u@%d ' -c log_min_duration_statement=40 -c log_lock_waits=on -c deadlock_timeout=200ms (server log; pgbench -c 6 -T 15, then h2_pg_statements.sql and a deadlock via psql)" "$PGV" 0
  echo "captured log/h2_postgres_slow_deadlock"

  # ---- Redis at verbose level: redis-benchmark load, BGSAVE by the save rule, a bad CONFIG SET, shutdown
  mkdir -p "$H2/redis"
  redis-server --port 18803 --bind 127.0.0.1 --dir "$H2/redis" --loglevel verbose --logfile "$H2/logs/redis.log" \
    --save "2 1000" --syslog-enabled yes --syslog-ident redis --daemonize no &
  RD=$!
  sleep 1
  if redis-cli -p 18803 PING >/dev/null 2>&1; then
    timeout 120 redis-benchmark -p 18803 -n 20000 -c 20 -q -t set,get,incr,lpush >/dev/null 2>&1
    sleep 3
    redis-cli -p 18803 CONFIG SET dir /no/such/dir >/dev/null 2>&1
    timeout 60 redis-benchmark -p 18803 -n 5000 -c 10 -q -t set >/dev/null 2>&1
    sleep 3
    redis-cli -p 18803 SHUTDOWN SAVE >/dev/null 2>&1
  else
    kill $RD
  fi
  wait $RD 2>/dev/null
  scrub <"$H2/logs/redis.log" >"$OUT/log/h2_redis_verbose.txt"
  meta "$OUT/log/h2_redis_verbose.json" "redis-server --port 18803 --loglevel verbose --logfile redis.log --save '2 1000' (redis-benchmark -n 20000 -c 20, CONFIG SET dir /no/such/dir, redis-benchmark -n 5000, SHUTDOWN SAVE)" "$RDV" 0
  echo "captured log/h2_redis_verbose"

  # ---- a threaded Python app: urllib3 retries against a flaky local server and a closed port
  $PY "$HERE/scripts/h2_flaky_server.py" &
  FL=$!
  sleep 1
  cp "$HERE/scripts/h2_sync_orders.py" "$H2/sync_orders.py" && cd "$H2" || return 1
  CMDLINE="python sync_orders.py"
  cap log h2_python_urllib3_threads "$("$H2/venv/bin/python" --version), requests 2.32.3, urllib3 2.2.3" "$H2/venv/bin/python" sync_orders.py
  kill $FL; wait $FL 2>/dev/null

  # ---- the syslog the servers also wrote to (and two lines from logger)
  logger -t backup "nightly backup finished: 3 databases, 412 MB"
  logger -t backup -p user.err "backup of database inventory failed: connection refused"
  sleep 1
  kill $RS; wait $RS 2>/dev/null
  [ "$HAD_DEVLOG" = 0 ] && rm -f /dev/log
  scrub <"$H2/logs/syslog" >"$OUT/log/h2_syslog_servers.txt"
  meta "$OUT/log/h2_syslog_servers.json" "rsyslogd -n (RSYSLOG_TraditionalFileFormat; nginx warn and above, postgres and redis during the runs above, logger -t backup)" "$RSV" 0
  echo "captured log/h2_syslog_servers"
}

if [ "${1:-}" = heldout-h2 ]; then heldout_h2; echo done; exit 0; fi

# ---------------------------------------------------------------- projects
$PY -m venv "$W/venv" && "$W/venv/bin/pip" install -q requests==2.32.3 rich==13.9.4 pipdeptree==2.23.4 >/dev/null
VPY="$W/venv/bin/python"; SITE=$("$VPY" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
PIPV=$("$W/venv/bin/pip" --version | cut -d' ' -f1-2)

mkdir -p "$W/web" && cd "$W/web" && npm init -y >/dev/null && npm install -q express@4.21.2 >/dev/null 2>&1
NPMV="npm $(npm --version)"

# a cargo workspace of local crates (no registry access needed): app -> {core, net -> core}
mkdir -p "$W/ws" && cd "$W/ws"
for c in core net cli app; do cargo new -q --vcs none $( [ $c = app ] || [ $c = cli ] && echo --bin || echo --lib ) $c; done
cat >Cargo.toml <<'EOF'
[workspace]
members = ["app", "core", "net", "cli"]
resolver = "2"
EOF
printf 'core = { path = "../core" }\n' >>net/Cargo.toml
printf 'core = { path = "../core" }\nnet = { path = "../net" }\n' >>cli/Cargo.toml
printf 'core = { path = "../core" }\nnet = { path = "../net" }\ncli = { path = "../cli" }\n' >>app/Cargo.toml
cat >app/src/main.rs <<'EOF'
fn main() {
    let unused_total = 3;
    let retries: u32 = "7".parse().unwrap();
    println!("retries {}", retries);
}
EOF
CARGOV=$(cargo --version | cut -d' ' -f1-2)

# ---------------------------------------------------------------- held-out listings / logs
# Shapes, projects and sizes the first fixtures above don't cover: big node_modules listings,
# find -ls, ls -laR, tree -L/-d, du -d, grep -c/-l/-C, rg plain/--heading/-C, failing runs
# (missing paths, a broken npm tree), and logs from real servers and libraries (http.server under
# parallel load, PostgreSQL, urllib3 retries, uvicorn/gunicorn with repeated
# tracebacks, repeated Python warnings). `capture_kinds.sh heldout-listings` re-captures only these.
heldout_listings() {
  local SITE_ LSV FINDV TREEV DUV GREPV RGV
  LSV="$(ls --version | head -1)"; FINDV="$(find --version | head -1)"; TREEV="$(tree --version | cut -d' ' -f1-2)"
  DUV="$(du --version | head -1)"; GREPV="$(grep --version | head -1)"; RGV="$(rg --version | head -1)"
  # a bigger npm project (eslint's tree) and a broken one (a missing, an invalid and an extraneous package)
  mkdir -p "$W/lint" && cd "$W/lint" && npm init -y >/dev/null && npm install -q eslint@8.57.0 >/dev/null 2>&1
  mkdir -p "$W/broken" && cd "$W/broken" && npm init -y >/dev/null \
    && npm install -q express@4.21.2 is-number@7.0.0 left-pad@1.3.0 >/dev/null 2>&1
  rm -rf "$W/broken/node_modules/ms"
  "$PY" - "$W/broken/package.json" <<'EOF'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
d["dependencies"]["is-number"] = "^6.0.0"; del d["dependencies"]["left-pad"]
open(p, "w").write(json.dumps(d, indent=2) + "\n")
EOF
  # a second Python env with a deeper dependency graph
  $PY -m venv "$W/venv2" && "$W/venv2/bin/pip" install -q flask==3.0.3 sqlalchemy==2.0.36 httpx==0.27.2 \
    uvicorn==0.32.1 gunicorn==23.0.0 pipdeptree==2.23.4 urllib3==2.2.3 requests==2.32.3 >/dev/null 2>&1

  # ---- find
  cd "$W/web"
  CMDLINE="find node_modules -name '*.js' -not -path '*/test/*'"
  cap find find_node_modules_js "$FINDV" find node_modules -name '*.js' -not -path '*/test/*'
  cd "$SITE"
  CMDLINE="find requests rich/_win32_console.py no-such-dir -name '*.py'"
  cap find find_missing_dir "$FINDV" find requests rich/_win32_console.py no-such-dir -name '*.py'
  CMDLINE="find requests -ls"; cap find find_ls_requests "$FINDV" find requests -ls
  CMDLINE="find . -maxdepth 2 -type d"; cap find find_type_d "$FINDV" find . -maxdepth 2 -type d
  # ---- ls
  CMDLINE="ls -laR requests"; cap ls ls_laR_requests "$LSV" ls -laR requests
  cd "$W/web"
  CMDLINE="ls -lah node_modules"; cap ls ls_lah_node_modules "$LSV" ls -lah node_modules
  CMDLINE="ls -la --time-style=long-iso node_modules/express node_modules/no-such-pkg"
  cap ls ls_la_longiso_missing "$LSV" ls -la --time-style=long-iso node_modules/express node_modules/no-such-pkg
  # ---- tree
  cd "$W/lint"
  CMDLINE="tree -L 2 node_modules"; cap tree tree_L2_node_modules "$TREEV" tree -L 2 node_modules
  CMDLINE="tree -d -L 3 node_modules/eslint node_modules/ajv node_modules/@eslint"
  cap tree tree_d_dirs "$TREEV" tree -d -L 3 node_modules/eslint node_modules/ajv node_modules/@eslint
  cd "$SITE"
  CMDLINE="tree -a -F -h requests"; cap tree tree_aFh_requests "$TREEV" tree -a -F -h requests
  # ---- du
  cd "$W/lint"
  CMDLINE="du -h -d 2 node_modules"; cap du du_h_d2_node_modules "$DUV" du -h -d 2 node_modules
  CMDLINE="du -sh node_modules/* no-such-dir"; cap du du_sh_star "$DUV" bash -c 'du -sh node_modules/* no-such-dir'
  # ---- grep / rg
  cd "$W/lint/node_modules"
  CMDLINE="grep -rn 'require(' eslint/lib/rules"; cap grep grep_rn_require_eslint "$GREPV" grep -rn 'require(' eslint/lib/rules
  CMDLINE="grep -rc 'context.report' eslint/lib/rules"; cap grep grep_c_rules "$GREPV" grep -rc 'context.report' eslint/lib/rules
  CMDLINE="grep -rl 'deprecated: true' eslint/lib/rules"; cap grep grep_l_deprecated "$GREPV" grep -rl 'deprecated: true' eslint/lib/rules
  cd "$SITE"
  CMDLINE="grep -rn -C 2 'def send' requests"; cap grep grep_C2_send "$GREPV" grep -rn -C 2 'def send' requests
  CMDLINE="grep -rn 'verify=' requests no-such-dir"; cap grep grep_rn_missing "$GREPV" grep -rn 'verify=' requests no-such-dir
  CMDLINE="rg 'import ' requests"; cap grep rg_plain_import "$RGV" rg 'import ' requests
  CMDLINE="rg --heading -n 'class \\w+Error' requests rich"; cap grep rg_heading_errors "$RGV" rg --heading -n 'class \w+Error' requests rich
  CMDLINE="rg -n -C 2 'raise ' requests/adapters.py requests/sessions.py"
  cap grep rg_C2_raise "$RGV" rg -n -C 2 'raise ' requests/adapters.py requests/sessions.py
  # ---- dependency trees
  cd "$W/lint"
  CMDLINE="npm ls --all"; cap deptree npm_ls_all_eslint "$NPMV" npm ls --all
  cd "$W/broken"
  CMDLINE="npm ls --all"; cap deptree npm_ls_broken "$NPMV" npm ls --all
  cd "$W/ws"
  CMDLINE="cargo tree --workspace -e normal -i core"; cap deptree cargo_tree_invert "$CARGOV" cargo tree --workspace -e normal -i core
  cd "$W"
  CMDLINE="pipdeptree"; cap deptree pipdeptree_flask "pipdeptree 2.23.4" "$W/venv2/bin/pipdeptree" --python "$W/venv2/bin/python"
  CMDLINE="pipdeptree -r -p markupsafe,idna,sniffio"
  cap deptree pipdeptree_reverse "pipdeptree 2.23.4" "$W/venv2/bin/pipdeptree" --python "$W/venv2/bin/python" -r -p markupsafe,idna,sniffio
  heldout_logs
}

heldout_logs() {
  local VPY2="$W/venv2/bin/python" PYV
  PYV="$($PY --version)"
  # ---- http.server under parallel load (8 clients): pages, 304s, HEADs, 404s, 501s
  mkdir -p "$W/site2" && cp -r "$SITE/requests" "$SITE/rich" "$W/site2/" && echo ok >"$W/site2/health"
  (cd "$W/site2" && exec $PY -u -m http.server 18775 --bind 127.0.0.1 >"$W/http2.log" 2>&1) &
  local SRV=$!
  sleep 1
  {
    for i in $(seq 1 120); do echo "-s -o /dev/null http://127.0.0.1:18775/health"; done
    for f in api sessions adapters models utils; do
      for i in 1 2 3 4; do echo "-s -o /dev/null http://127.0.0.1:18775/requests/$f.py"; done
      echo "-s -o /dev/null -H If-Modified-Since:Tue,01Dec2099 http://127.0.0.1:18775/requests/$f.py"
    done
    for i in $(seq 1 12); do echo "-s -o /dev/null http://127.0.0.1:18775/static/app-$i.js"; done
    for i in $(seq 1 6); do echo "-s -o /dev/null -X DELETE http://127.0.0.1:18775/requests/api.py"; done
    for i in $(seq 1 10); do echo "-s -o /dev/null -I http://127.0.0.1:18775/rich/"; done
  } | xargs -P 8 -L 1 curl
  kill $SRV; wait $SRV 2>/dev/null
  mkdir -p "$OUT/log"; scrub <"$W/http2.log" >"$OUT/log/http_server_parallel.txt"
  meta "$OUT/log/http_server_parallel.json" "python3 -u -m http.server 18775 --bind 127.0.0.1" "$PYV" 0
  echo "captured log/http_server_parallel"

  # ---- PostgreSQL server log: pgbench load with every statement logged, failing statements, a checkpoint
  local PGW="$W/pg" PGB=/usr/lib/postgresql/15/bin PGV
  PGV="$($PGB/postgres --version)"
  mkdir -p "$PGW" && chown postgres "$PGW"
  runuser -u postgres -- $PGB/initdb -D "$PGW/data" -A trust -U postgres >/dev/null 2>&1
  runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -l "$PGW/server.log" -w -o \
    "-p 18776 -k $PGW -c listen_addresses='' -c log_min_duration_statement=0 -c log_checkpoints=on -c log_connections=on -c log_disconnections=on" start >/dev/null
  runuser -u postgres -- $PGB/pgbench -h "$PGW" -p 18776 -i -s 1 postgres >/dev/null 2>&1
  runuser -u postgres -- $PGB/pgbench -h "$PGW" -p 18776 -c 4 -t 8 postgres >/dev/null 2>&1
  runuser -u postgres -- psql -h "$PGW" -p 18776 -U postgres -q postgres >/dev/null 2>&1 <<'EOF'
CREATE TABLE orders (id int PRIMARY KEY, sku text NOT NULL);
INSERT INTO orders VALUES (1, 'A-100');
INSERT INTO orders VALUES (1, 'A-100');
INSERT INTO orders VALUES (1, 'A-100');
INSERT INTO orders VALUES (2, NULL);
SELECT * FROM order_items;
SELECT count(*) / 0 FROM orders;
SELEC 1;
CHECKPOINT;
EOF
  runuser -u postgres -- $PGB/pg_ctl -D "$PGW/data" -w stop >/dev/null
  scrub <"$PGW/server.log" >"$OUT/log/postgres_server.txt"
  meta "$OUT/log/postgres_server.json" "postgres -D data -p 18776 -c log_min_duration_statement=0 -c log_checkpoints=on -c log_connections=on -c log_disconnections=on (server log; pgbench -c 4 -t 8, then failing statements via psql)" "$PGV" 0
  echo "captured log/postgres_server"

  # ---- Python logging from real libraries: requests/urllib3 at DEBUG, retries against a closed port
  (cd "$W/site2" && exec $PY -m http.server 18777 --bind 127.0.0.1 >/dev/null 2>&1) &
  local SRV2=$!
  sleep 1
  cat >"$W/fetch.py" <<'EOF'
import logging, requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry
logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("fetcher")
s = requests.Session()
s.mount("http://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.1)))
for i in range(25):
    path = "/health" if i % 5 else f"/requests/api.py?page={i}"
    r = s.get("http://127.0.0.1:18777" + path, timeout=5)
    log.info("fetched %s -> %d (%d bytes)", path, r.status_code, len(r.content))
r = s.get("http://127.0.0.1:18777/reports/2026-11.csv", timeout=5)
log.warning("report missing: %s", r.status_code)
try:
    s.get("http://127.0.0.1:18774/metrics", timeout=2)
except requests.ConnectionError:
    log.exception("metrics endpoint down")
log.info("done: 26 fetched, 1 missing, 1 failed")
EOF
  CMDLINE="python fetch.py"; cap log requests_urllib3_debug "$("$VPY2" --version), requests $("$VPY2" -c 'import requests;print(requests.__version__)'), urllib3 2.2.3" "$VPY2" "$W/fetch.py"
  kill $SRV2; wait $SRV2 2>/dev/null

  # ---- uvicorn: an ASGI app whose /boom raises (the same traceback logged per request)
  cat >"$W/asgi_app.py" <<'EOF'
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/boom":
        raise RuntimeError("payment gateway returned malformed JSON")
    status = 200 if scope["path"] in ("/", "/health") else 404
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})
EOF
  (cd "$W" && exec "$W/venv2/bin/uvicorn" asgi_app:app --port 18778 >"$W/uvicorn.log" 2>&1) &
  local UV=$!
  sleep 2
  for i in $(seq 1 30); do curl -s -o /dev/null http://127.0.0.1:18778/health; done
  for i in 1 2 3 4; do curl -s -o /dev/null http://127.0.0.1:18778/boom; curl -s -o /dev/null http://127.0.0.1:18778/; done
  curl -s -o /dev/null http://127.0.0.1:18778/admin
  for i in $(seq 1 10); do curl -s -o /dev/null http://127.0.0.1:18778/health; done
  kill -INT $UV; wait $UV 2>/dev/null
  scrub <"$W/uvicorn.log" >"$OUT/log/uvicorn_boom.txt"
  meta "$OUT/log/uvicorn_boom.json" "uvicorn asgi_app:app --port 18778" "uvicorn 0.32.1, $("$VPY2" --version)" 0
  echo "captured log/uvicorn_boom"

  # ---- gunicorn: a Flask app, access log on stdout, a failing view
  cat >"$W/wsgi_app.py" <<'EOF'
from flask import Flask, abort
app = Flask(__name__)
@app.get("/items/<int:n>")
def item(n):
    if n == 13:
        return {"id": n, "price": 1 / 0}
    if n > 40:
        abort(404)
    return {"id": n}
EOF
  (cd "$W" && exec "$W/venv2/bin/gunicorn" -w 2 -b 127.0.0.1:18779 --access-logfile - wsgi_app:app >"$W/gunicorn.log" 2>&1) &
  local GU=$!
  sleep 2
  for i in $(seq 1 45); do curl -s -o /dev/null "http://127.0.0.1:18779/items/$i"; done
  for i in $(seq 10 14); do curl -s -o /dev/null "http://127.0.0.1:18779/items/$i"; done
  kill -TERM $GU; wait $GU 2>/dev/null
  scrub <"$W/gunicorn.log" >"$OUT/log/gunicorn_flask.txt"
  meta "$OUT/log/gunicorn_flask.json" "gunicorn -w 2 -b 127.0.0.1:18779 --access-logfile - wsgi_app:app" "gunicorn 23.0.0, flask 3.0.3, $("$VPY2" --version)" 0
  echo "captured log/gunicorn_flask"

  # ---- the same DeprecationWarning on every iteration (-W always), between log records
  cat >"$W/warn_loop.py" <<'EOF'
import locale, logging
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("exporter")
for batch in range(1, 31):
    lang, enc = locale.getdefaultlocale()
    log.info("batch %d exported with encoding %s", batch, enc)
log.info("export finished: 30 batches")
EOF
  CMDLINE="python -W always warn_loop.py"; cap log python_warnings_repeated "$PYV" $PY -W always "$W/warn_loop.py"
}

if [ "${1:-}" = heldout-listings ]; then heldout_listings; echo done; exit 0; fi

# ---------------------------------------------------------------- json
cd "$W"
CMDLINE="npm view express@4.21.2 --json"; cap json npm_view_express "$NPMV" npm view express@4.21.2 --json
CMDLINE="pip list --format=json"; cap json pip_list_json "$PIPV" "$W/venv/bin/pip" list --format=json
CMDLINE="pip inspect"; cap json pip_inspect "$PIPV" "$W/venv/bin/pip" inspect
cd "$W/ws"
CMDLINE="cargo metadata --format-version 1 2>/dev/null"; capo json cargo_metadata "$CARGOV" cargo metadata --format-version 1
KV="kubectl $(kubectl version --client -o json | $PY -c 'import json,sys;print(json.load(sys.stdin)["clientVersion"]["gitVersion"])')"
CMDLINE="kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80 --dry-run=client -o json"
cap json kubectl_deployment "$KV" kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80 --dry-run=client -o json

# ---------------------------------------------------------------- jsonl
cd "$W/ws"
CMDLINE="cargo build --message-format=json"; cap jsonl cargo_build_json "$CARGOV" cargo build --message-format=json
cd "$SITE"
CMDLINE="rg --json -n 'def get_adapter' requests"; cap jsonl rg_json "$(rg --version | head -1)" rg --json -n 'def get_adapter' requests

# ---------------------------------------------------------------- yaml
cd "$W"
CMDLINE="kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80 --save-config --dry-run=client -o yaml"
cap yaml kubectl_deployment_saveconfig "$KV" kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80 --save-config --dry-run=client -o yaml
: >"$W/empty-kubeconfig"
CMDLINE="kubectl config view"; cap yaml kubectl_config_view "$KV" env KUBECONFIG="$W/empty-kubeconfig" kubectl config view

# ---------------------------------------------------------------- log
# a real http.server access log: a health-check loop, a few pages, two 404s, a 501.
mkdir -p "$W/site" && cp -r "$SITE/requests" "$W/site/" && echo ok >"$W/site/health"
(cd "$W/site" && exec $PY -u -m http.server 18765 --bind 127.0.0.1 >"$W/http.log" 2>&1) &
SRV=$!
sleep 1
for i in $(seq 1 40); do curl -s -o /dev/null http://127.0.0.1:18765/health; done
curl -s -o /dev/null http://127.0.0.1:18765/requests/
curl -s -o /dev/null http://127.0.0.1:18765/requests/api.py
curl -s -o /dev/null http://127.0.0.1:18765/missing.txt
for i in $(seq 1 25); do curl -s -o /dev/null http://127.0.0.1:18765/health; done
curl -s -o /dev/null -X POST http://127.0.0.1:18765/upload
curl -s -o /dev/null http://127.0.0.1:18765/favicon.ico
for i in $(seq 1 15); do curl -s -o /dev/null http://127.0.0.1:18765/health; done
kill $SRV; wait $SRV 2>/dev/null
mkdir -p "$OUT/log"; scrub <"$W/http.log" >"$OUT/log/http_server_access.txt"
meta "$OUT/log/http_server_access.json" "python3 -m http.server 18765 --bind 127.0.0.1" "$($PY --version)" 0
echo "captured log/http_server_access"
mkdir -p "$W/npmfail" && cd "$W/npmfail" && npm init -y >/dev/null
CMDLINE="npm install --verbose left-pad@1.3.0 sqz-no-such-package-zz9"
cap log npm_install_verbose_404 "$NPMV" npm install --verbose left-pad@1.3.0 sqz-no-such-package-zz9

# ---------------------------------------------------------------- table
cd "$W"
# ps in its own PID namespace so the fixture shows only processes started here
CMDLINE="ps aux"
cap table ps_aux "$(ps --version)" unshare --pid --fork --mount-proc bash -c \
  'sleep 300 & sleep 200 & (cd /tmp && python3 -m http.server 18766 --bind 127.0.0.1 >/dev/null 2>&1 &) ; sh -c "sleep 100" & sleep 0.5; ps aux'
CMDLINE="df -h / /dev /dev/shm /sys/fs/cgroup"; cap table df_h "$(df --version | head -1)" df -h / /dev /dev/shm /sys/fs/cgroup

# ---------------------------------------------------------------- listings
CMDLINE="ls -la /usr/lib/python3*"; cap ls ls_la_usr_lib_python "$(ls --version | head -1)" bash -c 'ls -la /usr/lib/python3*'
cd "$SITE"
CMDLINE="ls -la --color=always rich"; cap ls ls_la_color_rich "$(ls --version | head -1)" ls -la --color=always rich
CMDLINE="find requests rich/markdown.py pipdeptree"; cap find find_site_packages "$(find --version | head -1)" find requests rich/markdown.py pipdeptree
CMDLINE="tree requests pipdeptree"; cap tree tree_packages "$(tree --version | cut -d' ' -f1-2)" tree requests pipdeptree
CMDLINE="du -ah requests"; cap du du_ah_requests "$(du --version | head -1)" du -ah requests

# ---------------------------------------------------------------- grep
cd "$SITE"
CMDLINE="grep -rn 'raise ' requests"; cap grep grep_rn_raise "$(grep --version | head -1)" grep -rn 'raise ' requests
cd "$W/web/node_modules"
CMDLINE="grep -rn 'parseCIDR' ipaddr.js"; cap grep grep_rn_longlines "$(grep --version | head -1)" grep -rn 'parseCIDR' ipaddr.js
cd "$SITE"
CMDLINE="rg -n --color=always 'def (get|post|put|patch|delete|head|options)\\(' requests"; cap grep rg_color "$(rg --version | head -1)" rg -n --color=always 'def (get|post|put|patch|delete|head|options)\(' requests

# ---------------------------------------------------------------- markdown / html (served over http, read with curl)
(cd "$W/web/node_modules" && exec $PY -m http.server 18767 --bind 127.0.0.1 >/dev/null 2>&1) &
MD=$!
sleep 1
CMDLINE="curl -s http://127.0.0.1:18767/express/Readme.md"
cap markdown express_readme "$(curl --version | head -1 | cut -d' ' -f1-2)" curl -s http://127.0.0.1:18767/express/Readme.md
kill $MD; wait $MD 2>/dev/null
(cd /usr/share/doc && exec $PY -m http.server 18768 --bind 127.0.0.1 >/dev/null 2>&1) &
HT=$!
sleep 1
CMDLINE="curl -s http://127.0.0.1:18768/python3/python-policy.html"
cap html python_policy "$(curl --version | head -1 | cut -d' ' -f1-2)" curl -s http://127.0.0.1:18768/python3/python-policy.html
CMDLINE="curl -s http://127.0.0.1:18768/libjs-underscore/index.html"
cap html underscore_index "$(curl --version | head -1 | cut -d' ' -f1-2)" curl -s http://127.0.0.1:18768/libjs-underscore/index.html
kill $HT; wait $HT 2>/dev/null

# ---------------------------------------------------------------- dependency trees
cd "$W/web"
CMDLINE="npm ls --all"; cap deptree npm_ls_all "$NPMV" npm ls --all
cd "$W/ws/app"
CMDLINE="cargo tree"; cap deptree cargo_tree "$CARGOV" cargo tree
cd "$W"
CMDLINE="pipdeptree"; cap deptree pipdeptree "pipdeptree 2.23.4" "$W/venv/bin/pipdeptree" --python "$VPY"
CMDLINE="pip list"; cap deptree pip_list "$PIPV" "$W/venv/bin/pip" list
heldout_listings
echo done
