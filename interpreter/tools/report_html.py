"""The balance report as one self-contained HTML page: tables, and the distributions drawn as inline SVG.

The page loads nothing (no script, no style sheet, no font from the network) and is well-formed XML, so it
opens anywhere and can be checked by an XML parser.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import drawsvg as draw

from meeple.tools import stats
from meeple.tools.compare import Comparison
from meeple.tools.simulate import Distribution, Report, TestResult

INK, BAR, LIGHT, ALERT = "#333333", "#00798c", "#d9e8ea", "#d1495b"
FONT = "sans-serif"
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #eee; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
tr.never td { color: #d1495b; } .sig { color: #d1495b; font-weight: bold; } .note { color: #666; }
figure { margin: 0.5em 0; } svg { max-width: 100%; height: auto; }
"""


def _svg(d: draw.Drawing) -> str:
    """The drawing as an inline <svg> element (without the XML declaration of a file)."""
    text = d.as_svg()
    return text[text.index("<svg") :]


def _figure(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


# ---------------------------------------------------------------- plots


def histogram_svg(hist: Sequence[tuple[float, float, int]], label: str, width: int = 560) -> str:
    """Bars of the bins' counts, each bin's range under it."""
    height, left, bottom, top = 220, 40, 50, 20
    d = draw.Drawing(width, height)
    most = max((c for _, _, c in hist), default=1) or 1
    plot_w, plot_h = width - left - 10, height - top - bottom
    w = plot_w / max(1, len(hist))
    for i, (lo, hi, c) in enumerate(hist):
        h = plot_h * c / most
        x = left + i * w
        d.append(draw.Rectangle(x + 1, top + plot_h - h, w - 2, h, fill=BAR))
        if c:
            d.append(draw.Text(str(c), 10, x + w / 2, top + plot_h - h - 3, center=True, font_family=FONT))
        tick = f"{_figure(lo)}–{_figure(hi)}" if lo != hi else _figure(lo)
        if len(tick) * 5.5 > w:  # too narrow for the range: the bin's lower end under its left edge
            tick, x_tick = _figure(lo), x + 4
        else:
            x_tick = x + w / 2
        d.append(draw.Text(tick, 9, x_tick, top + plot_h + 12, center=True, font_family=FONT, fill=INK))
    d.append(draw.Line(left, top + plot_h, left + plot_w, top + plot_h, stroke=INK))
    d.append(draw.Text(label, 11, left + plot_w / 2, height - 10, center=True, font_family=FONT))
    d.append(draw.Text("games", 11, 4, top + 10, font_family=FONT))
    return _svg(d)


def win_rate_svg(rows: Sequence[tuple[str, float, float, float]], expected: float, width: int = 560) -> str:
    """A bar per row (label, rate, low, high) with its 95% interval, and a dashed line at the fair share."""
    bar_h, left, top = 26, 90, 10
    height = top + bar_h * len(rows) + 30
    plot_w = width - left - 20
    d = draw.Drawing(width, height)
    for i, (label, rate, low, high) in enumerate(rows):
        y = top + i * bar_h
        d.append(draw.Text(label, 11, 4, y + bar_h / 2 + 4, font_family=FONT))
        d.append(draw.Rectangle(left, y + 4, plot_w * rate, bar_h - 8, fill=BAR))
        mid = y + bar_h / 2
        d.append(draw.Line(left + plot_w * low, mid, left + plot_w * high, mid, stroke=INK, stroke_width=2))
        for end in (low, high):
            d.append(draw.Line(left + plot_w * end, mid - 5, left + plot_w * end, mid + 5, stroke=INK))
    base = top + bar_h * len(rows)
    d.append(draw.Line(left, base, left + plot_w, base, stroke=INK))
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + plot_w * tick
        d.append(draw.Line(x, base, x, base + 4, stroke=INK))
        d.append(draw.Text(f"{tick:.0%}", 9, x, base + 15, center=True, font_family=FONT))
    x = left + plot_w * expected
    d.append(draw.Line(x, top, x, base, stroke=ALERT, stroke_dasharray="4 3"))
    d.append(draw.Text(f"fair share {expected:.0%}", 9, x + 3, height - 4, font_family=FONT, fill=ALERT))
    return _svg(d)


def box_svg(series: Sequence[tuple[str, Sequence[float]]], label: str, width: int = 560) -> str:
    """A box plot per series: whiskers at the least and most, the box from q1 to q3, a line at the median."""
    row_h, left, top = 30, 90, 10
    height = top + row_h * len(series) + 34
    values = [v for _, vs in series for v in vs]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    plot_w = width - left - 20

    def x(v: float) -> float:
        return left + plot_w * (v - lo) / span

    d = draw.Drawing(width, height)
    for i, (name, vs) in enumerate(series):
        y = top + i * row_h + row_h / 2
        q1, median, q3 = stats.quartiles(list(vs))
        d.append(draw.Text(name, 11, 4, y + 4, font_family=FONT))
        d.append(draw.Line(x(min(vs)), y, x(max(vs)), y, stroke=INK))
        d.append(draw.Rectangle(x(q1), y - 9, max(1.0, x(q3) - x(q1)), 18, fill=LIGHT, stroke=BAR))
        d.append(draw.Line(x(median), y - 9, x(median), y + 9, stroke=BAR, stroke_width=3))
    base = top + row_h * len(series)
    d.append(draw.Line(left, base, left + plot_w, base, stroke=INK))
    for v in (lo, lo + span / 2, hi):
        d.append(draw.Text(_figure(v), 9, x(v), base + 14, center=True, font_family=FONT))
    d.append(draw.Text(label, 11, left + plot_w / 2, height - 4, center=True, font_family=FONT))
    return _svg(d)


# ---------------------------------------------------------------- the page


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], never: Sequence[bool] = ()) -> str:
    name, red = ' class="name"', ' class="never"'

    def cells(tag: str, values: Sequence[Any]) -> str:
        return "".join(
            f"<{tag}{name if i == 0 else ''}>{escape(str(v))}</{tag}>" for i, v in enumerate(values)
        )

    body = "".join(
        f"<tr{red if i < len(never) and never[i] else ''}>{cells('td', r)}</tr>" for i, r in enumerate(rows)
    )
    return f"<table><tr>{cells('th', head)}</tr>{body}</table>"


