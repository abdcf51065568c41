"""Recovery footer A/B (issue 25.5): the same fixtures, the same code, two id forms.

Runs ``quality.run`` on a fixture set twice in one process: once as sqz is (the recovery line's id
is ``n`` + 15 or more decimal digits, ``sqz_core.runnable.short_decimal``), once with the id sqz
printed before (the shortest unique hex prefix, 12 digits or more, ``sqz_core.gate.short_id``) put
back in its place. Everything else (formatters, gate, store) is the same code, so the difference
is the id form alone, the gate's decisions included. Prints per form: the footer's cl100k tokens
in each configuration (``quality.footer_configurations``: sqz on PATH, this install's absolute
path, a project venv, ``python -m sqz_core``) — min, median, max, how many over 14 — and the
set's token-weighted reduction and per-fixture median.

    .venv/bin/python benchmarks/footer_ab.py [--filter TEXT] [--json]

Tuned set only: the blind set is measured by ``peers.py --set blind`` alone.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(filter_text: str | None) -> dict:
    sys.path.insert(0, str(HERE))
    import quality
    from sqz_core import runnable
    from sqz_core.gate import short_id

    quality.hint_as_on_path()
    decimal = runnable.short_decimal
    out = {}
    for form, fn in (("hex (before)", short_id), ("decimal (now)", decimal)):
        runnable.short_decimal = fn  # what gate.recovery_line calls
        try:
            rows = quality.run(filter_text, "tuned")
        finally:
            runnable.short_decimal = decimal
        s = quality.summary(rows)
        out[form] = {"fixtures": len(rows), "reduction": s["reduction"], "median_reduction": s["median_reduction"],
                     "tokens_in": s.get("tokens_in", sum(r["tokens_in"] for r in rows)),
                     "tokens_out": sum(r["tokens_out"] for r in rows),
                     "facts_kept": sum(r["facts_kept"] for r in rows), "facts": sum(r["facts"] for r in rows),
                     "footer": quality.footer_tokens([r.get("footer_id") for r in rows])}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--filter", help="only fixtures whose family/name contains this (comma-separated: any)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("SQZ_QUIET", "1")
    res = measure(args.filter)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    import quality

    for form, r in res.items():
        print(f"{form}: {r['fixtures']} fixtures, {r['tokens_in']:,} → {r['tokens_out']:,} tokens, reduction "
              f"{r['reduction']}% (median {r['median_reduction']}%), facts {r['facts_kept']}/{r['facts']}")
        print("  " + quality.footer_line(r["footer"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
