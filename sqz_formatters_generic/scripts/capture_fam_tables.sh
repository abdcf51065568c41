#!/usr/bin/env bash
# Issue 25 item 4, the table/tree families: re-capture the fam_* fixtures of tests/fixtures/kinds/{table,du,find}
# and tests/fixtures/web (Django/Flask debug pages and dev-server logs).
#   psql     result sets with NULLs, `(N rows)` footers, a multi-line cell (`+` marks), `\d` of a table with
#            keys, checks and references, `\d+`, `\dt`, `psql -x` with NULLs: a throw-away PostgreSQL 15
#            cluster in /tmp (Debian's postgresql-15, the postgres user), a small shop schema made below
#   sqlite3  the default list mode with -header (`a|b|c`), -line mode
#   du       `du -sh *`, `du -ah`, `du -h --max-depth=2` over a throw-away venv's site-packages
#   find     `find . -name '*.py'` over that venv's installed Django (thousands of paths), `find . -type f` of flask
#   web      Django 5 technical 500 (text and HTML, DEBUG=True) and runserver's stderr; Flask 3 / werkzeug
#            dev server stderr with a traceback, and werkzeug's debugger page (--debug)
# Needs: python3 -m venv with pip reaching a package index (Django and Flask go into $WEBENV), curl,
# postgresql-15, sqlite3, root (su postgres). The servers run with a minimal environment (env -i), so the
# debug pages list no variable of this machine. Output goes through sqz_testing.redact_registries (registry
# hosts and index paths become pkgs.example.org). Sidecars keep their hand-written facts/notes; only
# command, produced_by and exit_code are refreshed.
# `capture_fam_tables.sh psql|sqlite|du|find|web` re-captures one group; no argument: all.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
FIX="$HERE/tests/fixtures"
W=/tmp/sqz-capture/fam-tables
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
WEBENV=${WEBENV:-/tmp/sqz-capture/webenv}
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
ONLY=${1:-all}
want() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
mkdir -p "$W" && cd "$W" || exit 1

# cap DIR NAME "produced_by" CMD... (CMDLINE is what the sidecar records)
cap() {
  local dir=$1 name=$2 by=$3; shift 3
  mkdir -p "$FIX/$dir"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$FIX/$dir/$name.txt"
  meta "$FIX/$dir/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $dir/$name (exit $rc, $(wc -c <"$FIX/$dir/$name.txt") bytes)"
}