def _verdict(t: TestResult) -> str:
    word = '<span class="sig">significant at 5%</span>' if t.significant else "not significant"
    rough = " (few games: the approximation is rough)" if t.approximate else ""
    return f"p = {stats.show_p(t.p)}, {word}{rough}"


def _distribution_rows(items: Sequence[tuple[str, Distribution]]) -> str:
    return _table(
        ["", "mean", "95% interval", "sd", "min", "q1", "median", "q3", "max"],
        [
            [
                name,
                f"{d.mean:.2f}",
                f"{d.mean_low:.2f} – {d.mean_high:.2f}",
                f"{d.sd:.2f}",
                _figure(d.min),
                _figure(d.q1),
                _figure(d.median),
                _figure(d.q3),
                _figure(d.max),
            ]
            for name, d in items
        ],
    )


def _wins(r: Report) -> list[str]:
    out = ["<h2>Wins by seat</h2>"]
    out.append(
        _table(
            ["seat", "agent", "wins", "shared", "win rate", "95% interval"],
            [
                [
                    s.seat,
                    s.agent,
                    s.wins,
                    s.shared_wins,
                    f"{s.win_rate:.1%}",
                    f"{s.win_low:.1%} – {s.win_high:.1%}",
                ]
                for s in r.seats
            ],
        )
    )
    out.append(
        f'<p class="note">A win shared by k seats counts 1/k to each. Shared wins: {r.shared_wins}; '
        f"no winner: {r.no_winner}. Intervals are Wilson score intervals.</p>"
    )
    rows = [(s.seat, s.win_rate, s.win_low, s.win_high) for s in r.seats]
    decided = (r.games - r.no_winner) / r.games
    out.append(f"<figure>{win_rate_svg(rows, decided / r.players)}</figure>")
    if r.players > 1:
        out.append(
            f"<p>First-player advantage: z = {r.first_player.statistic:.2f}, {_verdict(r.first_player)}. "
            f"All seats alike: chi-square = {r.seat_balance.statistic:.2f} with {r.players - 1} degrees of "
            f"freedom, {_verdict(r.seat_balance)}.</p>"
        )
    return out


def _lengths_and_scores(r: Report) -> list[str]:
    out = ["<h2>Game length</h2>", _distribution_rows([("actions", r.actions), ("turns", r.turns)])]
    out.append(f"<figure>{histogram_svg(r.actions.histogram, 'actions per game')}</figure>")
    out.append(f"<figure>{histogram_svg(r.turns.histogram, 'turns per game')}</figure>")
    scores = r.samples.get("scores")
    if scores:
        out.append("<h2>Scores</h2>")
        out.append(
            _table(
                ["seat", "mean score", "sd"],
                [[s.seat, f"{s.mean_score:.2f}", f"{s.score_sd or 0:.2f}"] for s in r.seats],
            )
        )
        out.append(
            f"<figure>{box_svg([(s.seat, v) for s, v in zip(r.seats, scores)], 'final score')}</figure>"
        )
    if r.margin is not None:
        out.append("<p>The winner's lead over the runner-up:</p>")
        out.append(_distribution_rows([("lead", r.margin)]))
        out.append(f"<figure>{histogram_svg(r.margin.histogram, 'lead over the runner-up')}</figure>")
    b = r.branching
    out.append("<h2>Decisions</h2>")
    out.append(
        f"<p>{b['decisions']:,} decisions; legal actions per decision: mean {b['mean']:.2f}, "
        f"max {b['max']}.</p>"
    )
    return out


