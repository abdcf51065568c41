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
# `capture_tables.sh h2` re-captures held-out pass #2 (h2_*): a local moto_server answered through
# the AWS CLI (JSON, --output table/yaml), npm view/audit/outdated of an old project, pip list
# --outdated in an old venv, psql -x and \\df, sqlite3 -table/-markdown, column -t of a CSV, ss and
# ps in their own namespaces, jq/yq/json.tool over real package data, PostgreSQL's jsonlog read by
# jq -c, a README/CHANGELOG and two HTML manuals read with curl. Needs moto and awscli in
# $H2_PYENV (pyenv 3.11.7 here), postgresql-15, sqlite3, jq, yq, iproute2; npm and PyPI reachable.
# `capture_tables.sh heldout-json` re-captures the held-out JSON, JSON-lines, markdown and HTML
# outputs (npm ls/outdated --json of an old express, a failing `cargo build --message-format=json`,
# `rg --json` over oauthlib, a package README and an API reference page read with curl).
# Output goes through sqz_testing.redact_registries like every capture.
# Sidecars keep their hand-written facts/dropped/notes; only command, produced_by and
# exit_code are refreshed.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds"
CLOUD_OUT="$HERE/../sqz_formatters_cloud/tests/fixtures"  # the AWS CLI --output table captures
W=/tmp/sqz-capture/tables
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta
ONLY=${1:-all}  # ls | find | ps | tree | piplist | heldout | heldout-json | h2 | all
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

# ---------------------------------------------------------------- held-out pass #2 (h2_*)
# Structured shapes the other fixtures lack: API responses (AWS CLI against a local moto_server:
# nested JSON, box-drawn tables, YAML), registry JSON (npm view/audit), outdated tables, psql's
# expanded records and function list, sqlite3's -table/-markdown modes, column -t of a CSV,
# socket and process tables, jq/yq/json.tool renderings of package data, JSON-lines logs, docs.
if want h2; then
H2PY=${H2_PYENV:-/root/.pyenv/versions/3.11.7}/bin
cd "$W"
# --- AWS CLI against moto_server on loopback (dummy credentials that moto accepts, no real account)
MOTO_PORT=18791
"$H2PY/moto_server" -H 127.0.0.1 -p $MOTO_PORT >/dev/null 2>&1 &
MOTO=$!
sleep 3
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=eu-west-1 AWS_PAGER=
awsl() { "$H2PY/aws" --endpoint-url "http://127.0.0.1:$MOTO_PORT" "$@"; }
AWSV="$("$H2PY/aws" --version 2>&1 | cut -d' ' -f1-2)"
awsl s3api create-bucket --bucket shop-static-assets --create-bucket-configuration LocationConstraint=eu-west-1 >/dev/null
awsl s3 cp --recursive --quiet /usr/lib/python3/dist-packages/oauthlib/oauth2/rfc6749 s3://shop-static-assets/vendor/oauthlib/
VPC=$(awsl ec2 create-vpc --cidr-block 10.20.0.0/16 --query Vpc.VpcId --output text)
SUBA=$(awsl ec2 create-subnet --vpc-id "$VPC" --cidr-block 10.20.1.0/24 --availability-zone eu-west-1a --query Subnet.SubnetId --output text)
SUBB=$(awsl ec2 create-subnet --vpc-id "$VPC" --cidr-block 10.20.2.0/24 --availability-zone eu-west-1b --query Subnet.SubnetId --output text)
SG=$(awsl ec2 create-security-group --group-name web-frontend --description "HTTPS from anywhere, SSH from office" --vpc-id "$VPC" --query GroupId --output text)
awsl ec2 authorize-security-group-ingress --group-id "$SG" --protocol tcp --port 443 --cidr 0.0.0.0/0 >/dev/null
awsl ec2 authorize-security-group-ingress --group-id "$SG" --protocol tcp --port 22 --cidr 203.0.113.0/24 >/dev/null
SG2=$(awsl ec2 create-security-group --group-name db-internal --description "PostgreSQL from the web tier" --vpc-id "$VPC" --query GroupId --output text)
awsl ec2 authorize-security-group-ingress --group-id "$SG2" --protocol tcp --port 5432 --source-group "$SG" >/dev/null
for spec in "web-1 t3.small $SUBA $SG" "web-2 t3.small $SUBB $SG" "worker-1 c5.large $SUBA $SG" "db-primary r5.xlarge $SUBA $SG2" "db-replica r5.xlarge $SUBB $SG2"; do
  set -- $spec
  awsl ec2 run-instances --image-id ami-03cf127a --instance-type "$2" --subnet-id "$3" --security-group-ids "$4" \
    --tag-specifications "ResourceType=instance,Tags=[{Key=Name,Value=$1},{Key=team,Value=shop}]" >/dev/null
