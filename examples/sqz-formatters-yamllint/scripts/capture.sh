#!/usr/bin/env bash
# Re-captures the fixtures: yamllint 1.38.0 (PyPI) on the YAML files of ansible-core 2.17.7's sdist (PyPI).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q yamllint==1.38.0
"$work/venv/bin/pip" download -q --no-deps --no-binary :all: -d "$work" ansible-core==2.17.7
tar xzf "$work"/ansible_core-2.17.7.tar.gz -C "$work"
cd "$work/ansible_core-2.17.7"
"$work/venv/bin/yamllint" -f parsable changelogs lib/ansible/config > "$here/tests/fixtures/ansible_core_changelogs_config.txt" || true
"$work/venv/bin/yamllint" -f parsable lib/ansible/config > "$here/tests/fixtures/ansible_core_config.txt" || true
