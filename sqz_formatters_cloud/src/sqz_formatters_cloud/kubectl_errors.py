"""Fold client-go's repeated klog error lines (``E1130 04:25:35.28 7619 memcache.go:265] …``).

When no API server answers, kubectl retries discovery and logs the same error
five times with only the timestamp changing. The first occurrence stays verbatim;
the repeats become a count. Every other line is kept as printed.
"""

from __future__ import annotations

import re

KLOG = re.compile(r"^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ([\w.-]+:\d+)\] (.*)$")


def fold_klog_repeats(lines: list[str]) -> tuple[list[str], int]:
    """Lines with repeated klog entries (same level, source and message) folded; and how many were folded."""
    out: list[str] = []
    seen: dict[tuple[str, str, str], int] = {}
    counts: dict[int, int] = {}
    for line in lines:
        m = KLOG.match(line)
        if m:
            key = (m.group(1), m.group(2), m.group(3))
            if key in seen:
                counts[seen[key]] += 1
                continue
            seen[key] = len(out)
            counts[len(out)] = 0
        out.append(line)
    folded = 0
    for idx, extra in counts.items():
        if extra:
            out[idx] += f" [logged {extra + 1} times]"
            folded += extra
    return out, folded