done
W2=$(awsl ec2 describe-instances --filters Name=tag:Name,Values=worker-1 --query 'Reservations[0].Instances[0].InstanceId' --output text)
awsl ec2 stop-instances --instance-ids "$W2" >/dev/null
awsl dynamodb create-table --table-name packages --attribute-definitions AttributeName=name,AttributeType=S \
  --key-schema AttributeName=name,KeyType=HASH --billing-mode PAY_PER_REQUEST >/dev/null
dpkg-query -W -f='${Package}\t${Version}\t${Installed-Size}\t${Section}\n' 'libpython3*' 'python3-[a-f]*' | awk -F'\t' '$3 != ""' | head -24 |
while IFS=$'\t' read -r n v sz sec; do
  awsl dynamodb put-item --table-name packages --item "{\"name\":{\"S\":\"$n\"},\"version\":{\"S\":\"$v\"},\"size_kb\":{\"N\":\"$sz\"},\"section\":{\"S\":\"$sec\"}}"
done
for r in "deploy-bot ec2.amazonaws.com" "ci-runner codebuild.amazonaws.com" "lambda-thumbnails lambda.amazonaws.com"; do
  set -- $r
  awsl iam create-role --role-name "$1" --path /service/ --description "assumed by $2" \
    --assume-role-policy-document "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"$2\"},\"Action\":\"sts:AssumeRole\"}]}" >/dev/null
done
CMDLINE="aws ec2 describe-instances"; cap json h2_aws_ec2_describe_instances "$AWSV" awsl ec2 describe-instances
CMDLINE="aws s3api list-objects-v2 --bucket shop-static-assets"; cap json h2_aws_s3api_list_objects "$AWSV" awsl s3api list-objects-v2 --bucket shop-static-assets
CMDLINE="aws dynamodb scan --table-name packages"; cap json h2_aws_dynamodb_scan "$AWSV" awsl dynamodb scan --table-name packages
CMDLINE="aws iam list-roles"; cap json h2_aws_iam_list_roles "$AWSV" awsl iam list-roles
# AWS CLI v1 has no --output yaml: its JSON is turned into YAML by yq
awsl ec2 describe-security-groups >"$W/security-groups.json"
CMDLINE="yq -y . security-groups.json (aws ec2 describe-security-groups)"
(cd "$W" && cap yaml h2_yq_aws_security_groups "yq $(yq --version 2>&1 | cut -d' ' -f2) (jq wrapper), $AWSV" yq -y . security-groups.json)
# the box tables are the cloud pack's (sqz_formatters_cloud.aws_cli): captured into its fixtures
CMDLINE="aws ec2 describe-instances --output table"; OUT="$CLOUD_OUT" cap aws h2_aws_ec2_instances_table "$AWSV" awsl ec2 describe-instances --output table
CMDLINE="aws ec2 describe-subnets --output table"; OUT="$CLOUD_OUT" cap aws h2_aws_subnets_table "$AWSV" awsl ec2 describe-subnets --output table
kill $MOTO; wait $MOTO 2>/dev/null
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_DEFAULT_REGION

# --- npm: registry JSON and an outdated table of an old project
NPMV="npm $(npm --version)"
mkdir -p "$W/h2web" && cd "$W/h2web" && npm init -y >/dev/null && npm install -q express@4.16.0 lodash@4.17.4 \
  moment@2.19.1 chalk@2.4.1 commander@2.15.0 debug@2.6.8 minimist@1.2.0 axios@0.18.0 >/dev/null 2>&1
CMDLINE="npm view chalk --json"; cap json h2_npm_view_chalk_json "$NPMV" npm view chalk --json
CMDLINE="npm pack --dry-run --json (in node_modules/express)"
(cd node_modules/express && cap json h2_npm_pack_dry_run_express "$NPMV" npm pack --dry-run --json)
CMDLINE="npm outdated"; cap table h2_npm_outdated_table "$NPMV" npm outdated

# --- pip list --outdated in a venv of old releases (a table and its JSON)
cd "$W"
"$PY" -m venv "$W/h2venv" && "$W/h2venv/bin/pip" install -q requests==2.25.1 urllib3==1.26.5 idna==2.10 chardet==4.0.0 \
  certifi==2020.12.5 click==7.1.2 Jinja2==2.11.3 MarkupSafe==1.1.1 itsdangerous==1.1.0 Werkzeug==1.0.1 Flask==1.1.2 >/dev/null 2>&1