def _coverage(c: dict[str, Any]) -> list[str]:
    out = ["<h2>Rule coverage</h2>", '<p class="note">Rows in red never fired.</p>']
    actions = c["actions"]
    if actions:
        out.append("<h3>Actions</h3>")
        rows = [[a, v["taken"], v["offered"]] for a, v in actions.items()]
        out.append(
            _table(
                ["action", "taken", "decisions offered at"], rows, [not v["taken"] for v in actions.values()]
            )
        )
    cards = c["cards"]
    if cards:
        out.append("<h3>Cards</h3>")
        rows = [
            [k, v["played"], v["moved"], "–" if v["effect"] is None else v["effect"]]
            for k, v in cards.items()
        ]
        never = [not (v["played"] or v["moved"] or v["effect"]) for v in cards.values()]
        out.append(_table(["card", "in actions", "moved or drawn", "effect ran"], rows, never))
    branches = c["branches"]
    if branches:
        out.append("<h3>Effect branches</h3>")
        rows = [[b, v["count"], v["where"]] for b, v in branches.items()]
        out.append(_table(["branch", "ran", "where"], rows, [not v["count"] for v in branches.values()]))
    tables = c["tables"]
    if tables:
        out.append("<h3>Table entries</h3>")
        rows = [[t, "constant" if v["constant"] else v["count"]] for t, v in tables.items()]
        never = [not v["count"] and not v["constant"] for v in tables.values()]
        out.append(_table(["entry", "looked up"], rows, never))
    awards = c["awards"]
    if awards:
        out.append("<h3>Awards</h3>")
        rows = [[a, v["changes"], v["games_held_at_end"]] for a, v in awards.items()]
        out.append(
            _table(
                ["award", "changed hands", "games held at the end"],
                rows,
                [not v["changes"] for v in awards.values()],
            )
        )
    return out


def _comparison(c: Comparison, base_name: str, variant_name: str) -> list[str]:
    out = [
        "<h2>Comparison</h2>",
        f"<p>Base {escape(base_name)} against variant {escape(variant_name)}, "
        f"on the same {c.base.games} seeds. Win rates: two-proportion z test; means: Welch's t test; "
        "two-sided, significant when p &lt; 0.05.</p>",
    ]
    rows = []
    for d in c.differences:
        rate = d.what.startswith("win rate")
        shown = [f"{x:.1%}" if rate else f"{x:.2f}" for x in (d.base, d.variant)]
        rows.append(
            [
                d.what,
                *shown,
                f"{d.difference:+.3f}",
                f"{d.statistic:.2f}",
                f"{stats.show_p(d.p)}",
                "yes" if d.significant else "no",
            ]
        )
    out.append(
        _table(
            ["quantity", "base", "variant", "change", "statistic", "p", "significant"],
            rows,
            [d.significant for d in c.differences],
        )
    )
    pairs = [
        row
        for b, v in zip(c.base.seats, c.variant.seats)
        for row in (
            (f"{b.seat} base", b.win_rate, b.win_low, b.win_high),
            (f"{v.seat} variant", v.win_rate, v.win_low, v.win_high),
        )
    ]
    decided = (c.base.games - c.base.no_winner) / c.base.games
    out.append(f"<figure>{win_rate_svg(pairs, decided / c.base.players)}</figure>")
    return out


def report_html(r: Report, comparison: Comparison | None = None, names: tuple[str, str] = ("", "")) -> str:
    """The whole page for a report (and, with `comparison`, the base against the variant)."""
    options = ", ".join(f"{k}={v}" for k, v in r.options.items()) or "defaults"
    title = f"{r.game}: balance report"
    parts = [
        f"<h1>{escape(title)}</h1>",
        f"<p>{r.games} games, {r.players} players, seeds {r.first_seed}..{r.first_seed + r.games - 1}, "
        f"options {escape(options)}, agents {escape(', '.join(r.agents))}.</p>",
        *_wins(r),
        *_lengths_and_scores(r),
        *_coverage(r.coverage),
    ]
    if comparison is not None:
        parts += _comparison(comparison, *names)
    body = "\n".join(parts)
    return (
        "<!DOCTYPE html>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">\n<head>\n<meta charset="utf-8"/>\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
