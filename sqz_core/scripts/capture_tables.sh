#!/usr/bin/env bash
# Capture the table and listing fixtures that capture_kinds.sh does not make: a long listing
# of a directory with mixed owners, modes and dates, an absolute `find` of a real package
# tree, `ps -eo` with right-aligned columns and `tree` of the same package. Needs root (chown,
# unshare), tree (Debian package), python3; and `pip list -v` of that python3 (a wide table
# whose Location is the same long path on every row).
# `capture_tables.sh tree` re-captures one fixture (ls, find, ps, tree, piplist); no argument: all.
# `capture_tables.sh heldout` re-captures the held-out tables (dpkg -l, psql against a
# throw-away PostgreSQL 15 cluster in /tmp, sqlite3 -column/-box, ps -ef/auxf with that cluster
# running); needs Debian's postgresql-15 and sqlite3 packages and the postgres user.
# `capture_tables.sh heldout-json` re-captures the held-out JSON, JSON-lines, markdown and HTML
# outputs (npm ls/outdated --json of an old express, a failing `cargo build --message-format=json`,
# `rg --json` over oauthlib, a package README and an API reference page read with curl).
# Output goes through sqz_core.testing.redact_registries like every capture.
# Sidecars keep their hand-written facts/dropped/notes; only command, produced_by and
# exit_code are refreshed.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds"
W=/tmp/sqz-capture/tables
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
. "$HERE/scripts/_capture_lib.sh"  # scrub, meta
ONLY=${1:-all}  # ls | find | ps | tree | piplist | heldout | heldout-json | all
want() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1



# cap KIND NAME "produced_by" CMD... (CMDLINE is what the sidecar records)
cap() {
  local kind=$1 name=$2 by=$3; shift 3
  mkdir -p "$OUT/$kind"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$OUT/$kind/$name.txt"
  meta "$OUT/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $kind/$name (exit $rc, $(wc -c <"$OUT/$kind/$name.txt") bytes)"
}

# ---------------------------------------------------------------- ls -la, mixed directory
if want ls; then
D="$W/project"
mkdir -p "$D/src" "$D/shared" "$D/.git"
printf 'print("hi")\n' >"$D/src/main.py"
printf '#!/bin/sh\necho build\n' >"$D/build.sh" && chmod 755 "$D/build.sh"
printf 'secret-free notes\n' >"$D/NOTES.md" && chmod 600 "$D/NOTES.md"
head -c 123456 /dev/zero >"$D/data.bin"
cp /bin/true "$D/helper" && chmod 4755 "$D/helper"
chmod 1777 "$D/shared"
ln -s src/main.py "$D/main.py"
mkfifo "$D/events.fifo"
chown nobody:nogroup "$D/data.bin" "$D/shared"
touch -h -d '2025-06-24 10:00' "$D/src" "$D/.git" "$D/main.py"
touch -d '2025-06-24 10:00' "$D/NOTES.md" "$D/data.bin" "$D/helper"
touch -d '2026-11-30 04:17' "$D/build.sh" "$D/events.fifo" "$D/shared" "$D" "$W"
cd "$W"
CMDLINE="ls -la project"; cap ls ls_la_mixed "$(ls --version | head -1)" ls -la project
fi

# ---------------------------------------------------------------- find, absolute paths
CMDLINE="find /usr/lib/python3/dist-packages/oauthlib"
want find && cap find find_oauthlib_abs "$(find --version | head -1)" find /usr/lib/python3/dist-packages/oauthlib

# ---------------------------------------------------------------- ps -eo, own PID namespace
CMDLINE="ps -eo pid,ppid,user,stat,rss,etime,args"
want ps && cap table ps_eo "$(ps --version)" unshare --pid --fork --mount-proc bash -c \
  'sleep 300 & sleep 300 & sleep 300 & (cd /tmp && python3 -m http.server 18769 --bind 127.0.0.1 >/dev/null 2>&1 &) ; sleep 0.5; ps -eo pid,ppid,user,stat,rss,etime,args'

# ---------------------------------------------------------------- tree, a larger real tree
cd /usr/lib/python3/dist-packages
CMDLINE="tree oauthlib"; want tree && cap tree tree_oauthlib "$(tree --version | cut -d' ' -f1-2)" tree oauthlib

# ---------------------------------------------------------------- pip list -v, a wide table
cd "$W"
CMDLINE="pip list -v"; want piplist && cap deptree pip_list_v "$("$PY" -m pip --version | cut -d' ' -f1-2)" \
  env PIP_DISABLE_PIP_VERSION_CHECK=1 "$PY" -m pip list -v

