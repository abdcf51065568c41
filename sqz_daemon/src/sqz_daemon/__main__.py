"""``python -m sqz_daemon``: serve in this process (what ``sqz daemon start`` runs in the background)."""

import sys

from .server import main

if __name__ == "__main__":
    sys.exit(main())
