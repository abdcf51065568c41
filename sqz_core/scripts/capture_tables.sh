#!/usr/bin/env bash
# Capture the table and listing fixtures that capture_kinds.sh does not make: a long listing
# of a directory with mixed owners, modes and dates, an absolute `find` of a real package
# tree, `ps -eo` with right-aligned columns and `tree` of the same package. Needs root (chown,
# unshare), tree (Debian package), python3; and `pip list -v` of that python3 (a wide table
# whose Location is the same long path on every row).
# `capture_tables.sh tree` re-captures one fixture (ls, find, ps, tree, piplist); no argument: all.
# Output goes through sqz_core.testing.redact_registries like every capture.
# Sidecars keep their hand-written facts/dropped/notes; only command, produced_by and
# exit_code are refreshed.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds"
W=/tmp/sqz-capture/tables
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
ONLY=${1:-all}  # ls | find | ps | tree | piplist | all
want() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1

scrub() {
  "$SQZ_PY" -c 'import sys; from sqz_core.testing import redact_registries; sys.stdout.buffer.write(redact_registries(sys.stdin.buffer.read()))'
}

meta() {  # merge command/produced_by/exit_code into the sidecar, keeping hand-written keys
  "$PY" - "$@" <<'PYEOF'
import json, sys, pathlib
p, cmd, by, rc = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
d = json.loads(p.read_text()) if p.exists() else {"facts": [], "notes": ""}
d.update(command=cmd, produced_by=by, exit_code=rc)
order = ["command", "produced_by", "exit_code", "facts", "dropped", "notes"]
d = {k: d[k] for k in order if k in d} | {k: v for k, v in d.items() if k not in order}
p.write_text(json.dumps(d, indent=2, ensure_ascii=False) + "\n")
PYEOF
}

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
