# Shared by capture_kinds.sh, capture_tables.sh and capture_generic.sh (sourced, not run).
# Needs HERE (sqz_core/), PY (any python3) and SQZ_PY (a Python that can import sqz_core); cap also W and OUT.
# A script whose fixtures go to per-kind folders defines its own cap after sourcing this.

scrub() {  # registry hosts and this machine's index paths -> neutral placeholder (sqz_testing)
  PYTHONPATH="$HERE/src${PYTHONPATH:+:$PYTHONPATH}" "$SQZ_PY" -c 'import sys; from sqz_testing import redact_registries; sys.stdout.buffer.write(redact_registries(sys.stdin.buffer.read()))'
}

meta() {  # meta SIDECAR CMDLINE PRODUCED_BY EXIT: merge them into the sidecar, keeping hand-written keys
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

# cap NAME "produced_by" CMD... : run CMD (stdout+stderr) in the current dir into $OUT; CMDLINE is what the sidecar records
cap() {
  local name=$1 by=$2; shift 2
  "$@" >"$W/.out" 2>&1
  local rc=$?
  scrub <"$W/.out" >"$OUT/$name.txt"
  meta "$OUT/$name.json" "$CMDLINE" "$by" "$rc"
  echo "captured $name (exit $rc, $(wc -c <"$OUT/$name.txt") bytes)"
}
