#!/usr/bin/env bash
# Re-capture the held-out generic fixtures under sqz_formatters_generic/tests/fixtures/generic/: real output of
# programs no per-command formatter knows (scripts, make, pip, env, curl, sqlite3, openssl, diff,
# tar, zipinfo, binutils, file, strace, node, importtime, apt-get, cat/head, wc), which only the
# core's generic pipeline (cleanup, repeat folding, kinds, safety routing) sees.
#
# Needs: python3 (venv + pip, PyPI reachable), node, make, curl, sqlite3, openssl, diffutils, tar,
# unzip/zipinfo, binutils (nm, objdump), file, strace, apt-get (root; `apt-get update` done once),
# and the pyenv Pythons 3.11 and 3.12 (for a real diff between two versions of a stdlib file).
# Throw-away projects live in the fixed dir /tmp/sqz-capture/generic so paths in the output are stable.
# Registry hosts and local index paths are replaced by pkgs.example.org (sqz_testing.redact_registries).
# Sidecars keep their hand-written facts/dropped/notes; this script refreshes command, produced_by
# and exit_code only (see meta()). A re-capture changes run-specific values (dates, PIDs, load
# addresses, temp dirs, the certificate and keys): refresh the facts that name them, or run
# `capture_generic.sh --kinds-only` to refresh only the tuning fixtures under kinds/runs and
# kinds/columns and keep the held-out set as measured.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/generic"
W=/tmp/sqz-capture/generic
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}  # a Python that can import sqz_core (src is put on PYTHONPATH)
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
[ -x "$SQZ_PY" ] || SQZ_PY=$PY
PYENV=${PYENV_VERSIONS:-/root/.pyenv/versions}
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
# --kinds-only: refresh only the tuning fixtures under kinds/ (the held-out set keeps its capture)
[ "${1:-}" = "--kinds-only" ] && OUT="$W/heldout-not-kept"
mkdir -p "$OUT"



# ---------------------------------------------------------------- a small Python project
$PY -m venv "$W/venv" && "$W/venv/bin/pip" install -q requests==2.32.3 rich==13.9.4 >/dev/null
VPY="$W/venv/bin/python"; VPIP="$W/venv/bin/pip"
PIPV=$("$VPIP" --version | cut -d' ' -f1-2); PYV=$($PY --version)
mkdir -p "$W/proj/src/tally" "$W/proj/tests" && cd "$W/proj"
cat >pyproject.toml <<'EOF'
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tally"
version = "0.3.1"
dependencies = ["requests>=2.31"]

[project.scripts]
tally = "tally.cli:main"
EOF
cat >src/tally/__init__.py <<'EOF'
from .core import count_words, mean
__all__ = ["count_words", "mean"]
EOF
cat >src/tally/core.py <<'EOF'
def count_words(text):
    return len(text.split())


def mean(xs):
    return sum(xs) / len(xs)
EOF
cat >src/tally/cli.py <<'EOF'
import sys
from .core import count_words


def main():
    print(count_words(sys.stdin.read()))
EOF
cat >tests/test_core.py <<'EOF'
from tally import count_words, mean


def test_count():
    assert count_words("a b c") == 3


def test_mean_empty():
    assert mean([]) == 0
EOF
cat >Makefile <<'EOF'
PY ?= python3
.PHONY: all check compile test dist

all: check

compile:
	$(PY) -m compileall -f src

check: compile test

test:
	PYTHONPATH=src $(PY) -m unittest discover -s tests -p 'test_*.py' -v

dist:
	mkdir -p dist && tar -czf dist/tally-0.3.1.tar.gz src pyproject.toml
EOF
# unittest wants test_* functions in a TestCase: add one so the run has a real failure
cat >tests/test_units.py <<'EOF'
import unittest
from tally import count_words, mean


class TestTally(unittest.TestCase):
    def test_count(self):
        self.assertEqual(count_words("a b c"), 3)

    def test_mean(self):
        self.assertEqual(mean([2, 4]), 3)

    def test_mean_empty(self):
        self.assertEqual(mean([]), 0)
EOF

CMDLINE="pip install -v -e ."
cap pip_install_editable_verbose "$PIPV" "$VPIP" install -v -e .

CMDLINE="make check"
cap make_check_python "$(make --version | head -1)" make check PY="$VPY"

