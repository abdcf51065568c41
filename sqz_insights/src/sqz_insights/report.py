"""Savings made readable: a terminal chart (rich) and a self-contained HTML report.

The HTML page has its tables and charts inline (CSS in a ``<style>`` element, charts
as inline SVG): no script, no font, no image, no link to fetch, so it renders the same
offline, from a mail attachment or a CI artefact.
"""

from __future__ import annotations

import html
import os
import time

from sqz_core.api import scrub_command

BAR = "#2b6cb0"     # tokens the model received
SAVED = "#38a169"   # tokens sqz kept out
REGRET = "#c53030"


def _fmt(n) -> str:
    return f"{n:,}"


def _pct(saved: int, total: int) -> str:
    return f"{100 * saved / total:.0f}%" if total else "-"


def _counter_label(counter: str) -> str:
    if counter == "estimate":
        return "estimate (no exact tokenizer available)"
    return f"{counter} (tiktoken, exact)"


# -- terminal ---------------------------------------------------------------------------------
def terminal_chart(summary: dict, console=None, width: int = 40, last: int = 30) -> None:
    """Daily tokens saved as a bar chart, one row per day (the last ``last`` days with calls)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    days = summary["daily"][-last:]
    table = Table(title=f"tokens saved per day ({summary['counter']})", title_justify="left",
                  show_edge=False, pad_edge=False, box=None)
    table.add_column("day")
    table.add_column("saved", justify="right")
    table.add_column("", no_wrap=True)
    table.add_column("of", justify="right")
    table.add_column("calls", justify="right")
    top = max((d["saved"] for d in days), default=0) or 1
    for d in days:
        n = round(width * max(d["saved"], 0) / top)
        bar = Text("█" * n, style="green") + Text("·" * (width - n), style="grey37")
        table.add_row(d["day"], _fmt(d["saved"]), bar, f"{_pct(d['saved'], d['tokens_in'])} of {_fmt(d['tokens_in'])}",
                      _fmt(d["calls"]))
    if not days:
        table.add_row("-", "0", Text("no calls recorded yet", style="grey50"), "", "0")
    console.print(table)


# -- SVG ----------------------------------------------------------------------------------------
def svg_daily(daily: list[dict], width: int = 860, height: int = 260) -> str:
    """Per day: tokens served (blue) stacked under tokens saved (green), regrets as red dots."""
    pad_l, pad_b, pad_t = 70, 40, 16
    n = max(len(daily), 1)
    plot_w, plot_h = width - pad_l - 10, height - pad_b - pad_t
    top = max((d["tokens_in"] for d in daily), default=0) or 1
    slot = plot_w / n
    bar_w = max(2.0, min(48.0, slot * 0.7))
    parts = [f'<svg width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="tokens per day">']
    for i in range(5):
        y = pad_t + plot_h * i / 4
        value = round(top * (4 - i) / 4)
        parts.append(f'<line x1="{pad_l}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" stroke="#e2e8f0"/>')
        parts.append(f'<text x="{pad_l - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="#4a5568">'
                     f'{_fmt(value)}</text>')
    for i, d in enumerate(daily):
        x = pad_l + i * slot + (slot - bar_w) / 2
        out_h = plot_h * max(d["tokens_out"], 0) / top
        saved_h = plot_h * max(d["saved"], 0) / top
        base = pad_t + plot_h
        title = html.escape(f"{d['day']}: {_fmt(d['tokens_in'])} in, {_fmt(d['tokens_out'])} served, "
                            f"{_fmt(d['saved'])} saved, {d['calls']} calls")
        parts.append(f'<g><title>{title}</title>'
                     f'<rect x="{x:.1f}" y="{base - out_h:.1f}" width="{bar_w:.1f}" height="{out_h:.1f}" fill="{BAR}"/>'
                     f'<rect x="{x:.1f}" y="{base - out_h - saved_h:.1f}" width="{bar_w:.1f}" height="{saved_h:.1f}" '
                     f'fill="{SAVED}"/></g>')
        if d.get("regrets"):
            parts.append(f'<circle cx="{x + bar_w / 2:.1f}" cy="{base - out_h - saved_h - 8:.1f}" r="4" '
                         f'fill="{REGRET}"><title>{d["regrets"]} regret signal(s)</title></circle>')
        if n <= 16 or i % max(1, n // 8) == 0:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{height - pad_b + 16}" text-anchor="middle" '
                         f'font-size="11" fill="#4a5568">{html.escape(d["day"][5:])}</text>')
    parts.append(f'<line x1="{pad_l}" y1="{pad_t + plot_h}" x2="{width - 10}" y2="{pad_t + plot_h}" stroke="#718096"/>')
    legend_y = height - 8
    parts.append(f'<rect x="{pad_l}" y="{legend_y - 9}" width="10" height="10" fill="{BAR}"/>'
                 f'<text x="{pad_l + 14}" y="{legend_y}" font-size="11">served to the model</text>'
                 f'<rect x="{pad_l + 150}" y="{legend_y - 9}" width="10" height="10" fill="{SAVED}"/>'
                 f'<text x="{pad_l + 164}" y="{legend_y}" font-size="11">saved by sqz</text>'
                 f'<circle cx="{pad_l + 275}" cy="{legend_y - 4}" r="4" fill="{REGRET}"/>'
                 f'<text x="{pad_l + 284}" y="{legend_y}" font-size="11">regret signal</text>')
    parts.append("</svg>")
    return "".join(parts)


def svg_hbars(rows: list[tuple[str, int, int]], width: int = 860) -> str:
    """Horizontal bars ``(label, saved, tokens_in)``: saved share of each row's input."""
    row_h, pad_l = 24, 150
    height = row_h * max(len(rows), 1) + 10
    top = max((r[2] for r in rows), default=0) or 1
    plot_w = width - pad_l - 190
    parts = [f'<svg width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="tokens saved per group">']
    for i, (label, saved, total) in enumerate(rows):
        y = 5 + i * row_h
        w_in = plot_w * total / top
        w_saved = plot_w * max(saved, 0) / top
        parts.append(f'<text x="{pad_l - 8}" y="{y + 15}" text-anchor="end" font-size="12">'
                     f'{html.escape(label[:22])}</text>'
                     f'<rect x="{pad_l}" y="{y + 3}" width="{w_in:.1f}" height="16" fill="#cbd5e0"/>'
                     f'<rect x="{pad_l}" y="{y + 3}" width="{w_saved:.1f}" height="16" fill="{SAVED}"/>'
                     f'<text x="{pad_l + w_in + 6:.1f}" y="{y + 15}" font-size="11" fill="#2d3748">'
                     f'{_fmt(saved)} of {_fmt(total)} ({_pct(saved, total)})</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- HTML ---------------------------------------------------------------------------------------
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px auto;max-width:920px;
color:#1a202c;background:#fff;line-height:1.4;padding:0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e2e8f0;padding-bottom:4px}
.meta{color:#4a5568;font-size:13px}.cards{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.card{border:1px solid #e2e8f0;border-radius:8px;padding:10px 14px;min-width:150px}
.card b{display:block;font-size:22px}.card span{color:#4a5568;font-size:12px}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #edf2f7}
th{text-align:left;background:#f7fafc}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.note{font-size:12px;color:#4a5568}code{font-size:12px}
"""


_NUM = ' class="n"'


def _table(headers: list[str], rows: list[list], numeric_from: int = 1) -> str:
    head = "".join(f'<th{_NUM if i >= numeric_from else ""}>{html.escape(h)}</th>' for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = "".join(f'<td{_NUM if i >= numeric_from else ""}>'
                        f'{html.escape(_fmt(v) if isinstance(v, int) else str(v))}</td>' for i, v in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _group_rows(groups: dict) -> list[list]:
    rows = []
    for name, g in sorted(groups.items(), key=lambda kv: -kv[1]["saved"]):
        rows.append([scrub_command(str(name)), g["calls"], g["tokens_in"], g["tokens_out"], g["saved"], _pct(g["saved"], g["tokens_in"]),
                     g["dedup_hits"], g["bypasses"], g["regrets"]])
    return rows


def html_report(summary: dict, cost: dict | None = None, by_agent: dict | None = None,
                title: str = "sqz savings report") -> str:
    """The whole page as one string (UTF-8)."""
    t = summary["total"]
    generated = time.strftime("%Y-%m-%d %H:%M", time.localtime(summary.get("until") or time.time()))
    since = (time.strftime("%Y-%m-%d", time.localtime(summary["since"])) if summary.get("since")
             else "the first recorded call")
    scope = f"calls made in {summary['project']}" if summary.get("project") else "all projects"
    cards = [(f"{_fmt(t['saved'])}", f"tokens saved ({_pct(t['saved'], t['tokens_in'])} of {_fmt(t['tokens_in'])})"),
             (f"{_fmt(t['calls'])}", "calls"),
             (f"{_fmt(t['dedup_hits'])}", "dedup hits (refs, slices, deltas)"),
             (f"{_fmt(t['regrets'])}", "regret signals")]
    if cost:
        cards.insert(1, (f"${cost['cached_usd']:,.2f}", f"saved on {html.escape(cost['label'])}, {cost['turns']} turns"))
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>",
           f'<p class="meta">{html.escape(scope)}, since {html.escape(since)}; generated {html.escape(generated)}. '
           f"Tokens counted with {html.escape(_counter_label(summary['counter']))} from the bytes sqz stored.</p>",
           '<div class="cards">' + "".join(f'<div class="card"><b>{v}</b><span>{html.escape(k)}</span></div>'
                                           for v, k in cards) + "</div>"]
    if t["estimated_calls"]:
        out.append(f'<p class="note">{t["estimated_calls"]} call(s) ({_fmt(t["estimated_tokens_in"])} tokens in) '
                   "have no stored bytes (safe mode, binary, errors): their figures are the hot path's estimate.</p>")
    out.append("<h2>Tokens per day</h2>" + svg_daily(summary["daily"]))
    fam_rows = _group_rows(summary["by_family"])
    out.append("<h2>By command</h2>" + svg_hbars([(r[0], r[4], r[2]) for r in fam_rows[:15]]))
    headers = ["", "calls", "tokens in", "served", "saved", "%", "dedup", "bypasses", "regrets"]
    out.append(_table(["command"] + headers[1:], fam_rows))
    if by_agent:
        out.append("<h2>By agent</h2>" + _table(["agent"] + headers[1:], _group_rows(by_agent)))
    b = summary["bypasses"]
    out.append("<h2>Outcomes</h2>" + _table(["outcome", "calls"], sorted(summary["outcomes"].items())))
    out.append(f'<p class="note">Bypasses: {b.get("passthrough", 0)} passthrough (nothing to gain), '
               f'{b.get("gate", 0)} refused by the net-win gate, {b.get("safe", 0)} safe mode (sent unchanged).</p>')
    r = summary["regret"]
    out.append("<h2>Regret signals</h2>"
               f'<p>{r["reruns"]} quick re-run(s) of the same command within {r["rerun_window_s"]:.0f} s of a '
               f'shortened answer ({r["reruns_identical"]} printed identical output), {r["expands"]} expand(s) within '
               f'{r["expand_window_s"]:.0f} s of one: {100 * r["rate"]:.1f}% of {r["shortened_answers"]} shortened '
               "answers. A high rate means sqz cuts too much for this agent.</p>")
    if r["recent"]:
        out.append(_table(["when", "signal", "command", "answer"],
                          [[time.strftime("%m-%d %H:%M", time.localtime(s["ts"])), s["kind"] +
                            (" (identical)" if s["identical"] else ""), scrub_command(s["command"]) or "-",
                            s["outcome"]]
                           for s in r["recent"]], numeric_from=99))
    if cost:
        p = cost["prices_per_million"]
        out.append("<h2>Cost</h2>"
                   f"<p><b>${cost['cached_usd']:,.2f}</b> with prompt caching, ${cost['uncached_usd']:,.2f} without, "
                   f"${cost['first_turn_usd']:,.2f} if nothing were carried over, at {html.escape(cost['label'])} "
                   f"prices (input ${p['input']:g}, cache write ${(p['cache_write'] or p['input']):g}, "
                   f"cache read ${p['cache_read']:g} per million tokens).</p>"
                   f'<p class="note">Assumption: {html.escape(cost["assumption"])}. Prices from '
                   f'<code>{html.escape(str(cost.get("source") or "your price file"))}</code>, read '
                   f'{html.escape(str(cost.get("checked") or "?"))}.</p>')
    out.append('<p class="note">Made by <code>sqz report</code>: everything on this page is computed locally '
               "from the sqz store; nothing was sent anywhere.</p></body></html>")
    return "\n".join(out) + "\n"


def write_private(path: str, page: str) -> None:
    """Write ``page`` to ``path`` readable by its owner only (0600, also when the file existed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fd = -1
            fh.write(page)
    finally:
        if fd >= 0:
            os.close(fd)
