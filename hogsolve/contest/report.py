"""The contest as one self-contained HTML page, for a TA to publish as it is.

``hogsolve tournament ... --report results.html`` writes it: the standings (a table a reader
sorts by any column), the pairwise win rates as a heatmap, each entry's exact win rate
against the optimal strategy, the entries skipped and why, and the ruleset and settings.
Everything is in the file (its style, its few lines of script, its colours); it asks no
server for anything (its Content-Security-Policy forbids it), so it opens from disk, and it
reads on a phone (the matrix scrolls inside its box).  Every name is escaped: a student's
file name is text, never markup.
"""
from __future__ import annotations

import html
import math
from fractions import Fraction
from typing import List, Optional, Sequence, Tuple, Union
from pathlib import Path

from ..errors import HogsolveError
from ..util.files import atomic_write

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f6f7f9; }
header, main { max-width: 1100px; margin: 0 auto; padding: .8rem 1rem; }
h1 { font-size: 1.4rem; margin: .4rem 0; } h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
.settings { color: #475569; }
.box { overflow-x: auto; background: #fff; border-radius: 10px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .35rem .55rem; text-align: right; white-space: nowrap; border-bottom: 1px solid #e2e8f0; }
th:first-child, td:first-child, td.name, .standings th:nth-child(2) { text-align: left; }
thead th { position: sticky; top: 0; background: #fff; }
th button { font: inherit; font-weight: 700; background: none; border: 0; padding: 0; cursor: pointer; color: inherit; }
th button::after { content: " \\2195"; color: #94a3b8; }
th[aria-sort="ascending"] button::after { content: " \\2191"; color: #1d2430; }
th[aria-sort="descending"] button::after { content: " \\2193"; color: #1d2430; }
.matrix td { font-variant-numeric: tabular-nums; min-width: 4.2rem; text-align: center; }
.matrix th.col { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; }
.legend { display: flex; gap: .3rem; align-items: center; margin: .4rem 0; color: #475569; }
.legend span { display: inline-block; width: 2.2rem; height: 1rem; border-radius: 3px; }
ul.skipped li { margin: .2rem 0; }
.short { display: none; }
@media (max-width: 700px) { body { font-size: 14px; } th, td { padding: .3rem .4rem; } }
@media (max-width: 520px) {
  .standings { font-size: 12.5px; } .standings th, .standings td { padding: .3rem .25rem; }
  .standings .long { display: none; } .standings .short { display: inline; }
  .standings th button::after { content: ""; } .standings td.name { white-space: normal; overflow-wrap: anywhere; }
}
"""

_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, column) {
    var button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", function () {
      var down = th.getAttribute("aria-sort") !== "descending";
      table.querySelectorAll("thead th").forEach(function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute("data-value"), y = b.cells[column].getAttribute("data-value");
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(String(y)) : nx - ny;
        return down ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


#: Nothing from anywhere: the page's own inline style and script only.
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def _heat(rate: float) -> Tuple[str, str]:
    """(background, text colour) of a win rate: red below 1/2, white at 1/2, blue above."""
    if math.isnan(rate):
        return "#e2e8f0", "#475569"
    t = max(-1.0, min(1.0, (rate - 0.5) / 0.25))  # saturated at 0.25 and 0.75
    low, mid, high = (185, 28, 28), (255, 255, 255), (29, 78, 216)
    end = high if t > 0 else low
    rgb = tuple(round(m + (e - m) * abs(t)) for m, e in zip(mid, end))
    return "#%02x%02x%02x" % rgb, "#ffffff" if abs(t) > 0.55 else "#1d2430"


def _cell(value, text: str, extra: str = "") -> str:
    return f'<td data-value="{html.escape(str(value))}"{extra}>{html.escape(text)}</td>'


def report_html(record: dict, *, goal: int, against_optimal: Sequence[Optional[float]],
                title: str = "Hog contest") -> str:
    """The page for a tournament ``record`` (``hogsolve tournament --json``'s fields), with each
    ranked entry's win rate against the optimum (None where it is not known)."""
    ranking: List[dict] = record["ranking"]
    names = [row["strategy"] for row in ranking]
    esc = html.escape
    settings = (f"ruleset {esc(str(record['rules']))}, goal {goal}; a pair is won above a win rate of "
                f"{record['threshold']:g}, ties count as losses; {len(names)} entries, "
                f"{len(record.get('skipped', []))} skipped. Win rates are exact: each pair's two seatings "
                "averaged, as CS 61A's contest counts them.")
    # each heading in full, and in a short form a phone shows (so that every column fits)
    head = "<tr>" + "".join(
        f'<th scope="col"><button type="button" aria-label="{long}"><span class="long">{long}</span>'
        f'<span class="short">{short}</span></button></th>'
        for long, short in (("rank", "#"), ("entry", "entry"), ("wins", "W"), ("losses", "L"),
                            ("mean win rate", "mean"), ("against the optimum", "vs opt."))) + "</tr>"
    rows = []
    for row, optimum in zip(ranking, against_optimal):
        rank = ("=" if row["tied"] else "") + str(row["rank"])
        rows.append("<tr>" + _cell(row["rank"], rank) + _cell(row["strategy"], row["strategy"], ' class="name"')
                    + _cell(row["wins"], str(row["wins"])) + _cell(row["losses"], str(row["losses"]))
                    + _cell(row["mean_win_rate"], f"{row['mean_win_rate']:.6f}")
                    + (_cell(optimum, f"{optimum:.6f}") if optimum is not None else _cell("", "-")) + "</tr>")
    matrix_head = "<tr><th scope=\"col\">row against column</th>" + "".join(
        f'<th scope="col" class="col">{esc(n)}</th>' for n in names) + "</tr>"
    matrix_rows = []
    for row in ranking:
        cells = []
        for other in names:
            rate = row["win_rates"].get(other, float("nan"))
            background, colour = _heat(rate)
            text = "-" if math.isnan(rate) else f"{rate:.4f}"
            label = "" if math.isnan(rate) else f' title="{esc(row["strategy"])} against {esc(other)}: {rate:.6f}"'
            cells.append(f'<td style="background:{background};color:{colour}"{label}>{text}</td>')
        matrix_rows.append(f'<tr><th scope="row">{esc(row["strategy"])}</th>{"".join(cells)}</tr>')
    legend = "".join(f'<span style="background:{_heat(r)[0]}" title="{r:g}"></span>'
                     for r in (0.25, 0.375, 0.5, 0.625, 0.75))
    skipped = record.get("skipped", [])
    skipped_html = ("<ul class=\"skipped\">" + "".join(
        f"<li><strong>{esc(s['entry'])}</strong>: {esc(s['reason'])}</li>" for s in skipped) + "</ul>"
                    if skipped else "<p>None.</p>")
    left_out = record.get("left_out", [])
    if left_out:  # a student's second file (hog_old.py beside hog.py): not a skipped student
        skipped_html += ("<p>Other files left out (each beside its folder's entry):</p><ul class=\"left-out\">"
                         + "".join(f"<li>{esc(f['file'])}: {esc(f['reason'])}</li>" for f in left_out) + "</ul>")
    settled = record.get("settled_exactly", [])
    settled_html = "".join(f"<li>{esc(s['a'])} against {esc(s['b'])}: within rounding of the threshold, "
                           f"settled exactly at {_exact(s['win_rate'])}</li>" for s in settled)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<title>{esc(title)}: {esc(str(record['rules']))}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>{esc(title)}: {esc(str(record['rules']))}</h1>
<p class="settings">{settings}</p>
</header>
<main>
<h2>Standings</h2>
<div class="box"><table class="sortable standings"><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>
<h2>Win rates, row against column</h2>
<div class="legend">0.25 {legend} 0.75 (blue: the row wins more often)</div>
<div class="box"><table class="matrix"><thead>{matrix_head}</thead><tbody>{''.join(matrix_rows)}</tbody></table></div>
{f'<h2>Decided exactly</h2><ul>{settled_html}</ul>' if settled else ''}
<h2>Skipped entries</h2>
{skipped_html}
<p class="settings">Made by hogsolve tournament --report.</p>
</main>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def _exact(rate) -> str:
    """An exactly settled win rate as the record holds it (a Fraction, or its JSON text "1/2"):
    the fraction when it is short, and its decimal."""
    value = Fraction(str(rate)) if not isinstance(rate, Fraction) else rate
    text = f"{value.numerator}/{value.denominator}"
    return (f"{text} = " if len(text) <= 12 else "") + f"{float(value):.12f}"


def write_report(path: Union[str, Path], record: dict, *, goal: int,
                 against_optimal: Sequence[Optional[float]], title: str = "Hog contest") -> None:
    """Write :func:`report_html` to ``path`` (to a temporary name, then renamed)."""
    atomic_write(Path(path), report_html(record, goal=goal, against_optimal=against_optimal,
                                         title=title).encode("utf-8"))


def against_optimal(policies, family, game) -> list:
    """Each strategy's exact win rate against the optimal strategy (None where the game has no
    proven optimum, as sp22)."""
    try:
        optimal = family.optimal(game)
    except HogsolveError:  # a ruleset with no optimal value (sp22): the column says "-"
        return [None] * len(policies)
    return [float(family.win_rate(policy, optimal, game).average) for policy in policies]
