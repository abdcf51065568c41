"""Per-kind time on growing inputs and the growth ratio: the speed measurement the kinds' tests
used to assert (``test_speed_and_imports.py`` now counts work instead of timing it).

Inputs are the tests' own cases, built from real fixtures (``sqz_formatters_generic/tests/fixtures/kinds``)
grown to each size. A ratio near the size ratio (4 between sizes) is linear; near its square, quadratic.

    python benchmarks/linearity.py [--sizes 262144,1048576,4194304] [--kind log,json] [--runs 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cases():
    path = ROOT / "sqz_formatters_generic" / "tests" / "kinds" / "test_speed_and_imports.py"
    spec = importlib.util.spec_from_file_location("_kinds_linearity_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES, module._detect_and_compress


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="262144,1048576,4194304")
    ap.add_argument("--kind", default="")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    cases, run = _cases()
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = [k for k in sorted(cases) if not args.kind or k in args.kind.split(",")]
    print(f"{'kind':10} " + " ".join(f"{s // 1024:>9}KB" for s in sizes) + "   growth (time ratio / size ratio)")
    for kind in kinds:
        make, command = cases[kind]
        times, lengths = [], []
        for size in sizes:
            text = make(size)
            best = min(_timed(run, text, command) for _ in range(args.runs))
            times.append(best)
            lengths.append(len(text))
        growth = [f"{times[i] / max(times[i - 1], 1e-9):.1f}/{lengths[i] / lengths[i - 1]:.1f}"
                  for i in range(1, len(sizes))]
        print(f"{kind:10} " + " ".join(f"{t * 1000:>9.0f}ms" for t in times) + "   " + "  ".join(growth))


def _timed(run, text, command) -> float:
    start = time.perf_counter()
    run(text, command)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