# ---------------------------------------------------------------- a script printing progress and results
cd "$W"
cat >train.py <<'EOF'
import math, random, sys
random.seed(7)
print("loading dataset: 12000 train / 3000 val samples", flush=True)
best = math.inf
for epoch in range(1, 13):
    for step in range(0, 400, 20):
        loss = 2.0 * math.exp(-0.15 * epoch - step / 2000) + random.random() * 0.05
        print(f"epoch {epoch:2d}/12 step {step:3d}/400 loss={loss:.4f} lr=0.0010", flush=True)
    val = 1.9 * math.exp(-0.14 * epoch) + (0.12 if epoch == 9 else 0.0)
    print(f"epoch {epoch:2d} done: val_loss={val:.4f} acc={1 - val / 3:.3f}", flush=True)
    if val < best:
        best = val
        print(f"  saved checkpoint ckpt/epoch{epoch:02d}.pt (best so far)", flush=True)
    elif epoch == 9:
        print(f"WARNING: val_loss went up at epoch {epoch} ({val:.4f} > {best:.4f})", file=sys.stderr, flush=True)
print(f"finished: best val_loss={best:.4f}, 12 epochs, checkpoint ckpt/epoch12.pt", flush=True)
EOF
CMDLINE="python3 train.py"
cap python_train_progress "$PYV" $PY train.py


# ---------------------------------------------------------------- env with secret-looking values
CMDLINE="env"
cap env_with_tokens "$(env --version | head -1)" env -i HOME=/home/dev USER=dev SHELL=/bin/bash LANG=C.UTF-8 \
  PATH=/home/dev/.local/bin:/usr/local/bin:/usr/bin:/bin PWD=/home/dev/app TERM=xterm-256color \
  VIRTUAL_ENV=/home/dev/app/.venv PYTHONDONTWRITEBYTECODE=1 EDITOR=vim LOG_LEVEL=debug \
  GITHUB_TOKEN=ghp_sqzFAKEfixture0000000000000000000000 \
  DATABASE_URL=postgres://app:hunter2-fixture@127.0.0.1:5432/app \
  STRIPE_SECRET_KEY=sk_test_sqzFAKEfixture000000000000 \
  OLDPWD=/home/dev env

# ---------------------------------------------------------------- curl against a local http.server
mkdir -p "$W/site" && cp -r "$W/proj/src/tally" "$W/site/" && echo ok >"$W/site/health"
(cd "$W/site" && exec $PY -m http.server 18777 --bind 127.0.0.1 >/dev/null 2>&1) &
SRV=$!
sleep 1
CURLV=$(curl --version | head -1 | cut -d' ' -f1-2)
CMDLINE="curl -v http://127.0.0.1:18777/tally/core.py"
cap curl_v_local "$CURLV" curl -v http://127.0.0.1:18777/tally/core.py
CMDLINE="curl -sI http://127.0.0.1:18777/missing.txt"
cap curl_si_404 "$CURLV" curl -sI http://127.0.0.1:18777/missing.txt
kill $SRV; wait $SRV 2>/dev/null

# ---------------------------------------------------------------- sqlite3
cd "$W"
$PY - <<'EOF'
import sqlite3, random
random.seed(3)
c = sqlite3.connect("shop.db")
c.executescript("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, status TEXT, total REAL, created TEXT);")
names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
for i in range(1, 181):
    st = "refunded" if i in (42, 137) else ("pending" if i % 17 == 0 else "paid")
    c.execute("INSERT INTO orders VALUES (?,?,?,?,?)",
              (i, names[i % 8], st, round(random.uniform(5, 300), 2), f"2026-11-{1 + i % 28:02d} 1{i % 10}:0{i % 6}:00"))
c.commit()
EOF
SQLV="sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
CMDLINE="sqlite3 -header -column shop.db 'SELECT * FROM orders ORDER BY id'"
cap sqlite3_select_column "$SQLV" sqlite3 -header -column shop.db 'SELECT * FROM orders ORDER BY id'
CMDLINE="sqlite3 shop.db 'SELECT status, count(*), round(sum(total),2) FROM orders GROUP BY status'"
cap sqlite3_group_by "$SQLV" sqlite3 shop.db 'SELECT status, count(*), round(sum(total),2) FROM orders GROUP BY status'

