#!/usr/bin/env bash
# Start (or stop) a throw-away PostgreSQL server on loopback for the sqz-store-postgresql tests.
#
#   bash start_test_server.sh          # start, print the URL on stdout (binaries: scripts/install_test_deps.sh)
#   bash start_test_server.sh stop     # stop it (the data dir stays; `start` reuses it)
#
# Idempotent: an already running server is reused. Works as root: the server runs as the
# `postgres` user (Debian's package creates it). Logs go to stderr; stdout is only the URL,
# so CI can do: export SQZ_TEST_PG_URL="$(bash .../start_test_server.sh)".
# Overrides: SQZ_PG_PORT (55432), SQZ_PG_DATA (/tmp/sqz-pg-test/data), SQZ_PG_DB (sqz_test).
# Loopback only, trust authentication: for tests, never for a real deployment.
set -euo pipefail
ACTION="${1:-start}"
PORT="${SQZ_PG_PORT:-55432}"
DATA="${SQZ_PG_DATA:-/tmp/sqz-pg-test/data}"
DB="${SQZ_PG_DB:-sqz_test}"
RUNDIR="$(dirname "$DATA")"
log() { echo "start_test_server: $*" >&2; }

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  command -v pg_ctl >/dev/null 2>&1 && { dirname "$(command -v pg_ctl)"; return 0; }
  return 1
}

BIN="$(find_bindir || true)"
if [ -z "$BIN" ]; then
  [ "$ACTION" = stop ] && { log "no PostgreSQL installed; nothing to stop"; exit 0; }
  log "no PostgreSQL server binaries (pg_ctl) found: install them with scripts/install_test_deps.sh (Debian: apt-get install postgresql)"
  exit 1
fi

as_pg() {  # run a command as the postgres user when we are root
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  else
    "$@"
  fi
}

running() { as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

if [ "$ACTION" = stop ]; then
  if [ -d "$DATA" ] && running; then
    as_pg "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
  fi
  exit 0
fi
[ "$ACTION" = start ] || { log "usage: $0 [start|stop]"; exit 2; }

mkdir -p "$RUNDIR"
[ "$(id -u)" = 0 ] && chown postgres "$RUNDIR"
if [ ! -s "$DATA/PG_VERSION" ]; then
  log "initdb $DATA"
  as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
fi
if ! running; then
  log "starting on 127.0.0.1:$PORT"
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$RUNDIR/server-$PORT.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$RUNDIR -c max_connections=200 -c fsync=on" \
    start >&2
fi
if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
fi
echo "postgresql://postgres@127.0.0.1:$PORT/$DB"
