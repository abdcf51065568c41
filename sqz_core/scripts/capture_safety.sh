#!/usr/bin/env bash
# Re-capture the safety-routing fixtures: real stack traces, a real PEM block and real
# tool output around them. Each NAME.txt is written by the program named in NAME.json.
# Needs: python3, node, java/javac, rustc, openssl (go is optional).
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/safety"
work=/tmp/sqz-capture/safety
rm -rf "$work"; mkdir -p "$work" "$out"; cd "$work"

meta() {  # name command produced_by exit facts_json notes
  python3 - "$out/$1.json" "$2" "$3" "$4" "$5" "$6" <<'PY'
import json, sys
path, command, produced_by, code, facts, notes = sys.argv[1:]
json.dump({"command": command, "produced_by": produced_by, "exit_code": int(code),
           "facts": json.loads(facts), "notes": notes}, open(path, "w"), indent=2)
open(path, "a").write("\n")
PY
}

# Python traceback inside ordinary output
cat > app.py <<'PY'
import json
def load(path):
    with open(path) as fh:
        return json.load(fh)
for i in range(30):
    print("processing item", i)
load("/tmp/sqz-capture/safety/missing.json")
PY
set +e; python3 app.py > "$out/python_traceback.txt" 2>&1; code=$?; set -e
meta python_traceback "python3 app.py" "$(python3 --version)" $code \
  '["Traceback (most recent call last):", "line 7, in <module>", "FileNotFoundError: [Errno 2] No such file or directory"]' \
  "script app.py in $work prints 30 progress lines then raises"

# JVM stack trace
cat > Main.java <<'JAVA'
public class Main {
    static int parse(String s) { return Integer.parseInt(s); }
    public static void main(String[] args) {
        for (int i = 0; i < 5; i++) System.out.println("step " + i);
        parse("not-a-number");
    }
}
JAVA
javac Main.java
set +e; java Main > "$out/jvm_stacktrace.txt" 2>&1; code=$?; set -e
meta jvm_stacktrace "java Main" "$(java -version 2>&1 | head -1)" $code \
  '["java.lang.NumberFormatException: For input string: \"not-a-number\"", "at Main.parse(Main.java:2)", "at Main.main(Main.java:5)"]' \
  "Main.java in $work"

# Node.js stack trace
cat > app.js <<'JS'
function inner() { throw new TypeError("cannot read config"); }
function outer() { inner(); }
console.log("starting");
outer();
JS
set +e; node app.js > "$out/node_stacktrace.txt" 2>&1; code=$?; set -e
meta node_stacktrace "node app.js" "node $(node --version)" $code \
  '["TypeError: cannot read config", "at inner (", "at outer ("]' "app.js in $work"

# Rust panic with a backtrace
cat > main.rs <<'RS'
fn divide(a: i32, b: i32) -> i32 { if b == 0 { panic!("division by zero: {} / {}", a, b) } a / b }
fn main() { for i in 0..3 { println!("ok {}", divide(10, 5 - i)); } println!("{}", divide(1, 0)); }
RS
rustc -g -o divide main.rs 2>/dev/null
set +e; RUST_BACKTRACE=1 ./divide > "$out/rust_backtrace.txt" 2>&1; code=$?; set -e
meta rust_backtrace "RUST_BACKTRACE=1 ./divide" "$(rustc --version)" $code \
  '["division by zero: 1 / 0", "stack backtrace:", "main::divide"]' "main.rs in $work"

# Go goroutine dump (only where go is installed)
if command -v go >/dev/null; then
  cat > main.go <<'GO'
package main

import "fmt"

func get(xs []int, i int) int { return xs[i] }

func main() {
	fmt.Println("start")
	fmt.Println(get([]int{1, 2, 3}, 5))
}
GO
  set +e; go run main.go > "$out/go_panic.txt" 2>&1; code=$?; set -e
  sed -i "s#$work#/tmp/sqz-capture/safety#g" "$out/go_panic.txt"
  meta go_panic "go run main.go" "$(go version)" $code \
    '["panic: runtime error: index out of range [5] with length 3", "goroutine 1 [running]:", "main.get("]' "main.go in $work"
fi

# A PEM private key printed by openssl (a throw-away key made for this fixture)
openssl genpkey -algorithm ed25519 2>/dev/null > key.pem
{ echo "wrote key.pem:"; cat key.pem; } > "$out/pem_private_key.txt"
meta pem_private_key "openssl genpkey -algorithm ed25519 && cat key.pem" "$(openssl version)" 0 \
  '["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"]' "throw-away key generated for this fixture; not used anywhere"

# Environment listing with a credential line (values are throw-away test values;
# AKIAIOSFODNN7EXAMPLE is AWS's documented example key id)
env -i HOME=/home/dev LANG=C.UTF-8 PATH=/usr/bin:/bin AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE \
  DATABASE_PASSWORD=correct-horse-battery TERM=xterm printenv | sort > "$out/env_credentials.txt"
meta env_credentials "printenv | sort" "$(printenv --version | head -1)" 0 \
  '["AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "DATABASE_PASSWORD=correct-horse-battery"]' \
  "env -i with throw-away values; AKIAIOSFODNN7EXAMPLE is the example key id from AWS documentation"

# SQL DDL printed by sqlite3's .schema
python3 - <<'PY' > "$out/sqlite_schema.txt"
import sqlite3
c = sqlite3.connect(":memory:")
c.executescript("""
CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, created_at TEXT);
CREATE INDEX users_created ON users(created_at);
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id), total REAL);
""")
for (sql,) in c.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"):
    print(sql + ";")
PY
meta sqlite_schema "python3 -c 'dump sqlite_master sql'" "$(python3 --version), SQLite $(python3 -c 'import sqlite3;print(sqlite3.sqlite_version)')" 0 \
  '["CREATE TABLE users", "CREATE INDEX users_created ON users(created_at)"]' "schema printed from sqlite_master"
echo "captured into $out"
