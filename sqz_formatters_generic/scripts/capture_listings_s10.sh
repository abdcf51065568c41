#!/usr/bin/env bash
# Session 10, issue 25.4: new listings/tables captures (s10_* fixtures under tests/fixtures/kinds/{ls,du,find,grep,table}),
# shapes known to pass whole or save little, over trees nobody tuned on:
#   ls       `ls -la` of Django's contrib/admin templates dir and of /usr/lib/python3.11/email (Debian's stdlib)
#   du       `du -sh *` in Django's package dir, `du -ah django/contrib/auth | sort -rh | head -n 30`
#   find     `find django/db -name '*.py'` (relative, hundreds of paths), `find /usr/include/x86_64-linux-gnu -name '*.h'` (absolute, 414 paths)
#   grep     `grep -rn 'def __init__' django/db`, `grep -rn 'import re$' /usr/lib/python3.11` (many files, one line each)
#   table    sqlite3 on the db `manage.py migrate` made for a new Django project (list mode with and without -header),
#            `ps aux` / `ps -eo pid,ppid,user,rss,args` in a fresh PID namespace running a few real processes
# Needs: python3 -m venv with pip reaching a package index (Django 5.2 into $ENV), sqlite3, unshare (root).
# Output goes through sqz_testing.redact_registries. Sidecars keep their hand-written facts/notes; only
# command, produced_by and exit_code are refreshed. `capture_listings_s10.sh ls|du|find|grep|table`: one group.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
FIX="$HERE/tests/fixtures/kinds"
W=/tmp/sqz-capture/listings
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
ENV=$W/venv
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
ONLY=${1:-all}
want() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
mkdir -p "$W" && cd "$W" || exit 1

# cap KIND NAME "produced_by" CMD... (CMDLINE is what the sidecar records)
cap() {
  local kind=$1 name=$2 by=$3; shift 3
  mkdir -p "$FIX/$kind"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$FIX/$kind/$name.txt"
  meta "$FIX/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $kind/$name (exit $rc, $(wc -c <"$FIX/$kind/$name.txt") bytes)"
}

[ -x "$ENV/bin/python" ] || { "$PY" -m venv "$ENV" && "$ENV/bin/pip" install -q 'django==5.2.*'; }
SP=$("$ENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
find "$SP" -name '__pycache__' -prune -exec rm -rf {} + 2>/dev/null   # compiled files: not part of the tree shown
DJV="Django $("$ENV/bin/python" -c 'import django; print(django.get_version())')"
LSV="$(ls --version | head -1)"; DUV="$(du --version | head -1)"; FINDV="$(find --version | head -1)"
GREPV="$(grep --version | head -1)"; SQLV="sqlite3 $(sqlite3 --version | cut -d' ' -f1)"; PSV="$(ps --version)"

if want ls; then
  cd "$SP/django/contrib/admin/templates/admin" || exit 1
  CMDLINE="ls -la"; cap ls s10_ls_la_django_admin_templates "$LSV; $DJV" ls -la
  cd /usr/lib/python3.11/email || exit 1
  CMDLINE="ls -la /usr/lib/python3.11/email"; cap ls s10_ls_la_stdlib_email "$LSV" ls -la /usr/lib/python3.11/email
  cd "$W"
fi

if want du; then
  cd "$SP/django" || exit 1
  CMDLINE="du -sh *"; cap du s10_du_sh_star_django "$DUV; $DJV" sh -c 'du -sh *'
  cd "$SP"
  CMDLINE="du -ah django/contrib/auth | sort -rh | head -n 30"
  cap du s10_du_ah_sort_auth "$DUV; $DJV" sh -c 'du -ah django/contrib/auth | sort -rh | head -n 30'
  cd "$W"
fi

if want find; then
  cd "$SP" || exit 1
  CMDLINE="find django/db -name '*.py'"; cap find s10_find_django_db_py "$FINDV; $DJV" find django/db -name '*.py'
  cd "$W"
  CMDLINE="find /usr/include/x86_64-linux-gnu -name '*.h'"
  cap find s10_find_usr_include_x86_64 "$FINDV" find /usr/include/x86_64-linux-gnu -name '*.h'
fi

if want grep; then
  cd "$SP" || exit 1
  CMDLINE="grep -rn 'def __init__' django/db"; cap grep s10_grep_rn_init_django_db "$GREPV; $DJV" grep -rn 'def __init__' django/db
  cd "$W"
  CMDLINE="grep -rn 'import re\$' /usr/lib/python3.11 --include=*.py"
  cap grep s10_grep_rn_import_re_stdlib "$GREPV" grep -rn 'import re$' /usr/lib/python3.11 --include=*.py
fi

if want table; then
  rm -rf "$W/shop" && mkdir -p "$W/shop" && "$ENV/bin/django-admin" startproject shop "$W/shop" >/dev/null && cd "$W/shop" || exit 1
  "$ENV/bin/python" manage.py migrate -v 0 || exit 1
  CMDLINE="sqlite3 db.sqlite3 'select * from django_migrations'"
  cap table s10_sqlite_list_migrations "$SQLV; $DJV" sqlite3 db.sqlite3 'select * from django_migrations'
  CMDLINE="sqlite3 -header db.sqlite3 'select * from auth_permission'"
  cap table s10_sqlite_list_header_permissions "$SQLV; $DJV" sqlite3 -header db.sqlite3 'select * from auth_permission'
  cd "$W"
  # a fresh PID namespace: ps sees only what this script starts there (nothing of the machine's other processes)
  PSRUN='sleep 300 & sleep 301 & (cd /tmp && exec python3 -m http.server 18791 --bind 127.0.0.1 >/dev/null 2>&1) &
sh -c "sleep 302" & sqlite3 :memory: "select 1" >/dev/null; sleep 0.7; '
  CMDLINE="ps aux"; cap table s10_ps_aux_namespace "$PSV" unshare -p -f --mount-proc bash -c "$PSRUN ps aux"
  CMDLINE="ps -eo pid,ppid,user,rss,args"
  cap table s10_ps_eo_namespace "$PSV" unshare -p -f --mount-proc bash -c "$PSRUN ps -eo pid,ppid,user,rss,args"
fi
