#!/usr/bin/env bash
# Re-capture the lockfile fixtures under sqz_formatters_generic/tests/fixtures/kinds/lockfile/:
# real lockfiles written here by their own package managers, read back with `cat` (a file read).
#
# Needs: npm/node (npm's registry), python3 with venv + pip (PyPI; poetry and uv are installed into a
# throw-away venv), cargo and Debian's vendored crates in /usr/share/cargo/registry (librust-*-dev:
# cargo resolves offline against that directory, so Cargo.lock names the usual crates index as its source).
# Projects live in the fixed dir /tmp/sqz-capture/struct-lock so paths are stable.
# Registry hosts and local index paths are replaced by pkgs.example.org (scrub, sqz_testing).
# Sidecars keep their hand-written facts/notes; this script only refreshes command, produced_by, exit_code.
set -u
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/tests/fixtures/kinds/lockfile"
W=/tmp/sqz-capture/struct-lock
PY=${PYTHON:-python3}
SQZ_PY=${SQZ_PYTHON:-"$HERE/../.venv/bin/python"}
. "$HERE/../sqz_core/scripts/_capture_lib.sh"  # scrub, meta, cap
rm -rf "$W" && mkdir -p "$W" "$OUT" || exit 1

# --- npm: package-lock.json (lockfileVersion 3) of a small app, dependencies and devDependencies
mkdir -p "$W/npm-app" && cd "$W/npm-app" || exit 1
cat >package.json <<'JSON'
{ "name": "struct-npm-app", "version": "1.0.0", "private": true }
JSON
npm install --package-lock-only --ignore-scripts --no-audit --no-fund axios@1 yargs@17 semver@7 >/dev/null 2>&1
npm install --package-lock-only --ignore-scripts --no-audit --no-fund --save-dev typescript@5 @types/node@20 >/dev/null 2>&1
CMDLINE="cat package-lock.json" cap npm_package_lock_v3 "npm $(npm --version) (npm install --package-lock-only)" cat package-lock.json
( OUT="$HERE/tests/fixtures/file_reads"; mkdir -p "$OUT"  # a manifest: a file read that stays byte for byte
  CMDLINE="cat package.json" cap npm_package_json "npm $(npm --version) (npm install --package-lock-only)" cat package.json )

# --- npm: lockfileVersion 2 (the packages map and the legacy dependencies tree) with resolved URLs
# (this machine's npmrc sets omit-lockfile-registry-resolved; the v2 capture turns it off)
mkdir -p "$W/npm-v2" && cd "$W/npm-v2" || exit 1
cat >package.json <<'JSON'
{ "name": "struct-npm-v2", "version": "1.0.0", "private": true }
JSON
npm install --package-lock-only --ignore-scripts --no-audit --no-fund --lockfile-version 2 \
  --omit-lockfile-registry-resolved=false koa@2 commander@12 minimist@1 dotenv@16 uuid@9 >/dev/null 2>&1
CMDLINE="cat package-lock.json" cap npm_package_lock_v2 "npm $(npm --version) (npm install --package-lock-only --lockfile-version 2)" cat package-lock.json

# --- cargo: Cargo.lock of a binary crate resolved offline against Debian's vendored crates
mkdir -p "$W/cargo-app/src" "$W/cargo-app/.cargo" && cd "$W/cargo-app" || exit 1
cat >Cargo.toml <<'TOML'
[package]
name = "struct-cargo-app"
version = "0.1.0"
edition = "2021"

[dependencies]
rayon = "1"
serde_json = "1"
rand = "0.8"
env_logger = "0.9"
TOML
echo 'fn main() {}' >src/main.rs
cat >.cargo/config.toml <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
TOML
cargo generate-lockfile --offline >/dev/null 2>&1
CMDLINE="cat Cargo.lock" cap cargo_lock "$(cargo --version | cut -d' ' -f1-2) (cargo generate-lockfile --offline)" cat Cargo.lock

# --- poetry and uv: lockfiles of one small Python project
"$PY" -m venv "$W/tools" && "$W/tools/bin/pip" install -q poetry uv pipenv >/dev/null 2>&1
mkdir -p "$W/py-app" && cd "$W/py-app" || exit 1
cat >pyproject.toml <<'TOML'
[project]
name = "struct-py-app"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["requests>=2.31", "click>=8.1", "rich>=13"]

[tool.poetry]
package-mode = false
TOML
"$W/tools/bin/poetry" lock >/dev/null 2>&1
CMDLINE="cat poetry.lock" cap poetry_lock "$("$W/tools/bin/poetry" --version | sed 's/[()]//g') (poetry lock)" cat poetry.lock
"$W/tools/bin/uv" lock >/dev/null 2>&1
CMDLINE="cat uv.lock" cap uv_lock "$("$W/tools/bin/uv" --version) (uv lock)" cat uv.lock

# --- pipenv: Pipfile.lock of a Pipfile asking for httpx and attrs (no [[source]]: pipenv's default index)
mkdir -p "$W/pipenv-app" && cd "$W/pipenv-app" || exit 1
printf '[packages]\nhttpx = ">=0.27"\nattrs = "*"\n\n[requires]\npython_version = "3.11"\n' >Pipfile
PIPENV_YES=1 "$W/tools/bin/pipenv" lock >/dev/null 2>&1
CMDLINE="cat Pipfile.lock" cap pipfile_lock "pipenv $("$W/tools/bin/pipenv" --version | awk '{print $NF}') (pipenv lock)" cat Pipfile.lock

# --- pnpm and yarn (classic): the npm app's dependencies, lockfile only
mkdir -p "$W/pnpm-app" && cd "$W/pnpm-app" && cp "$W/npm-app/package.json" . || exit 1
npx --yes pnpm@9 install --lockfile-only --ignore-scripts >/dev/null 2>&1
CMDLINE="cat pnpm-lock.yaml" cap pnpm_lock "pnpm $(npx --yes pnpm@9 --version) (pnpm install --lockfile-only)" cat pnpm-lock.yaml
mkdir -p "$W/yarn-app" && cd "$W/yarn-app" && cp "$W/npm-app/package.json" . || exit 1
npx --yes yarn@1 install --ignore-scripts --non-interactive --no-progress >/dev/null 2>&1
CMDLINE="cat yarn.lock" cap yarn_lock_v1 "yarn $(npx --yes yarn@1 --version) (yarn install)" cat yarn.lock

# --- yarn berry (4): the same package.json, lockfile only
mkdir -p "$W/berry-app" && cd "$W/berry-app" && cp "$W/npm-app/package.json" . && touch yarn.lock || exit 1
YARN_ENABLE_TELEMETRY=0 npx --yes @yarnpkg/cli-dist@4 install --mode update-lockfile >/dev/null 2>&1
CMDLINE="cat yarn.lock" cap yarn_lock_berry "yarn $(YARN_ENABLE_TELEMETRY=0 npx --yes @yarnpkg/cli-dist@4 --version) (yarn install --mode update-lockfile)" cat yarn.lock