if want web || want du || want find; then
  [ -x "$WEBENV/bin/python" ] || { "$PY" -m venv "$WEBENV" && "$WEBENV/bin/pip" install -q django flask; }
  SP=$("$WEBENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  DJV="Django $("$WEBENV/bin/python" -c 'import django; print(django.get_version())')"
  FLV="Flask $("$WEBENV/bin/python" -c 'import importlib.metadata as m; print(m.version("flask"))'), Werkzeug $("$WEBENV/bin/python" -c 'import importlib.metadata as m; print(m.version("werkzeug"))')"
fi

# ---------------------------------------------------------------- psql
if want psql; then
PGB=/usr/lib/postgresql/15/bin
PGD=/tmp/sqz-capture/fam-pg
rm -rf "$PGD" && mkdir -p "$PGD" && chown postgres "$PGD"
su postgres -c "$PGB/initdb -D $PGD/data -A trust -U postgres >/dev/null 2>&1"
su postgres -c "$PGB/pg_ctl -D $PGD/data -o \"-k $PGD -c listen_addresses='' -p 55441\" -l $PGD/log -w start >/dev/null"
psq() { psql -X -h "$PGD" -p 55441 -U postgres -d shop "$@"; }
psql -X -q -h "$PGD" -p 55441 -U postgres -c 'create database shop' >/dev/null
psq -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
create table customers (
  id serial primary key,
  email text not null unique,
  name text not null,
  country char(2),
  created_at timestamptz not null default '2026-01-05 09:00+00'
);
create table orders (
  id bigserial primary key,
  customer_id integer not null references customers(id) on delete cascade,
  status text not null default 'pending' check (status in ('pending','paid','shipped','cancelled')),
  total numeric(10,2) not null check (total >= 0),
  coupon text,
  shipped_at timestamptz,
  note text
);
create index orders_customer_idx on orders (customer_id);
create index orders_status_idx on orders (status) where status <> 'cancelled';
create table order_items (
  order_id bigint references orders(id),
  sku text not null,
  qty integer not null default 1,
  primary key (order_id, sku)
);
insert into customers (email, name, country)
  select 'user' || g || '@example.com', 'Customer ' || g, (array['DE','FR','US',null,'JP'])[1 + g % 5]
  from generate_series(1, 12) g;
insert into orders (customer_id, status, total, coupon, shipped_at, note)
  select 1 + g % 12, (array['pending','paid','shipped','cancelled'])[1 + g % 4], (g * 7.35)::numeric(10,2),
         case when g % 6 = 0 then 'WINTER' || g end,
         case when g % 4 = 2 then timestamptz '2026-02-01 10:00+00' + g * interval '5 hours' end,
         case when g % 9 = 0 then 'gift wrap, leave at door' when g % 13 = 0 then E'call first\nthen ring twice' end
  from generate_series(1, 40) g;
insert into order_items select o.id, 'SKU-' || (o.id * 3 % 17), 1 + o.id % 3 from orders o;
SQL
PSQLV="$(psql --version)"
CMDLINE="psql -d shop -c 'select o.id, c.email, o.status, o.total, o.coupon, o.shipped_at from orders o join customers c on c.id = o.customer_id order by o.id'"
cap kinds/table fam_psql_orders_nulls "$PSQLV" psq -c 'select o.id, c.email, o.status, o.total, o.coupon, o.shipped_at from orders o join customers c on c.id = o.customer_id order by o.id'
CMDLINE="psql -d shop -c 'select id, status, total, note from orders where note is not null order by id'"
cap kinds/table fam_psql_multiline_note "$PSQLV" psq -c 'select id, status, total, note from orders where note is not null order by id'
CMDLINE="psql -d shop -c '\\d orders'"; cap kinds/table fam_psql_d_orders "$PSQLV" psq -c '\d orders'
CMDLINE="psql -d shop -c '\\d+ customers'"; cap kinds/table fam_psql_d_plus_customers "$PSQLV" psq -c '\d+ customers'
CMDLINE="psql -d shop -c '\\dt+'"; cap kinds/table fam_psql_dt_plus "$PSQLV" psq -c '\dt+'
CMDLINE="psql -d shop -x -c 'select * from orders where id <= 6 order by id'"
cap kinds/table fam_psql_x_orders "$PSQLV" psq -x -c 'select * from orders where id <= 6 order by id'
CMDLINE="psql -d shop -c 'select status, count(*), sum(total), min(shipped_at) from orders group by rollup (status) order by status'"
cap kinds/table fam_psql_rollup "$PSQLV" psq -c 'select status, count(*), sum(total), min(shipped_at) from orders group by rollup (status) order by status'
CMDLINE="psql -d shop -c 'select schemaname, viewname, definition from pg_views where viewname in (\$\$pg_stat_user_tables\$\$, \$\$pg_roles\$\$)'"
cap kinds/table fam_psql_view_definitions "$PSQLV" psq -c 'select schemaname, viewname, definition from pg_views where viewname in ($$pg_stat_user_tables$$, $$pg_roles$$)'
su postgres -c "$PGB/pg_ctl -D $PGD/data -m fast stop >/dev/null"
fi

# ---------------------------------------------------------------- sqlite3
if want sqlite; then
rm -f "$W/shop.db"
sqlite3 "$W/shop.db" <<'SQL'
create table customers (id integer primary key, email text not null, country text);
create table orders (id integer primary key, customer_id integer, status text, total real, coupon text);
with recursive g(n) as (select 1 union all select n + 1 from g where n < 12)
  insert into customers select n, 'user' || n || '@example.com', case n % 5 when 3 then null else substr('DEFRUSJPXX', 1 + 2 * (n % 5), 2) end from g;
with recursive g(n) as (select 1 union all select n + 1 from g where n < 40)
  insert into orders select n, 1 + n % 12, case n % 4 when 0 then 'pending' when 1 then 'paid' when 2 then 'shipped' else 'cancelled' end,
    round(n * 7.35, 2), case when n % 6 = 0 then 'WINTER' || n end from g;
SQL
SQLV="sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
cd "$W"
CMDLINE="sqlite3 -header shop.db 'select o.id, c.email, c.country, o.status, o.total, o.coupon from orders o join customers c on c.id = o.customer_id order by o.id'"
cap kinds/table fam_sqlite_list_header "$SQLV" sqlite3 -header shop.db 'select o.id, c.email, c.country, o.status, o.total, o.coupon from orders o join customers c on c.id = o.customer_id order by o.id'
CMDLINE="sqlite3 -column -header -nullvalue NULL shop.db 'select c.id, c.email, c.country, count(o.id) as orders, sum(o.total) as spent from customers c left join orders o on o.customer_id = c.id group by c.id'"
cap kinds/table fam_sqlite_column_nulls "$SQLV" sqlite3 -column -header -nullvalue NULL shop.db 'select c.id, c.email, c.country, count(o.id) as orders, sum(o.total) as spent from customers c left join orders o on o.customer_id = c.id group by c.id'
fi

# ---------------------------------------------------------------- du
if want du; then
cd "$SP"
CMDLINE="du -sh *"; cap kinds/du fam_du_sh_site_packages "$(du --version | head -1)" sh -c 'du -sh *'
CMDLINE="du -h --max-depth=2 django"; cap kinds/du fam_du_h_max_depth_django "$(du --version | head -1)" du -h --max-depth=2 django
CMDLINE="du -ah flask"; cap kinds/du fam_du_ah_flask "$(du --version | head -1)" du -ah flask
fi

# ---------------------------------------------------------------- find
if want find; then
cd "$SP"
find . -name '__pycache__' -prune -exec rm -rf {} + 2>/dev/null   # pip's compiled files: not part of the tree shown
CMDLINE="find . -name '*.py'"; cap kinds/find fam_find_django_py "$(find --version | head -1)" find . -name '*.py'
CMDLINE="find werkzeug -type f"; cap kinds/find fam_find_werkzeug_type_f "$(find --version | head -1)" find werkzeug -type f
fi

# ---------------------------------------------------------------- Django / Flask debug pages
if want web; then
D="$W/djshop"
rm -rf "$D" && mkdir -p "$D"
cd "$D" && "$WEBENV/bin/django-admin" startproject shopsite . >/dev/null
cat >"$D/shopsite/views.py" <<'PYEOF'
from django.http import JsonResponse

PRICES = {"SKU-1": 12.5, "SKU-2": 3.0}


def line_total(sku, qty):
    return PRICES[sku] * qty


def order_total(request, order_id):
    items = [("SKU-1", 2), ("SKU-7", 1)]
    total = sum(line_total(sku, qty) for sku, qty in items)
    return JsonResponse({"order": order_id, "total": total})
PYEOF
cat >"$D/shopsite/urls.py" <<'PYEOF'
from django.contrib import admin
from django.urls import path

from . import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("orders/<int:order_id>/total/", views.order_total),
]
PYEOF
PORT=18851
env -i PATH=/usr/bin:/bin HOME="$D" LANG=C.UTF-8 "$WEBENV/bin/python" manage.py runserver --noreload 127.0.0.1:$PORT >"$W/runserver.log" 2>&1 &
SRV=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/admin/login/" && break; sleep 0.2; done
CMDLINE="curl -s -H 'Accept: text/plain' http://127.0.0.1:$PORT/orders/17/total/"
cap web fam_django_500_text "$DJV, runserver, curl $(curl --version | head -1 | cut -d' ' -f2)" curl -s -H 'Accept: text/plain' "http://127.0.0.1:$PORT/orders/17/total/"
CMDLINE="curl -s http://127.0.0.1:$PORT/orders/17/total/"
cap web fam_django_500_html "$DJV, runserver, curl $(curl --version | head -1 | cut -d' ' -f2)" curl -s "http://127.0.0.1:$PORT/orders/17/total/"
for p in / /admin/ /admin/login/ /orders/3/total/ /static/app.css /orders/x/total/ /favicon.ico; do curl -s -o /dev/null "http://127.0.0.1:$PORT$p"; done
curl -s -o /dev/null -X POST -d 'username=a&password=b' "http://127.0.0.1:$PORT/admin/login/"
sleep 0.5; kill $SRV; wait $SRV 2>/dev/null
CMDLINE="python manage.py runserver --noreload 127.0.0.1:$PORT"
cap web fam_django_runserver_500 "$DJV, runserver" sed -e 's/\r$//' "$W/runserver.log"