# ---------------------------------------------------------------- held-out tables
# Shapes the tuned fixtures lack: dpkg's package list, psql's `|`-ruled result
# sets (a big one, a describe with empty cells, a red query), sqlite3's -column and -box
# modes, and ps listings of a PostgreSQL cluster's processes.
if want heldout; then
cd "$W"
CMDLINE="dpkg -l 'python3*'"; cap table dpkg_l_python3 "$(dpkg --version | head -1)" dpkg -l 'python3*'
PGB=/usr/lib/postgresql/15/bin
PGD=/tmp/sqz-capture/pg
rm -rf "$PGD" && mkdir -p "$PGD" && chown postgres "$PGD"
su postgres -c "$PGB/initdb -D $PGD/data -A trust -U postgres >/dev/null 2>&1"
cat >"$W/pgstart.sh" <<PGEOF
#!/bin/sh
exec $PGB/pg_ctl -D $PGD/data -o "-k $PGD -c listen_addresses='' -p 55432" -l $PGD/log -w start >/dev/null
PGEOF
chmod 755 "$W/pgstart.sh"
pgstart="$W/pgstart.sh"
su postgres -c "$pgstart"
PSQLV="$(psql --version)"
psq() { psql -h "$PGD" -p 55432 -U postgres "$@"; }
CMDLINE="psql -c \"select name, setting, unit, category from pg_settings order by category, name\""
cap table psql_pg_settings "$PSQLV" psq -c "select name, setting, unit, category from pg_settings order by category, name"
CMDLINE="psql -c '\\dS+ pg_class'"; cap table psql_describe_pg_class "$PSQLV" psq -c '\dS+ pg_class'
CMDLINE="psql -c 'select relname, relkind, reltuples from pg_class where relnamespace = 99 order by 1; select * from orders_archive'"
cap table psql_missing_relation "$PSQLV" psq -c 'select relname, relkind, reltuples from pg_class where relnamespace = 99 order by 1; select * from orders_archive'
su postgres -c "$PGB/pg_ctl -D $PGD/data -m fast stop >/dev/null"
cat >"$W/pgps.sh" <<PGEOF
#!/bin/sh
# in a fresh PID namespace: the cluster, an idle sleep and a web server, then the listing asked for
su postgres -c $pgstart
sleep 300 &
(cd /tmp && python3 -m http.server 18770 --bind 127.0.0.1 >/dev/null 2>&1 &)
sleep 1
"\$@"
su postgres -c "$PGB/pg_ctl -D $PGD/data -m fast stop" >/dev/null 2>&1
PGEOF
CMDLINE="ps -ef"; cap table ps_ef_postgres "$(ps --version)" unshare --pid --fork --mount-proc sh "$W/pgps.sh" ps -ef
CMDLINE="ps auxf"; cap table ps_auxf_postgres "$(ps --version)" unshare --pid --fork --mount-proc sh "$W/pgps.sh" ps auxf
# a sqlite database of this machine's python3 Debian packages
rm -f "$W/pkgs.db"
dpkg-query -W -f='${db:Status-Abbrev}\t${Package}\t${Version}\t${Installed-Size}\t${Section}\t${Priority}\n' 'python3*' \
  | awk -F'\t' '$1 ~ /^ii/ {print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6}' >"$W/pkgs.tsv"
sqlite3 "$W/pkgs.db" "create table pkg(name text, version text, size_kb integer, section text, priority text);" \
  ".mode tabs" ".import $W/pkgs.tsv pkg"
SQLV="sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
CMDLINE="sqlite3 -column -header pkgs.db 'select name, version, size_kb, section from pkg order by size_kb desc'"
cap table sqlite_column "$SQLV" sqlite3 -column -header pkgs.db 'select name, version, size_kb, section from pkg order by size_kb desc'
CMDLINE="sqlite3 -box pkgs.db 'select name, version, size_kb, priority from pkg where size_kb >= 500 order by size_kb desc'"
cap table sqlite_box "$SQLV" sqlite3 -box pkgs.db 'select name, version, size_kb, priority from pkg where size_kb >= 500 order by size_kb desc'
fi

# ---------------------------------------------------------------- held-out JSON, JSON lines, pages
if want heldout-json; then
NPMV="npm $(npm --version)"
mkdir -p "$W/oldweb" && cd "$W/oldweb" && npm init -y >/dev/null && npm install -q express@4.16.0 lodash@4.17.4 >/dev/null 2>&1
CMDLINE="npm ls --all --long --json"; cap json npm_ls_long_json "$NPMV" npm ls --all --long --json
CMDLINE="npm outdated --json"; cap json npm_outdated_json "$NPMV" npm outdated --json
mkdir -p "$W/crate" && cd "$W/crate" && rm -rf app && cargo new -q --vcs none --bin app && cd app
cat >src/main.rs <<'RSEOF'
use std::collections::HashMap;

fn total(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

fn main() {
    let mut counts: HashMap<String, u32> = HashMap::new();
    counts.insert("a".to_string(), "1");
    let n: i64 = total(&[1, 2, 3]);
    let unused = 5;
    println!("{}", missing_name);
}
RSEOF
CMDLINE="cargo build --message-format=json 2>/dev/null"
capo() { local kind=$1 name=$2 by=$3; shift 3; mkdir -p "$OUT/$kind"; "$@" >"$W/.out" 2>/dev/null; local rc=$?
  scrub <"$W/.out" >"$OUT/$kind/$name.txt"; meta "$OUT/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $kind/$name (exit $rc, $(wc -c <"$OUT/$kind/$name.txt") bytes)"; }
capo jsonl cargo_build_json_error "$(cargo --version | cut -d' ' -f1-2)" cargo build --message-format=json
cd /usr/lib/python3/dist-packages
CMDLINE="rg --json -n 'def \\w+\\(self' oauthlib/oauth2/rfc6749/endpoints"
cap jsonl rg_json_endpoints "$(rg --version | head -1)" rg --json -n 'def \w+\(self' oauthlib/oauth2/rfc6749/endpoints
(cd "$W/oldweb/node_modules" && exec "$PY" -m http.server 18772 --bind 127.0.0.1 >/dev/null 2>&1) &
SRV=$!
(cd /usr/share/doc/libxslt1-dev/html && exec "$PY" -m http.server 18773 --bind 127.0.0.1 >/dev/null 2>&1) &
SRV2=$!
sleep 1
CURLV="$(curl --version | head -1 | cut -d' ' -f1-2)"
CMDLINE="curl -s http://127.0.0.1:18772/debug/README.md"; cap markdown debug_readme "$CURLV" curl -s http://127.0.0.1:18772/debug/README.md
CMDLINE="curl -s http://127.0.0.1:18773/html/libxslt-transform.html"; cap html libxslt_transform "$CURLV" curl -s http://127.0.0.1:18773/html/libxslt-transform.html
kill $SRV $SRV2; wait $SRV $SRV2 2>/dev/null
fi
