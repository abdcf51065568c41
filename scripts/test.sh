#!/usr/bin/env bash
# The whole test suite on a fresh machine: set up .venv, install what the tests need, run pytest.
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh -k pg -x   # arguments go to pytest
# Test servers (PostgreSQL) are started by the tests themselves on free ports in temporary
# directories and stopped when pytest ends; SQZ_TEST_PG_URL points them at a server of yours instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/install_test_deps.sh
set +e
.venv/bin/python -m pytest -q "$@"
status=$?
set -e
[ "$status" -eq 5 ] && { echo "test.sh: pytest collected no test" >&2; exit 1; }
exit "$status"