F="$W/flaskshop"
rm -rf "$F" && mkdir -p "$F"
cat >"$F/app.py" <<'PYEOF'
from flask import Flask, jsonify, request

app = Flask(__name__)
STOCK = {"SKU-1": 4, "SKU-2": 0}


def reserve(sku, qty):
    left = STOCK[sku] - qty
    if left < 0:
        raise ValueError(f"not enough {sku}: {STOCK[sku]} left, {qty} asked")
    STOCK[sku] = left
    return left


@app.route("/reserve/<sku>")
def reserve_view(sku):
    qty = int(request.args.get("qty", "1"))
    return jsonify(sku=sku, left=reserve(sku, qty))
PYEOF
cd "$F"
PORT=18852
env -i PATH=/usr/bin:/bin HOME="$F" LANG=C.UTF-8 "$WEBENV/bin/flask" --app app run --port $PORT >"$W/flask.log" 2>&1 &
SRV=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
for p in "/reserve/SKU-1?qty=1" "/reserve/SKU-1?qty=1" "/reserve/SKU-2?qty=1" "/reserve/SKU-9" "/reserve/SKU-1?qty=x" "/nope" "/reserve/SKU-1?qty=1"; do
  curl -s -o /dev/null "http://127.0.0.1:$PORT$p"; done
sleep 0.5; kill $SRV; wait $SRV 2>/dev/null
CMDLINE="flask --app app run --port $PORT"
cap web fam_flask_run_tracebacks "$FLV" cat "$W/flask.log"
PORT=18853
env -i PATH=/usr/bin:/bin HOME="$F" LANG=C.UTF-8 "$WEBENV/bin/flask" --app app run --debug --no-reload --port $PORT >"$W/flaskdbg.log" 2>&1 &
SRV=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
CMDLINE="curl -s http://127.0.0.1:$PORT/reserve/SKU-2?qty=3"
cap web fam_werkzeug_debugger_html "$FLV, curl $(curl --version | head -1 | cut -d' ' -f2)" curl -s "http://127.0.0.1:$PORT/reserve/SKU-2?qty=3"
kill $SRV; wait $SRV 2>/dev/null
fi
