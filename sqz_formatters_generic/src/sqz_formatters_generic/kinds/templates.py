"""Templates: any long line-oriented output whose lines repeat but for their variable fields.

The log kind's template mining (``log_lines``: lines grouped by their template — numbers, ids,
hex, UUIDs, addresses, durations and timestamps masked, status values kept —, each group of three
or more shown as its first line and a note with its count and values, every severe line and its
neighbours kept) is not only for logs: a build's ``Compiling x v1`` / ``Fresh y v2`` lines, a
crawler's ``fetched N items from page P`` lines, a migration's ``Applying app.0042_x... OK``.
This kind applies it to output that no formatter claimed and no other kind read, when it is
long (``MIN_LINES``) and one template holds a good share of its lines (``MIN_SHARE``): a flood
of one kind of line, not records of several lines each (``stat``), whose values a fold would part
from their record. Left alone: file content (``cd d && cat f`` too), a unified diff, safe content.
Detection looks at most at ``SCAN_LINES`` lines, one template per line: linear.
"""

from __future__ import annotations

MIN_LINES = 40
MIN_SHARE = 0.4
SCAN_LINES = 2000


def looks_like_templates(text: str) -> bool:
    if text.count("\n") < MIN_LINES:
        return False
    from sqz_core.api import looks_like_diff

    if looks_like_diff(text):
        return False
    from .log_lines import template

    counts: dict[str, int] = {}
    lines = 0
    for line in text.split("\n", SCAN_LINES)[:SCAN_LINES]:
        if not line.strip():
            continue
        lines += 1
        key = template(line)
        counts[key] = counts.get(key, 0) + 1
    if lines < MIN_LINES:
        return False
    # one template holding a good share of the lines (a flood of one kind of line), not records whose
    # lines each repeat once per record (``stat``'s File/Size/Access lines: folding them would part
    # every value from the record it belongs to)
    return max(counts.values()) >= MIN_SHARE * lines


def compress_templates(request) -> str | None:
    from .line_runs import _is_patch, _sensitive, reads_a_file

    text = request.text
    if reads_a_file(request) or _is_patch(text) or _sensitive(text):
        return None
    from .log_lines import compress_log

    return compress_log(request)