# ---------------------------------------------------------------- openssl x509 on a cert made here
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/dev.key" -out "$W/dev.crt" -days 825 \
  -subj "/C=DE/O=Sqz Fixtures/CN=dev.sqz.test" -addext "subjectAltName=DNS:dev.sqz.test,DNS:localhost,IP:127.0.0.1" \
  >/dev/null 2>&1
CMDLINE="openssl x509 -in dev.crt -text -noout"
cap openssl_x509_text "$(openssl version | cut -d' ' -f1-2)" openssl x509 -in dev.crt -text -noout
rm -f "$W/dev.key"

# ---------------------------------------------------------------- diff -u between two real file versions
cp "$PYENV/3.11.7/lib/python3.11/dataclasses.py" "$W/dataclasses_311.py"
cp "$PYENV/3.12.1/lib/python3.12/dataclasses.py" "$W/dataclasses_312.py"
CMDLINE="diff -u dataclasses_311.py dataclasses_312.py"
cap diff_u_dataclasses "$(diff --version | head -1)" diff -u --label dataclasses_311.py --label dataclasses_312.py dataclasses_311.py dataclasses_312.py

# ---------------------------------------------------------------- archives: tar and a real wheel
cd "$W/proj" && make dist >/dev/null 2>&1; cd "$W"
tar -czf "$W/requests-site.tar.gz" -C "$W/venv/lib/python3.11/site-packages" requests
CMDLINE="tar -tvf requests-site.tar.gz"
cap tar_tvf_requests "$(tar --version | head -1)" env TZ=UTC tar -tvf requests-site.tar.gz
"$VPIP" download -q --no-deps -d "$W/wheels" rich==13.9.4 >/dev/null 2>&1
WHL=$(ls "$W"/wheels/rich-*.whl | head -1); cp "$WHL" "$W/rich-13.9.4-py3-none-any.whl"
CMDLINE="zipinfo rich-13.9.4-py3-none-any.whl"
cap zipinfo_rich_wheel "$(zipinfo -h 2>&1 | head -1 | cut -d' ' -f1-2)" env TZ=UTC zipinfo rich-13.9.4-py3-none-any.whl
CMDLINE="unzip -l rich-13.9.4-py3-none-any.whl"
cap unzip_l_rich_wheel "$(unzip -v 2>&1 | head -1 | cut -d' ' -f1-2)" env TZ=UTC unzip -l rich-13.9.4-py3-none-any.whl

# ---------------------------------------------------------------- binaries
SQLITE_SO=$(readlink -f /usr/lib/x86_64-linux-gnu/libsqlite3.so.0)
cp "$SQLITE_SO" "$W/libsqlite3.so.0"
BINV="$(nm --version | head -1)"
CMDLINE="ldd /usr/bin/curl"
cap ldd_curl "$(ldd --version | head -1)" ldd /usr/bin/curl
CMDLINE="nm -D libsqlite3.so.0"
cap nm_d_libsqlite3 "$BINV" nm -D libsqlite3.so.0
CMDLINE="objdump -h libsqlite3.so.0"
cap objdump_h_libsqlite3 "$(objdump --version | head -1)" objdump -h libsqlite3.so.0
cd "$W/venv/lib/python3.11/site-packages"
CMDLINE="file *"
cap file_star_site_packages "$(file --version | head -1)" bash -c 'file *'
cd "$W"
CMDLINE="strace -c -f python3 -c 'import json, sqlite3'"
cap strace_c_python "$(strace -V | head -1)" strace -c -f $PY -c 'import json, sqlite3'

# ---------------------------------------------------------------- node with an uncaught error
cat >"$W/server.js" <<'EOF'
const fs = require("fs");
function loadConfig(path) {
  const raw = fs.readFileSync(path, "utf8");
  return JSON.parse(raw);
}
console.log("booting api on :8080");
for (let i = 1; i <= 5; i++) console.log(`registered route /v1/items/${i}`);
const cfg = loadConfig(__dirname + "/config.json");
console.log(cfg.port);
EOF
CMDLINE="node server.js"
cap node_uncaught_enoent "node $(node --version)" node server.js

