#!/usr/bin/env bash
# Re-capture the content-kind fixtures under sqz_core/tests/fixtures/kinds/ from real programs.
#
# Needs: python3 (venv + pip), npm/node, cargo, kubectl, tree, ripgrep, curl, unshare (root).
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
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1

scrub() {  # registry hosts and this machine's index paths -> neutral placeholder (sqz_core.testing)
  "$SQZ_PY" -c 'import sys; from sqz_core.testing import redact_registries; sys.stdout.buffer.write(redact_registries(sys.stdin.buffer.read()))'
}

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

meta() {  # merge command/produced_by/exit_code into the sidecar, keeping hand-written keys
  "$PY" - "$@" <<'EOF'
import json, sys, pathlib
p, cmd, by, rc = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
d = json.loads(p.read_text()) if p.exists() else {"facts": [], "notes": ""}
d.update(command=cmd, produced_by=by, exit_code=rc)
order = ["command", "produced_by", "exit_code", "facts", "dropped", "notes"]
d = {k: d[k] for k in order if k in d} | {k: v for k, v in d.items() if k not in order}
p.write_text(json.dumps(d, indent=2, ensure_ascii=False) + "\n")
EOF
}

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
echo done