H2PIPV="$("$W/h2venv/bin/pip" --version | cut -d' ' -f1-2)"
CMDLINE="pip list --outdated"; cap deptree h2_pip_list_outdated "$H2PIPV" env PIP_DISABLE_PIP_VERSION_CHECK=1 "$W/h2venv/bin/pip" list --outdated
CMDLINE="pip list --outdated --format=json"; cap json h2_pip_list_outdated_json "$H2PIPV" env PIP_DISABLE_PIP_VERSION_CHECK=1 "$W/h2venv/bin/pip" list --outdated --format=json
"$W/h2venv/bin/pip" inspect 2>/dev/null >"$W/h2inspect.json"
JQV="$(jq --version)"
CMDLINE="pip inspect | jq '[.installed[] | {name: .metadata.name, version: .metadata.version, requires: .metadata.requires_dist, requested}]'"
cap json h2_jq_pip_inspect "$JQV" jq '[.installed[] | {name: .metadata.name, version: .metadata.version, requires: .metadata.requires_dist, requested}]' "$W/h2inspect.json"
CMDLINE="pip inspect | jq -c '.installed[] | {name: .metadata.name, version: .metadata.version, summary: .metadata.summary, installer, requested}'"
cap jsonl h2_jq_c_pip_inspect "$JQV" jq -c '.installed[] | {name: .metadata.name, version: .metadata.version, summary: .metadata.summary, installer, requested}' "$W/h2inspect.json"

# --- JSON and YAML renderings of schemas shipped in packages
OSV=$(ls -d "$H2PY"/../lib/python3.11/site-packages/openapi_spec_validator/resources/schemas)
cd "$OSV"
CMDLINE="python3 -m json.tool v3.0/schema.json"; cap json h2_json_tool_openapi_v30 "$("$PY" --version)" "$PY" -m json.tool v3.0/schema.json
CMDLINE="yq -y . v3.1/schema.json"; cap yaml h2_yq_openapi_v31 "yq $(yq --version 2>&1 | cut -d' ' -f2) (jq wrapper), $JQV" yq -y . v3.1/schema.json

# --- PostgreSQL: expanded records, a function list, and its jsonlog read with jq -c
cd "$W"
PGB=/usr/lib/postgresql/15/bin
PGD=/tmp/sqz-capture/pg2
rm -rf "$PGD" && mkdir -p "$PGD" && chown postgres "$PGD"
su postgres -c "$PGB/initdb -D $PGD/data -A trust -U postgres >/dev/null 2>&1"
su postgres -c "$PGB/pg_ctl -D $PGD/data -o \"-k $PGD -c listen_addresses='' -p 55433 -c logging_collector=on -c log_destination=jsonlog -c log_directory=$PGD/logs -c log_statement=ddl -c log_min_duration_statement=0\" -l $PGD/log -w start >/dev/null"
PSQLV="$(psql --version)"
psq2() { psql -h "$PGD" -p 55433 -U postgres "$@"; }
CMDLINE="psql -x -c \"select name, setting, unit, category, short_desc, context, vartype, source, min_val, max_val, boot_val, pending_restart from pg_settings where category like 'Write-Ahead Log%' order by name\""
cap table h2_psql_expanded_wal "$PSQLV" psq2 -x -c "select name, setting, unit, category, short_desc, context, vartype, source, min_val, max_val, boot_val, pending_restart from pg_settings where category like 'Write-Ahead Log%' order by name"
CMDLINE="psql -c '\\df pg_catalog.pg_stat_get_*'"; cap table h2_psql_df_stat "$PSQLV" psq2 -c '\df pg_catalog.pg_stat_get_*'
psq2 -q -c "create table orders(id serial primary key, customer text not null, total numeric(10,2))" \
  -c "insert into orders(customer, total) select 'cust' || g, g * 1.5 from generate_series(1, 40) g" \
  -c "select * from orders_archive" -c "create index orders_customer on orders(customer)" \
  -c "alter table orders add column note text" -c "select count(*) from orders where total > 30" >/dev/null 2>&1
sleep 1
su postgres -c "$PGB/pg_ctl -D $PGD/data -m fast stop >/dev/null"
CMDLINE="jq -c . postgresql.json (the cluster's jsonlog)"
cap jsonl h2_jq_c_postgres_jsonlog "$JQV; $PSQLV" sh -c "jq -c . $PGD/logs/*.json"

# --- sqlite3 -table and -markdown over this machine's lib* Debian packages
rm -f "$W/h2pkgs.db"
dpkg-query -W -f='${db:Status-Abbrev}\t${Package}\t${Version}\t${Architecture}\t${Installed-Size}\t${Section}\n' 'lib*' \
  | awk -F'\t' '$1 ~ /^ii/ {print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6}' >"$W/h2pkgs.tsv"