# ---------------------------------------------------------------- python -X importtime, pip show/freeze
CMDLINE="python -X importtime -c 'import requests'"
cap python_importtime_requests "$($VPY --version)" "$VPY" -X importtime -c 'import requests'
CMDLINE="pip show -f requests"
cap pip_show_f_requests "$PIPV" "$VPIP" show -f requests
"$VPIP" install -q pytest==8.3.4 hypothesis==6.122.3 jsonschema==4.23.0 httpx==0.28.1 pyyaml==6.0.2 \
  click==8.1.7 jinja2==3.1.4 flask==3.1.0 sqlalchemy==2.0.36 pydantic==2.10.3 >/dev/null 2>&1
CMDLINE="pip freeze"
cap pip_freeze_large "$PIPV" "$VPIP" freeze

# ---------------------------------------------------------------- apt-get install -s
CMDLINE="apt-get install -s postgresql-15 nginx"
cap apt_get_install_simulate "$(apt-get --version | head -1)" apt-get install -s postgresql-15 nginx

# ---------------------------------------------------------------- file reads: cat / head
SP="$W/venv/lib/python3.11/site-packages"
CMDLINE="cat requests/sessions.py"
cd "$SP" && cap cat_requests_sessions "$PIPV (requests 2.32.3)" cat requests/sessions.py
CMDLINE="head -n 200 rich/console.py"
cap head_rich_console "rich 13.9.4 source" head -n 200 rich/console.py

# ---------------------------------------------------------------- wc -l over a tree
CMDLINE="wc -l \$(find requests rich/markdown.py -name '*.py' | sort)"
cap wc_l_tree "$(wc --version | head -1)" bash -c "wc -l \$(find requests rich/markdown.py -name '*.py' | sort)"
cd "$W"
echo "captured into $OUT"

# ---------------------------------------------------------------- tuning fixtures of the kinds the held-out set led to
# (kinds/runs and kinds/columns: other programs and data than the held-out set above, which stays untuned)
KOUT="$HERE/tests/fixtures/kinds"
capk() {  # capk KIND NAME "produced_by" CMD...
  local kind=$1 name=$2 by=$3; shift 3
  mkdir -p "$KOUT/$kind"
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$KOUT/$kind/$name.txt"
  meta "$KOUT/$kind/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured kinds/$kind/$name (exit $rc, $(wc -c <"$KOUT/$kind/$name.txt") bytes)"
}
cd "$W"
cat >shards.py <<'EOF2'
import random, sys
random.seed(11)
print("processing 120 shards from data/raw -> data/clean", flush=True)
rows = 0
for i in range(1, 121):
    n = 9000 + random.randint(0, 999)
    rows += n
    if i == 77:
        print(f"WARNING: shard-077.parquet has 312 rows with a null user_id, skipped them", file=sys.stderr, flush=True)
    print(f"[{i:03d}/120] shard-{i:03d}.parquet: {n} rows in {0.2 + random.random():.2f}s", flush=True)
    if i % 40 == 0:
        print(f"checkpoint: {i} shards, {rows} rows so far", flush=True)
print(f"done: 120 shards, {rows} rows written to data/clean", flush=True)
EOF2
CMDLINE="python3 shards.py"
capk runs shards_progress "$PYV" $PY shards.py
openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:3072 -out "$W/k.pem" >/dev/null 2>&1
openssl pkey -in "$W/k.pem" -pubout -out "$W/pub.pem" >/dev/null 2>&1; rm -f "$W/k.pem"
CMDLINE="openssl pkey -pubin -in pub.pem -text -noout"
capk runs openssl_pkey_pub_text "$(openssl version | cut -d' ' -f1-2)" openssl pkey -pubin -in pub.pem -text -noout
tar -czf "$W/idna-site.tar.gz" -C "$W/venv/lib/python3.11/site-packages" idna
CMDLINE="tar -tvzf idna-site.tar.gz"
capk columns tar_tvzf_idna "$(tar --version | head -1)" env TZ=UTC tar -tvzf idna-site.tar.gz
"$VPIP" download -q --no-deps -d "$W/wheels" urllib3==2.2.3 >/dev/null 2>&1
cp "$W"/wheels/urllib3-2.2.3-*.whl "$W/urllib3-2.2.3-py3-none-any.whl"
CMDLINE="zipinfo urllib3-2.2.3-py3-none-any.whl"
capk columns zipinfo_urllib3_wheel "$(zipinfo -h 2>&1 | head -1 | cut -d' ' -f1-2)" env TZ=UTC zipinfo urllib3-2.2.3-py3-none-any.whl
echo "captured kinds/runs and kinds/columns"
