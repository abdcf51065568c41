#!/usr/bin/env bash
# Re-capture tests/fixtures/kinds/table/fam_ps_aux_wide_vsz (issue 25: ps aux whose columns do not line up).
# `ps aux` in a fresh PID namespace (unshare -p -f --mount-proc, so only these processes show): six
# sleeps, a Python mapping a 4 GiB sparse file (VSZ 4210904 KiB, wider than ps's VSZ column, so the
# rest of its row shifts right), node, a Python http.server on 127.0.0.1 and a shell loop.
# Facts (every row's cells, on one line) are split from the raw output before any formatter runs.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=tests/fixtures/kinds/table
WORK=/tmp/sqz-capture/kinds-ps
mkdir -p "$WORK"
truncate -s 4G "$WORK/sparse.bin"
PY=$(command -v python3)
cat > "$WORK/run.sh" <<SH
for i in 1 2 3 4 5 6; do sleep 30 & done
$PY -c "import mmap,time; f=open('$WORK/sparse.bin','rb'); m=mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ); time.sleep(30)" &
node -e "setTimeout(() => {}, 30000)" &
$PY -m http.server --bind 127.0.0.1 0 >/dev/null 2>&1 &
bash -c 'while :; do sleep 1; done' &
sleep 3
ps aux
kill \$(jobs -p) 2>/dev/null
SH
timeout 60 unshare -p -f --mount-proc bash "$WORK/run.sh" > "$OUT/fam_ps_aux_wide_vsz.txt"
rm -f "$WORK/sparse.bin"
python3 - "$OUT/fam_ps_aux_wide_vsz" "$(ps --version)" <<'PY'
import json, sys
base, version = sys.argv[1], sys.argv[2]
lines = open(base + ".txt").read().rstrip("\n").split("\n")
head = lines[0].split()
assert head[-1] == "COMMAND", head
facts = []
facts.append(lines[0].split()[:3])
for line in lines[1:]:
    cells = line.split(None, len(head) - 1)
    assert len(cells) == len(head), line
    facts.append(cells)
assert any(len(c[4]) > 6 for c in facts[1:]), "no VSZ wider than its column: nothing shifted"
json.dump({"command": "ps aux", "produced_by": version, "exit_code": 0, "facts": facts,
           "notes": "Captured by sqz_formatters_generic/scripts/capture_ps_families.sh: ps aux in its own PID "
                    "namespace (only the processes the script starts); one VSZ (4210904) is wider than its "
                    "column, so that row's later cells shift right. Facts: every row's cells, on one line."},
          open(base + ".json", "w"), indent=2, ensure_ascii=False)
open(base + ".json", "a").write("\n")
PY
echo "captured $OUT/fam_ps_aux_wide_vsz"