sqlite3 "$W/h2pkgs.db" "create table pkg(name text, version text, arch text, size_kb integer, section text);" \
  ".mode tabs" ".import $W/h2pkgs.tsv pkg"
SQLV="sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
CMDLINE="sqlite3 -table h2pkgs.db 'select name, version, arch, size_kb, section from pkg where size_kb >= 2000 order by size_kb desc'"
cap table h2_sqlite_table_mode "$SQLV" sqlite3 -table h2pkgs.db 'select name, version, arch, size_kb, section from pkg where size_kb >= 2000 order by size_kb desc'
CMDLINE="sqlite3 -markdown h2pkgs.db 'select section, count(*) as packages, sum(size_kb) as total_kb, max(name) as last_name from pkg group by section order by total_kb desc'"
cap table h2_sqlite_markdown_mode "$SQLV" sqlite3 -markdown h2pkgs.db 'select section, count(*) as packages, sum(size_kb) as total_kb, max(name) as last_name from pkg group by section order by total_kb desc'

# --- column -t of a CSV shipped in numpy (its random-generator test vectors)
cd "$H2PY/../lib/python3.11/site-packages/numpy/random/tests/data"
CMDLINE="column -s, -t philox-testset-1.csv"; cap table h2_column_t_csv "column from $(dpkg-query -W -f='${Package} ${Version}' bsdextrautils 2>/dev/null)" column -s, -t philox-testset-1.csv

# --- ss -tanp and ps aux --sort in their own namespaces (servers, idle and open connections)
cd "$W"
cat >"$W/h2net.sh" <<NETEOF
#!/bin/sh
ip link set lo up
(cd /tmp && exec python3 -m http.server 8080 --bind 127.0.0.1 >/dev/null 2>&1) &
(cd /tmp && exec python3 -m http.server 8443 --bind ::1 >/dev/null 2>&1) &
su postgres -c "$PGB/pg_ctl -D $PGD/data -o \"-k $PGD -c listen_addresses=127.0.0.1 -p 5432 -c logging_collector=off -c log_destination=stderr\" -l $PGD/log2 -w start" >/dev/null
sleep 1
python3 - <<'PYEOF' &
import socket, time
keep = []
for port in (8080, 8080, 8080, 5432, 5432):
    s = socket.create_connection(("127.0.0.1", port)); keep.append(s)
time.sleep(6)
PYEOF
sleep 2
"\$@"
su postgres -c "$PGB/pg_ctl -D $PGD/data -m fast stop" >/dev/null 2>&1
NETEOF
CMDLINE="ss -tanp"; cap table h2_ss_tanp "$(ss --version)" unshare --net --pid --fork --mount-proc sh "$W/h2net.sh" ss -tanp
CMDLINE="ps aux --sort=-rss"; cap table h2_ps_aux_sort_rss "$(ps --version)" unshare --net --pid --fork --mount-proc sh "$W/h2net.sh" ps aux --sort=-rss

# --- a README and a CHANGELOG (markdown) and two HTML manuals, read with curl
(cd "$W/h2web/node_modules" && exec "$PY" -m http.server 18774 --bind 127.0.0.1 >/dev/null 2>&1) &
SRV=$!
(cd /usr/share/doc && exec "$PY" -m http.server 18775 --bind 127.0.0.1 >/dev/null 2>&1) &
SRV2=$!
sleep 1
CURLV="$(curl --version | head -1 | cut -d' ' -f1-2)"
CMDLINE="curl -s http://127.0.0.1:18774/qs/README.md"; cap markdown h2_qs_readme "$CURLV" curl -s http://127.0.0.1:18774/qs/README.md
CMDLINE="curl -s http://127.0.0.1:18774/axios/CHANGELOG.md"; cap markdown h2_axios_changelog "$CURLV" curl -s http://127.0.0.1:18774/axios/CHANGELOG.md
CMDLINE="curl -s http://127.0.0.1:18775/zlib1g-dev/examples/zlib_how.html"; cap html h2_zlib_how "$CURLV" curl -s http://127.0.0.1:18775/zlib1g-dev/examples/zlib_how.html
CMDLINE="curl -s http://127.0.0.1:18775/libffi8/html/The-Closure-API.html"; cap html h2_libffi_closure_api "$CURLV" curl -s http://127.0.0.1:18775/libffi8/html/The-Closure-API.html
kill $SRV $SRV2; wait $SRV $SRV2 2>/dev/null
fi
